package booking

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// ErrUnknownUser is returned when a verified token names no user known to the service.
var ErrUnknownUser = Errorf(CodeUnauthorized, "the token names no user of this service")

// ErrDeactivated is returned when a token or a sign-in names a person whose account is deactivated.
var ErrDeactivated = Errorf(CodeUnauthorized, "this account is deactivated; ask an admin of your organization to reactivate it")

// UserByID returns the user with the given id in the organization.
// Codes: 1000 no such user (the caller holds a token for a user who no longer exists), or the user is
// deactivated (ErrDeactivated).
func (s *Service) UserByID(ctx context.Context, orgID, id uuid.UUID) (User, error) {
	u, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: orgID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, ErrUnknownUser
	}
	if err != nil {
		return User{}, fmt.Errorf("get user: %w", err)
	}
	if !u.Active {
		return User{}, ErrDeactivated
	}
	return userFromRow(u), nil
}

// UserByToken returns the user with the given id in the organization, for a service token issued at
// issuedAt.
// Codes: 1000 no such user, the user is deactivated (ErrDeactivated), or the user's tokens issued at
// issuedAt were revoked (see RevokeTokens).
func (s *Service) UserByToken(ctx context.Context, orgID, id uuid.UUID, issuedAt time.Time) (User, error) {
	u, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: orgID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, ErrUnknownUser
	}
	if err != nil {
		return User{}, fmt.Errorf("get user: %w", err)
	}
	if !u.Active {
		return User{}, ErrDeactivated
	}
	if u.TokensValidAfter != nil && issuedAt.Before(*u.TokensValidAfter) {
		return User{}, Errorf(CodeUnauthorized, "the token was revoked")
	}
	return userFromRow(u), nil
}

// RevokeTokens revokes every service token of u issued before the given moment. An instance that has
// cached a verified token refuses it within a minute. A revocation never moves back: if an earlier call
// already revoked up to a later moment, that moment stays. It returns the moment now in force.
// Codes: 1003 the user no longer exists.
func (s *Service) RevokeTokens(ctx context.Context, u User, before time.Time) (time.Time, error) {
	inForce, err := s.q.UserRevokeTokens(ctx, queries.UserRevokeTokensParams{OrganizationID: u.OrganizationID, ID: u.ID, Before: before})
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, Errorf(CodeUserNotFound, "no user with id %s", u.ID)
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("revoke tokens: %w", err)
	}
	return inForce, nil
}

// FindUser returns the user with the given id, searching every organization. The command line uses it.
// Codes: 1003 no such user.
func (s *Service) FindUser(ctx context.Context, id uuid.UUID) (User, error) {
	us, err := s.q.UserFindByID(ctx, id)
	if err != nil {
		return User{}, fmt.Errorf("find user: %w", err)
	}
	if len(us) != 1 {
		return User{}, Errorf(CodeUserNotFound, "no user with id %s", id)
	}
	return userFromRow(us[0]), nil
}

// UserByIdentity returns the user named by an identity provider's token. That is the user bound to the
// token's subject. If there is none and the provider has verified the e-mail address (emailVerified), it
// is the person with that address in the organization that has proved the address's domain, provided
// they are not yet bound to a subject and their address was not changed by a SCIM client; that person is
// then bound to this subject, and the binding written to the audit log (BIND). People of any other
// organization are never matched by e-mail, so no organization can plant an account for another's people.
// Codes: 1000 nobody matches, the address's person is bound to another subject, or the user is
// deactivated (ErrDeactivated).
func (s *Service) UserByIdentity(ctx context.Context, subject, email string, emailVerified bool) (User, error) {
	u, err := s.userByIdentity(ctx, subject, email, emailVerified)
	if err == nil && !u.Active {
		return User{}, ErrDeactivated
	}
	return u, err
}

// userByIdentity is UserByIdentity for active and deactivated users alike.
func (s *Service) userByIdentity(ctx context.Context, subject, email string, emailVerified bool) (User, error) {
	if subject == "" {
		return User{}, ErrUnknownUser
	}
	if u, err := s.userBySubject(ctx, subject); !errors.Is(err, ErrUnknownUser) || !emailVerified || email == "" {
		return u, err
	}
	org, err := domainHolder(ctx, s.q, domainOf(email))
	if err != nil {
		return User{}, err
	}
	if org == uuid.Nil {
		return User{}, ErrUnknownUser
	}
	us, err := s.q.UserFindByEmail(ctx, queries.UserFindByEmailParams{OrganizationID: org, Email: email})
	if err != nil {
		return User{}, fmt.Errorf("find user by e-mail: %w", err)
	}
	if len(us) != 1 || us[0].OidcSubject != nil || !us[0].BindsByEmail {
		return User{}, ErrUnknownUser
	}
	u := userFromRow(us[0])
	err = s.inTx(ctx, func(q *queries.Queries) error {
		n, err := q.UserBindOIDCSubject(ctx, queries.UserBindOIDCSubjectParams{
			OrganizationID: u.OrganizationID, ID: u.ID, OidcSubject: &subject,
		})
		if isUniqueViolation(err) || err == nil && n != 1 { // bound meanwhile, to this subject or another
			return ErrUnknownUser
		}
		if err != nil {
			return fmt.Errorf("bind user to subject: %w", err)
		}
		return recordBinding(ctx, q, u, subject, "verified e-mail "+email)
	})
	if errors.Is(err, ErrUnknownUser) {
		return s.userBySubject(ctx, subject)
	}
	if err != nil {
		return User{}, err
	}
	return u, nil
}

// userBySubject returns the user bound to the subject (users_oidc_subject_key allows one at most), or
// ErrUnknownUser. After a binding by e-mail lost a race, the winner may be this very sign-in's account.
func (s *Service) userBySubject(ctx context.Context, subject string) (User, error) {
	us, err := s.q.UserFindByOIDCSubject(ctx, &subject)
	if err != nil {
		return User{}, fmt.Errorf("find user by subject: %w", err)
	}
	if len(us) != 1 {
		return User{}, ErrUnknownUser
	}
	return userFromRow(us[0]), nil
}

// recordBinding writes the binding of u to subject to the audit log, in the transaction of q.
func recordBinding(ctx context.Context, q *queries.Queries, u User, subject, how string) error {
	return recordChange(ctx, q, change{
		OrganizationID: u.OrganizationID, By: Changer{UserID: u.ID, Label: personName(u.Name, u.Surname)},
		Action: AuditBind, Object: "users", ObjectID: u.ID,
		Before: map[string]any{"oidcSubject": nil}, After: map[string]any{"oidcSubject": subject, "matchedBy": how},
	})
}

// ActingFor returns the user the actor acts for: the actor themselves if target is nil or the actor's own
// id, or else another user of the same organization, which only receptionists and admins may choose.
// Codes: 1001 an employee acting for someone else; 1003 no such user in the organization, or a
// deactivated one.
func (s *Service) ActingFor(ctx context.Context, actor User, target *uuid.UUID) (User, error) {
	if target == nil || *target == actor.ID {
		return actor, nil
	}
	if !actor.Role.ActsForOthers() {
		return User{}, Errorf(CodeForbidden, "only receptionists and admins may act for another user")
	}
	u, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: actor.OrganizationID, ID: *target})
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, Errorf(CodeUserNotFound, "no user %s in your organization", *target)
	}
	if err != nil {
		return User{}, fmt.Errorf("get target user: %w", err)
	}
	if !u.Active {
		return User{}, Errorf(CodeUserNotFound, "%s is deactivated", personName(u.Name, u.Surname))
	}
	return userFromRow(u), nil
}

// MaxPeople is the largest number of people SearchPeople returns.
const MaxPeople = 20

// SearchPeople returns up to MaxPeople searchable people of the actor's organization, ordered by name.
// Every word of query must appear in a person's name, surname, alias or e-mail. A blank query finds
// nobody.
func (s *Service) SearchPeople(ctx context.Context, actor User, query string) ([]User, error) {
	words := strings.Fields(query)
	if len(words) == 0 {
		return nil, nil
	}
	patterns := make([]string, len(words))
	for i, w := range words {
		patterns[i] = "%" + likeEscaper.Replace(w) + "%"
	}
	rows, err := s.q.UsersSearch(ctx, queries.UsersSearchParams{
		OrganizationID: actor.OrganizationID, Patterns: patterns, MaxRows: MaxPeople,
	})
	if err != nil {
		return nil, fmt.Errorf("search people: %w", err)
	}
	us := make([]User, len(rows))
	for i, r := range rows {
		us[i] = userFromRow(r)
	}
	return us, nil
}

// likeEscaper escapes a word so that it matches literally in a LIKE pattern.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// DevelopmentUsers lists up to 100 users across every organization. Only the development sign-in page
// uses it; it crosses organizations on purpose.
func (s *Service) DevelopmentUsers(ctx context.Context) ([]User, error) {
	rows, err := s.q.UsersList(ctx, 100)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	us := make([]User, len(rows))
	for i, r := range rows {
		us[i] = userFromRow(r)
	}
	return us, nil
}

// PeopleByIDs returns the people of the actor's organization whose ids are in ids, ordered by name.
// Unknown ids are skipped.
func (s *Service) PeopleByIDs(ctx context.Context, actor User, ids []uuid.UUID) ([]User, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := s.q.UsersGetByIDs(ctx, queries.UsersGetByIDsParams{OrganizationID: actor.OrganizationID, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("get people: %w", err)
	}
	us := make([]User, len(rows))
	for i, r := range rows {
		us[i] = userFromRow(r)
	}
	slices.SortFunc(us, func(a, b User) int {
		return cmp.Or(CompareNames(a.Name, b.Name), CompareNames(a.Surname, b.Surname))
	})
	return us, nil
}

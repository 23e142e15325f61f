package identity

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// UserByToken returns the user with the given id in the organization, for a service token issued at
// issuedAt.
// Codes: 1000 no such user, the user is deactivated (booking.ErrDeactivated), or the user's tokens issued at
// issuedAt were revoked (see RevokeTokens).
func (s *Service) UserByToken(ctx context.Context, orgID, id uuid.UUID, issuedAt time.Time) (booking.User, error) {
	u, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: orgID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return booking.User{}, booking.ErrUnknownUser
	}
	if err != nil {
		return booking.User{}, fmt.Errorf("get user: %w", err)
	}
	if !u.Active {
		return booking.User{}, booking.ErrDeactivated
	}
	if u.TokensValidAfter != nil && issuedAt.Before(*u.TokensValidAfter) {
		return booking.User{}, booking.Refuse(booking.CodeUnauthorized, "refusal.identity.tokenRevoked")
	}
	return userFromRow(u), nil
}

// RevokeTokens revokes every service token of u issued before the given moment. An instance that has
// cached a verified token refuses it within a minute. A revocation never moves back: if an earlier call
// already revoked up to a later moment, that moment stays. It returns the moment now in force.
// Codes: 1003 the user no longer exists.
func (s *Service) RevokeTokens(ctx context.Context, u booking.User, before time.Time) (time.Time, error) {
	inForce, err := s.q.UserRevokeTokens(ctx, queries.UserRevokeTokensParams{OrganizationID: u.OrganizationID, ID: u.ID, Before: before})
	if errors.Is(err, pgx.ErrNoRows) {
		return time.Time{}, booking.Refuse(booking.CodeUserNotFound, "refusal.identity.noUserWithID", map[string]any{"ID": u.ID.String()})
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("revoke tokens: %w", err)
	}
	return inForce, nil
}

// FindUser returns the user with the given id, searching every organization. The command line uses it.
// Codes: 1003 no such user.
func (s *Service) FindUser(ctx context.Context, id uuid.UUID) (booking.User, error) {
	us, err := s.q.UserFindByID(ctx, id)
	if err != nil {
		return booking.User{}, fmt.Errorf("find user: %w", err)
	}
	if len(us) != 1 {
		return booking.User{}, booking.Refuse(booking.CodeUserNotFound, "refusal.identity.noUserWithID", map[string]any{"ID": id.String()})
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
// deactivated (booking.ErrDeactivated).
func (s *Service) UserByIdentity(ctx context.Context, subject, email string, emailVerified bool) (booking.User, error) {
	u, err := s.userByIdentity(ctx, subject, email, emailVerified)
	if err == nil && !u.Active {
		return booking.User{}, booking.ErrDeactivated
	}
	return u, err
}

// userByIdentity is UserByIdentity for active and deactivated users alike.
func (s *Service) userByIdentity(ctx context.Context, subject, email string, emailVerified bool) (booking.User, error) {
	if subject == "" {
		return booking.User{}, booking.ErrUnknownUser
	}
	if u, err := s.userBySubject(ctx, subject); !errors.Is(err, booking.ErrUnknownUser) || !emailVerified || email == "" {
		return u, err
	}
	org, err := domainHolder(ctx, s.q, booking.EmailDomainOf(email))
	if err != nil {
		return booking.User{}, err
	}
	if org == uuid.Nil {
		return booking.User{}, booking.ErrUnknownUser
	}
	us, err := s.q.UserFindByEmail(ctx, queries.UserFindByEmailParams{OrganizationID: org, Email: email})
	if err != nil {
		return booking.User{}, fmt.Errorf("find user by e-mail: %w", err)
	}
	if len(us) != 1 || us[0].OidcSubject != nil || !us[0].BindsByEmail {
		return booking.User{}, booking.ErrUnknownUser
	}
	u := userFromRow(us[0])
	err = s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		n, err := q.UserBindOIDCSubject(ctx, queries.UserBindOIDCSubjectParams{
			OrganizationID: u.OrganizationID, ID: u.ID, OidcSubject: &subject,
		})
		if isUniqueViolation(err) || err == nil && n != 1 { // bound meanwhile, to this subject or another
			return booking.ErrUnknownUser
		}
		if err != nil {
			return fmt.Errorf("bind user to subject: %w", err)
		}
		return recordBinding(ctx, q, u, subject, "verified e-mail "+email)
	})
	if errors.Is(err, booking.ErrUnknownUser) {
		return s.userBySubject(ctx, subject)
	}
	if err != nil {
		return booking.User{}, err
	}
	return u, nil
}

// userBySubject returns the user bound to the subject (users_oidc_subject_key allows one at most), or
// booking.ErrUnknownUser. After a binding by e-mail lost a race, the winner may be this very sign-in's account.
func (s *Service) userBySubject(ctx context.Context, subject string) (booking.User, error) {
	us, err := s.q.UserFindByOIDCSubject(ctx, &subject)
	if err != nil {
		return booking.User{}, fmt.Errorf("find user by subject: %w", err)
	}
	if len(us) != 1 {
		return booking.User{}, booking.ErrUnknownUser
	}
	return userFromRow(us[0]), nil
}

// recordBinding writes the binding of u to subject to the audit log, in the transaction of q.
func recordBinding(ctx context.Context, q *queries.Queries, u booking.User, subject, how string) error {
	return recordChange(ctx, q, booking.Change{
		OrganizationID: u.OrganizationID, By: booking.Changer{UserID: u.ID, Label: personName(u.Name, u.Surname)},
		Action: booking.AuditBind, Object: "users", ObjectID: u.ID,
		Before: map[string]any{"oidcSubject": nil}, After: map[string]any{"oidcSubject": subject, "matchedBy": how},
	})
}

// DevelopmentUsers lists up to 100 users across every organization. Only the development sign-in page
// uses it; it crosses organizations on purpose.
func (s *Service) DevelopmentUsers(ctx context.Context) ([]booking.User, error) {
	rows, err := s.q.UsersList(ctx, 100)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	us := make([]booking.User, len(rows))
	for i, r := range rows {
		us[i] = userFromRow(r)
	}
	return us, nil
}

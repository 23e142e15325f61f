package identity

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// SetUserActive deactivates or reactivates a person of the actor's organization, as applyUserActive
// describes. Doing it twice changes nothing more.
// Codes: 1001 the actor is not an admin; 1003 no such person in the organization; 2000 an admin
// deactivating their own account.
func (s *Service) SetUserActive(ctx context.Context, actor booking.User, userID uuid.UUID, active bool) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsActivate")
	}
	if !active && userID == actor.ID {
		return booking.Refuse(booking.CodeInvalidRequest, "refusal.identity.ownAccount")
	}
	err := s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		return s.applyUserActive(ctx, q, ev, actor.OrganizationID, userID, active, booking.By(actor))
	})
	s.bookings.PeopleDeactivated() // after the commit too, so that a token checked meanwhile is checked again
	return err
}

// applyUserActive deactivates or reactivates a person inside the transaction of q; SetUserActive and the
// SCIM client change a person's account through it, and web/layout's import does the same with
// booking.CheckActiveChange and booking.ActiveAudit. Deactivating a person
// refuses their sign-ins and bearer tokens from then on, revokes the tokens they hold (a reactivated
// person signs in again), and releases their bookings that still hold a resource: the one checked in and
// under way ends now (FINISHED), every other one is CANCELLED, whatever the deadlines of the services
// ordered on it. A person already in the state asked for is left as they are. Nobody deactivates their own
// account, and no deactivation leaves the organization without an active admin.
// Codes: 1003 no such person in the organization; 2000 deactivating one's own account; 4017 the last
// active admin.
func (s *Service) applyUserActive(ctx context.Context, q *queries.Queries, ev *outbox.Batch, org, userID uuid.UUID, active bool, by booking.Changer) error {
	if err := booking.CheckActiveChange(by, userID, active); err != nil {
		return err
	}
	if !active {
		// The admin lock before the row lock, in the order the Admin API takes them.
		if err := q.OrganizationAdminLock(ctx, org); err != nil {
			return fmt.Errorf("lock admin changes: %w", err)
		}
	}
	row, err := q.UserGetForUpdate(ctx, queries.UserGetForUpdateParams{OrganizationID: org, ID: userID})
	if errors.Is(err, pgx.ErrNoRows) {
		return booking.UserNotFound(userID)
	}
	if err != nil {
		return fmt.Errorf("get user: %w", err)
	}
	if row.Active == active {
		return nil
	}
	now := s.now().Truncate(time.Millisecond)
	if _, err := q.UserSetActive(ctx, queries.UserSetActiveParams{OrganizationID: org, ID: userID, Active: active, Now: now}); err != nil {
		return fmt.Errorf("set user active: %w", err)
	}
	if isActiveAdmin(row) {
		if err := keepAnAdmin(ctx, q, org); err != nil {
			return err
		}
	}
	var released []queries.BookingsReleaseOfOrganizerRow
	if !active {
		s.bookings.PeopleDeactivated()
		if released, err = q.BookingsReleaseOfOrganizer(ctx, queries.BookingsReleaseOfOrganizerParams{
			OrganizationID: org, OrganizerID: userID, Now: now,
		}); err != nil {
			return fmt.Errorf("release bookings: %w", err)
		}
		ev.Add(booking.DeactivationEvents(org, released, now)...)
		if _, err := q.UserRevokeTokens(ctx, queries.UserRevokeTokensParams{OrganizationID: org, ID: userID, Before: now}); err != nil {
			return fmt.Errorf("revoke tokens: %w", err)
		}
	}
	ids := make([]uuid.UUID, len(released))
	for i, b := range released {
		ids[i] = b.ID
	}
	e, err := booking.ActiveAudit(org, userID, by, row.Active, active, ids)
	if err != nil {
		return err
	}
	return recordAudit(ctx, q, e)
}

// MaxContacts is the largest number of admins AccountContacts returns.
const MaxContacts = 3

// AccountContacts returns up to MaxContacts active admins of the organization, by name: the people whom
// someone refused at sign-in can ask.
func (s *Service) AccountContacts(ctx context.Context, org uuid.UUID) ([]booking.User, error) {
	rows, err := s.q.UsersAdmins(ctx, queries.UsersAdminsParams{OrganizationID: org, MaxRows: MaxContacts})
	if err != nil {
		return nil, fmt.Errorf("list admins: %w", err)
	}
	us := make([]booking.User, len(rows))
	for i, r := range rows {
		us[i] = userFromRow(r)
	}
	return us, nil
}

// Identity is what an identity provider's ID token says about the person signing in.
type Identity struct {
	Subject       string
	Email         string
	EmailVerified bool   // only a claim email_verified that is present and true
	Name          string // the claim name (the whole name)
	GivenName     string
	FamilyName    string
	// Claims holds every claim of the token; SignIn reads the organization's groups claim from it.
	Claims map[string]any
}

// Limits of what SignIn takes from an ID token.
const (
	maxNameLength = 200 // of a given or family name
	maxGroups     = 1000
)

// SignIn returns the person signing in with id, as UserByIdentity finds them. A person it finds nobody
// for is created (a just-in-time account) when the provider has verified their e-mail address and an
// organization has proved its domain: with the names of the token, the organization's default role, and
// bound to the token's subject. Then, if the organization names a groups claim and maps at least one
// group to a role, and the token carries that claim, the person's role becomes the highest role of their
// groups, or the default role when none of their groups is mapped; group names are compared as sameGroup
// says. A token without the claim leaves the role as it is, and so does a demotion of the organization's
// last active admin. The person's teams tied to a value of the claim follow it too (claimTeams).
// Codes: 1000 nobody to sign in, with a message saying why and whom to ask; booking.ErrDeactivated, returned
// with the deactivated person so that the caller can name their organization's admins.
func (s *Service) SignIn(ctx context.Context, id Identity) (booking.User, error) {
	u, err := s.userByIdentity(ctx, id.Subject, id.Email, id.EmailVerified)
	switch {
	case errors.Is(err, booking.ErrUnknownUser):
		if u, err = s.createFromIdentity(ctx, id); err != nil {
			return booking.User{}, err
		}
	case err != nil:
		return booking.User{}, err
	}
	if !u.Active {
		return u, booking.ErrDeactivated
	}
	if err := s.noteClaims(ctx, u.OrganizationID, id.Claims); err != nil {
		return booking.User{}, err
	}
	if u, err = s.applyGroups(ctx, u, id.Claims); err != nil {
		return booking.User{}, err
	}
	return u, s.claimTeams(ctx, u, id.Claims)
}

// Bounds of the claim names kept of a sign-in.
const (
	maxNotedClaims     = 100
	maxClaimNameLength = 64
)

// noteClaims keeps the names of the claims of a sign-in as the organization's latest, for the identity
// page: an admin mapping groups sees which claims the provider sends. Names only, never values; at most
// maxNotedClaims, each cut to maxClaimNameLength bytes.
func (s *Service) noteClaims(ctx context.Context, org uuid.UUID, claims map[string]any) error {
	names := make([]string, 0, len(claims))
	for name := range claims {
		if len(name) > maxClaimNameLength {
			name = name[:maxClaimNameLength]
		}
		names = append(names, strings.ToValidUTF8(name, ""))
	}
	slices.Sort(names)
	names = slices.Compact(names)
	if len(names) > maxNotedClaims {
		names = names[:maxNotedClaims]
	}
	if err := s.q.OrganizationNoteClaims(ctx, queries.OrganizationNoteClaimsParams{ID: org, Names: names}); err != nil {
		return fmt.Errorf("note the claims of a sign-in: %w", err)
	}
	return nil
}

// createFromIdentity creates the person a sign-in found nobody for, or explains why it cannot.
func (s *Service) createFromIdentity(ctx context.Context, id Identity) (booking.User, error) {
	email := strings.TrimSpace(id.Email)
	switch {
	case id.Subject == "":
		return booking.User{}, refuseSignIn("no-subject", booking.Refuse(booking.CodeUnauthorized, "refusal.signin.noSubject"))
	case email == "":
		return booking.User{}, refuseSignIn("no-email", booking.Refuse(booking.CodeUnauthorized, "refusal.signin.noEmail"))
	case !id.EmailVerified:
		return booking.User{}, refuseSignIn("email-not-verified", booking.Refuse(booking.CodeUnauthorized, "refusal.signin.emailNotVerified", map[string]any{"Email": email}))
	}
	domain := booking.EmailDomainOf(email)
	holder, err := domainHolder(ctx, s.q, domain)
	if err != nil {
		return booking.User{}, err
	}
	if holder == uuid.Nil {
		return booking.User{}, refuseSignIn("domain-not-verified", booking.Refuse(booking.CodeUnauthorized, "refusal.signin.domainNotVerified", map[string]any{"Email": email, "Domain": domain}))
	}
	others, err := s.q.UserFindByEmail(ctx, queries.UserFindByEmailParams{OrganizationID: holder, Email: email})
	if err != nil {
		return booking.User{}, fmt.Errorf("find user by e-mail: %w", err)
	}
	if len(others) > 0 {
		return booking.User{}, refuseSignIn("email-bound-to-another-subject", booking.Refuse(booking.CodeUnauthorized, "refusal.signin.emailBound", map[string]any{"Email": email}))
	}
	org, err := s.q.OrganizationGet(ctx, holder)
	if err != nil {
		return booking.User{}, fmt.Errorf("get organization: %w", err)
	}
	name, surname := namesOf(id)
	var u booking.User
	err = s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		row, err := q.UserCreate(ctx, queries.UserCreateParams{
			OrganizationID: org.ID, ID: uuid.New(), Name: name, Surname: surname, Email: email,
			Role: org.DefaultRole, OidcSubject: &id.Subject,
		})
		if errors.Is(err, pgx.ErrNoRows) || isUniqueViolation(err) {
			return refuseSignIn("simultaneous-first-sign-in", booking.Refuse(booking.CodeUnauthorized, "refusal.signin.simultaneous", map[string]any{"Email": email}))
		}
		if err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		u = userFromRow(row)
		if err := recordChange(ctx, q, booking.Change{
			OrganizationID: org.ID, By: booking.Changer{UserID: u.ID, Label: "first sign-in"}, Action: booking.AuditCreate,
			Object: "users", ObjectID: u.ID, After: map[string]any{"email": email, "role": org.DefaultRole},
		}); err != nil {
			return err
		}
		return recordBinding(ctx, q, u, id.Subject, "first sign-in")
	})
	return u, err
}

// refuseSignIn is a refused sign-in e (1000), with a reason for the log.
func refuseSignIn(reason string, e *booking.Error) *booking.Error {
	e.Reason = reason
	return e
}

// namesOf returns the given and family names of the token, from the claim name when they are missing,
// and from the e-mail address when that is missing too.
func namesOf(id Identity) (name, surname string) {
	name, surname = strings.TrimSpace(id.GivenName), strings.TrimSpace(id.FamilyName)
	if name == "" {
		first, rest, _ := strings.Cut(strings.TrimSpace(id.Name), " ")
		name = first
		if surname == "" {
			surname = strings.TrimSpace(rest)
		}
	}
	if name == "" {
		name, _, _ = strings.Cut(id.Email, "@")
	}
	return clip(name, maxNameLength), clip(surname, maxNameLength)
}

// clip shortens s to at most n runes.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// roleRank orders the roles from the least to the most a person may do.
var roleRank = map[booking.Role]int{booking.RoleEmployee: 0, booking.RoleReceptionist: 1, booking.RoleAdmin: 2}

// applyGroups sets u's role from the groups the token's claims list, as SignIn describes, and returns u
// with it.
func (s *Service) applyGroups(ctx context.Context, u booking.User, claims map[string]any) (booking.User, error) {
	org, err := s.q.OrganizationGet(ctx, u.OrganizationID)
	if err != nil {
		return booking.User{}, fmt.Errorf("get organization: %w", err)
	}
	if org.GroupsClaim == "" {
		return u, nil
	}
	groups, ok := groupsOf(claims[org.GroupsClaim])
	if !ok {
		return u, nil
	}
	mapping, err := s.q.GroupRolesOfOrganization(ctx, u.OrganizationID)
	if err != nil {
		return booking.User{}, fmt.Errorf("get group roles: %w", err)
	}
	if len(mapping) == 0 {
		return u, nil
	}
	role := roleOfGroups(groups, mapping, booking.Role(org.DefaultRole))
	if role == u.Role {
		return u, nil
	}
	err = s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		if err := q.UserSetRole(ctx, queries.UserSetRoleParams{OrganizationID: u.OrganizationID, ID: u.ID, Role: string(role)}); err != nil {
			return fmt.Errorf("set role: %w", err)
		}
		if u.Role == booking.RoleAdmin && u.Active {
			if err := keepAnAdmin(ctx, q, u.OrganizationID); err != nil {
				return err
			}
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: u.OrganizationID, By: booking.Changer{Label: "groups claim " + org.GroupsClaim}, Action: booking.AuditUpdate,
			Object: "users", ObjectID: u.ID, Before: map[string]any{"role": u.Role}, After: map[string]any{"role": role},
		})
	})
	if booking.ErrorCode(err) == booking.CodeLastAdmin {
		return u, nil // the organization's last admin stays one until someone else is made admin
	}
	if err != nil {
		return booking.User{}, err
	}
	u.Role = role
	return u, nil
}

// roleOfGroups is the highest role the mapping gives one of the groups, or def when it gives none.
func roleOfGroups(groups []string, mapping []queries.GroupRolesOfOrganizationRow, def booking.Role) booking.Role {
	role, matched := def, false
	for _, m := range mapping {
		for _, g := range groups {
			if sameGroup(g, m.GroupName) && (!matched || roleRank[booking.Role(m.Role)] > roleRank[role]) {
				role, matched = booking.Role(m.Role), true
			}
		}
	}
	return role
}

// groupsOf reads a groups claim: a list of strings, or one string. ok is false when the claim is absent
// or of another shape. At most maxGroups groups are read.
func groupsOf(claim any) (groups []string, ok bool) {
	switch v := claim.(type) {
	case string:
		return []string{v}, true
	case []any:
		for _, g := range v[:min(len(v), maxGroups)] {
			if s, isString := g.(string); isString {
				groups = append(groups, s)
			}
		}
		return groups, true
	case []string:
		return v[:min(len(v), maxGroups)], true
	}
	return nil, false
}

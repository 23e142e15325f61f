package identity

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// ProvisionedPerson is a person as a SCIM client sees them.
type ProvisionedPerson struct {
	booking.User
	ExternalID string // the client's own id for the person; "" if none
	UserName   string // as the client sent it; the e-mail address when it sent none
	Created    time.Time
	Modified   time.Time
}

// Version is a weak entity tag of what a SCIM client sees of the person: it changes whenever that does.
func (p ProvisionedPerson) Version() string {
	return weakTag(p.UserName, p.Email, p.Name, p.Surname, p.ExternalID, p.Active)
}

// weakTag is W/"…" with the first 16 hex digits of the SHA-256 of the values' JSON.
func weakTag(values ...any) string {
	j, _ := json.Marshal(values)
	sum := sha256.Sum256(j)
	return `W/"` + hex.EncodeToString(sum[:8]) + `"`
}

// PersonFields are what a SCIM client manages of a person.
type PersonFields struct {
	UserName   string // the client's name for the person, kept as sent; Email when empty
	Email      string // required: the person's e-mail address
	Name       string // given name; the part of Email before "@" when empty
	Surname    string
	ExternalID string
	Active     bool
}

// PeopleFilter narrows ProvisionedPeople to the people who match every field that is not nil: the
// userName (the one sent, or else the address) and the e-mail address in any case, the external id,
// whether they are active. Nobody true matches nobody (a filter that contradicts itself).
type PeopleFilter struct {
	UserName   *string
	Email      *string
	ExternalID *string
	Active     *bool
	Nobody     bool
}

// MaxSCIMPage is the largest number of people one ProvisionedPeople call returns.
const MaxSCIMPage = 100

// Limits of the fields of PersonFields, in characters.
const (
	maxEmailLength      = 254
	maxExternalIDLength = 256
	maxUserNameLength   = 256
)

// ErrPersonExists is returned when someone else in the organization already has the e-mail address, or
// the userName.
var ErrPersonExists = booking.Refuse(booking.CodeInvalidRequest, "refusal.identity.emailTaken")

// ErrUserNameTaken is returned when someone else in the organization already has the userName.
var ErrUserNameTaken = booking.Refuse(booking.CodeInvalidRequest, "refusal.identity.userNameTaken")

// ProvisionedPeople returns up to count people of the client's organization (at most MaxSCIMPage) from
// the startIndex-th (1-based), ordered by e-mail address, and how many match f in all. People the client
// deleted are left out.
func (s *Service) ProvisionedPeople(ctx context.Context, c SCIMClient, f PeopleFilter, startIndex, count int) ([]ProvisionedPerson, int, error) {
	startIndex, count = max(startIndex, 1), min(max(count, 0), MaxSCIMPage)
	if f.Nobody {
		return nil, 0, nil
	}
	total, err := s.q.SCIMUsersCount(ctx, queries.SCIMUsersCountParams{
		OrganizationID: c.OrganizationID, UserName: f.UserName, Email: f.Email, ExternalID: f.ExternalID, Active: f.Active,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("count people: %w", err)
	}
	if count == 0 || startIndex > int(total) {
		return nil, int(total), nil
	}
	rows, err := s.q.SCIMUsers(ctx, queries.SCIMUsersParams{
		OrganizationID: c.OrganizationID, UserName: f.UserName, Email: f.Email, ExternalID: f.ExternalID, Active: f.Active,
		Skip: int32(startIndex - 1), MaxRows: int32(count),
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list people: %w", err)
	}
	ps := make([]ProvisionedPerson, len(rows))
	for i, r := range rows {
		ps[i] = provisioned(r)
	}
	return ps, int(total), nil
}

// ProvisionedPerson returns one person of the client's organization.
// Codes: 1003 no such person in the organization, or one the client deleted.
func (s *Service) ProvisionedPerson(ctx context.Context, c SCIMClient, id uuid.UUID) (ProvisionedPerson, error) {
	r, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: c.OrganizationID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) || err == nil && r.ScimDeletedAt != nil {
		return ProvisionedPerson{}, booking.Refuse(booking.CodeUserNotFound, "refusal.identity.noUser", map[string]any{"ID": id.String()})
	}
	if err != nil {
		return ProvisionedPerson{}, fmt.Errorf("get user: %w", err)
	}
	return provisioned(r), nil
}

// ProvisionPerson creates a person in the client's organization, with the organization's default role,
// user rule and mobile role; one created inactive is deactivated at once. A person the client deleted
// with the same e-mail address is brought back instead, with the fields given.
// Codes: 2000 a bad field, an address outside the organization's verified domains (unless it allows
// others), or at a domain another organization proved; ErrPersonExists; ErrUserNameTaken.
func (s *Service) ProvisionPerson(ctx context.Context, c SCIMClient, f PersonFields) (ProvisionedPerson, error) {
	f, err := normalizePerson(f)
	if err != nil {
		return ProvisionedPerson{}, err
	}
	var id uuid.UUID
	err = s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		org, err := q.OrganizationGet(ctx, c.OrganizationID)
		if err != nil {
			return fmt.Errorf("get organization: %w", err)
		}
		if err := checkSCIMEmail(ctx, q, org, f.Email); err != nil {
			return err
		}
		deleted, err := q.UserSCIMDeletedByEmail(ctx, queries.UserSCIMDeletedByEmailParams{OrganizationID: c.OrganizationID, Email: f.Email})
		if err == nil {
			id = deleted.ID
			return s.replacePerson(ctx, q, ev, c, deleted, f)
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("find a deleted person: %w", err)
		}
		same, err := q.UsersOfOrganization(ctx, queries.UsersOfOrganizationParams{OrganizationID: c.OrganizationID, Email: &f.Email, MaxRows: 1})
		if err != nil {
			return fmt.Errorf("find user by e-mail: %w", err)
		}
		if len(same) > 0 {
			return ErrPersonExists
		}
		if err := checkUserNameFree(ctx, q, c.OrganizationID, uuid.Nil, f.UserName); err != nil {
			return err
		}
		row, err := q.UserCreate(ctx, queries.UserCreateParams{
			OrganizationID: c.OrganizationID, ID: uuid.New(), Name: f.Name, Surname: f.Surname, Email: f.Email,
			Role: org.DefaultRole, ExternalID: given(f.ExternalID), ScimUserName: &f.UserName,
		})
		if errors.Is(err, pgx.ErrNoRows) || isUniqueViolation(err) {
			return ErrPersonExists
		}
		if err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		id = row.ID
		if err := recordChange(ctx, q, booking.Change{
			OrganizationID: c.OrganizationID, By: c.changer(), Action: booking.AuditCreate, Object: "users", ObjectID: id,
			After: f.audited(),
		}); err != nil {
			return err
		}
		if !f.Active {
			return s.applyUserActive(ctx, q, ev, c.OrganizationID, id, false, c.changer())
		}
		return nil
	})
	if err != nil {
		return ProvisionedPerson{}, err
	}
	return s.ProvisionedPerson(ctx, c, id)
}

// checkSCIMEmail refuses an address a SCIM client may not give a person: one outside the organization's
// verified domains, unless the organization allows other domains, and one at a domain another
// organization proved (checkPersonEmail).
// Codes: 2000.
func checkSCIMEmail(ctx context.Context, q *queries.Queries, org queries.Organization, email string) error {
	if !org.ScimAnyDomain {
		domains, err := emailDomainsOf(ctx, q, org.ID)
		if err != nil {
			return err
		}
		domain := booking.EmailDomainOf(email)
		if !slices.ContainsFunc(domains, func(d EmailDomain) bool { return d.Domain == domain && d.Verified() }) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "emails", "refusal.identity.emailOutsideDomains",
				map[string]any{"Email": email, "Domain": domain})
		}
	}
	return checkPersonEmail(ctx, q, org.ID, "emails", email)
}

// checkUserNameFree refuses a userName another person of the organization (not id) has.
// Codes: ErrUserNameTaken.
func checkUserNameFree(ctx context.Context, q *queries.Queries, org, id uuid.UUID, userName string) error {
	same, err := q.SCIMUsers(ctx, queries.SCIMUsersParams{OrganizationID: org, UserName: &userName, MaxRows: 2})
	if err != nil {
		return fmt.Errorf("find user by userName: %w", err)
	}
	for _, o := range same {
		if o.ID != id {
			return ErrUserNameTaken
		}
	}
	return nil
}

// ReplaceProvisionedPerson replaces what the client manages of a person: userName, names, e-mail address,
// external id, and whether the person is active (see applyUserActive). The role, language and the rest
// stay. A person whose address changes is bound only by their subject from then on, so that a new address
// cannot take over an account nobody has signed in to yet; an admin's address cannot be changed here at
// all. ifMatch "" replaces whatever the person is now; otherwise it must be their Version (or "*").
// Codes: 1003 no such person in the organization, or one the client deleted; 2000 a bad field, an
// admin's address, or an address checkSCIMEmail refuses; ErrPersonExists; ErrUserNameTaken; 4017
// deactivating the last active admin; 4120 ifMatch is not the person's version.
func (s *Service) ReplaceProvisionedPerson(ctx context.Context, c SCIMClient, id uuid.UUID, f PersonFields, ifMatch string) (ProvisionedPerson, error) {
	f, err := normalizePerson(f)
	if err != nil {
		return ProvisionedPerson{}, err
	}
	return s.ChangeProvisionedPerson(ctx, c, id, ifMatch, func(ProvisionedPerson) (PersonFields, error) { return f, nil })
}

// ChangeProvisionedPerson changes a person of the client's organization in one transaction: change gets
// the person as they are, locked until the transaction ends, and returns the fields to write, as
// ReplaceProvisionedPerson writes them. A PATCH applies its operations in change, so that two PATCHes at
// once never undo each other. An error of change is returned as it is.
// Codes: those of ReplaceProvisionedPerson.
func (s *Service) ChangeProvisionedPerson(ctx context.Context, c SCIMClient, id uuid.UUID, ifMatch string, change func(ProvisionedPerson) (PersonFields, error)) (ProvisionedPerson, error) {
	err := s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		before, err := s.lockProvisioned(ctx, q, c, id, ifMatch)
		if err != nil {
			return err
		}
		f, err := change(provisioned(before))
		if err != nil {
			return err
		}
		if f, err = normalizePerson(f); err != nil {
			return err
		}
		return s.replacePerson(ctx, q, ev, c, before, f)
	})
	if err != nil {
		return ProvisionedPerson{}, err
	}
	return s.ProvisionedPerson(ctx, c, id)
}

// lockProvisioned reads a person the client sees and locks them, and checks ifMatch against their version.
// Codes: 1003; 4120.
func (s *Service) lockProvisioned(ctx context.Context, q *queries.Queries, c SCIMClient, id uuid.UUID, ifMatch string) (queries.User, error) {
	before, err := q.UserGetForUpdate(ctx, queries.UserGetForUpdateParams{OrganizationID: c.OrganizationID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) || err == nil && before.ScimDeletedAt != nil {
		return before, booking.Refuse(booking.CodeUserNotFound, "refusal.identity.noUser", map[string]any{"ID": id.String()})
	}
	if err != nil {
		return before, fmt.Errorf("get user: %w", err)
	}
	if v := provisioned(before).Version(); !booking.MatchesVersion(ifMatch, v) {
		return before, booking.Refuse(booking.CodePreconditionFailed, "refusal.identity.personStale", map[string]any{"Tag": ifMatch, "Version": v})
	}
	return before, nil
}

// replacePerson writes f over the person before (locked), as ReplaceProvisionedPerson says.
func (s *Service) replacePerson(ctx context.Context, q *queries.Queries, ev *outbox.Batch, c SCIMClient, before queries.User, f PersonFields) error {
	id := before.ID
	if !strings.EqualFold(before.Email, f.Email) {
		if before.Role == string(booking.RoleAdmin) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "userName", "refusal.identity.adminEmailFixed")
		}
		org, err := q.OrganizationGet(ctx, c.OrganizationID)
		if err != nil {
			return fmt.Errorf("get organization: %w", err)
		}
		if err := checkSCIMEmail(ctx, q, org, f.Email); err != nil {
			return err
		}
	}
	same, err := q.UsersOfOrganization(ctx, queries.UsersOfOrganizationParams{OrganizationID: c.OrganizationID, Email: &f.Email, MaxRows: 2})
	if err != nil {
		return fmt.Errorf("find user by e-mail: %w", err)
	}
	for _, o := range same {
		if o.ID != id {
			return ErrPersonExists
		}
	}
	if err := checkUserNameFree(ctx, q, c.OrganizationID, id, f.UserName); err != nil {
		return err
	}
	_, err = q.UserReplaceProvisioned(ctx, queries.UserReplaceProvisionedParams{
		OrganizationID: c.OrganizationID, ID: id, Name: f.Name, Surname: f.Surname, Alias: before.Alias,
		Email: f.Email, ExternalID: given(f.ExternalID), ScimUserName: &f.UserName,
	})
	if isUniqueViolation(err) {
		return ErrPersonExists
	}
	if err != nil {
		return fmt.Errorf("replace user: %w", err)
	}
	old := provisioned(before)
	if err := recordChange(ctx, q, booking.Change{
		OrganizationID: c.OrganizationID, By: c.changer(), Action: booking.AuditUpdate, Object: "users", ObjectID: id,
		Before: PersonFields{UserName: old.UserName, Email: old.Email, Name: old.Name, Surname: old.Surname, ExternalID: old.ExternalID, Active: old.Active}.audited(),
		After:  f.audited(),
	}); err != nil {
		return err
	}
	return s.applyUserActive(ctx, q, ev, c.OrganizationID, id, f.Active, c.changer())
}

// DeleteProvisionedPerson is a SCIM client's DELETE: the person is deactivated (see applyUserActive),
// taken out of every group and of the teams that follow groups, and no longer found by the client. They
// stay, for the history of their bookings; a later ProvisionPerson with their address brings them back. ifMatch as for
// ReplaceProvisionedPerson.
// Codes: 1003 no such person in the organization, or one the client deleted already; 4017 the last
// active admin; 4120.
func (s *Service) DeleteProvisionedPerson(ctx context.Context, c SCIMClient, id uuid.UUID, ifMatch string) error {
	err := s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		if _, err := s.lockProvisioned(ctx, q, c, id, ifMatch); err != nil {
			return err
		}
		if err := s.applyUserActive(ctx, q, ev, c.OrganizationID, id, false, c.changer()); err != nil {
			return err
		}
		if err := q.UserSCIMDelete(ctx, queries.UserSCIMDeleteParams{OrganizationID: c.OrganizationID, ID: id, Now: new(s.now())}); err != nil {
			return fmt.Errorf("delete user for scim: %w", err)
		}
		if err := q.SCIMMembershipsDelete(ctx, queries.SCIMMembershipsDeleteParams{OrganizationID: c.OrganizationID, UserID: id}); err != nil {
			return fmt.Errorf("leave groups: %w", err)
		}
		if err := q.TeamsLeaveSCIMTeams(ctx, queries.TeamsLeaveSCIMTeamsParams{OrganizationID: c.OrganizationID, UserID: id}); err != nil {
			return fmt.Errorf("leave teams of groups: %w", err)
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: c.OrganizationID, By: c.changer(), Action: booking.AuditDelete, Object: "users", ObjectID: id,
			After: map[string]any{"scim": "deleted: deactivated and no longer provisioned"},
		})
	})
	s.bookings.PeopleDeactivated()
	return err
}

// normalizePerson checks f and trims its fields.
// Codes: 2000 naming the bad field.
func normalizePerson(f PersonFields) (PersonFields, error) {
	f.Email, f.Name, f.Surname = strings.TrimSpace(f.Email), strings.TrimSpace(f.Name), strings.TrimSpace(f.Surname)
	f.ExternalID, f.UserName = strings.TrimSpace(f.ExternalID), strings.TrimSpace(f.UserName)
	if f.UserName == "" {
		f.UserName = f.Email
	}
	if utf8.RuneCountInString(f.UserName) > maxUserNameLength {
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "userName", "refusal.identity.atMostCharacters", map[string]any{"Max": maxUserNameLength})
	}
	if addr, err := mail.ParseAddress(f.Email); err != nil || addr.Address != f.Email || len(f.Email) > maxEmailLength {
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "emails", "refusal.identity.notEmail", map[string]any{"Email": strconv.Quote(f.Email)})
	}
	if f.Name == "" {
		f.Name, _, _ = strings.Cut(f.Email, "@")
	}
	for field, v := range map[string]string{"name.givenName": f.Name, "name.familyName": f.Surname} {
		if utf8.RuneCountInString(v) > maxNameLength {
			return f, booking.FieldRefuse(booking.CodeInvalidRequest, field, "refusal.identity.atMostCharacters", map[string]any{"Max": maxNameLength})
		}
	}
	if utf8.RuneCountInString(f.ExternalID) > maxExternalIDLength {
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "externalId", "refusal.identity.atMostCharacters", map[string]any{"Max": maxExternalIDLength})
	}
	return f, nil
}

// audited returns the fields as the audit log keeps them.
func (f PersonFields) audited() map[string]any {
	return map[string]any{"userName": f.UserName, "email": f.Email, "name": f.Name, "surname": f.Surname, "externalId": f.ExternalID, "active": f.Active}
}

func provisioned(r queries.User) ProvisionedPerson {
	p := ProvisionedPerson{User: userFromRow(r), UserName: r.Email, Created: r.CreatedAt, Modified: r.UpdatedAt}
	if r.ExternalID != nil {
		p.ExternalID = *r.ExternalID
	}
	if r.ScimUserName != nil {
		p.UserName = *r.ScimUserName
	}
	return p
}

// given returns nil for "" and a pointer to v otherwise.
func given(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

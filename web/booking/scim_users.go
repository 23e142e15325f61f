package booking

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// ProvisionedPerson is a person as a SCIM client sees them.
type ProvisionedPerson struct {
	User
	ExternalID string // the client's own id for the person; "" if none
}

// PersonFields are what a SCIM client manages of a person.
type PersonFields struct {
	Email      string // required: the person's sign-in name
	Name       string // given name; the part of Email before "@" when empty
	Surname    string
	ExternalID string
	Active     bool
}

// PeopleFilter narrows ProvisionedPeople to the person with an e-mail address (in any case) or an
// external id. Nil fields do not filter.
type PeopleFilter struct {
	Email      *string
	ExternalID *string
}

// MaxSCIMPage is the largest number of people one ProvisionedPeople call returns.
const MaxSCIMPage = 100

// Limits of the fields of PersonFields, in characters.
const (
	maxEmailLength      = 254
	maxExternalIDLength = 256
)

// ErrPersonExists is returned when someone else in the organization already has the e-mail address.
var ErrPersonExists = Errorf(CodeInvalidRequest, "someone in the organization already has this e-mail address")

// ProvisionedPeople returns up to count people of the client's organization (at most MaxSCIMPage) from
// the startIndex-th (1-based), ordered by e-mail address, and how many match f in all.
func (s *Service) ProvisionedPeople(ctx context.Context, c SCIMClient, f PeopleFilter, startIndex, count int) ([]ProvisionedPerson, int, error) {
	startIndex, count = max(startIndex, 1), min(max(count, 0), MaxSCIMPage)
	total, err := s.q.UsersOfOrganizationCount(ctx, queries.UsersOfOrganizationCountParams{
		OrganizationID: c.OrganizationID, Email: f.Email, ExternalID: f.ExternalID,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("count people: %w", err)
	}
	if count == 0 {
		return nil, int(total), nil
	}
	rows, err := s.q.UsersOfOrganization(ctx, queries.UsersOfOrganizationParams{
		OrganizationID: c.OrganizationID, Email: f.Email, ExternalID: f.ExternalID,
		Skip: int32(min(startIndex-1, int(total))), MaxRows: int32(count),
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
// Codes: 1003 no such person in the organization.
func (s *Service) ProvisionedPerson(ctx context.Context, c SCIMClient, id uuid.UUID) (ProvisionedPerson, error) {
	r, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: c.OrganizationID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return ProvisionedPerson{}, Errorf(CodeUserNotFound, "no user %s in your organization", id)
	}
	if err != nil {
		return ProvisionedPerson{}, fmt.Errorf("get user: %w", err)
	}
	return provisioned(r), nil
}

// ProvisionPerson creates a person in the client's organization, with the organization's default role;
// one created inactive is deactivated at once.
// Codes: 2000 a bad field, or an address at a domain another organization proved; ErrPersonExists.
func (s *Service) ProvisionPerson(ctx context.Context, c SCIMClient, f PersonFields) (ProvisionedPerson, error) {
	f, err := normalizePerson(f)
	if err != nil {
		return ProvisionedPerson{}, err
	}
	var id uuid.UUID
	err = s.inTx(ctx, func(q *queries.Queries) error {
		org, err := q.OrganizationGet(ctx, c.OrganizationID)
		if err != nil {
			return fmt.Errorf("get organization: %w", err)
		}
		if err := CheckPersonEmail(ctx, q, c.OrganizationID, "userName", f.Email); err != nil {
			return err
		}
		row, err := q.UserCreate(ctx, queries.UserCreateParams{
			OrganizationID: c.OrganizationID, ID: uuid.New(), Name: f.Name, Surname: f.Surname, Email: f.Email,
			Role: org.DefaultRole, ExternalID: given(f.ExternalID),
		})
		if errors.Is(err, pgx.ErrNoRows) || isUniqueViolation(err) {
			return ErrPersonExists
		}
		if err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		id = row.ID
		if err := recordChange(ctx, q, change{
			OrganizationID: c.OrganizationID, By: c.changer(), Action: AuditCreate, Object: "users", ObjectID: id,
			After: f.audited(),
		}); err != nil {
			return err
		}
		if !f.Active {
			return s.ApplyUserActive(ctx, q, c.OrganizationID, id, false, c.changer())
		}
		return nil
	})
	if err != nil {
		return ProvisionedPerson{}, err
	}
	return s.ProvisionedPerson(ctx, c, id)
}

// ReplaceProvisionedPerson replaces what the client manages of a person: names, e-mail address, external
// id, and whether the person is active (see ApplyUserActive). The role, language and the rest stay. A
// person whose address changes is bound only by their subject from then on, so that a new address cannot
// take over an account nobody has signed in to yet; an admin's address cannot be changed here at all.
// Codes: 1003 no such person in the organization; 2000 a bad field, an admin's address, or an address
// at a domain another organization proved; ErrPersonExists; 4017 deactivating the last active admin.
func (s *Service) ReplaceProvisionedPerson(ctx context.Context, c SCIMClient, id uuid.UUID, f PersonFields) (ProvisionedPerson, error) {
	f, err := normalizePerson(f)
	if err != nil {
		return ProvisionedPerson{}, err
	}
	err = s.inTx(ctx, func(q *queries.Queries) error {
		before, err := q.UserGetForUpdate(ctx, queries.UserGetForUpdateParams{OrganizationID: c.OrganizationID, ID: id})
		if errors.Is(err, pgx.ErrNoRows) {
			return Errorf(CodeUserNotFound, "no user %s in your organization", id)
		}
		if err != nil {
			return fmt.Errorf("get user: %w", err)
		}
		if !strings.EqualFold(before.Email, f.Email) {
			if before.Role == string(RoleAdmin) {
				return Errorf(CodeInvalidRequest, "userName: the e-mail address of an admin cannot be changed through SCIM; an admin of the organization can change it")
			}
			if err := CheckPersonEmail(ctx, q, c.OrganizationID, "userName", f.Email); err != nil {
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
		_, err = q.UserReplaceProvisioned(ctx, queries.UserReplaceProvisionedParams{
			OrganizationID: c.OrganizationID, ID: id, Name: f.Name, Surname: f.Surname, Alias: before.Alias,
			Email: f.Email, ExternalID: given(f.ExternalID),
		})
		if isUniqueViolation(err) {
			return ErrPersonExists
		}
		if err != nil {
			return fmt.Errorf("replace user: %w", err)
		}
		old := provisioned(before)
		if err := recordChange(ctx, q, change{
			OrganizationID: c.OrganizationID, By: c.changer(), Action: AuditUpdate, Object: "users", ObjectID: id,
			Before: PersonFields{Email: old.Email, Name: old.Name, Surname: old.Surname, ExternalID: old.ExternalID, Active: old.Active}.audited(),
			After:  f.audited(),
		}); err != nil {
			return err
		}
		return s.ApplyUserActive(ctx, q, c.OrganizationID, id, f.Active, c.changer())
	})
	if err != nil {
		return ProvisionedPerson{}, err
	}
	return s.ProvisionedPerson(ctx, c, id)
}

// SetProvisionedPersonActive deactivates or reactivates a person of the client's organization (see
// ApplyUserActive).
// Codes: 1003 no such person in the organization.
func (s *Service) SetProvisionedPersonActive(ctx context.Context, c SCIMClient, id uuid.UUID, active bool) error {
	err := s.inTx(ctx, func(q *queries.Queries) error {
		return s.ApplyUserActive(ctx, q, c.OrganizationID, id, active, c.changer())
	})
	s.deactivations.Add(1)
	return err
}

// normalizePerson checks f and trims its fields.
// Codes: 2000 naming the bad field.
func normalizePerson(f PersonFields) (PersonFields, error) {
	f.Email, f.Name, f.Surname = strings.TrimSpace(f.Email), strings.TrimSpace(f.Name), strings.TrimSpace(f.Surname)
	f.ExternalID = strings.TrimSpace(f.ExternalID)
	if addr, err := mail.ParseAddress(f.Email); err != nil || addr.Address != f.Email || len(f.Email) > maxEmailLength {
		return f, Errorf(CodeInvalidRequest, "userName: %q is not an e-mail address", f.Email)
	}
	if f.Name == "" {
		f.Name, _, _ = strings.Cut(f.Email, "@")
	}
	for field, v := range map[string]string{"name.givenName": f.Name, "name.familyName": f.Surname} {
		if utf8.RuneCountInString(v) > maxNameLength {
			return f, Errorf(CodeInvalidRequest, "%s: at most %d characters", field, maxNameLength)
		}
	}
	if utf8.RuneCountInString(f.ExternalID) > maxExternalIDLength {
		return f, Errorf(CodeInvalidRequest, "externalId: at most %d characters", maxExternalIDLength)
	}
	return f, nil
}

// audited returns the fields as the audit log keeps them.
func (f PersonFields) audited() map[string]any {
	return map[string]any{"email": f.Email, "name": f.Name, "surname": f.Surname, "externalId": f.ExternalID, "active": f.Active}
}

func provisioned(r queries.User) ProvisionedPerson {
	p := ProvisionedPerson{User: userFromRow(r)}
	if r.ExternalID != nil {
		p.ExternalID = *r.ExternalID
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

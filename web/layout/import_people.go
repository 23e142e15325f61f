package layout

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// The import of organizations, their user rules and mobile roles, and their people.

func (im importer) organizations(ctx context.Context, l Layout) error {
	for i, o := range l.Organizations {
		a := at{"organizations", i}
		id, err := a.uuid("id", o.ID)
		if err != nil {
			return err
		}
		if err := a.required("name", o.Name); err != nil {
			return err
		}
		if err := im.q.OrganizationUpsert(ctx, queries.OrganizationUpsertParams{
			ID: id, Name: o.Name, AdditionalServicesActive: o.AdditionalServicesActive,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) namedRules(ctx context.Context, l Layout) error {
	for i, r := range l.UserRules {
		a := at{"userRules", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := im.q.UserRuleUpsert(ctx, queries.UserRuleUpsertParams{OrganizationID: org, ID: id, Name: r.Name}); err != nil {
			return a.db(err)
		}
	}
	for i, r := range l.MobileRoles {
		a := at{"mobileRoles", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := im.q.MobileRoleUpsert(ctx, queries.MobileRoleUpsertParams{OrganizationID: org, ID: id, Name: r.Name}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) users(ctx context.Context, l Layout) error {
	for i, u := range l.Users {
		a := at{"users", i}
		id, org, err := a.ids(u.ID, u.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", u.Name); err != nil {
			return err
		}
		if addr, err := mail.ParseAddress(u.Email); err != nil || addr.Address != u.Email {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("email"), "refusal.layout.notEmail", map[string]any{"Value": strconv.Quote(u.Email)})
		}
		if err := a.image("image", u.Image); err != nil {
			return err
		}
		var role *string
		if u.Role != "" {
			if _, err := a.oneOf("role", u.Role, "", string(booking.RoleEmployee), string(booking.RoleReceptionist), string(booking.RoleAdmin)); err != nil {
				return err
			}
			role = &u.Role
		}
		rule, err := a.optionalUUID("userRule.id", u.UserRule)
		if err != nil {
			return err
		}
		mobile, err := a.optionalUUID("mobileRole.id", u.MobileRole)
		if err != nil {
			return err
		}
		cur, err := im.q.UserImportState(ctx, queries.UserImportStateParams{OrganizationID: org, ID: id})
		exists := err == nil
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("get user: %w", err)
		}
		if !exists || !strings.EqualFold(cur.Email, u.Email) {
			if err := checkPersonEmail(ctx, im.q, org, fmt.Sprintf("users[%d].email", i), u.Email); err != nil {
				return err
			}
		}
		if err := im.checkSubject(a, u, cur, exists); err != nil {
			return err
		}
		demoted := exists && cur.Role == string(booking.RoleAdmin) && cur.Active && role != nil && *role != cur.Role
		if demoted && im.by.UserID == id {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("role"), "refusal.layout.changeOwnRole")
		}
		// A field left out (or empty) is NULL: an existing user keeps its value, a new one gets the default.
		// An oidcSubject of "" clears the subject.
		p := queries.UserUpsertParams{
			OrganizationID: org, ID: id, Name: u.Name, Email: u.Email, Surname: given(u.Surname), Alias: given(u.Alias),
			Image: given(u.Image), UserRuleID: rule, MobileRoleID: mobile, CanBeSearched: u.CanBeSearched,
			Type: given(u.Type), UserLanguage: given(u.UserLanguage), Role: role, OidcSubject: u.OIDCSubject,
		}
		if err := im.q.UserUpsert(ctx, p); err != nil {
			return a.db(err)
		}
		if demoted {
			if err := keepAnAdmin(ctx, im.q, org); err != nil {
				return err
			}
		}
		if u.Active != nil {
			// Through the domain, so that a deactivation releases the person's bookings as it does elsewhere.
			if err := im.setActive(ctx, org, id, *u.Active); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSubject refuses an admin's new oidcSubject for a person. Only the person's own sign-in binds an
// account to a subject; an admin who could set one could make another organization's person sign in to
// an account of theirs. Keeping the current subject or clearing it ("") is allowed. The operator's import
// may set any subject no other account has.
func (im importer) checkSubject(a at, u LayoutUser, cur queries.UserImportStateRow, exists bool) error {
	if im.by.UserID == uuid.Nil || u.OIDCSubject == nil || *u.OIDCSubject == "" {
		return nil
	}
	if exists && cur.OidcSubject != nil && *cur.OidcSubject == *u.OIDCSubject {
		return nil
	}
	return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("oidcSubject"), "refusal.layout.subjectNotYours")
}

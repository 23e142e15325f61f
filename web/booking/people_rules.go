package booking

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// The rules of people's accounts that more than one package applies in its own transaction: web/layout
// (the import and the Admin API) and web/identity (sign-in and SCIM).

// Changer names who changes a person's account, for the audit log: an admin (UserID set), a SCIM
// client, or an import.
type Changer struct {
	UserID uuid.UUID // uuid.Nil when no person made the change
	Label  string    // e.g. "SCIM token Okta" or "import"
}

// By returns the Changer for a change that u makes.
func By(u User) Changer { return Changer{UserID: u.ID, Label: personName(u.Name, u.Surname)} }

// Change is one change of a person's account, of the sign-in settings or of the SCIM tokens, as the
// audit log keeps it.
type Change struct {
	OrganizationID uuid.UUID
	By             Changer
	Action         AuditAction
	Object         string // the collection, e.g. "users"
	ObjectID       uuid.UUID
	Before, After  map[string]any // nil: none
}

// Entry returns c as an audit entry. It fails only when Before or After cannot be written as JSON.
func (c Change) Entry() (AuditEntry, error) {
	e := AuditEntry{
		OrganizationID: c.OrganizationID, ActorName: c.By.Label, Collection: c.Object, ObjectID: c.ObjectID,
		Action: c.Action,
	}
	if c.By.UserID != uuid.Nil {
		e.ActorID = &c.By.UserID
	}
	var err error
	if c.Before != nil {
		if e.Before, err = json.Marshal(c.Before); err != nil {
			return AuditEntry{}, fmt.Errorf("audit before: %w", err)
		}
	}
	if c.After != nil {
		if e.After, err = json.Marshal(c.After); err != nil {
			return AuditEntry{}, fmt.Errorf("audit after: %w", err)
		}
	}
	return e, nil
}

// CheckActiveChange refuses a change of a person's active that by may not make: nobody deactivates their
// own account.
// Codes: 2000.
func CheckActiveChange(by Changer, userID uuid.UUID, active bool) error {
	if !active && by.UserID == userID {
		return Refuse(CodeInvalidRequest, "refusal.layout.deactivateSelf")
	}
	return nil
}

// UserNotFound is the 1003 refusal of a change of a person the organization does not have.
func UserNotFound(id uuid.UUID) error {
	return Refuse(CodeUserNotFound, "refusal.layout.noUser", map[string]any{"ID": id.String()})
}

// ActiveAudit is the audit entry of a person's deactivation or reactivation by by: their active before
// and after, and the bookings the deactivation released.
func ActiveAudit(org, userID uuid.UUID, by Changer, was, active bool, released []uuid.UUID) (AuditEntry, error) {
	action := AuditReactivate
	if !active {
		action = AuditDeactivate
	}
	ids := make([]string, len(released))
	for i, id := range released {
		ids[i] = id.String()
	}
	return Change{
		OrganizationID: org, By: by, Action: action, Object: "users", ObjectID: userID,
		Before: map[string]any{"active": was},
		After:  map[string]any{"active": active, "releasedBookings": ids},
	}.Entry()
}

// CheckActiveAdmins refuses, with 4017, a change after which the organization has n = 0 active admins.
// Count them after the change, in its transaction, under the organization's admin lock.
func CheckActiveAdmins(n int64) error {
	if n == 0 {
		return Refuse(CodeLastAdmin, "refusal.layout.lastAdmin")
	}
	return nil
}

// EmailDomainOf returns the domain of an e-mail address, in lower case; "" if it has none.
func EmailDomainOf(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(email[at+1:]))
}

// CheckEmailHolders refuses an e-mail address for a person of org when another organization has proved
// the address's domain: that organization's people sign in with such addresses. holders are the
// organizations that proved the domain (the query EmailDomainHolder of EmailDomainOf(email)); a domain
// is held only when exactly one did. The message does not say who holds the domain. The Admin API, the
// people page, the layout import and SCIM all apply it.
// Codes: 2000.
func CheckEmailHolders(holders []uuid.UUID, org uuid.UUID, field, email string) error {
	if len(holders) == 1 && holders[0] != org {
		return FieldRefuse(CodeInvalidRequest, field, "refusal.layout.domainHeld", map[string]any{"Domain": EmailDomainOf(email)})
	}
	return nil
}

// MatchesVersion reports whether an If-Match header names version: "" and "*" match any, and a list
// matches when one of its tags does.
func MatchesVersion(ifMatch, version string) bool {
	if ifMatch == "" {
		return true
	}
	for _, tag := range strings.Split(ifMatch, ",") {
		if tag = strings.TrimSpace(tag); tag == "*" || tag == version {
			return true
		}
	}
	return false
}

// DeactivationCount grows whenever this instance deactivates someone (web/identity tells it through
// PeopleDeactivated), or changes a layout, which may deactivate people (LayoutChanged). A cache of
// verified bearer tokens compares it with the count it saw, so that a person deactivated here is refused
// at once; other instances refuse them once their cache entries expire.
func (s *Service) DeactivationCount() uint64 { return s.deactivations.Load() }

// PeopleDeactivated makes DeactivationCount grow, so that the bearer tokens this instance has verified
// are checked again. web/identity calls it when it deactivates or deletes someone.
func (s *Service) PeopleDeactivated() { s.deactivations.Add(1) }

// personName is a person's name and surname, as people read it.
func personName(name, surname string) string { return strings.TrimSpace(name + " " + surname) }

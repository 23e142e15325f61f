package layout

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// objectRef is one object of a document: its array, index, id and organization.
type objectRef struct {
	at
	id, org uuid.UUID
}

// objectRefs lists the objects of the document whose id and organizationId are UUIDs; the steps of
// Write refuse the others with their own message.
func objectRefs(l Layout) []objectRef {
	var refs []objectRef
	add := func(array string, i int, id, org string) {
		a := at{array, i}
		if i, o, err := a.ids(id, org); err == nil {
			refs = append(refs, objectRef{a, i, o})
		}
	}
	for i, o := range l.Organizations {
		add("organizations", i, o.ID, o.ID)
	}
	for i, o := range l.UserRules {
		add("userRules", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.MobileRoles {
		add("mobileRoles", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Users {
		add("users", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Buildings {
		add("buildings", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Floors {
		add("floors", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Subcategories {
		add("subcategories", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.ResourceRules {
		add("resourceRules", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Features {
		add("features", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Reservables {
		add("reservables", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Resources {
		add("resources", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Bookings {
		add("bookings", i, o.ID, o.OrganizationID)
	}
	for i, o := range l.Closures {
		add("closures", i, o.ID, o.OrganizationID)
	}
	return refs
}

// checkIDs refuses an object whose id another object holds, in the database or earlier in the
// document: one of another collection or another organization. Ids are global (bearer tokens find users
// by id in every organization), so an object is only ever updated in place, never created twice. It
// takes the lock that makes every such creation wait for this transaction.
func (im importer) checkIDs(ctx context.Context, l Layout) error {
	refs := objectRefs(l)
	if len(refs) == 0 {
		return nil
	}
	if err := im.q.ObjectIDsLock(ctx); err != nil {
		return fmt.Errorf("lock object ids: %w", err)
	}
	ids := make([]uuid.UUID, len(refs))
	for i, r := range refs {
		ids[i] = r.id
	}
	holders, err := im.q.ObjectIDHolders(ctx, ids)
	if err != nil {
		return fmt.Errorf("find object ids: %w", err)
	}
	held := make(map[uuid.UUID][]queries.ObjectIDHoldersRow, len(holders))
	for _, h := range holders {
		held[h.ID] = append(held[h.ID], h)
	}
	first := make(map[uuid.UUID]objectRef, len(refs))
	for _, r := range refs {
		if f, ok := first[r.id]; ok && (f.array != r.array || f.org != r.org) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, r.path("id"), "refusal.layout.idTaken")
		}
		first[r.id] = r
		for _, h := range held[r.id] {
			if h.Collection != r.array || h.OrganizationID != r.org {
				return booking.FieldRefuse(booking.CodeInvalidRequest, r.path("id"), "refusal.layout.idTaken")
			}
		}
	}
	return nil
}

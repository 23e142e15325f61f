package layout

import (
	"context"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// ImportSummary counts the objects of an imported layout, keyed by the name of their array in the
// document.
type ImportSummary map[string]int

// Import loads a layout document into the database in one transaction, so a bad document imports
// nothing. Closures come last, after the bookings, so a closure sees the bookings it would cover. Every object is inserted, or updated in place if its id already exists; nothing is deleted.
// A resource's features and services are replaced by the lists given. An optional user field that is
// left out keeps its stored value. Bookings are only inserted: an existing booking is left exactly as
// it is.
// Codes: 2000 naming the array, the index and the field of the first bad object; 4016 a closure that
// covers blocking bookings and says nothing about them (its message names the closure).
func (s *Service) Import(ctx context.Context, l Layout) (ImportSummary, error) {
	if err := s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error { return write(ctx, s.svc, q, ev, l, Operator) }); err != nil {
		return nil, err
	}
	return summarize(l), nil
}

// summarize counts the objects in the document.
func summarize(l Layout) ImportSummary {
	return ImportSummary{
		"organizations": len(l.Organizations), "userRules": len(l.UserRules), "mobileRoles": len(l.MobileRoles),
		"users": len(l.Users), "buildings": len(l.Buildings), "floors": len(l.Floors),
		"subcategories": len(l.Subcategories), "resourceRules": len(l.ResourceRules), "features": len(l.Features),
		"reservables": len(l.Reservables), "resources": len(l.Resources), "bookings": len(l.Bookings),
		"closures": len(l.Closures),
	}
}

// Operator names the service's operator, who loads documents with `booking import`, as the writer of a
// document.
var Operator = booking.Changer{Label: "import"}

// write inserts or updates every object in the document, parents before children, inside the transaction
// that q runs. An id that another object holds (of another collection or organization) is refused.
// Import and the admin operations both write through it, so both validate alike. A closure's save locks
// its building (saveClosure); a person's active follows the domain's rules of every deactivation
// (setActive).
//
// by is who writes, for the audit log and for the rules of people's accounts: Operator, or the admin
// (booking.By) who writes through the Admin API or the pages. An admin may keep or clear a person's
// oidcSubject, never set a new one (only the person's own sign-in does), and changes neither their own
// role nor their own active.
// Codes: 2000 naming the array, the index and the field of the first bad object; 4016 a closure that
// covers blocking bookings and says nothing about them; 4017 a change that leaves the organization
// without an active admin.
func write(ctx context.Context, svc *booking.Service, q *queries.Queries, ev *outbox.Batch, l Layout, by booking.Changer) error {
	im := importer{q: q, svc: svc, by: by, ev: ev}
	steps := []func(context.Context, Layout) error{
		im.checkIDs, im.organizations, im.namedRules, im.users, im.buildings, im.floors, im.subcategories,
		im.resourceRules, im.features, im.reservables, im.resources, im.bookings, im.closures,
	}
	for _, step := range steps {
		if err := step(ctx, l); err != nil {
			return err
		}
	}
	return nil
}

type importer struct {
	q   *queries.Queries
	svc *booking.Service
	by  booking.Changer
	ev  *outbox.Batch // the events of the bookings a closure or a deactivation cancels
}

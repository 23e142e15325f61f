package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// The domain tells nobody anything itself: each change records events in the outbox, in its own
// transaction (inTxTelling), and package notify turns them into e-mails and webhook deliveries.

// stateOf returns what an event says of b.
func stateOf(b Booking) outbox.State {
	return outbox.State{Revision: b.Revision, Status: string(b.Status), Start: b.Start, End: b.End, ResourceID: b.Resource.ID}
}

// tell adds to ev the event of a transition of kind k that turned before into after: none if k is "" or
// the booking did not change (a repeated cancellation, say). Package notify schedules the check-in
// reminder of a booking that waits for check-in when it works the event.
func tell(ev *outbox.Batch, k outbox.Kind, before, after Booking, now time.Time) {
	if k == "" || after.Revision == before.Revision {
		return
	}
	if after.SeriesID != nil && (k == outbox.Created || k == outbox.Changed || k == outbox.Cancelled) {
		// An occurrence is made, moved and cancelled with its series, which is told as one invitation
		// that repeats (a day cancelled on its own changes its series: tellSkipped). What happens to
		// one day alone (released, approved, rejected) is told of that day.
		return
	}
	e := outbox.New(k, after.OrganizationID, after.ID, now, stateOf(after))
	if k == outbox.ServicesChanged {
		e.DroppedServices = droppedServices(before.Reservables, after.Reservables)
	}
	ev.Add(e)
}

// droppedServices returns the services ordered in before and no longer in after.
func droppedServices(before, after []BookingReservable) []uuid.UUID {
	kept := make(map[uuid.UUID]bool, len(after))
	for _, br := range after {
		kept[br.Reservable.ID] = true
	}
	var out []uuid.UUID
	for _, br := range before {
		if !kept[br.Reservable.ID] {
			out = append(out, br.Reservable.ID)
		}
	}
	return out
}

// sameOrders reports whether two lists of contracted services order the same things.
func sameOrders(a, b []BookingReservable) bool {
	if len(a) != len(b) {
		return false
	}
	byID := make(map[uuid.UUID]BookingReservable, len(a))
	for _, br := range a {
		byID[br.Reservable.ID] = br
	}
	for _, br := range b {
		o, ok := byID[br.Reservable.ID]
		if !ok || o.Quantity != br.Quantity || o.DeliveryTime != br.DeliveryTime || o.Comment != br.Comment {
			return false
		}
	}
	return true
}

// expiredEvents returns the events of the bookings a sweep expired.
func expiredEvents(rows []queries.BookingsExpireNoShowsRow, now time.Time) []outbox.Event {
	out := make([]outbox.Event, len(rows))
	for i, r := range rows {
		out[i] = outbox.New(outbox.Expired, r.OrganizationID, r.ID, now, outbox.State{
			Revision: r.Revision, Status: r.Status, Start: r.StartDate, End: r.EndDate, ResourceID: r.ResourceID})
	}
	return out
}

// DeactivationEvents returns the events of the bookings that a deactivation released (see
// BookingsReleaseOfOrganizer): a booking under way was released, any other cancelled.
func DeactivationEvents(org uuid.UUID, rows []queries.BookingsReleaseOfOrganizerRow, now time.Time) []outbox.Event {
	out := make([]outbox.Event, len(rows))
	for i, r := range rows {
		k := outbox.Cancelled
		if Status(r.Status) == StatusFinished {
			k = outbox.Released
		}
		out[i] = outbox.New(k, org, r.ID, now, outbox.State{
			Revision: r.Revision, Status: r.Status, Start: r.StartDate, End: r.EndDate, ResourceID: r.ResourceID})
		out[i].Reason = outbox.ReasonDeactivated
	}
	return out
}

// ClosureEvents returns the events of the bookings that a closure cancelled.
func ClosureEvents(org uuid.UUID, rows []queries.ClosureBookingsCancelRow, now time.Time) []outbox.Event {
	out := make([]outbox.Event, len(rows))
	for i, r := range rows {
		out[i] = outbox.New(outbox.Cancelled, org, r.ID, now, outbox.State{
			Revision: r.Revision, Status: r.Status, Start: r.StartDate, End: r.EndDate, ResourceID: r.ResourceID})
		out[i].Reason = outbox.ReasonClosure
	}
	return out
}

// BookingToTell returns a booking of the organization, whatever its status, with the people it
// invites, for telling them about an event. Nobody's rights are checked: the outbox's workers call it,
// not a person.
// Codes: 1011 no such booking.
func (s *Service) BookingToTell(ctx context.Context, org, id uuid.UUID) (Booking, []Attendee, error) {
	row, err := s.q.BookingGet(ctx, queries.BookingGetParams{OrganizationID: org, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return Booking{}, nil, notFound(id)
	}
	if err != nil {
		return Booking{}, nil, fmt.Errorf("get booking: %w", err)
	}
	bs, err := s.hydrate(ctx, s.q, org, []queries.Booking{row})
	if err != nil {
		return Booking{}, nil, err
	}
	as, err := s.Attendees(ctx, bs[0])
	if err != nil {
		return Booking{}, nil, err
	}
	return bs[0], as, nil
}

package booking

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// ReservableOrder asks for a reservable on a booking. A nil DeliveryTime means the reservable's standard
// delivery time; a nil Quantity means 1.
type ReservableOrder struct {
	ReservableID uuid.UUID
	DeliveryTime *time.Duration
	Quantity     *int32
	Comment      string
}

// ContractReservables replaces the reservables contracted on the booking with orders, and returns the
// new set ordered by reservable name. An order for a reservable whose delivery time cannot be chosen gets
// the standard delivery time; comments are kept only if the reservable allows them.
// A contract may not be added, changed or removed less than its reservable's minimum cancellation time
// before the booking starts; contracts left unchanged are not affected.
// Codes: 2000 a reservable ordered twice; 1011 no such booking the actor may act on; 4007 the booking is no longer
// blocking (cancelled, rejected, expired, finished), or its check-in closed without a check-in; 4079 the
// organization has no additional-services module; 1002 the booked resource, its floor or building is
// deactivated or hidden; 1043 a reservable not associated with the booked resource; 4078 a quantity below
// 1, or other than 1 where quantity cannot be chosen; 4077 a delivery time outside [0, duration]; 4072 a
// change inside the minimum cancellation time.
func (s *Service) ContractReservables(ctx context.Context, actor User, bookingID uuid.UUID, orders []ReservableOrder) ([]BookingReservable, error) {
	seen := make(map[uuid.UUID]bool, len(orders))
	for i, o := range orders {
		if seen[o.ReservableID] {
			return nil, FieldRefuse(CodeInvalidRequest, fmt.Sprintf("reservableBookingList[%d].reservableId", i), "refusal.catalogue.listedTwice",
				map[string]any{"ID": o.ReservableID.String()})
		}
		seen[o.ReservableID] = true
	}
	out, err := s.transition(ctx, actor, bookingID, outbox.ServicesChanged, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		if !b.Status.Blocking() {
			return Booking{}, Refuse(CodeBookingNotModifiable, "refusal.catalogue.bookingIs", map[string]any{"Status": string(b.Status)})
		}
		if err := s.notOverdue(b, now); err != nil {
			return Booking{}, err
		}
		if err := servicesActive(ctx, q, b.OrganizationID); err != nil {
			return Booking{}, err
		}
		if !b.Resource.Bookable() {
			return Booking{}, Refuse(CodeResourceNotFound, "refusal.catalogue.resourceGone")
		}
		allowed, err := q.ReservablesOfResource(ctx, queries.ReservablesOfResourceParams{OrganizationID: b.OrganizationID, ResourceID: b.Resource.ID})
		if err != nil {
			return Booking{}, fmt.Errorf("get reservables of resource: %w", err)
		}
		next, err := priceOrders(orders, allowed, b.End.Sub(b.Start), contractField, false)
		if err != nil {
			return Booking{}, err
		}
		if err := checkCancellation(b.Reservables, next, b.Start, now); err != nil {
			return Booking{}, err
		}
		if sameOrders(b.Reservables, next) {
			return b, nil
		}
		if err := q.BookingReservablesDelete(ctx, queries.BookingReservablesDeleteParams{OrganizationID: b.OrganizationID, BookingID: b.ID}); err != nil {
			return Booking{}, fmt.Errorf("delete contracted reservables: %w", err)
		}
		if err := insertContracts(ctx, q, b, next); err != nil {
			return Booking{}, err
		}
		// Touch the booking so that its revision grows: the change is then told (see telling).
		rev, err := q.BookingTouch(ctx, queries.BookingTouchParams{OrganizationID: b.OrganizationID, ID: b.ID})
		if err != nil {
			return Booking{}, fmt.Errorf("touch booking: %w", err)
		}
		b.Revision = rev
		b.Reservables = sortedByName(next)
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return out.Reservables, nil
}

// servicesActive refuses with 4079 when the organization has not activated additional services.
func servicesActive(ctx context.Context, q *queries.Queries, org uuid.UUID) error {
	o, err := q.OrganizationGet(ctx, org)
	if err != nil {
		return fmt.Errorf("get organization: %w", err)
	}
	if !o.AdditionalServicesActive {
		return Refuse(CodeAdditionalServicesInactive, "refusal.catalogue.servicesInactive")
	}
	return nil
}

// insertContracts writes the contracts on booking b.
func insertContracts(ctx context.Context, q *queries.Queries, b Booking, brs []BookingReservable) error {
	for _, br := range brs {
		if err := q.BookingReservableInsert(ctx, queries.BookingReservableInsertParams{
			OrganizationID: b.OrganizationID, BookingID: b.ID, ReservableID: br.Reservable.ID,
			DeliveryTimeMs: br.DeliveryTime.Milliseconds(), Quantity: br.Quantity, Comment: br.Comment,
		}); err != nil {
			return fmt.Errorf("insert contracted reservable: %w", err)
		}
	}
	return nil
}

// orderField names an order of a new booking in CreateBookings' refusals.
const orderField = "reservables"

// contractNew checks the orders of a new booking b of resource res, made at now, and contracts them in
// the transaction of q. It runs the checks of ContractReservables, except that a standard delivery time
// after the end moves to the start. Codes: 4079, 1043, 4078, 4077, 4072 as ContractReservables.
func contractNew(ctx context.Context, q *queries.Queries, b Booking, orders []ReservableOrder, now time.Time) ([]BookingReservable, error) {
	if err := servicesActive(ctx, q, b.OrganizationID); err != nil {
		return nil, err
	}
	allowed, err := q.ReservablesOfResource(ctx, queries.ReservablesOfResourceParams{OrganizationID: b.OrganizationID, ResourceID: b.Resource.ID})
	if err != nil {
		return nil, fmt.Errorf("get reservables of resource: %w", err)
	}
	next, err := priceOrders(orders, allowed, b.End.Sub(b.Start), orderField, true)
	if err != nil {
		return nil, err
	}
	if err := checkCancellation(nil, next, b.Start, now); err != nil {
		return nil, err
	}
	if err := insertContracts(ctx, q, b, next); err != nil {
		return nil, err
	}
	return sortedByName(next), nil
}

// contractField names an order of ContractReservables in its refusals, as the API's body does.
const contractField = "reservableBookingList"

// priceOrders turns orders into contracts, checking each one against the reservables the resource
// offers (allowed) and the booking's duration. Refusals name the order as field[i]. If lateToStart is
// set, a standard delivery time that falls after the booking's end is moved to its start instead of
// being refused: a new booking's form offers the services of every day it books, and a lunch usually
// served at 12:30 still comes to a meeting that ends at 10:00.
func priceOrders(orders []ReservableOrder, allowed []queries.ReservablesOfResourceRow, duration time.Duration, field string, lateToStart bool) ([]BookingReservable, error) {
	byID := make(map[uuid.UUID]Reservable, len(allowed))
	for _, a := range allowed {
		byID[a.Reservable.ID] = reservableFromRow(a.Reservable)
	}
	out := make([]BookingReservable, 0, len(orders))
	for i, o := range orders {
		rv, ok := byID[o.ReservableID]
		if !ok {
			return nil, FieldRefuse(CodeResourceReservableNotFound, fmt.Sprintf("%s[%d]", field, i), "refusal.catalogue.notOffered",
				map[string]any{"ID": o.ReservableID.String()})
		}
		qty := int32(1)
		if o.Quantity != nil {
			qty = *o.Quantity
		}
		if qty < 1 || (!rv.ChooseQuantity && qty != 1) {
			if rv.ChooseQuantity {
				return nil, FieldRefuse(CodeReservableQuantity, fmt.Sprintf("%s[%d].quantity", field, i), "refusal.catalogue.quantityAtLeastOne",
					map[string]any{"Name": rv.Name})
			}
			return nil, FieldRefuse(CodeReservableQuantity, fmt.Sprintf("%s[%d].quantity", field, i), "refusal.catalogue.quantityExactlyOne",
				map[string]any{"Name": rv.Name})
		}
		delivery := rv.StandardDeliveryTime
		if lateToStart && delivery > duration {
			delivery = 0
		}
		if rv.ChooseDeliveryTime && o.DeliveryTime != nil {
			delivery = *o.DeliveryTime
		}
		if delivery < 0 || delivery > duration {
			return nil, FieldRefuse(CodeReservableDeliveryTime, fmt.Sprintf("%s[%d].deliveryTimeMs", field, i), "refusal.catalogue.deliveryTime",
				map[string]any{"Max": fmt.Sprint(duration.Milliseconds())})
		}
		comment := ""
		if rv.AllowComments {
			comment = o.Comment
		}
		out = append(out, BookingReservable{Reservable: rv, DeliveryTime: delivery, Quantity: qty, Comment: comment})
	}
	return out, nil
}

// contracts turns booking-reservable rows into contracts, in the same order.
func contracts(rows []queries.BookingReservablesOfBookingsRow) []BookingReservable {
	out := make([]BookingReservable, len(rows))
	for i, r := range rows {
		out[i] = BookingReservable{
			Reservable: reservableFromRow(r.Reservable), DeliveryTime: ms(r.BookingReservable.DeliveryTimeMs),
			Quantity: r.BookingReservable.Quantity, Comment: r.BookingReservable.Comment,
		}
	}
	return out
}

// checkCancellation compares the current contracts with next, and returns a 4072 error if any contract
// is added, changed or removed less than its reservable's minimum cancellation time before start.
func checkCancellation(current, next []BookingReservable, start, now time.Time) error {
	before := make(map[uuid.UUID]BookingReservable, len(current))
	for _, c := range current {
		before[c.Reservable.ID] = c
	}
	late := func(rv Reservable) error {
		if now.After(start.Add(-rv.MinimumCancellation)) {
			return Refuse(CodeMinCancellationOfReservable, "refusal.catalogue.tooLateToChange", map[string]any{
				"Name": rv.Name, "Before": humanOf(rv.MinimumCancellation)})
		}
		return nil
	}
	for _, n := range next {
		c, ok := before[n.Reservable.ID]
		delete(before, n.Reservable.ID)
		if ok && c.DeliveryTime == n.DeliveryTime && c.Quantity == n.Quantity && c.Comment == n.Comment {
			continue
		}
		if err := late(n.Reservable); err != nil {
			return err
		}
	}
	for _, removed := range current {
		if _, ok := before[removed.Reservable.ID]; ok {
			if err := late(removed.Reservable); err != nil {
				return err
			}
		}
	}
	return nil
}

// sortedByName sorts contracts by reservable name, then id, and returns them.
func sortedByName(brs []BookingReservable) []BookingReservable {
	slices.SortFunc(brs, func(a, b BookingReservable) int {
		if c := CompareNames(a.Reservable.Name, b.Reservable.Name); c != 0 {
			return c
		}
		return strings.Compare(a.Reservable.ID.String(), b.Reservable.ID.String())
	})
	return brs
}

package layout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// The import of bookings and closures, which come last: a closure sees the bookings it would cover.

func (im importer) bookings(ctx context.Context, l Layout) error {
	var statuses []string
	for _, st := range booking.Statuses() {
		statuses = append(statuses, string(st))
	}
	for i, b := range l.Bookings {
		a := at{"bookings", i}
		id, org, err := a.ids(b.ID, b.OrganizationID)
		if err != nil {
			return err
		}
		p := queries.BookingUpsertParams{
			OrganizationID: org, ID: id, StartDate: time.UnixMilli(b.StartDate), EndDate: time.UnixMilli(b.EndDate),
			Subject: b.Subject, BodyContent: b.Body.Content, CreateOnlineMeeting: b.CreateOnlineMeeting,
			SipAddress: b.SipAddress,
		}
		if p.ResourceID, err = a.uuid("resourceId", b.ResourceID); err != nil {
			return err
		}
		if p.CreatorID, err = a.uuid("creatorId", b.CreatorID); err != nil {
			return err
		}
		if p.OrganizerID, err = a.uuid("organizerId", b.OrganizerID); err != nil {
			return err
		}
		if b.EndDate <= b.StartDate {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("endDate"), "refusal.layout.endAfterStart")
		}
		if p.StartDate.Before(booking.MinTime) || p.EndDate.After(booking.MaxTime) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("startDate"), "refusal.layout.yearsRange")
		}
		if p.Status, err = a.oneOf("status", b.Status, string(booking.StatusPending), statuses...); err != nil {
			return err
		}
		if p.BodyType, err = a.oneOf("body.bodyType", b.Body.BodyType, "TEXT", booking.BodyTypes()...); err != nil {
			return err
		}
		if p.Importance, err = a.oneOf("importance", b.Importance, "LOW", booking.Importances()...); err != nil {
			return err
		}
		if p.BuildingAccessStatus, err = a.oneOf("buildingAccessStatus", b.BuildingAccessStatus, booking.BuildingAccessPending,
			booking.BuildingAccessPending, booking.BuildingAccessGranted, booking.BuildingAccessDenied); err != nil {
			return err
		}
		n, err := im.q.BookingUpsert(ctx, p)
		if err != nil {
			return a.db(err)
		}
		if n == 0 {
			// Nothing was written: either the booking already exists and is left as it is, or its resource
			// does not exist.
			_, err := im.q.BookingGet(ctx, queries.BookingGetParams{OrganizationID: org, ID: id})
			if errors.Is(err, pgx.ErrNoRows) {
				return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("resourceId"), "refusal.layout.unknownReference")
			}
			if err != nil {
				return fmt.Errorf("import %s[%d]: %w", a.array, a.index, err)
			}
		}
	}
	return nil
}

// MaxClosures is the largest number of closures one document may hold.
const MaxClosures = 1000

// closures saves each closure through saveClosure, which locks its building and
// applies its overlapping choice to the bookings it covers.
func (im importer) closures(ctx context.Context, l Layout) error {
	if len(l.Closures) > MaxClosures {
		return booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.tooManyClosures", map[string]any{"Max": fmt.Sprint(MaxClosures)})
	}
	for i, c := range l.Closures {
		a := at{"closures", i}
		spec, err := a.closure(c)
		if err != nil {
			return err
		}
		if err := im.saveClosure(ctx, spec); err != nil {
			var e *booking.Error
			switch {
			case errors.As(err, &e):
				return booking.InField(err, fmt.Sprintf("%s[%d]", a.array, a.index))
			case transient(err):
				// A closure waits for bookings of its building and they may wait for it: PostgreSQL breaks
				// such a deadlock, and the whole import is retried (Service.change).
				return fmt.Errorf("import %s[%d]: %w", a.array, a.index, err)
			}
			return a.db(err)
		}
	}
	return nil
}

// closure parses a closure of the document.
func (a at) closure(c LayoutClosure) (booking.ClosureSpec, error) {
	id, org, err := a.ids(c.ID, c.OrganizationID)
	if err != nil {
		return booking.ClosureSpec{}, err
	}
	spec := booking.ClosureSpec{
		Closure: booking.Closure{
			ID: id, OrganizationID: org, Start: time.UnixMilli(c.StartDate), End: time.UnixMilli(c.EndDate), Reason: c.Reason,
		},
		Overlapping: booking.OverlapChoice(c.Overlapping),
	}
	for _, f := range []struct {
		name, v string
		to      **uuid.UUID
	}{{"buildingId", c.BuildingID, &spec.BuildingID}, {"floorId", c.FloorID, &spec.FloorID}, {"resourceId", c.ResourceID, &spec.ResourceID}} {
		if f.v == "" {
			continue
		}
		id, err := a.uuid(f.name, f.v)
		if err != nil {
			return booking.ClosureSpec{}, err
		}
		*f.to = &id
	}
	return spec, nil
}

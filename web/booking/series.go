package booking

import (
	"context"
	"errors"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/lang"
)

// A series books one resource on the days a SeriesRule names, for one organizer. Each occurrence is an
// ordinary booking (with SeriesID set), made and checked exactly as CreateBookings makes and checks one,
// under the same constraints. The series itself keeps the rule, the days that have no booking (refused
// or skipped) and a revision: what one calendar invitation with an RRULE and its EXDATEs needs.

// SeriesMode says what happens when some days of a series are refused.
type SeriesMode string

// The modes. SeriesAll makes every occurrence or none; SeriesFree makes the free ones and names the
// others.
const (
	SeriesAll  SeriesMode = "ALL"
	SeriesFree SeriesMode = "FREE"
)

// The statuses of a series.
const (
	SeriesActive    = "ACTIVE"
	SeriesCancelled = "CANCELLED"
)

// Series is a recurring booking. Occurrences lists its days in order, when the operation that returned
// it says so; listings leave it nil.
type Series struct {
	ID             uuid.UUID
	OrganizationID uuid.UUID
	Organizer      User
	Creator        User
	Resource       Resource
	Rule           SeriesRule
	Timezone       string // the building's IANA zone, in which the rule's days and times are read
	Subject        string
	Mode           SeriesMode
	Status         string // SeriesActive or SeriesCancelled
	Revision       int32  // grows with every change: the SEQUENCE of the series' invitation
	Occurrences    []SeriesOccurrence
}

// SeriesOccurrence is one day of a series. Booking is the day's booking, or nil when the day has none.
// Refused says why the day has no booking (it was refused when the series was made), or, after a change
// in SeriesFree mode, why Booking kept its old times. Skipped is set for a day whose booking was
// cancelled on its own.
type SeriesOccurrence struct {
	Date    Date
	Booking *Booking
	Refused *Error
	Skipped bool
}

// SeriesRequest asks CreateSeries for a series of ResourceID, made by Creator for Organizer, who the
// caller has chosen as CreateBookings' callers do (ActingFor).
type SeriesRequest struct {
	Creator, Organizer User
	ResourceID         uuid.UUID
	Rule               SeriesRule
	Mode               SeriesMode
	Subject            string
}

// check refuses a request that is wrong whatever the layout. Codes: 2000.
func (r SeriesRequest) check() error {
	if r.ResourceID == uuid.Nil {
		return FieldRefuse(CodeInvalidRequest, "resource.id", "refusal.booking.required")
	}
	if err := checkMode(r.Mode); err != nil {
		return err
	}
	if utf8.RuneCountInString(r.Subject) > 255 {
		return FieldRefuse(CodeInvalidRequest, "subject", "refusal.booking.subjectTooLong")
	}
	return r.Rule.Check()
}

// checkMode refuses a mode that is neither ALL nor FREE. Codes: 2000.
func checkMode(m SeriesMode) error {
	if m != SeriesAll && m != SeriesFree {
		return FieldRefuse(CodeInvalidRequest, "mode", "refusal.booking.mustBeOneOf", map[string]any{"Values": "ALL, FREE"})
	}
	return nil
}

// CreateSeries makes the series r asks for and its occurrences, in one transaction. With SeriesAll,
// every occurrence is made or none, and the refusal names the first refused day; with SeriesFree, each
// free day is booked and each refused one is kept with its reason, in the returned Occurrences and in
// the series. A resource's rule that allows bookings only so far ahead refuses the later days like any
// other rule. The bookings record no event: the series is told as one (see createElement).
//
// Codes: 2000 a request out of bounds (SeriesRule.Check, the mode, the subject), or a first day before
// today in the building's zone; 1002 an unknown, deactivated or hidden resource; with SeriesAll, or
// with SeriesFree when no day can be booked, the code of the first refused day, as CreateBookings
// refuses one booking (4001, 4002, 4003, 4004, 4005, 4012, 4013, 4014); 5030 the layout kept changing.
func (s *Service) CreateSeries(ctx context.Context, r SeriesRequest) (Series, error) {
	if err := r.check(); err != nil {
		return Series{}, err
	}
	var out Series
	_, err := s.withCurrentLayout(ctx, r.Creator.OrganizationID, func(layout *orgLayout) ([]Booking, error) {
		var err error
		out, err = s.createSeries(ctx, r, layout)
		return nil, err
	})
	if err != nil {
		return Series{}, err
	}
	for _, o := range out.Occurrences {
		if o.Booking != nil {
			s.counts.created.Add(1)
		}
	}
	return out, nil
}

// seriesResource returns the bookable resource id names in layout, and its building's zone.
// Codes: 1002.
func seriesResource(layout *orgLayout, id uuid.UUID) (Resource, *time.Location, error) {
	held, ok := layout.byID[id]
	if !ok || !held.Bookable() {
		return Resource{}, nil, FieldRefuse(CodeResourceNotFound, "resource.id", "refusal.booking.noBookableResource", map[string]any{"ID": id.String()})
	}
	loc, err := Location(held.Floor.Building.Timezone)
	return *held, loc, err
}

// dayWords returns the data of a message that says e, a refusal of the occurrence on iv, with its day
// and times in front: "Tue 1 Dec, 09:00–18:00: Desk 1 is already booked during part of that time".
func dayWords(e *Error, iv Interval, timezone string, now time.Time) map[string]any {
	start, end := iv.local(timezone)
	return map[string]any{"When": lang.SpanOf{Start: start, End: end, Now: now}, "Reason": plain(e)}
}

// plain returns e without the element index a request of several bookings gives it.
func plain(e *Error) *Error {
	c := *e
	c.Index = nil
	return &c
}

// refusedDay reports whether err refuses one occurrence (a rule, a closure, an overlap, a held
// workstation), as opposed to a failure that stops the whole series.
func refusedDay(err error) bool {
	var held *errWorkstationHeld
	if errors.As(err, &held) {
		return true
	}
	var e *Error
	return errors.As(err, &e) && e.Code != CodeInternal && e.Code != CodeUnavailable
}

// sortOccurrences puts the occurrences in date order.
func sortOccurrences(occ []SeriesOccurrence) {
	slices.SortFunc(occ, func(a, b SeriesOccurrence) int { return a.Date.noon().Compare(b.Date.noon()) })
}

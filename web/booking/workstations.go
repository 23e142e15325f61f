package booking

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/lang"
)

// A person holds at most one workstation at any moment, whoever books it for them; spaces are exempt.
// The database enforces this (bookings_one_workstation_per_person, sql/0010); the code here only finds
// and names the desk already held, for the error message.

// oneWorkstationPerPerson is the name of the exclusion constraint over a person's workstation bookings.
const oneWorkstationPerPerson = "bookings_one_workstation_per_person"

// errWorkstationHeld carries a refusal by bookings_one_workstation_per_person out of the transaction it
// aborted. Once outside, nameHeldWorkstation can look up the desk already held and name it.
type errWorkstationHeld struct {
	person User
	iv     Interval
	index  *int
}

func (e *errWorkstationHeld) Error() string {
	return fmt.Sprintf("%s already has a workstation during part of that time", FullName(e.person))
}

// nameHeldWorkstation turns an errWorkstationHeld into a 4013 error that names the desk already held
// ("Lucía Fernández already has Desk 1.02 from 09:00 to 18:00 Madrid time on Mon 23 Nov"). Any other
// error is returned unchanged.
func (s *Service) nameHeldWorkstation(ctx context.Context, err error) error {
	var held *errWorkstationHeld
	if !errors.As(err, &held) {
		return err
	}
	h, lookErr := s.workstationHeld(ctx, held.person, []Interval{held.iv})
	if lookErr != nil {
		return lookErr
	}
	e := Refuse(CodeUserAlreadyHasWorkstation, "refusal.booking.alreadyHasDesk", map[string]any{"Person": FullName(held.person)})
	if h != nil { // else released meanwhile: still refused, without a name
		e = Refuse(CodeUserAlreadyHasWorkstation, "refusal.booking.alreadyHas", map[string]any{
			"Person": FullName(held.person), "Resource": h.ResourceName, "When": SpanOf(h.Interval, h.Timezone, s.now())})
	}
	if held.index != nil {
		return AtIndex(e, *held.index)
	}
	return e
}

// HeldWorkstation is a workstation booking that a person holds.
type HeldWorkstation struct {
	BookingID    uuid.UUID
	ResourceName string
	Interval     Interval
	Timezone     string // of the resource's building
}

// workstationHeld returns the first workstation booking of person that overlaps any of ivs, or nil.
func (s *Service) workstationHeld(ctx context.Context, person User, ivs []Interval) (*HeldWorkstation, error) {
	if len(ivs) == 0 {
		return nil, nil
	}
	starts, ends := make([]time.Time, len(ivs)), make([]time.Time, len(ivs))
	for i, iv := range ivs {
		starts[i], ends[i] = iv.Start, iv.End
	}
	rows, err := s.q.BookingWorkstationHeld(ctx, queries.BookingWorkstationHeldParams{
		OrganizationID: person.OrganizationID, OrganizerID: person.ID, FromDates: starts, ToDates: ends,
		Earliest: earliest(starts[0], starts...), Latest: latest(ends[0], ends...),
	})
	if err != nil {
		return nil, fmt.Errorf("find the workstation held: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	h := rows[0]
	return &HeldWorkstation{BookingID: h.ID, ResourceName: h.ResourceName,
		Interval: Interval{Start: h.StartDate, End: h.EndDate}, Timezone: h.Timezone}, nil
}

// FullName returns a user's name and surname: "Lucía Fernández".
func FullName(u User) string { return strings.TrimSpace(u.Name + " " + u.Surname) }

// SpanOf is iv as people say it in the time zone named timezone, as a phrase for a message's data:
// "from 09:00 to 18:00 Madrid time on Mon 23 Nov" (lang.Interval). A zone that does not load reads as
// UTC.
func SpanOf(iv Interval, timezone string, now time.Time) lang.IntervalOf {
	start, end := iv.local(timezone)
	return lang.IntervalOf{Start: start, End: end, Now: now}
}

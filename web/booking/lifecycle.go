package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// The lifecycle of a booking (DESIGN.md §4):
//
//	WAITING_APPROVAL → PENDING (approved) | REJECTED | CANCELLED | EXPIRED (undecided in time)
//	PENDING → ACTIVE (checked in) | EXPIRED (no check-in in time) | CANCELLED
//	ACTIVE → FINISHED (released, or over)
//
// Each transition locks the booking's row, so two of them on one booking happen one after the other.
// Repeating a check-in, a release or a cancellation that already happened answers the booking as it is,
// so that a client may retry safely.

// transition locks the booking, passes it to fn with the current time, and returns the booking fn
// returns. The lock and everything fn writes are one transaction.
// Codes: 1011 no such booking, or one the actor may not act on.
func (s *Service) transition(ctx context.Context, actor User, id uuid.UUID, fn func(q *queries.Queries, b Booking, now time.Time) (Booking, error)) (Booking, error) {
	org := actor.OrganizationID
	var out Booking
	err := s.inTx(ctx, func(q *queries.Queries) error {
		row, err := q.BookingGetForUpdate(ctx, queries.BookingGetForUpdateParams{OrganizationID: org, ID: id})
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && !canAct(actor, row)) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("get booking: %w", err)
		}
		bs, err := hydrate(ctx, q, org, []queries.Booking{row})
		if err != nil {
			return err
		}
		out, err = fn(q, bs[0], s.now())
		return err
	})
	return out, err
}

// withRow returns b updated with the row a transition wrote. A transition changes only the booking's own
// row: its people, contracts and (except for a move) resource stay as they were.
func (b Booking) withRow(row queries.Booking) Booking {
	return assemble(row, b.Resource, b.Creator, b.Organizer, b.Reservables)
}

// CheckIn checks the actor (or the person they act for) in to a booking: PENDING becomes ACTIVE. Check-in
// is open from the booking's CheckIn.Start until (not including) CheckIn.End.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is neither PENDING nor ACTIVE;
// 4010 check-in has not opened yet; 4011 check-in has closed.
func (s *Service) CheckIn(ctx context.Context, actor User, id uuid.UUID) (Booking, error) {
	return s.transition(ctx, actor, id, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		switch b.Status {
		case StatusActive:
			return b, nil
		case StatusPending:
		default:
			return Booking{}, Errorf(CodeBookingNotModifiable, "the booking is %s; only a PENDING booking can be checked in", b.Status)
		}
		if now.Before(b.CheckIn.Start) {
			return Booking{}, Errorf(CodeCheckInNotOpenYet, "check-in opens at %s", s.local(b, b.CheckIn.Start))
		}
		if !now.Before(b.CheckIn.End) {
			return Booking{}, Errorf(CodeCheckInClosed, "check-in closed at %s", s.local(b, b.CheckIn.End))
		}
		return setStatus(ctx, q, b, StatusActive, now)
	})
}

// CheckInByPosterCode checks user in to their booking of the resource with the poster code whose check-in
// is open now: the scan at the door. The actor is user or acts for them (see ActingFor).
// Codes: 1002 no resource with that poster code; 1012 no booking of user for that resource whose
// check-in is open now.
func (s *Service) CheckInByPosterCode(ctx context.Context, actor, user User, posterCode string) (Booking, error) {
	res, err := s.resourceByPosterCode(ctx, actor.OrganizationID, posterCode)
	if err != nil {
		return Booking{}, err
	}
	rows, err := s.q.BookingsToCheckIn(ctx, queries.BookingsToCheckInParams{
		OrganizationID: actor.OrganizationID, ResourceID: res.ID, UserID: user.ID, At: s.now(),
	})
	if err != nil {
		return Booking{}, fmt.Errorf("find booking to check in: %w", err)
	}
	if len(rows) == 0 {
		return Booking{}, Errorf(CodeNoBookingToCheckIn, "%s has no booking of %s whose check-in is open now", user.Name, res.Name)
	}
	return s.CheckIn(ctx, actor, rows[0].ID)
}

// CheckOut releases a checked-in booking: it becomes FINISHED and ends now, freeing the rest of its slot.
// Released before its start (check-in opens early), it is as if it had been cancelled.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is neither ACTIVE nor released
// already; 4072 released before its start while a contracted reservable can no longer be cancelled.
func (s *Service) CheckOut(ctx context.Context, actor User, id uuid.UUID) (Booking, error) {
	return s.transition(ctx, actor, id, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		switch {
		case b.Status == StatusFinished, b.Status == StatusCancelled && b.CheckedInAt != nil:
			return b, nil // released already
		case b.Status != StatusActive:
			return Booking{}, Errorf(CodeBookingNotModifiable, "the booking is %s; only a checked-in (ACTIVE) booking can be released", b.Status)
		}
		end := now.Truncate(time.Millisecond)
		switch {
		case !end.After(b.Start):
			if err := reservablesCancellable(b, now); err != nil {
				return Booking{}, err
			}
			return setStatus(ctx, q, b, StatusCancelled, now)
		case end.Before(b.End):
			row, err := q.BookingFinish(ctx, queries.BookingFinishParams{OrganizationID: b.OrganizationID, ID: b.ID, EndDate: end})
			if err != nil {
				return Booking{}, fmt.Errorf("finish booking: %w", err)
			}
			return b.withRow(row), nil
		}
		return setStatus(ctx, q, b, StatusFinished, now)
	})
}

// Cancel cancels a booking that is waiting for approval or for check-in. It is kept, CANCELLED, for history.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is checked in, over or decided, or
// its check-in has closed (it expires); 4072 a reservable contracted on it can no longer be cancelled.
func (s *Service) Cancel(ctx context.Context, actor User, id uuid.UUID) (Booking, error) {
	return s.transition(ctx, actor, id, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		switch b.Status {
		case StatusCancelled:
			return b, nil
		case StatusPending, StatusWaitingApproval:
		case StatusActive:
			return Booking{}, Errorf(CodeBookingNotModifiable, "the booking is checked in; release it instead")
		default:
			return Booking{}, Errorf(CodeBookingNotModifiable, "the booking is %s and can no longer be cancelled", b.Status)
		}
		if err := s.notOverdue(b, now); err != nil {
			return Booking{}, err
		}
		if err := reservablesCancellable(b, now); err != nil {
			return Booking{}, err
		}
		return setStatus(ctx, q, b, StatusCancelled, now)
	})
}

// Decide approves (PENDING, with its check-in window opened anew from now) or rejects (REJECTED) a booking
// that waits for approval.
// Codes: 1001 the actor is not an admin; 1011 no such booking; 4007 the booking does not wait for approval,
// or approving one whose check-in window has closed (it expires; it may still be rejected).
func (s *Service) Decide(ctx context.Context, actor User, id uuid.UUID, approved bool) (Booking, error) {
	if actor.Role != RoleAdmin {
		return Booking{}, Errorf(CodeForbidden, "only admins decide on bookings that need approval")
	}
	return s.transition(ctx, actor, id, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		if b.Status != StatusWaitingApproval {
			return Booking{}, Errorf(CodeBookingNotModifiable, "the booking is %s; only a booking waiting for approval can be approved or rejected", b.Status)
		}
		if !approved {
			return setStatus(ctx, q, b, StatusRejected, now)
		}
		if err := s.notOverdue(b, now); err != nil {
			return Booking{}, err // too late to approve; rejecting is still fine
		}
		loc, err := Location(b.Resource.Floor.Building.Timezone)
		if err != nil {
			return Booking{}, err
		}
		w := b.Resource.Rule.CheckInWindow(Interval{Start: b.Start, End: b.End}, b.AllDay, now, loc)
		row, err := q.BookingApprove(ctx, queries.BookingApproveParams{
			OrganizationID: b.OrganizationID, ID: b.ID, CheckInOpensAt: w.Start, CheckInClosesAt: w.End,
		})
		if err != nil {
			return Booking{}, fmt.Errorf("approve booking: %w", err)
		}
		return b.withRow(row), nil
	})
}

// BookingChange moves a booking: the fields set replace the booking's.
type BookingChange struct {
	ResourceID *uuid.UUID
	Start, End *time.Time
}

// Change moves a PENDING or WAITING_APPROVAL booking to another time, another resource, or both, under
// the rules of a new booking. On any error nothing changes. Afterwards the booking waits for approval if
// its resource requires it (unless it was approved and only got shorter), and for check-in otherwise.
// An all-day booking moved without new times covers the new resource's window on the same day; new times
// make it an ordinary booking. Contracted reservables move with it.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is not PENDING or WAITING_APPROVAL, or
// its check-in has closed (it expires); 2000 end not after start, or a resource of the other category;
// 4002 a new end in the past; 1002 the resource is unknown or not
// bookable; 4006 a workstation for a space booking; 4012, 4002, 4003, 4004, 4005 the resource's rule
// refuses; 1043 a contracted reservable the new resource does not offer; 4077 a delivery time beyond the
// new duration; 4072 a contracted reservable inside its minimum cancellation time; 4001 the new slot is
// taken; 4013 its person already holds another workstation during part of the new time.
func (s *Service) Change(ctx context.Context, actor User, id uuid.UUID, c BookingChange) (Booking, error) {
	b, err := s.transition(ctx, actor, id, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		if b.Status != StatusPending && b.Status != StatusWaitingApproval {
			return Booking{}, Errorf(CodeBookingNotModifiable, "the booking is %s; only a PENDING or WAITING_APPROVAL booking can be changed", b.Status)
		}
		if err := s.notOverdue(b, now); err != nil {
			return Booking{}, err
		}
		m := c.applyTo(b)
		if m.iv.Start.Equal(b.Start) && m.iv.End.Equal(b.End) && m.res.ID == b.Resource.ID {
			return b, nil
		}
		if err := s.checkMove(ctx, q, b, &m, now); err != nil {
			return Booking{}, err
		}
		if err := moveReservables(ctx, q, b, m.res, m.iv, now); err != nil {
			return Booking{}, err
		}
		return s.writeMove(ctx, q, b, m, now)
	})
	return b, s.nameHeldWorkstation(ctx, err)
}

// move is where and when a change puts a booking.
type move struct {
	res    Resource // only its id is known until checkMove
	rule   ResourceRule
	iv     Interval
	allDay bool
	loc    *time.Location
}

// applyTo returns the move c asks of b: what c leaves out stays as it is. New times make an all-day
// booking an ordinary one.
func (c BookingChange) applyTo(b Booking) move {
	m := move{res: b.Resource, iv: Interval{Start: b.Start, End: b.End}, allDay: b.AllDay}
	if c.Start != nil || c.End != nil {
		m.allDay = false
	}
	if c.Start != nil {
		m.iv.Start = *c.Start
	}
	if c.End != nil {
		m.iv.End = *c.End
	}
	if c.ResourceID != nil && *c.ResourceID != b.Resource.ID {
		m.res = Resource{ID: *c.ResourceID}
	}
	return m
}

// checkMove checks m as a new booking of b's category would be checked, and completes it: the resource,
// its rule and time zone, and the interval an all-day booking covers on the new resource.
// Codes: as Change, but for those of the status, the reservables and the database.
func (s *Service) checkMove(ctx context.Context, q *queries.Queries, b Booking, m *move, now time.Time) error {
	if err := checkTimes(m.iv, "startDate", "endDate"); err != nil {
		return err
	}
	if !m.iv.End.After(now) {
		return Errorf(CodeDateInThePast, "the booking would end at %s, in the past", s.local(b, m.iv.End))
	}
	// b's resource is complete as the booking was read; another one, or one no longer bookable, is looked up.
	if m.res.ID != b.Resource.ID || !m.res.Bookable() {
		var err error
		if m.res, err = bookableResource(ctx, q, b.OrganizationID, m.res.ID); err != nil {
			return err
		}
	}
	if err := checkCategory(m.res, b.ResourceType); err != nil {
		return err
	}
	var err error
	if m.loc, err = Location(m.res.Floor.Building.Timezone); err != nil {
		return err
	}
	m.rule = m.res.Rule
	if m.allDay {
		if m.iv, err = m.rule.AllDay(b.Start, now, m.loc); err != nil {
			return err
		}
		m.rule.MaximumDuration = 0 // allowing all-day bookings allows their length
	}
	// A start left as it was is not "in the past": an ongoing booking may still be lengthened or moved to
	// another room. Checked as of at most WalkUpGrace after that start, it passes that check and no other.
	checkAt := now
	if m.iv.Start.Equal(b.Start) && b.Start.Add(WalkUpGrace).Before(now) {
		checkAt = b.Start.Add(WalkUpGrace)
	}
	return m.rule.CheckInterval(m.iv, checkAt, m.loc)
}

// writeMove writes b moved as m says, with the status and check-in window that follow from it.
// Codes: 4001 the new slot is taken; 4013 its person already holds another workstation then.
func (s *Service) writeMove(ctx context.Context, q *queries.Queries, b Booking, m move, now time.Time) (Booking, error) {
	// Approval is asked again when the booking moves to another resource or grows beyond what was
	// approved; shortening an approved booking keeps it approved.
	status := StatusPending
	grows := m.iv.Start.Before(b.Start) || m.iv.End.After(b.End)
	if m.rule.RequiresApproval && (b.Status == StatusWaitingApproval || m.res.ID != b.Resource.ID || grows) {
		status = StatusWaitingApproval
	}
	// Only a new start or resource opens check-in anew: lengthening a booking does not postpone its expiry.
	w := m.rule.CheckInWindow(m.iv, m.allDay, now, m.loc)
	if m.iv.Start.Equal(b.Start) && m.res.ID == b.Resource.ID {
		w = Interval{Start: b.CheckIn.Start, End: earliest(b.CheckIn.End, m.iv.End)}
	}
	row, err := q.BookingMove(ctx, queries.BookingMoveParams{
		OrganizationID: b.OrganizationID, ID: b.ID, ResourceID: m.res.ID, FloorID: m.res.Floor.ID,
		StartDate: m.iv.Start, EndDate: m.iv.End, Status: string(status), AccessControlType: m.rule.AccessControlType,
		AllDay: m.allDay, CheckInOpensAt: w.Start, CheckInClosesAt: w.End,
	})
	if isWorkstationHeld(err) {
		return Booking{}, &errWorkstationHeld{person: b.Organizer, iv: m.iv}
	}
	if isExclusionViolation(err) {
		s.counts.conflicts.Add(1)
		return Booking{}, Errorf(CodeResourceNotAvailable, "%s is already booked during part of that time", m.res.Name)
	}
	if err != nil {
		return Booking{}, fmt.Errorf("move booking: %w", err)
	}
	return assemble(row, m.res, b.Creator, b.Organizer, b.Reservables), nil
}

// moveReservables checks that the reservables contracted on b can follow it to res and iv.
func moveReservables(ctx context.Context, q *queries.Queries, b Booking, res Resource, iv Interval, now time.Time) error {
	if len(b.Reservables) == 0 {
		return nil
	}
	offered := map[uuid.UUID]bool{}
	if res.ID != b.Resource.ID {
		rows, err := q.ReservablesOfResource(ctx, queries.ReservablesOfResourceParams{OrganizationID: b.OrganizationID, ResourceID: res.ID})
		if err != nil {
			return fmt.Errorf("get reservables of resource: %w", err)
		}
		for _, r := range rows {
			offered[r.Reservable.ID] = true
		}
	}
	for _, br := range b.Reservables {
		rv := br.Reservable
		if res.ID != b.Resource.ID && !offered[rv.ID] {
			return Errorf(CodeResourceReservableNotFound, "%s is contracted on this booking and %s does not offer it", rv.Name, res.Name)
		}
		if br.DeliveryTime > iv.End.Sub(iv.Start) {
			return Errorf(CodeReservableDeliveryTime, "%s is delivered %s after the start, later than the new end", rv.Name, human(br.DeliveryTime))
		}
		if now.After(b.Start.Add(-rv.MinimumCancellation)) || now.After(iv.Start.Add(-rv.MinimumCancellation)) {
			return Errorf(CodeMinCancellationOfReservable, "%s is contracted on this booking and can only be moved until %s before it starts", rv.Name, human(rv.MinimumCancellation))
		}
	}
	return nil
}

// overdue reports whether a booking still waits for check-in or approval after its check-in window
// closed. Such a booking is expired in all but name: the next sweep marks it EXPIRED.
func overdue(st Status, closes, now time.Time) bool {
	return (st == StatusPending || st == StatusWaitingApproval) && !now.Before(closes)
}

// notOverdue refuses to act on an overdue booking.
func (s *Service) notOverdue(b Booking, now time.Time) error {
	if overdue(b.Status, b.CheckIn.End, now) {
		return Errorf(CodeBookingNotModifiable, "check-in closed at %s without a check-in: the booking expires", s.local(b, b.CheckIn.End))
	}
	return nil
}

// reservablesCancellable refuses to drop a booking while a reservable contracted on it is inside its
// minimum cancellation time.
func reservablesCancellable(b Booking, now time.Time) error {
	if rv := lockingReservable(b, now); rv != nil {
		return Errorf(CodeMinCancellationOfReservable, "%s is contracted on this booking and can only be cancelled until %s before it starts",
			rv.Name, human(rv.MinimumCancellation))
	}
	return nil
}

// lockingReservable returns the first reservable contracted on b whose cancellation deadline
// (ReservableDeadline) has passed, which keeps b from being cancelled; nil when there is none.
func lockingReservable(b Booking, now time.Time) *Reservable {
	for _, br := range b.Reservables {
		if now.After(ReservableDeadline(b, br.Reservable)) {
			return &br.Reservable
		}
	}
	return nil
}

// setStatus moves b to the status and returns it as it now is.
func setStatus(ctx context.Context, q *queries.Queries, b Booking, st Status, now time.Time) (Booking, error) {
	row, err := q.BookingSetStatus(ctx, queries.BookingSetStatusParams{OrganizationID: b.OrganizationID, ID: b.ID, Status: string(st), Now: now})
	if err != nil {
		return Booking{}, fmt.Errorf("set booking status: %w", err)
	}
	return b.withRow(row), nil
}

// local formats t in the time zone of the booking's building.
func (s *Service) local(b Booking, t time.Time) string {
	if loc, err := Location(b.Resource.Floor.Building.Timezone); err == nil {
		t = t.In(loc)
	}
	return t.Format("2006-01-02 15:04 MST")
}

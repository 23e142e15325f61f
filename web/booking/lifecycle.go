package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/outbox"
)

// The lifecycle of a booking (DESIGN.md §4):
//
//	WAITING_APPROVAL → PENDING (approved) | REJECTED | CANCELLED | EXPIRED (undecided in time)
//	PENDING → ACTIVE (checked in) | EXPIRED (no check-in in time) | CANCELLED
//	ACTIVE → FINISHED (released, or over)
//
// Each transition locks the booking's row, so two transitions of one booking run one after the other.
// Repeating a check-in, release or cancellation that already happened returns the booking unchanged, so
// clients can retry safely.

// transition locks the booking's row, calls fn with the booking and the current time, and returns the
// booking fn returns. The lock and fn's writes share one transaction. If fn changed the booking, an event
// of the given kind is recorded in the same transaction (see tell).
// Codes: 1011 no such booking, or one the actor may not act on.
func (s *Service) transition(ctx context.Context, actor User, id uuid.UUID, kind outbox.Kind, fn func(q *queries.Queries, b Booking, now time.Time) (Booking, error)) (Booking, error) {
	org := actor.OrganizationID
	var out Booking
	err := s.inTxTelling(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		row, err := q.BookingGetForUpdate(ctx, queries.BookingGetForUpdateParams{OrganizationID: org, ID: id})
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && !canAct(actor, row)) {
			return notFound(id)
		}
		if err != nil {
			return fmt.Errorf("get booking: %w", err)
		}
		bs, err := s.hydrate(ctx, q, org, []queries.Booking{row})
		if err != nil {
			return err
		}
		now := s.now()
		if out, err = fn(q, bs[0], now); err != nil {
			return err
		}
		tell(ev, kind, bs[0], out, now)
		return tellSkipped(ctx, q, ev, bs[0], out, now)
	})
	return out, err
}

// withRow returns b updated from the row a transition wrote. A transition changes only the booking's own
// row: its people, its reservables and (except for a move) its resource stay the same.
func (b Booking) withRow(row queries.Booking) Booking {
	nb := assemble(row, b.Resource, b.Creator, b.Organizer, b.Reservables)
	nb.OnlineMeetingURL = b.OnlineMeetingURL // a transition never changes the online meeting
	return nb
}

// CheckIn checks in a booking: PENDING becomes ACTIVE. Check-in is open from CheckIn.Start up to, but not
// including, CheckIn.End. Checking in an ACTIVE booking again returns it unchanged.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is neither PENDING nor ACTIVE;
// 4010 check-in has not opened yet; 4011 check-in has closed.
func (s *Service) CheckIn(ctx context.Context, actor User, id uuid.UUID) (Booking, error) {
	return s.transition(ctx, actor, id, "", func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		switch b.Status {
		case StatusActive:
			return b, nil
		case StatusPending:
		default:
			return Booking{}, Refuse(CodeBookingNotModifiable, "refusal.lifecycle.checkInNotPending", map[string]any{"Status": string(b.Status)})
		}
		if now.Before(b.CheckIn.Start) {
			return Booking{}, Refuse(CodeCheckInNotOpenYet, "refusal.lifecycle.checkInOpensAt", map[string]any{"When": local(b, b.CheckIn.Start, now)})
		}
		if !now.Before(b.CheckIn.End) {
			return Booking{}, Refuse(CodeCheckInClosed, "refusal.lifecycle.checkInClosedAt", map[string]any{"When": local(b, b.CheckIn.End, now)})
		}
		return setStatus(ctx, q, b, StatusActive, now)
	})
}

// CheckInByPosterCode checks user in when they scan the poster at a resource's door. It checks in user's
// booking of the resource with that poster code whose check-in window is open now. The actor is user, or
// acts for user (see ActingFor).
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
		return Booking{}, Refuse(CodeNoBookingToCheckIn, "refusal.lifecycle.nothingToCheckIn", map[string]any{"Person": user.Name, "Resource": res.Name})
	}
	return s.CheckIn(ctx, actor, rows[0].ID)
}

// CheckOut releases a checked-in (ACTIVE) booking: it becomes FINISHED and ends now, freeing the rest of
// its slot. A booking released before its start (check-in opens early) becomes CANCELLED instead.
// Releasing a booking twice returns it unchanged.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is not ACTIVE and was not released
// before; 4072 released before its start while a contracted reservable can no longer be cancelled.
func (s *Service) CheckOut(ctx context.Context, actor User, id uuid.UUID) (Booking, error) {
	return s.transition(ctx, actor, id, outbox.Released, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		switch {
		case b.Status == StatusFinished, b.Status == StatusCancelled && b.CheckedInAt != nil:
			return b, nil // released already
		case b.Status != StatusActive:
			return Booking{}, Refuse(CodeBookingNotModifiable, "refusal.lifecycle.releaseNotActive", map[string]any{"Status": string(b.Status)})
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

// Cancel cancels a booking that is waiting for approval or for check-in. The booking is kept, CANCELLED,
// for history. Cancelling it twice returns it unchanged.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is checked in, over or decided, or
// its check-in window has closed (it is about to expire); 4072 a reservable contracted on it can no
// longer be cancelled.
func (s *Service) Cancel(ctx context.Context, actor User, id uuid.UUID) (Booking, error) {
	return s.transition(ctx, actor, id, outbox.Cancelled, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		switch b.Status {
		case StatusCancelled:
			return b, nil
		case StatusPending, StatusWaitingApproval:
		case StatusActive:
			return Booking{}, Refuse(CodeBookingNotModifiable, "refusal.lifecycle.releaseInstead")
		default:
			return Booking{}, Refuse(CodeBookingNotModifiable, "refusal.lifecycle.notCancellable", map[string]any{"Status": string(b.Status)})
		}
		if err := s.notOverdue(b, now); err != nil {
			return Booking{}, err
		}
		if err := reservablesCancellable(b, now); err != nil {
			return Booking{}, err
		}
		if err := skipOccurrence(ctx, q, b); err != nil {
			return Booking{}, err
		}
		return setStatus(ctx, q, b, StatusCancelled, now)
	})
}

// Decide approves or rejects a booking that is waiting for approval. An approved booking becomes PENDING
// with a new check-in window computed from now; a rejected one becomes REJECTED.
// Codes: 1001 the actor is not an admin; 1011 no such booking; 4007 the booking is not waiting for
// approval, or it is approved after its check-in window closed (it can still be rejected).
func (s *Service) Decide(ctx context.Context, actor User, id uuid.UUID, approved bool) (Booking, error) {
	if actor.Role != RoleAdmin {
		return Booking{}, Refuse(CodeForbidden, "refusal.lifecycle.onlyAdminsDecide")
	}
	kind := outbox.Approved
	if !approved {
		kind = outbox.Rejected
	}
	return s.transition(ctx, actor, id, kind, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		if b.Status != StatusWaitingApproval {
			return Booking{}, Refuse(CodeBookingNotModifiable, "refusal.lifecycle.notWaitingApproval", map[string]any{"Status": string(b.Status)})
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

// BookingChange says where and when to move a booking. Each field that is set replaces the booking's
// value; a nil field leaves it as it is.
type BookingChange struct {
	ResourceID *uuid.UUID
	Start, End *time.Time
}

// Change moves a PENDING or WAITING_APPROVAL booking to another time, another resource, or both, and
// checks it as it would check a new booking. On any error nothing changes. Afterwards the booking waits
// for approval if its resource requires it (unless it was approved and only got shorter); otherwise it
// waits for check-in. An all-day booking moved without new times covers the new resource's all-day
// window on the same day; new times make it an ordinary booking. Contracted reservables move with it.
// Codes: 1011 no such booking the actor may act on; 4007 the booking is not PENDING or WAITING_APPROVAL,
// or its check-in window has closed (it is about to expire); 2000 end not after start, or a resource of
// the other category; 4002 a new end in the past; 1002 the resource is unknown or not bookable; 4006 a
// workstation for a space booking; 4012, 4002, 4003, 4004, 4005 the resource's rule
// refuses; 4014 a closure of the resource, its floor or its building covers part of the new time; 1043 a
// contracted reservable the new resource does not offer; 4077 a delivery time beyond the
// new duration; 4072 a contracted reservable inside its minimum cancellation time; 4001 the new slot is
// taken, or the resource is in a neighbourhood for a team its organizer is not in; 4013 its person already holds another workstation during part of the new time.
func (s *Service) Change(ctx context.Context, actor User, id uuid.UUID, c BookingChange) (Booking, error) {
	b, err := s.transition(ctx, actor, id, outbox.Changed, func(q *queries.Queries, b Booking, now time.Time) (Booking, error) {
		if b.Status != StatusPending && b.Status != StatusWaitingApproval {
			return Booking{}, Refuse(CodeBookingNotModifiable, "refusal.lifecycle.notChangeable", map[string]any{"Status": string(b.Status)})
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
		if err := checkMoveClosures(ctx, q, b, m, now); err != nil {
			return Booking{}, err
		}
		if err := moveReservables(ctx, q, b, m.res, m.iv, now); err != nil {
			return Booking{}, err
		}
		return s.writeMove(ctx, q, b, m, now)
	})
	return b, s.nameHeldWorkstation(ctx, err)
}

// move is the resource and interval that a change gives a booking.
type move struct {
	res    Resource // only the ID is set until checkMove fills in the rest
	rule   ResourceRule
	iv     Interval
	allDay bool
	loc    *time.Location
}

// applyTo returns the move that c makes of b. Fields that c leaves nil keep b's values. New times turn
// an all-day booking into an ordinary one.
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

// checkMove checks m as it would check a new booking of b's category. It fills in m's resource, rule and
// time zone, and for an all-day booking the interval it covers on the new resource.
// Codes: those of Change, except the ones about the status, the reservables, 4001 taken and 4013.
func (s *Service) checkMove(ctx context.Context, q *queries.Queries, b Booking, m *move, now time.Time) error {
	if err := checkTimes(m.iv, "startDate", "endDate"); err != nil {
		return err
	}
	if !m.iv.End.After(now) {
		return Refuse(CodeDateInThePast, "refusal.lifecycle.wouldEndInPast", map[string]any{"When": local(b, m.iv.End, now)})
	}
	// b.Resource was read with the booking and is complete. Look up a different resource, or the same one
	// if it is no longer bookable, so that bookableResource refuses it.
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
		m.rule.MaximumDuration = 0 // a rule that allows all-day bookings allows their length
	}
	// An unchanged start does not count as "in the past": an ongoing booking may still be lengthened or
	// moved to another room. Checking as if the time were at most WalkUpGrace after that start lets the
	// start pass and changes no other check.
	checkAt := now
	if m.iv.Start.Equal(b.Start) && b.Start.Add(WalkUpGrace).Before(now) {
		checkAt = b.Start.Add(WalkUpGrace)
	}
	if err := m.rule.CheckInterval(m.iv, checkAt, m.loc); err != nil {
		return err
	}
	return checkTeamOnly(ctx, q, m.res, b.Organizer)
}

// writeMove applies m to b and sets the status and check-in window that follow from the move.
// Codes: 4001 the new slot is taken; 4013 the organizer already holds another workstation during part
// of the new time.
func (s *Service) writeMove(ctx context.Context, q *queries.Queries, b Booking, m move, now time.Time) (Booking, error) {
	// Approval is needed again when the booking moves to another resource or grows beyond the approved
	// interval; shortening an approved booking keeps it approved.
	status := StatusPending
	grows := m.iv.Start.Before(b.Start) || m.iv.End.After(b.End)
	if m.rule.RequiresApproval && (b.Status == StatusWaitingApproval || m.res.ID != b.Resource.ID || grows) {
		status = StatusWaitingApproval
	}
	// Only a new start or a new resource opens a new check-in window: lengthening a booking must not
	// postpone its expiry.
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
		return Booking{}, Refuse(CodeResourceNotAvailable, "refusal.lifecycle.alreadyBooked", map[string]any{"Resource": m.res.Name})
	}
	if err != nil {
		return Booking{}, fmt.Errorf("move booking: %w", err)
	}
	nb := assemble(row, m.res, b.Creator, b.Organizer, b.Reservables)
	nb.OnlineMeetingURL = b.OnlineMeetingURL
	return nb, nil
}

// moveReservables checks that the reservables contracted on b can move with it to res and iv.
// Codes: 1043 res does not offer one of them; 4077 a delivery time beyond the new duration; 4072 a
// reservable inside its minimum cancellation time.
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
			return Refuse(CodeResourceReservableNotFound, "refusal.lifecycle.reservableNotOffered", map[string]any{"Reservable": rv.Name, "Resource": res.Name})
		}
		if br.DeliveryTime > iv.End.Sub(iv.Start) {
			return Refuse(CodeReservableDeliveryTime, "refusal.lifecycle.deliveredAfterEnd", map[string]any{"Reservable": rv.Name, "After": humanOf(br.DeliveryTime)})
		}
		if now.After(b.Start.Add(-rv.MinimumCancellation)) || now.After(iv.Start.Add(-rv.MinimumCancellation)) {
			return Refuse(CodeMinCancellationOfReservable, "refusal.lifecycle.reservableLocksMove", map[string]any{"Reservable": rv.Name, "Before": humanOf(rv.MinimumCancellation)})
		}
	}
	return nil
}

// overdue reports whether a booking is still waiting for check-in or approval after its check-in window
// closed. Such a booking has in effect expired; the next sweep marks it EXPIRED.
func overdue(st Status, closes, now time.Time) bool {
	return (st == StatusPending || st == StatusWaitingApproval) && !now.Before(closes)
}

// notOverdue returns a 4007 error if b is overdue.
func (s *Service) notOverdue(b Booking, now time.Time) error {
	if overdue(b.Status, b.CheckIn.End, now) {
		return Refuse(CodeBookingNotModifiable, "refusal.lifecycle.expired", map[string]any{"When": local(b, b.CheckIn.End, now)})
	}
	return nil
}

// reservablesCancellable returns a 4072 error if a reservable contracted on b is inside its minimum
// cancellation time, since b can then no longer be cancelled.
func reservablesCancellable(b Booking, now time.Time) error {
	if rv := lockingReservable(b, now); rv != nil {
		return Refuse(CodeMinCancellationOfReservable, "refusal.lifecycle.reservableLocksCancel", map[string]any{
			"Reservable": rv.Name, "Before": humanOf(rv.MinimumCancellation)})
	}
	return nil
}

// lockingReservable returns the first reservable contracted on b whose cancellation deadline
// (ReservableDeadline) has passed, or nil. Such a reservable keeps b from being cancelled.
func lockingReservable(b Booking, now time.Time) *Reservable {
	for _, br := range b.Reservables {
		if now.After(ReservableDeadline(b, br.Reservable)) {
			return &br.Reservable
		}
	}
	return nil
}

// setStatus sets b's status to st and returns the updated booking.
func setStatus(ctx context.Context, q *queries.Queries, b Booking, st Status, now time.Time) (Booking, error) {
	row, err := q.BookingSetStatus(ctx, queries.BookingSetStatusParams{OrganizationID: b.OrganizationID, ID: b.ID, Status: string(st), Now: now})
	if err != nil {
		return Booking{}, fmt.Errorf("set booking status: %w", err)
	}
	return b.withRow(row), nil
}

// local is t in the time zone of the booking's building, in words, as a phrase (lang.Phrase) for a
// refusal's data: "09:50 Madrid time" on now's date there, "Tue 24 Nov 09:50 Madrid time" on another
// (MomentWords); in Spanish "a las 09:50 hora de Madrid", "el mar 24 nov a las 09:50 hora de Madrid".
func local(b Booking, t, now time.Time) lang.Phrase {
	return momentAt{t: t, timezone: b.Resource.Floor.Building.Timezone, now: now}
}

// momentAt is an instant in the time zone named timezone as a phrase, with the words a sentence needs
// before it in the reader's language ("at" is the message's own in English).
type momentAt struct {
	t        time.Time
	timezone string
	now      time.Time
}

func (m momentAt) In(ctx context.Context) string {
	loc, err := Location(m.timezone)
	tz := m.timezone
	if err != nil {
		loc, tz = time.UTC, "UTC"
	}
	t, now := m.t.In(loc), m.now.In(loc)
	ty, tm, td := t.Date()
	if ny, nm, nd := now.Date(); ty == ny && tm == nm && td == nd {
		return lang.T(ctx, "refusal.lifecycle.atClock", map[string]any{"Clock": lang.Clock(t), "Zone": lang.Zone(ctx, tz)})
	}
	return lang.T(ctx, "refusal.lifecycle.atDayClock", map[string]any{
		"Day": lang.Day(ctx, t, now), "Clock": lang.Clock(t), "Zone": lang.Zone(ctx, tz)})
}

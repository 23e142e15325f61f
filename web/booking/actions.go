package booking

import (
	"context"
	"fmt"
	"time"
)

// BookingActions tells what can be done to a booking at a moment, so that pages offer only that, and why
// not where that helps. The methods that act (CheckIn, CheckOut, Cancel, Change, ContractReservables)
// decide alone; this only reads the same rules ahead of them.
type BookingActions struct {
	CheckIn       bool // PENDING and its check-in window is open
	CheckInLater  bool // PENDING and its check-in window opens later (at CheckIn.Start)
	CheckInClosed bool // PENDING or WAITING_APPROVAL and its check-in window closed: it expires
	Release       bool // ACTIVE: can be released early (checked out)
	Change        bool // its time can be changed
	Cancel        bool // it can be cancelled now
	// CancelLockedBy is the contracted reservable that can no longer be cancelled, which alone keeps the
	// booking from being cancelled (or, checked in early, from being released before its start); nil when
	// none does.
	CancelLockedBy *Reservable
	// Services tells whether reservables can be contracted, changed or removed at all (each still has its
	// own deadline, ReservableDeadline).
	Services bool
}

// ActionsAt returns what can be done to the booking at now, by someone who may act on it.
func (b Booking) ActionsAt(now time.Time) BookingActions {
	var a BookingActions
	waiting := b.Status == StatusPending || b.Status == StatusWaitingApproval
	overdue := overdue(b.Status, b.CheckIn.End, now)
	a.CheckInClosed = overdue
	if b.Status == StatusPending && !overdue {
		a.CheckIn = !now.Before(b.CheckIn.Start)
		a.CheckInLater = !a.CheckIn
	}
	a.Release = b.Status == StatusActive
	a.Change = waiting && !overdue
	a.Cancel = waiting && !overdue
	a.Services = b.Status.Blocking() && !overdue
	// Released before its start, a booking is as good as cancelled (CheckOut): its services must allow it.
	releasedBeforeStart := a.Release && !now.Truncate(time.Millisecond).After(b.Start)
	if !a.Cancel && !releasedBeforeStart {
		return a
	}
	if rv := lockingReservable(b, now); rv != nil {
		a.CancelLockedBy = rv
		a.Cancel, a.Release = false, false
	}
	return a
}

// ReservableDeadline is the last moment the reservable can be added to, changed on or removed from the
// booking: its minimum cancellation time before the start.
func ReservableDeadline(b Booking, rv Reservable) time.Time {
	return b.Start.Add(-rv.MinimumCancellation)
}

// AdditionalServicesActive reports whether the actor's organization has the additional-services module,
// without which no reservable can be contracted (4079).
func (s *Service) AdditionalServicesActive(ctx context.Context, actor User) (bool, error) {
	o, err := s.q.OrganizationGet(ctx, actor.OrganizationID)
	if err != nil {
		return false, fmt.Errorf("get organization: %w", err)
	}
	return o.AdditionalServicesActive, nil
}

// ActableBy reports whether u may act on the booking (check in, release, cancel, change, order services):
// its organizer and creator, and the receptionists and admins of its organization. Its other attendees
// only see it.
func (b Booking) ActableBy(u User) bool {
	return mayAct(u, b.OrganizationID, b.Organizer.ID, b.Creator.ID)
}

package booking

import (
	"context"
	"fmt"
	"time"
)

// BookingActions says what can be done to a booking at a given moment, so that pages offer only those
// actions, and explain why not where that helps. It only predicts: the methods that act (CheckIn,
// CheckOut, Cancel, Change, ContractReservables) apply the same rules and have the final word.
type BookingActions struct {
	CheckIn       bool // PENDING and its check-in window is open
	CheckInLater  bool // PENDING and its check-in window opens later (at CheckIn.Start)
	CheckInClosed bool // PENDING or WAITING_APPROVAL and its check-in window closed: it expires
	Release       bool // ACTIVE: can be released early (checked out)
	Change        bool // its time can be changed
	Cancel        bool // it can be cancelled now
	// CancelLockedBy is a contracted reservable that can no longer be cancelled, and therefore keeps the
	// booking from being cancelled (or, if checked in early, from being released before its start). It
	// is nil if there is none.
	CancelLockedBy *Reservable
	// Services reports whether reservables can be contracted, changed or removed at all. Each one still
	// has its own deadline (see ReservableDeadline).
	Services bool
}

// ActionsAt returns what someone who may act on the booking can do to it at now.
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
	// Releasing a booking before its start cancels it (see CheckOut), so its reservables must allow that.
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

// ReservableDeadline returns the last moment rv can be added to, changed on or removed from b: its
// minimum cancellation time before b starts.
func ReservableDeadline(b Booking, rv Reservable) time.Time {
	return b.Start.Add(-rv.MinimumCancellation)
}

// AdditionalServicesActive reports whether the actor's organization has the additional-services module.
// Without it, no reservable can be contracted (4079).
func (s *Service) AdditionalServicesActive(ctx context.Context, actor User) (bool, error) {
	o, err := s.q.OrganizationGet(ctx, actor.OrganizationID)
	if err != nil {
		return false, fmt.Errorf("get organization: %w", err)
	}
	return o.AdditionalServicesActive, nil
}

// ActableBy reports whether u may act on the booking (check in, release, cancel, change, order
// services). Its organizer, its creator, and the receptionists and admins of its organization may. Other
// attendees can only see it.
func (b Booking) ActableBy(u User) bool {
	return mayAct(u, b.OrganizationID, b.Organizer.ID, b.Creator.ID)
}

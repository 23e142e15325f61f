package booking_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Edge cases of the lifecycle: rules without a check-in deadline, bookings whose check-in closed before the
// sweep ran, and moves and releases that could otherwise get around a rule.

// contractCoffee contracts one coffee (2 h minimum cancellation) on the booking.
func contractCoffee(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID) {
	t.Helper()
	if _, err := b.Service.ContractReservables(t.Context(), u, id, []booking.ReservableOrder{{ReservableID: bookingtest.ReservableCoffee}}); err != nil {
		t.Fatalf("ContractReservables: %v", err)
	}
}

func TestNoCheckInDeadline(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	// The desks' rule has no expiration margin: check-in stays open until the end.

	t.Run("Booked", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createDesk(t, b, u.alice, bookingtest.Request(bookingtest.DeskOne, at(1, 10, 0), at(1, 18, 0)))
		wantInterval(t, "CheckIn", bk.CheckIn, booking.Interval{Start: at(1, 10, 0), End: at(1, 18, 0)})
		b.Clock.Set(at(1, 17, 0))
		if got := sweep(t, b); got.Expired != 0 {
			t.Errorf("Sweep at 17:00 expired %d, want 0", got.Expired)
		}
		checkIn(t, b, u.alice, bk.ID, at(1, 17, 59))
	})

	t.Run("Imported", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		lb := bookingtest.LayoutBooking(bookingtest.DeskOne, at(1, 10, 0), at(1, 18, 0), booking.StatusPending)
		importBookings(t, b, lb)
		id := uuid.MustParse(lb.ID)
		wantInterval(t, "stored CheckIn", reread(t, b, id).CheckIn, booking.Interval{Start: at(1, 10, 0), End: at(1, 18, 0)})
		b.Clock.Set(at(1, 10, 0))
		if got := sweep(t, b); got.Expired != 0 {
			t.Errorf("Sweep at the start expired %d, want 0", got.Expired)
		}
		b.Clock.Set(at(1, 18, 0))
		if got := sweep(t, b); got.Expired != 1 {
			t.Errorf("Sweep at the end expired %d, want 1 (never checked in)", got.Expired)
		}
	})

	t.Run("ImportedWithMargin", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusPending)
		importBookings(t, b, lb)
		wantInterval(t, "stored CheckIn", reread(t, b, uuid.MustParse(lb.ID)).CheckIn, booking.Interval{Start: at(1, 9, 50), End: at(1, 10, 15)})
	})
}

func TestOverdue(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	// Goya today 10:00–12:00, made at 09:00: check-in closed at 10:15, and at 10:40 no sweep has run yet.
	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 10, 0), at(0, 12, 0)))
		b.Clock.Set(at(0, 10, 40))
		return b, u, bk
	}
	velazquez := bookingtest.RoomVelazquez

	for _, tc := range []struct {
		name string
		do   func(b *bookingtest.Bundle, u users, id uuid.UUID) error
		want booking.Code
	}{
		{"CheckIn", func(b *bookingtest.Bundle, u users, id uuid.UUID) error {
			_, err := b.Service.CheckIn(t.Context(), u.alice, id)
			return err
		}, booking.CodeCheckInClosed},
		{"Cancel", func(b *bookingtest.Bundle, u users, id uuid.UUID) error {
			_, err := b.Service.Cancel(t.Context(), u.alice, id)
			return err
		}, booking.CodeBookingNotModifiable},
		{"MoveToAnotherRoom", func(b *bookingtest.Bundle, u users, id uuid.UUID) error {
			_, err := b.Service.Change(t.Context(), u.alice, id, booking.BookingChange{ResourceID: &velazquez})
			return err
		}, booking.CodeBookingNotModifiable},
		{"ContractReservables", func(b *bookingtest.Bundle, u users, id uuid.UUID) error {
			_, err := b.Service.ContractReservables(t.Context(), u.alice, id, []booking.ReservableOrder{})
			return err
		}, booking.CodeBookingNotModifiable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			bookingtest.WantCode(t, tc.do(b, u, bk.ID), tc.want)
			wantSame(t, reread(t, b, bk.ID), bk)
			if got := sweep(t, b); got.Expired != 1 {
				t.Errorf("Sweep expired %d, want 1", got.Expired)
			}
		})
	}
}

func TestChangeEdges(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("EndInThePastIs4002", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 12, 0)))
		b.Clock.Set(at(0, 9, 10)) // check-in still open
		end := at(0, 9, 5)
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, booking.BookingChange{End: &end})
		bookingtest.WantCode(t, err, booking.CodeDateInThePast)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	// The Boardroom needs approval. Start from an approved booking for 10:00–11:00 tomorrow.
	approved := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		bk, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		if err != nil {
			t.Fatalf("Decide: %v", err)
		}
		return b, u, bk
	}
	for _, tc := range []struct {
		name       string
		start, end time.Time
		want       booking.Status
	}{
		{"ShrinkingKeepsApproval", at(1, 10, 0), at(1, 10, 30), booking.StatusPending},
		{"StartingLaterKeepsApproval", at(1, 10, 30), at(1, 11, 0), booking.StatusPending},
		{"EndingLaterAsksAgain", at(1, 10, 0), at(1, 11, 30), booking.StatusWaitingApproval},
		{"StartingEarlierAsksAgain", at(1, 9, 30), at(1, 11, 0), booking.StatusWaitingApproval},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := approved(t)
			got, err := b.Service.Change(t.Context(), u.alice, bk.ID, booking.BookingChange{Start: &tc.start, End: &tc.end})
			if err != nil {
				t.Fatalf("Change: %v", err)
			}
			wantStatus(t, got, tc.want)
			wantStored(t, b, bk.ID, tc.want)
		})
	}
}

func TestReleaseBeforeStart(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	// Goya today 11:00–12:00 (check-in from 10:50), coffee contracted (2 h minimum cancellation).
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	b.Clock.Set(at(0, 8, 0))
	bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 11, 0), at(0, 12, 0)))
	contractCoffee(t, b, u.alice, bk.ID)
	checkIn(t, b, u.alice, bk.ID, at(0, 10, 55))
	b.Clock.Set(at(0, 10, 58))
	_, err := b.Service.CheckOut(t.Context(), u.alice, bk.ID)
	bookingtest.WantCode(t, err, booking.CodeMinCancellationOfReservable)
	wantStored(t, b, bk.ID, booking.StatusActive)
}

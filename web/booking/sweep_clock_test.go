package booking_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The sweep uses the database's clock to decide what has expired, so an instance whose own clock is years
// off neither expires a booking early nor leaves a no-show in place.
func TestSweepUsesTheDatabaseClock(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	// pending books Goya on the given day, as if the booking were made an hour before it starts.
	pending := func(t *testing.T, b *bookingtest.Bundle, day int) booking.Booking {
		t.Helper()
		b.Clock.Set(at(day, 9, 0))
		return createOne(t, b, fixtureUsers(t, b).alice, bookingtest.Request(bookingtest.RoomGoya, at(day, 10, 0), at(day, 11, 0)))
	}
	// instance returns a service set up as serve sets it up, with its own clock at now.
	instance := func(b *bookingtest.Bundle, now time.Time) *booking.Service {
		return booking.NewService(b.Pool, booking.WithClock(func() time.Time { return now }))
	}
	sweepWith := func(t *testing.T, svc *booking.Service) booking.SweepResult {
		t.Helper()
		res, err := svc.Sweep(t.Context())
		if err != nil {
			t.Fatalf("Sweep: %v", err)
		}
		return res
	}

	t.Run("ClockAhead", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		future := pending(t, b, 3*365) // check-in closes in about three years
		past := pending(t, b, -3*365)  // closed about three years ago
		wantSweep(t, sweepWith(t, instance(b, at(20*365, 12, 0))), booking.SweepResult{Expired: 1})
		wantStored(t, b, future.ID, booking.StatusPending)
		wantStored(t, b, past.ID, booking.StatusExpired)
	})

	t.Run("ClockBehind", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		past := pending(t, b, -3*365)
		wantSweep(t, sweepWith(t, instance(b, at(-20*365, 12, 0))), booking.SweepResult{Expired: 1})
		wantStored(t, b, past.ID, booking.StatusExpired)
	})
}

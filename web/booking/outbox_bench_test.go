package booking_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// BenchmarkCreateWithOutbox books one room after another with the outbox on (the event and the check-in
// reminder written in the booking's transaction) and off (WithoutEvents: a single statement), side by
// side on one database.
func BenchmarkCreateWithOutbox(b *testing.B) {
	on := bookingtest.Setup(b)
	off := booking.NewService(on.Pool, booking.WithClock(on.Clock.Now), booking.WithoutEvents())
	alice := on.User(b, bookingtest.OrgA, bookingtest.Alice)
	next := bookingtest.At(1, 8, 0)
	for _, c := range []struct {
		name string
		svc  *booking.Service
	}{{"outbox=on", on.Service}, {"outbox=off", off}, {"outbox=on#2", on.Service}, {"outbox=off#2", off}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				start := next
				on.Clock.Set(start.Add(-time.Hour)) // keeps every slot within the rule's 30 days ahead
				next = next.Add(15 * time.Minute)
				if next.Hour() >= 20 {
					next = time.Date(next.Year(), next.Month(), next.Day()+1, 8, 0, 0, 0, next.Location())
				}
				_, err := c.svc.CreateBookings(b.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace,
					Bookings: []booking.NewBooking{{ResourceID: bookingtest.RoomVelazquez, Start: start, End: start.Add(15 * time.Minute)}}})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

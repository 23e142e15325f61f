package layout_test

import (
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// alice is the fixture's Alice, loaded from the database.
func alice(t *testing.T, b *bookingtest.Bundle) booking.User {
	t.Helper()
	return b.User(t, bookingtest.OrgA, bookingtest.Alice)
}

// mustCreate books spaces for u and fails the test on any error.
func mustCreate(t *testing.T, b *bookingtest.Bundle, u booking.User, reqs ...booking.NewBooking) []booking.Booking {
	t.Helper()
	bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: u, Organizer: u, Category: booking.CategorySpace, Bookings: reqs})
	if err != nil {
		t.Fatalf("CreateBookings: %v", err)
	}
	return bs
}

// importBookings loads bookings through Import and fails the test on any error.
func importBookings(t *testing.T, b *bookingtest.Bundle, bs ...layout.LayoutBooking) {
	t.Helper()
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Bookings: bs}); err != nil {
		t.Fatalf("Import bookings: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }

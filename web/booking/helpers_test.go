package booking_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// Helpers shared by the service tests of this package.

// wantNoBookings fails the test if any booking or attendee was written.
func wantNoBookings(t *testing.T, b *bookingtest.Bundle) {
	t.Helper()
	if got := bookingtest.TableCount(t, b, "bookings"); got != 0 {
		t.Errorf("bookings = %d rows, want 0", got)
	}
	if got := bookingtest.TableCount(t, b, "booking_attendees"); got != 0 {
		t.Errorf("booking_attendees = %d rows, want 0", got)
	}
}

// wantIndex fails the test unless err is a domain error naming element want. A want of -1 means no
// index.
func wantIndex(t *testing.T, err error, want int) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *booking.Error", err)
	}
	got := -1
	if e.Index != nil {
		got = *e.Index
	}
	if got != want {
		t.Fatalf("Index = %d, want %d (err: %v)", got, want, err)
	}
}

// users holds the fixture's people, loaded from the database.
type users struct {
	alice, bob, rita, adam, boris booking.User
}

func fixtureUsers(t *testing.T, b *bookingtest.Bundle) users {
	t.Helper()
	return users{
		alice: b.User(t, bookingtest.OrgA, bookingtest.Alice),
		bob:   b.User(t, bookingtest.OrgA, bookingtest.Bob),
		rita:  b.User(t, bookingtest.OrgA, bookingtest.Rita),
		adam:  b.User(t, bookingtest.OrgA, bookingtest.Adam),
		boris: b.User(t, bookingtest.OrgB, bookingtest.Boris),
	}
}

// book calls CreateBookings with creator, organizer and category, without an access token or
// idempotency key, and returns its result.
func book(t *testing.T, b *bookingtest.Bundle, creator, organizer booking.User, c booking.Category, reqs ...booking.NewBooking) ([]booking.Booking, error) {
	t.Helper()
	return b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: creator, Organizer: organizer, Category: c, Bookings: reqs})
}

// mustBook is like book but fails the test on any error.
func mustBook(t *testing.T, b *bookingtest.Bundle, creator, organizer booking.User, c booking.Category, reqs ...booking.NewBooking) []booking.Booking {
	t.Helper()
	bs, err := book(t, b, creator, organizer, c, reqs...)
	if err != nil {
		t.Fatalf("CreateBookings (%s): %v", c, err)
	}
	return bs
}

// mustCreate books spaces for u and fails the test on any error.
func mustCreate(t *testing.T, b *bookingtest.Bundle, u booking.User, reqs ...booking.NewBooking) []booking.Booking {
	t.Helper()
	return mustBook(t, b, u, u, booking.CategorySpace, reqs...)
}

// importLayout imports a layout document (whole or partial) into the bundle's database, and fails the
// test on any error.
func importLayout(t *testing.T, b *bookingtest.Bundle, l layout.Layout) {
	t.Helper()
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
		t.Fatalf("Import: %v", err)
	}
}

// importBookings loads bookings through Import and fails the test on any error.
func importBookings(t *testing.T, b *bookingtest.Bundle, bs ...layout.LayoutBooking) {
	t.Helper()
	importLayout(t, b, layout.Layout{Bookings: bs})
}

// wantEqual fails the test if got differs from want, and shows the difference.
func wantEqual(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Fatalf("%s mismatch (-want +got):\n%s", what, d)
	}
}

func ptr[T any](v T) *T { return &v }

package layoutimport_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layoutimport"
)

// rowCount returns the result of a count(*) query on the bundle's database.
func rowCount(t *testing.T, b *bookingtest.Bundle, query string, args ...any) int {
	t.Helper()
	var n int
	if err := b.Pool.QueryRow(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// tableCount returns the number of rows in a table.
func tableCount(t *testing.T, b *bookingtest.Bundle, table string) int {
	t.Helper()
	return rowCount(t, b, "SELECT count(*) FROM "+table)
}

// wantCode fails the test unless err has the code want.
func wantCode(t *testing.T, err error, want booking.Code) {
	t.Helper()
	if got := booking.ErrorCode(err); got != want {
		t.Fatalf("ErrorCode = %v, want %v (err: %v)", got, want, err)
	}
}

// wantMessagePrefix fails the test unless err is a domain error whose message starts with want.
func wantMessagePrefix(t *testing.T, err error, want string) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *booking.Error", err)
	}
	if !strings.HasPrefix(e.Message, want) {
		t.Fatalf("Message = %q, want it to start with %q", e.Message, want)
	}
}

// alice is the fixture's Alice, loaded from the database.
func alice(t *testing.T, b *bookingtest.Bundle) booking.User {
	t.Helper()
	return b.User(t, bookingtest.OrgA, bookingtest.Alice)
}

// req returns a request for a booking of the resource for [start, end).
func req(resource uuid.UUID, start, end time.Time) booking.NewBooking {
	return booking.NewBooking{ResourceID: resource, Start: start, End: end, Subject: "Meeting"}
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

// layoutBooking returns a layout-document booking in organization A, made by Alice for herself.
func layoutBooking(resource uuid.UUID, start, end time.Time, status booking.Status) layoutimport.LayoutBooking {
	return layoutimport.LayoutBooking{
		ID: uuid.NewString(), OrganizationID: bookingtest.OrgA.String(), ResourceID: resource.String(),
		CreatorID: bookingtest.Alice.String(), OrganizerID: bookingtest.Alice.String(),
		StartDate: start.UnixMilli(), EndDate: end.UnixMilli(), Status: string(status), Subject: "History",
	}
}

// importBookings loads bookings through Import and fails the test on any error.
func importBookings(t *testing.T, b *bookingtest.Bundle, bs ...layoutimport.LayoutBooking) {
	t.Helper()
	if _, err := layoutimport.Import(t.Context(), b.Service, layoutimport.Layout{Bookings: bs}); err != nil {
		t.Fatalf("Import bookings: %v", err)
	}
}

// layoutWith returns the fixture layout with fn applied to the resource with the given id.
func layoutWith(t *testing.T, id uuid.UUID, fn func(*layoutimport.LayoutResource)) layoutimport.Layout {
	t.Helper()
	l := bookingtest.Layout()
	for i := range l.Resources {
		if l.Resources[i].ID == id.String() {
			fn(&l.Resources[i])
			return l
		}
	}
	t.Fatalf("no resource %s in the fixture", id)
	return l
}

func ptr[T any](v T) *T { return &v }

package bookingtest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
)

// Helpers shared by the tests of the domain and of the layout import.

// RowCount returns the result of a count(*) query on the bundle's database.
func RowCount(t *testing.T, b *Bundle, query string, args ...any) int {
	t.Helper()
	var n int
	if err := b.Pool.QueryRow(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TableCount returns the number of rows in a table.
func TableCount(t *testing.T, b *Bundle, table string) int {
	t.Helper()
	return RowCount(t, b, "SELECT count(*) FROM "+table)
}

// WantCode fails the test unless err has the code want.
func WantCode(t *testing.T, err error, want booking.Code) {
	t.Helper()
	if got := booking.ErrorCode(err); got != want {
		t.Fatalf("ErrorCode = %v, want %v (err: %v)", got, want, err)
	}
}

// WantMessagePrefix fails the test unless err is a domain error whose message starts with want.
func WantMessagePrefix(t *testing.T, err error, want string) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *booking.Error", err)
	}
	if !strings.HasPrefix(e.Message, want) {
		t.Fatalf("Message = %q, want it to start with %q", e.Message, want)
	}
}

// Request returns a request for a booking of the resource for [start, end).
func Request(resource uuid.UUID, start, end time.Time) booking.NewBooking {
	return booking.NewBooking{ResourceID: resource, Start: start, End: end, Subject: "Meeting"}
}

// LayoutBooking is a booking of a layout document, made by Alice for herself, of organization A.
func LayoutBooking(resource uuid.UUID, start, end time.Time, status booking.Status) layout.LayoutBooking {
	return layout.LayoutBooking{
		ID: uuid.NewString(), OrganizationID: OrgA.String(), ResourceID: resource.String(),
		CreatorID: Alice.String(), OrganizerID: Alice.String(),
		StartDate: start.UnixMilli(), EndDate: end.UnixMilli(), Status: string(status), Subject: "History",
	}
}

// LayoutWith returns the fixture layout with fn applied to the resource with the id.
func LayoutWith(t *testing.T, id uuid.UUID, fn func(*layout.LayoutResource)) layout.Layout {
	t.Helper()
	l := Layout()
	for i := range l.Resources {
		if l.Resources[i].ID == id.String() {
			fn(&l.Resources[i])
			return l
		}
	}
	t.Fatalf("no resource %s in the fixture", id)
	return l
}

// VerifyDomain makes org claim and prove the e-mail domain, as the service's operator would with
// `booking domain approve`.
func VerifyDomain(t testing.TB, svc *booking.Service, org uuid.UUID, domain string) {
	t.Helper()
	if _, err := svc.ApproveEmailDomain(context.Background(), org, domain); err != nil {
		t.Fatalf("approve %s for %s: %v", domain, org, err)
	}
}

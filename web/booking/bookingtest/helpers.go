package bookingtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
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
	if _, err := identity.New(svc.Pool(), svc).ApproveEmailDomain(context.Background(), org, domain); err != nil {
		t.Fatalf("approve %s for %s: %v", domain, org, err)
	}
}

// CreateBodies returns create request bodies for the resource (spaces, spec 4.4, and workstations):
// valid, almost valid and broken. The API's fuzz targets use them as seeds too.
func CreateBodies(resource uuid.UUID, start, end time.Time) [][]byte {
	s, e, id := start.UnixMilli(), end.UnixMilli(), resource.String()
	bodies := []string{
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d,"importance":"LOW","subject":"Team sync","body":{"content":"Weekly planning","bodyType":"TEXT"}}]`, id, s, e),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d,"internalAttendees":[{"type":"REQUIRED","user":{"id":%q}}],"externalAttendees":[{"type":"OPTIONAL","email":"guest@example.com"}],"createOnlineMeeting":true,"sipAddress":"sip:1@x"}]`, id, s, e, Bob),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"allDay":true}]`, id, s),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d},{"resource":{"id":%q},"startDate":%d,"endDate":%d}]`, id, s, e, id, s, e),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d}]`, id, e, s),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":-9223372036854775808,"endDate":9223372036854775807}]`, id),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d,"subject":"a\u0000b"}]`, id, s, e),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d,"importance":"URGENT","body":{"bodyType":"RTF"}}]`, id, s, e),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d,"externalAttendees":[{"type":"REQUIRED","email":"not an address"}]}]`, id, s, e),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d,"internalAttendees":[{"type":"REQUIRED"}]}]`, id, s, e),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d}]`, id, s),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":"1","endDate":%d}]`, id, e),
		fmt.Sprintf(`[{"resource":{"id":%q},"startDate":1.5,"endDate":%d}]`, id, e),
		`[{"resource":{"id":"not-a-uuid"},"startDate":1,"endDate":2}]`,
		`[{"resource":{"id":"00000000-0000-0000-0000-000000000000"},"startDate":1,"endDate":2}]`,
		`[{"resource":{},"startDate":1,"endDate":2}]`,
		`[null]`, `[]`, `[[]]`, `{}`, `null`, `[1]`, `"x"`, ``, `[`, `[{}]]`, `[{}] x`, "[{\"subject\":\"\xff\"}]",
	}
	out := make([][]byte, len(bodies))
	for i, b := range bodies {
		out[i] = []byte(b)
	}
	return out
}

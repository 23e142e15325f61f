package web_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// watchedBody is a request body that never ends and counts the bytes the server reads of it.
type watchedBody struct{ read *atomic.Int64 }

func (b watchedBody) Read(p []byte) (int, error) {
	clear(p)
	b.read.Add(int64(len(p)))
	return len(p), nil
}

func (watchedBody) Close() error { return nil }

// refusedWrites are Admin API writes that must be refused before their body is read.
var refusedWrites = []struct {
	name         string
	as           uuid.UUID
	method, path string
	status       int
	code         booking.Code
}{
	{"EmployeePutsFeature", fx.Alice, http.MethodPut, adminPath("features", uuid.New()), 403, booking.CodeForbidden},
	{"ReceptionistPutsBuilding", fx.Rita, http.MethodPut, adminPath("buildings", fx.BuildingMadrid), 403, booking.CodeForbidden},
	{"EmployeeDeletesFeature", fx.Alice, http.MethodDelete, adminPath("features", fx.FeatureScreen), 403, booking.CodeForbidden},
	{"EmployeeUploadsPlan", fx.Alice, http.MethodPut, floorPlanPath(fx.FloorMadrid), 403, booking.CodeForbidden},
	{"UnknownCollection", fx.Adam, http.MethodPut, adminPath("bookings", uuid.New()), 404, booking.CodeObjectNotFound},
	{"AnotherOrganizationsBuilding", fx.Adam, http.MethodPut, adminPath("buildings", fx.BuildingB), 404, booking.CodeObjectNotFound},
	{"PlanOfAnotherOrganizationsFloor", fx.Adam, http.MethodPut, floorPlanPath(fx.FloorB), 404, booking.CodeObjectNotFound},
	{"PlanOfUnknownFloor", fx.Adam, http.MethodPut, floorPlanPath(uuid.New()), 404, booking.CodeObjectNotFound},
}

// serveWatched sends a request with a 5 MB body through the echo server and returns the answer and
// the bytes of the body it read.
func (tb *testBundle) serveWatched(t *testing.T, as uuid.UUID, method, path string) (reply, int64) {
	t.Helper()
	var read atomic.Int64
	req := httptest.NewRequestWithContext(t.Context(), method, path, watchedBody{&read})
	req.ContentLength = 5 << 20
	req.Header.Set("Content-Type", "image/png")
	req.Header.Set("Authorization", "Bearer "+tb.token(t, as))
	rec := httptest.NewRecorder()
	tb.server.ServeHTTP(rec, req)
	return reply{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}, read.Load()
}

// TestAdminWriteRefusedBeforeBody checks that a write by a non-admin, or of an unknown collection or
// another organization's object, is refused without reading any of its body.
func TestAdminWriteRefusedBeforeBody(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, tc := range refusedWrites {
		t.Run(tc.name, func(t *testing.T) {
			r, read := tb.serveWatched(t, tc.as, tc.method, tc.path)
			wantProblem(t, r, tc.status, tc.code, noIndex)
			if read != 0 {
				t.Errorf("the server read %d bytes of the body, want none", read)
			}
		})
	}
	t.Run("FortyLargeBodies", func(t *testing.T) {
		// 40 employees' uploads of 5 MB each: the server reads none of the 200 MB, so holds none of it.
		var total int64
		for range 40 {
			r, read := tb.serveWatched(t, fx.Alice, http.MethodPut, floorPlanPath(fx.FloorMadrid))
			wantStatus(t, r, http.StatusForbidden)
			total += read
		}
		if total != 0 {
			t.Errorf("the server read %d bytes of 40 refused bodies, want none", total)
		}
	})
}

// TestAdminWriteNoContinue sends refused writes with Expect: 100-continue over a real connection: the
// first answer must be the refusal, never a 100 Continue asking for the body.
func TestAdminWriteNoContinue(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, tc := range refusedWrites {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", strings.TrimPrefix(tb.srv.URL, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			_, err = fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer %s\r\n"+
				"Content-Type: image/png\r\nContent-Length: 5242880\r\nExpect: 100-continue\r\n\r\n",
				tc.method, tc.path, tb.token(t, tc.as))
			if err != nil {
				t.Fatal(err)
			}
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("read the answer: %v", err)
			}
			defer res.Body.Close()
			if res.StatusCode != tc.status {
				t.Errorf("first answer = %s, want %d without asking for the body", res.Status, tc.status)
			}
		})
	}
}

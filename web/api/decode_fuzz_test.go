package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The request readers have no side effects, so these fuzz targets call them directly with their own Echo
// context. Each target checks what the handlers rely on: a reader returns either an error with code 2000
// whose message says what is wrong (non-empty and valid UTF-8, so it reads the same in the problem body),
// or a value the handler can use as it is.

// fuzzContext returns an Echo context for a request with the body and the raw query.
func fuzzContext(method, rawQuery string, body []byte) echo.Context {
	req := httptest.NewRequest(method, "/", bytes.NewReader(body))
	req.URL.RawQuery = rawQuery
	req.Header.Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	return echo.New().NewContext(req, httptest.NewRecorder())
}

// wantInvalidRequest fails the test unless err is a domain error with code 2000 and a readable message.
func wantInvalidRequest(t *testing.T, err error) {
	t.Helper()
	var de *booking.Error
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a domain error: the handler would answer 500", err, err)
	}
	if de.Code != booking.CodeInvalidRequest {
		t.Fatalf("error code = %v, want %v (%v)", de.Code, booking.CodeInvalidRequest, err)
	}
	if de.Message == "" || !utf8.ValidString(de.Message) {
		t.Fatalf("error message %q is empty or not valid UTF-8", de.Message)
	}
	if de.Index != nil && *de.Index < 0 {
		t.Fatalf("error index = %d, want ≥ 0", *de.Index)
	}
}

// FuzzDecodeBookingRequests checks the reader of create requests. It returns either an error with code
// 2000 that names the element, or one booking per array element, each with a resource, a start, and an
// end unless the booking is all-day.
func FuzzDecodeBookingRequests(f *testing.F) {
	for _, b := range fx.CreateBodies(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		reqs, err := decodeBookingRequests(fuzzContext(http.MethodPost, "", body))
		if err != nil {
			wantInvalidRequest(t, err)
			return
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(body, &elems); err != nil || elems == nil {
			t.Fatalf("decoded %d bookings from a body that is not a JSON array (%v): %q", len(reqs), err, body)
		}
		if len(reqs) != len(elems) {
			t.Fatalf("decoded %d bookings from an array of %d", len(reqs), len(elems))
		}
		for i, r := range reqs {
			// Decode the element again with a minimal struct, and check that the decoded IDs match.
			var e struct {
				Resource *struct {
					ID *string `json:"id"`
				} `json:"resource"`
				InternalAttendees []struct {
					User *struct {
						ID string `json:"id"`
					} `json:"user"`
				} `json:"internalAttendees"`
			}
			if err := json.Unmarshal(elems[i], &e); err != nil {
				t.Fatalf("[%d]: decoded, yet it does not read as a booking: %v", i, err)
			}
			if e.Resource == nil || e.Resource.ID == nil {
				t.Errorf("[%d]: no resource id, yet no error", i)
			} else if id, err := uuid.Parse(*e.Resource.ID); err != nil || id != r.ResourceID {
				t.Errorf("[%d]: resource id %q decoded as %s", i, *e.Resource.ID, r.ResourceID)
			}
			if r.Start.IsZero() {
				t.Errorf("[%d]: no start, yet no error", i)
			}
			if !r.AllDay && r.End.IsZero() {
				t.Errorf("[%d]: neither an end nor all-day, yet no error", i)
			}
			if len(r.InternalAttendees) != len(e.InternalAttendees) {
				t.Fatalf("[%d]: %d internal attendees decoded of %d", i, len(r.InternalAttendees), len(e.InternalAttendees))
			}
			for j, a := range r.InternalAttendees {
				if u := e.InternalAttendees[j].User; u == nil {
					t.Errorf("[%d].internalAttendees[%d]: no user id, yet no error", i, j)
				} else if id, err := uuid.Parse(u.ID); err != nil || id != a.UserID {
					t.Errorf("[%d].internalAttendees[%d]: user id %q decoded as %s", i, j, u.ID, a.UserID)
				}
			}
		}
	})
}

// FuzzDecodeObject checks decodeObject, the reader of the PATCH and approval bodies. It returns either an
// error with code 2000, or a decoded JSON object whose keys are all known fields.
func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{
		`{"startDate":1795510800000,"endDate":1795514400000}`,
		`{"resource":{"id":"00000000-0000-4000-8000-000000000902"}}`,
		`{"startDate":1795510800000,"endDate":1795514400000,"resource":{"id":"00000000-0000-4000-8000-000000000902"}}`,
		`{"approved":true}`, `{"approved":false}`, `{"approved":"yes"}`, `{"approved":null}`,
		`{"status":"CANCELLED"}`, `{"StartDate":1}`, `{"startDate":1,"startDate":"x"}`, `{}`, `[]`, `null`, ``,
		`{"startDate":1}{}`, `{"resource":[]}`, `{"endDate":1e400}`, "{\"\xff\":1}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var req *struct {
			StartDate *int64 `json:"startDate"`
			EndDate   *int64 `json:"endDate"`
			Resource  *struct {
				ID *string `json:"id"`
			} `json:"resource"`
			Approved *bool `json:"approved"`
		}
		fields := []string{"startDate", "endDate", "resource", "approved"}
		err := decodeObject(fuzzContext(http.MethodPatch, "", body), &req, fields...)
		if err != nil {
			wantInvalidRequest(t, err)
			return
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(body, &keys); err != nil || keys == nil {
			t.Fatalf("accepted a body that is not a JSON object (%v): %q", err, body)
		}
		for k := range keys {
			if !slices.Contains(fields, k) {
				t.Fatalf("accepted the unknown field %q", k)
			}
		}
		if req == nil {
			t.Fatalf("accepted %q without decoding it", body)
		}
	})
}

// FuzzBookingDays checks bookingDays, the query reader of the free listings (spec 4.2), on any raw query.
// It returns either an error with code 2000, or 1 to MaxFreeIntervals intervals, the same every time the
// same query is read.
func FuzzBookingDays(f *testing.F) {
	for _, s := range []string{
		"bookingDays[0].startDate=1795510800000&bookingDays[0].endDate=1795514400000",
		"bookingDays%5B0%5D.startDate=1795510800000&bookingDays%5B0%5D.endDate=1795514400000",
		"bookingDays[0].startDate=1&bookingDays[0].endDate=2&bookingDays[5].startDate=3&bookingDays[5].endDate=4&capacity=6",
		"bookingDays[61].startDate=1&bookingDays[61].endDate=2",
		"bookingDays[62].startDate=1&bookingDays[62].endDate=2",
		"bookingDays[0].startDate=1",
		"bookingDays[0].startDate=x&bookingDays[0].endDate=2",
		"bookingDays[99999999999999999999].startDate=1&bookingDays[99999999999999999999].endDate=2",
		"bookingDays[0].startDate=1&bookingDays[0].endDate=2&bookingDays[0].endDate=3",
		"bookingDays[0].startDate=1&bookingDays[0].endDate=2&bookingDays[00].endDate=3",
		"bookingDays[0].start=1", "bookingDays=1", "bookingDays[-1].startDate=1", "features=a,b", "", "%", "&&=",
		"bookingDays%FF=1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rawQuery string) {
		days, err := bookingDays(fuzzContext(http.MethodGet, rawQuery, nil))
		if err != nil {
			wantInvalidRequest(t, err)
			return
		}
		if len(days) == 0 || len(days) > booking.MaxFreeIntervals {
			t.Fatalf("%d intervals, want 1 to %d", len(days), booking.MaxFreeIntervals)
		}
		for range 8 { // the parameters come from a map, so each read sees them in a different order
			again, err := bookingDays(fuzzContext(http.MethodGet, rawQuery, nil))
			if err != nil || !reflect.DeepEqual(days, again) {
				t.Fatalf("the same query read again gave %v, then %v (%v)", days, again, err)
			}
		}
		q, _ := url.ParseQuery(rawQuery)
		for k := range q {
			if !strings.HasPrefix(k, "bookingDays") {
				continue
			}
			index, ok := bookingDayIndex(k)
			if !ok {
				t.Fatalf("accepted the malformed parameter %q", k)
			}
			if index >= booking.MaxFreeIntervals {
				t.Fatalf("accepted the parameter %q, beyond the %d intervals", k, booking.MaxFreeIntervals)
			}
		}
	})
}

// bookingDayIndex parses a parameter name of the form bookingDays[<index>].startDate or .endDate, where
// index is ASCII digits, leading zeros allowed. It returns the index (math.MaxInt if it is too large for
// an int), or false if the name has another form. The test parses the name itself instead of reusing the
// reader's regular expression, so that it checks the reader independently.
func bookingDayIndex(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "bookingDays[")
	if !ok {
		return 0, false
	}
	digits, field, ok := strings.Cut(rest, "].")
	if !ok || digits == "" || strings.Trim(digits, "0123456789") != "" || field != "startDate" && field != "endDate" {
		return 0, false
	}
	index, err := strconv.Atoi(digits)
	if err != nil {
		return math.MaxInt, true
	}
	return index, true
}

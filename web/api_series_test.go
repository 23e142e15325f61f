package web_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

var (
	seriesKeys     = []string{"id", "organizer", "creator", "resource", "weekdays", "everyWeeks", "firstDate", "untilDate", "startTime", "endTime", "timeZone", "subject", "mode", "status", "revision"}
	seriesFullKeys = append(append([]string(nil), seriesKeys...), "occurrences")
)

func seriesPath(user string) string { return api + "/users/" + user + "/series" }

func oneSeriesPath(id string) string { return api + "/series/" + id }

// deskSeries is the body of a series of Desk 1, Tue 1 Dec to Fri 4 Dec 2026, 09:00–18:00.
func deskSeries(mode string) map[string]any {
	return map[string]any{
		"resource": map[string]any{"id": fx.DeskOne.String()}, "startTime": "09:00", "endTime": "18:00",
		"firstDate": "2026-12-01", "untilDate": "2026-12-04", "weekdays": []string{"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"},
		"everyWeeks": 1, "mode": mode, "subject": "Focus",
	}
}

// takeWednesday books Desk 1 for Bob on Wed 2 Dec, 09:00–10:00.
func (tb *testBundle) takeWednesday(t *testing.T) {
	t.Helper()
	r := tb.call(t, fx.Bob, http.MethodPost, api+"/users/me/bookings/workstations/standard", []any{spaceBooking(fx.DeskOne, fx.At(9, 9, 0), fx.At(9, 10, 0))})
	wantStatus(t, r, http.StatusCreated)
}

// occurrence is what a test reads of one occurrence: its date, its booking's status and start, or its
// refusal.
type occurrence struct {
	Date, Status, Refused string
	Start                 int64
}

func occurrencesOf(t *testing.T, s map[string]any) []occurrence {
	t.Helper()
	var out []occurrence
	for _, v := range array(t, "occurrences", s["occurrences"]) {
		o := v.(map[string]any)
		got := occurrence{Date: o["date"].(string)}
		if b, ok := o["booking"]; ok {
			bm := wantKeys(t, "occurrences.booking", b, bookingKeys...)
			got.Status, got.Start = bm["status"].(string), integer(t, "startDate", bm["startDate"])
		}
		if r, ok := o["refused"]; ok {
			rm := wantKeys(t, "occurrences.refused", r, "code", "name", "detail")
			got.Refused = rm["name"].(string) + ": " + rm["detail"].(string)
		}
		if _, ok := o["skipped"]; ok {
			got.Refused += "skipped"
		}
		out = append(out, got)
	}
	return out
}

func wantOccurrences(t *testing.T, s map[string]any, want []occurrence) {
	t.Helper()
	if diff := cmp.Diff(want, occurrencesOf(t, s)); diff != "" {
		t.Errorf("occurrences (-want +got):\n%s", diff)
	}
}

func at9(day int) int64 { return fx.At(day, 9, 0).UnixMilli() }

func TestAPISeriesCreate(t *testing.T) {
	t.Parallel()
	t.Run("FreeNamesTheRefusedDay", func(t *testing.T) {
		tb := setup(t)
		tb.takeWednesday(t)
		r := tb.call(t, fx.Alice, http.MethodPost, seriesPath("me"), deskSeries("FREE"))
		wantStatus(t, r, http.StatusCreated)
		s := wantKeys(t, "series", r.object(t), seriesFullKeys...)
		want := map[string]any{
			"organizer": map[string]any{"id": fx.Alice.String()}, "creator": map[string]any{"id": fx.Alice.String()},
			"resource": map[string]any{"id": fx.DeskOne.String(), "name": "Desk 1"},
			"weekdays": []any{"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY"}, "everyWeeks": num(1),
			"firstDate": "2026-12-01", "untilDate": "2026-12-04", "startTime": "09:00", "endTime": "18:00",
			"timeZone": "Europe/Madrid", "subject": "Focus", "mode": "FREE", "status": "ACTIVE", "revision": num(0),
		}
		got := map[string]any{}
		for k := range want {
			got[k] = s[k]
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("series (-want +got):\n%s", diff)
		}
		wantOccurrences(t, s, []occurrence{
			{Date: "2026-12-01", Status: "PENDING", Start: at9(8)},
			{Date: "2026-12-02", Refused: "RESOURCE_NOT_AVAILABLE: Desk 1 is already booked during part of that time"},
			{Date: "2026-12-03", Status: "PENDING", Start: at9(10)},
			{Date: "2026-12-04", Status: "PENDING", Start: at9(11)},
		})
		read := tb.call(t, fx.Alice, http.MethodGet, oneSeriesPath(s["id"].(string)), nil)
		wantStatus(t, read, http.StatusOK)
		if diff := cmp.Diff(s, read.object(t)); diff != "" {
			t.Errorf("GET differs from the POST's answer (-post +get):\n%s", diff)
		}
	})
	t.Run("AllRefusedNamesTheDay", func(t *testing.T) {
		tb := setup(t)
		tb.takeWednesday(t)
		r := tb.call(t, fx.Alice, http.MethodPost, seriesPath("me"), deskSeries("ALL"))
		p := wantProblem(t, r, http.StatusConflict, booking.CodeResourceNotAvailable, noIndex)
		wantDetail(t, p, "Wed 2 Dec, 09:00–18:00: Desk 1 is already booked", "Nothing was booked")
		tb.wantRows(t, "booking_series", 0)
	})
	t.Run("Idempotent", func(t *testing.T) {
		tb := setup(t)
		first := tb.callWith(t, fx.Alice, http.MethodPost, seriesPath("me"), deskSeries("ALL"), keyed("series-1"))
		wantStatus(t, first, http.StatusCreated)
		again := tb.callWith(t, fx.Alice, http.MethodPost, seriesPath("me"), deskSeries("ALL"), keyed("series-1"))
		wantStatus(t, again, http.StatusCreated)
		wantValue(t, web.ReplayedHeader, again.header.Get(web.ReplayedHeader), "true")
		wantValue(t, "id", again.object(t)["id"], first.object(t)["id"])
		tb.wantRows(t, "booking_series", 1)
	})
}

func TestAPISeriesRefusals(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	with := func(k string, v any) map[string]any {
		b := deskSeries("ALL")
		b[k] = v
		return b
	}
	tests := []struct {
		name   string
		body   any
		status int
		code   booking.Code
		field  string
	}{
		{"BadWeekday", with("weekdays", []string{"MONDAYS"}), 400, booking.CodeInvalidRequest, "weekdays"},
		{"NoWeekday", with("weekdays", []string{}), 400, booking.CodeInvalidRequest, "weekdays"},
		{"BadTime", with("startTime", "9:00"), 400, booking.CodeInvalidRequest, "startTime"},
		{"BadDate", with("untilDate", "04/12/2026"), 400, booking.CodeInvalidRequest, "untilDate"},
		{"EveryFiveWeeks", with("everyWeeks", 5), 400, booking.CodeInvalidRequest, "everyWeeks"},
		{"SevenMonths", with("untilDate", "2027-07-01"), 400, booking.CodeInvalidRequest, "untilDate"},
		{"BadMode", with("mode", "SOME"), 400, booking.CodeInvalidRequest, "mode"},
		{"UnknownField", with("colour", "red"), 400, booking.CodeInvalidRequest, "colour"},
		{"OtherOrganizationsResource", with("resource", map[string]any{"id": fx.RoomB.String()}), 404, booking.CodeResourceNotFound, "resource.id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := wantProblem(t, tb.call(t, fx.Alice, http.MethodPost, seriesPath("me"), tt.body), tt.status, tt.code, noIndex)
			wantField(t, p, tt.field)
		})
	}
	tb.wantRows(t, "booking_series", 0)
}

func TestAPISeriesLifecycle(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	r := tb.call(t, fx.Alice, http.MethodPost, seriesPath("me"), deskSeries("ALL"))
	wantStatus(t, r, http.StatusCreated)
	id := r.object(t)["id"].(string)

	list := tb.call(t, fx.Alice, http.MethodGet, seriesPath("me"), nil)
	wantStatus(t, list, http.StatusOK)
	items := array(t, "series", wantKeys(t, "list", list.object(t), "series")["series"])
	if len(items) != 1 {
		t.Fatalf("series listed = %d, want 1", len(items))
	}
	wantValue(t, "series[0].id", wantKeys(t, "series[0]", items[0], seriesKeys...)["id"], id)

	changed := tb.call(t, fx.Alice, http.MethodPatch, oneSeriesPath(id), map[string]any{"from": "2026-12-03", "startTime": "12:00", "endTime": "20:00"})
	wantStatus(t, changed, http.StatusOK)
	s := wantKeys(t, "series", changed.object(t), seriesFullKeys...)
	wantValue(t, "startTime", s["startTime"], "12:00")
	wantOccurrences(t, s, []occurrence{
		{Date: "2026-12-01", Status: "PENDING", Start: at9(8)}, {Date: "2026-12-02", Status: "PENDING", Start: at9(9)},
		{Date: "2026-12-03", Status: "PENDING", Start: fx.At(10, 12, 0).UnixMilli()},
		{Date: "2026-12-04", Status: "PENDING", Start: fx.At(11, 12, 0).UnixMilli()},
	})

	// One occurrence is cancelled as any booking; the series shows the day skipped.
	second := s["occurrences"].([]any)[1].(map[string]any)["booking"].(map[string]any)["id"].(string)
	wantStatus(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(second), nil), http.StatusOK)
	cut := tb.call(t, fx.Alice, http.MethodDelete, oneSeriesPath(id)+"?from=2026-12-04", nil)
	wantStatus(t, cut, http.StatusOK)
	s = cut.object(t)
	wantValue(t, "untilDate", s["untilDate"], "2026-12-03")
	wantOccurrences(t, s, []occurrence{
		{Date: "2026-12-01", Status: "PENDING", Start: at9(8)},
		{Date: "2026-12-02", Status: "CANCELLED", Start: at9(9), Refused: "skipped"},
		{Date: "2026-12-03", Status: "PENDING", Start: fx.At(10, 12, 0).UnixMilli()},
		{Date: "2026-12-04", Status: "CANCELLED", Start: fx.At(11, 12, 0).UnixMilli()},
	})

	whole := tb.call(t, fx.Alice, http.MethodDelete, oneSeriesPath(id), nil)
	wantStatus(t, whole, http.StatusOK)
	wantValue(t, "status", whole.object(t)["status"], "CANCELLED")
}

// TestAPISeriesOtherOrganization checks that a series is not found by another organization's person,
// whatever the method, and that nothing changes.
func TestAPISeriesOtherOrganization(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	r := tb.call(t, fx.Alice, http.MethodPost, seriesPath("me"), deskSeries("ALL"))
	wantStatus(t, r, http.StatusCreated)
	id := r.object(t)["id"].(string)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{http.MethodGet, oneSeriesPath(id), nil},
		{http.MethodPatch, oneSeriesPath(id), map[string]any{"startTime": "10:00", "endTime": "11:00"}},
		{http.MethodDelete, oneSeriesPath(id), nil},
		{http.MethodDelete, oneSeriesPath(id) + "?from=2026-12-03", nil},
	} {
		p := wantProblem(t, tb.call(t, fx.Boris, c.method, c.path, c.body), http.StatusNotFound, booking.CodeBookingNotFound, noIndex)
		wantDetail(t, p, "no series "+id)
	}
	list := tb.call(t, fx.Boris, http.MethodGet, seriesPath("me"), nil)
	wantStatus(t, list, http.StatusOK)
	if got := string(list.body); got != `{"series":[]}`+"\n" {
		t.Errorf("Boris's series = %s, want none", got)
	}
	if n := tb.count(t, "bookings WHERE status = 'PENDING'"); n != 4 {
		t.Errorf("pending bookings = %d, want 4", n)
	}
	wantProblem(t, tb.call(t, fx.Alice, http.MethodGet, oneSeriesPath("not-a-uuid"), nil), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodDelete, oneSeriesPath(id)+"?from=tomorrow", nil), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
}

package web_test

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestAPIAnswersAreNotCachedOrSniffed checks that API responses, errors included, forbid caching and
// content-type sniffing.
func TestAPIAnswersAreNotCachedOrSniffed(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, r := range []struct {
		name string
		r    reply
	}{
		{"ok", tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil)},
		{"unauthorized", tb.call(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil)},
		{"not found", tb.call(t, fx.Alice, http.MethodGet, api+"/no/such/operation", nil)},
	} {
		if got := r.r.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control = %q, want no-store", r.name, got)
		}
		if got := r.r.header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options = %q, want nosniff", r.name, got)
		}
	}
}

// TestOpenAPIDocumentIsNotSniffed checks that the public OpenAPI document may be cached but forbids
// content-type sniffing.
func TestOpenAPIDocumentIsNotSniffed(t *testing.T) {
	t.Parallel()
	r := setup(t).call(t, uuid.Nil, http.MethodGet, api+"/openapi.json", nil)
	wantStatus(t, r, http.StatusOK)
	if got := r.header.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("X-Content-Type-Options = %q, want nosniff", got)
	}
}

// TestClientRequestID checks that a client's X-Request-Id is used, in the response and in the log, only
// if it has at most 64 characters, all letters, digits, '.', '_' or '-'. Otherwise the request gets a new
// ID.
func TestClientRequestID(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	tb := setup(t, func(d *web.Deps) { d.Logger = slog.New(slog.NewJSONHandler(&logs, nil)) })
	send := func(id string) string {
		t.Helper()
		r := tb.callWith(t, uuid.Nil, http.MethodGet, "/healthz", nil, http.Header{"X-Request-Id": {id}})
		wantStatus(t, r, http.StatusOK)
		return r.header.Get("X-Request-Id")
	}
	for _, id := range []string{"abc", "7f1c2a-9b.x_Y", strings.Repeat("a", 64)} {
		if got := send(id); got != id {
			t.Errorf("X-Request-Id %q came back as %q, want it kept", id, got)
		}
	}
	for _, id := range []string{
		strings.Repeat("a", 65), "two words", "a\"b", "<script>", "id\u00e9", "a/b", "a\\b", "{\"json\":1}",
	} {
		got := send(id)
		if got == id || got == "" || len(got) > 64 {
			t.Errorf("X-Request-Id %q came back as %q, want a fresh id", id, got)
		}
		if strings.Contains(logs.String(), id) {
			t.Errorf("X-Request-Id %q is in the log", id)
		}
	}
}

// TestInvalidUTF8BodyIs400 checks that a JSON body with text that is not valid UTF-8 gets 400 with code
// 2000, and nothing is written.
func TestInvalidUTF8BodyIs400(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	start := fx.At(1, 10, 0).UnixMilli()
	body := []byte(`[{"resource":{"id":"` + fx.RoomGoya.String() + `"},"startDate":` + strconv.FormatInt(start, 10) +
		`,"endDate":` + strconv.FormatInt(start+3_600_000, 10) + `,"subject":"caf` + "\xe9" + `"}]`)
	p := wantProblem(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), body), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantDetail(t, p, "UTF-8")
	tb.wantRows(t, "bookings", 0)

	id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0))
	patch := []byte(`{"subject":"` + "\xff\xfe" + `"}`)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodPatch, api+"/bookings/"+id, patch), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
}

// TestStaticListsNoFolders checks that /static/ serves files but never lists a folder's contents.
func TestStaticListsNoFolders(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, path := range []string{"/static/", "/static/floors/", "/static/js/", "/static/css/", "/static/floors", "/static/js"} {
		r := tb.call(t, uuid.Nil, http.MethodGet, path, nil)
		if r.status != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 404\n%s", path, r.status, clip(r.body))
		}
	}
	if r := tb.call(t, uuid.Nil, http.MethodGet, "/static/js/app.js", nil); r.status != http.StatusOK {
		t.Errorf("GET /static/js/app.js = %d, want 200", r.status)
	}
}

// TestStrictTransportSecurity checks that when BASE_URL is https, every response tells browsers to use
// https only (HSTS), and that over plain http no response does.
func TestStrictTransportSecurity(t *testing.T) {
	t.Parallel()
	paths := []string{"/login", "/healthz", "/static/js/app.js", statusPath("me", "MAD-R1"), "/nowhere"}
	secure := setup(t, func(d *web.Deps) { d.BaseURL = "https://booking.example" })
	// As the proxy in front of the service says it was asked for booking.example.
	asked := http.Header{"X-Forwarded-Host": {"booking.example"}}
	for _, p := range paths {
		if got := secure.callWith(t, fx.Alice, http.MethodGet, p, nil, asked).header.Get("Strict-Transport-Security"); got != "max-age=31536000" {
			t.Errorf("https: GET %s: Strict-Transport-Security = %q, want max-age=31536000", p, got)
		}
	}
	plain := setup(t)
	for _, p := range paths {
		if got := plain.call(t, fx.Alice, http.MethodGet, p, nil).header.Get("Strict-Transport-Security"); got != "" {
			t.Errorf("http: GET %s: Strict-Transport-Security = %q, want none", p, got)
		}
	}
}

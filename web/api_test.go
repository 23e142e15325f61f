package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// The API tests talk to the server over real HTTP, as a mobile app does. Each test gets its own server
// and a new database loaded with the bookingtest fixture. The fixture's clock starts at Monday
// 2026-11-23 09:00 in Madrid.

const api = "/api/v1"

// testBundle is a test server on a new database with the fixture loaded.
type testBundle struct {
	*fx.Bundle
	srv    *httptest.Server // serves server, checking every API exchange with validateAPI
	server *web.Server      // the handler itself, for tests that list its routes or skip validateAPI
	tokens *web.Tokens
}

// setup starts a server on a new database. Each function in deps may change the dependencies before
// the server is built.
func setup(t testing.TB, deps ...func(*web.Deps)) *testBundle {
	t.Helper()
	return setupOIDC(t, nil, deps...)
}

// setupOIDC is like setup, but the API also accepts tokens from the identity provider idp.
func setupOIDC(t testing.TB, idp *web.Provider, deps ...func(*web.Deps)) *testBundle {
	t.Helper()
	return setupService(t, idp, nil, deps...)
}

// setupService is like setupOIDC, with opts configuring the identity service too.
func setupService(t testing.TB, idp *web.Provider, opts []identity.Option, deps ...func(*web.Deps)) *testBundle {
	t.Helper()
	return setupOn(t, fx.Setup(t), idp, opts, deps...)
}

// setupOn is like setupService, on the bundle b: tests that need the booking service set up otherwise
// make their own.
func setupOn(t testing.TB, b *fx.Bundle, idp *web.Provider, opts []identity.Option, deps ...func(*web.Deps)) *testBundle {
	t.Helper()
	people := identity.New(b.Pool, b.Service, opts...)
	if idp != nil {
		// The provider's people are found by e-mail only at a domain their organization proved.
		proveFixtureDomains(t, b)
	}
	tokens, err := web.NewTokens(t.Context(), people, idp)
	if err != nil {
		t.Fatalf("NewTokens: %v", err)
	}
	// Start the listener before building the server, so that BaseURL can be its real address. The
	// handler is set below, before any request is sent.
	srv := httptest.NewUnstartedServer(nil)
	srv.Start()
	t.Cleanup(srv.Close)
	d := web.Deps{
		Bookings: b.Service, Identity: people, Tokens: tokens, Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError})),
		Sessions: pgxstore.NewWithCleanupInterval(b.Pool, 0), // as serve sets it, so page tests can use this bundle too
		BaseURL:  srv.URL,
	}
	for _, f := range deps {
		f(&d)
	}
	if idp == nil && d.Provider != nil {
		// A provider set by deps: the API accepts its tokens too.
		if tokens, err = web.NewTokens(t.Context(), d.Identity, d.Provider); err != nil {
			t.Fatalf("NewTokens: %v", err)
		}
		d.Tokens = tokens
	}
	server := web.NewServer(d)
	srv.Config.Handler = validateAPI(t, server)
	return &testBundle{Bundle: b, srv: srv, server: server, tokens: tokens}
}

// proveFixtureDomains has A and B prove the domains of their people's addresses, acme.test and globex.test.
func proveFixtureDomains(t testing.TB, b *fx.Bundle) {
	t.Helper()
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	fx.VerifyDomain(t, b.Service, fx.OrgB, "globex.test")
}

// orgOf returns the organization of a fixture user.
func orgOf(user uuid.UUID) uuid.UUID {
	if user == fx.Boris {
		return fx.OrgB
	}
	return fx.OrgA
}

// mint issues a service bearer token for u, whether or not the user exists in the database.
func (tb *testBundle) mint(t testing.TB, u booking.User, ttl time.Duration) string {
	t.Helper()
	tok, err := tb.tokens.Mint(u, ttl)
	if err != nil {
		t.Fatalf("Mint: %v", err)
	}
	return tok
}

// token issues a bearer token for a fixture user, valid for an hour.
func (tb *testBundle) token(t *testing.T, user uuid.UUID) string {
	t.Helper()
	return tb.mint(t, tb.User(t, orgOf(user), user), time.Hour)
}

// request builds a request to the server as a fixture user. With uuid.Nil, it has no Authorization
// header. A string or []byte body is sent as is, any other body as JSON, and a nil body not at all.
func (tb *testBundle) request(t *testing.T, as uuid.UUID, method, path string, body any) *http.Request {
	t.Helper()
	var r io.Reader
	switch v := body.(type) {
	case nil:
	case string:
		r = strings.NewReader(v)
	case []byte:
		r = bytes.NewReader(v)
	default:
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal body: %v", err)
		}
		r = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, tb.srv.URL+path, r)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if as != uuid.Nil {
		req.Header.Set("Authorization", "Bearer "+tb.token(t, as))
	}
	return req
}

// reply is a response with its body fully read.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// do sends the request and reads the response. It takes no *testing.T, so goroutines can call it.
func (tb *testBundle) do(req *http.Request) (reply, error) {
	res, err := tb.srv.Client().Do(req)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: %w", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return reply{}, fmt.Errorf("%s %s: read body: %w", req.Method, req.URL, err)
	}
	return reply{status: res.StatusCode, header: res.Header, body: body}, nil
}

// send sends the request and reads the response.
func (tb *testBundle) send(t *testing.T, req *http.Request) reply {
	t.Helper()
	r, err := tb.do(req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// call sends a request as the user and returns the response.
func (tb *testBundle) call(t *testing.T, as uuid.UUID, method, path string, body any) reply {
	t.Helper()
	return tb.send(t, tb.request(t, as, method, path, body))
}

// callWith is like call, with extra headers. Each header given replaces the request's own, including
// Authorization.
func (tb *testBundle) callWith(t *testing.T, as uuid.UUID, method, path string, body any, header http.Header) reply {
	t.Helper()
	req := tb.request(t, as, method, path, body)
	for k, vs := range header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return tb.send(t, req)
}

// object decodes the body as a JSON object. Numbers are kept as json.Number so that tests can tell
// integers from other numbers.
func (r reply) object(t *testing.T) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(r.body))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		t.Fatalf("body is not a JSON object (%v): %s", err, r.body)
	}
	return m
}

// wantStatus fails the test at once if the response does not have the status want.
func wantStatus(t *testing.T, r reply, want int) {
	t.Helper()
	if r.status != want {
		t.Fatalf("status = %d, want %d; body: %s", r.status, want, r.body)
	}
}

// wantKeys checks that v is a JSON object with exactly the keys in want, and returns it.
func wantKeys(t *testing.T, where string, v any, want ...string) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s = %#v, want an object", where, v)
	}
	got := make([]string, 0, len(m))
	for k := range m {
		got = append(got, k)
	}
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		t.Errorf("%s keys = %v, want %v", where, got, want)
	}
	return m
}

// array checks that v is a JSON array and returns it.
func array(t *testing.T, where string, v any) []any {
	t.Helper()
	a, ok := v.([]any)
	if !ok {
		t.Fatalf("%s = %#v, want an array", where, v)
	}
	return a
}

// integer checks that v is a JSON integer and returns it.
func integer(t *testing.T, where string, v any) int64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%s = %#v, want an integer", where, v)
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		t.Fatalf("%s = %s, want an integer", where, n)
	}
	return i
}

func wantInt(t *testing.T, where string, v any, want int64) {
	t.Helper()
	if got := integer(t, where, v); got != want {
		t.Errorf("%s = %d, want %d", where, got, want)
	}
}

// wantValue compares a decoded string, boolean or null with want.
func wantValue(t *testing.T, where string, got, want any) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %#v, want %#v", where, got, want)
	}
}

// wantID checks that v is exactly {"id": want}.
func wantID(t *testing.T, where string, v any, want uuid.UUID) {
	t.Helper()
	wantValue(t, where+".id", wantKeys(t, where, v, "id")["id"], want.String())
}

// ids returns the id of each object in a JSON array.
func ids(t *testing.T, where string, v any) []string {
	t.Helper()
	var out []string
	for i, e := range array(t, where, v) {
		m, ok := e.(map[string]any)
		if !ok {
			t.Fatalf("%s[%d] = %#v, want an object", where, i, e)
		}
		id, _ := m["id"].(string)
		out = append(out, id)
	}
	return out
}

func strs(us ...uuid.UUID) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.String()
	}
	return out
}

const noIndex = -1

// wantProblem checks an error response: its status, its content type, and the exact keys and values of
// its body. index is the request element the error names, or noIndex. It returns the body.
func wantProblem(t *testing.T, r reply, status int, code booking.Code, index int) map[string]any {
	t.Helper()
	wantStatus(t, r, status)
	if mt, _, err := mime.ParseMediaType(r.header.Get("Content-Type")); err != nil || mt != "application/problem+json" {
		t.Errorf("Content-Type = %q, want application/problem+json", r.header.Get("Content-Type"))
	}
	p := r.object(t)
	d, _ := p["detail"].(string)
	if d == "" {
		t.Errorf("detail = %#v, want a message", p["detail"])
	}
	want := map[string]any{
		"status": num(int64(status)),
		"code":   num(int64(code)),
		"name":   code.Name(),
		"title":  fmt.Sprintf("%d - %s", int(code), code.Name()),
		"detail": p["detail"], // any non-empty message, checked above
	}
	if index != noIndex {
		want["index"] = num(int64(index))
	}
	// A refusal of one field names it, and its detail starts with that name.
	if f, ok := p["field"].(string); ok {
		want["field"] = f
		if f == "" || !strings.HasPrefix(d, f+": ") {
			t.Errorf("field = %q, but the detail %q does not start with it", f, d)
		}
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("problem (-want +got):\n%s", diff)
	}
	return p
}

// wantField checks that the problem names the field it refuses.
func wantField(t *testing.T, p map[string]any, field string) {
	t.Helper()
	if got, _ := p["field"].(string); got != field {
		t.Errorf("field = %q, want %q (detail %q)", got, field, p["detail"])
	}
}

// wantDetail checks that the problem's detail mentions each of the words.
func wantDetail(t *testing.T, p map[string]any, words ...string) {
	t.Helper()
	d, _ := p["detail"].(string)
	for _, w := range words {
		if !strings.Contains(d, w) {
			t.Errorf("detail = %q, want it to mention %q", d, w)
		}
	}
}

// exec runs SQL on the test's database as its superuser.
func (tb *testBundle) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if _, err := tb.Pool.Exec(t.Context(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// count returns the number of rows in a table.
func (tb *testBundle) count(t *testing.T, table string) int {
	t.Helper()
	var n int
	if err := tb.Pool.QueryRow(t.Context(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

// wantRows checks that a table has want rows. Tests use it to check that a refused call wrote nothing.
func (tb *testBundle) wantRows(t *testing.T, table string, want int) {
	t.Helper()
	if got := tb.count(t, table); got != want {
		t.Errorf("rows in %s = %d, want %d", table, got, want)
	}
}

// Paths of the API operations. user is "me" or a user ID.

func statusPath(user, posterCode string) string {
	return api + "/users/" + user + "/resources/statusinfo?postercode=" + url.QueryEscape(posterCode)
}

func freePath(user, kind string, building, subcategory uuid.UUID, query string) string {
	return fmt.Sprintf("%s/users/%s/buildings/%s/%s/subcategories/%s/free?%s", api, user, building, kind, subcategory, query)
}

func bookingsPath(user string) string { return api + "/users/" + user + "/bookings/spaces/standard" }

func reservablesPath(bookingID string) string {
	return api + "/bookings/" + bookingID + "/reservables/all"
}

// spaceBooking is one element of a create request.
func spaceBooking(resource uuid.UUID, start, end time.Time) map[string]any {
	return map[string]any{
		"resource":   map[string]any{"id": resource.String()},
		"startDate":  start.UnixMilli(),
		"endDate":    end.UnixMilli(),
		"importance": "LOW",
		"subject":    "Team sync",
		"body":       map[string]any{"content": "Weekly planning", "bodyType": "TEXT"},
	}
}

// book creates one booking through the API and returns its id.
func (tb *testBundle) book(t *testing.T, as, resource uuid.UUID, start, end time.Time) string {
	t.Helper()
	r := tb.call(t, as, http.MethodPost, bookingsPath("me"), []any{spaceBooking(resource, start, end)})
	wantStatus(t, r, http.StatusCreated)
	bs := array(t, "bookings", r.object(t)["bookings"])
	if len(bs) != 1 {
		t.Fatalf("bookings = %d, want 1", len(bs))
	}
	id, _ := bs[0].(map[string]any)["id"].(string)
	return id
}

func TestUnknownRoute(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, tc := range []struct {
		name, method, path string
		as                 uuid.UUID
		want               []int
	}{
		{"InsideAPI", http.MethodGet, api + "/users/me/no-such-thing", fx.Alice, []int{http.StatusNotFound}},
		{"UnknownVersion", http.MethodGet, "/api/v2/users/me/resources/statusinfo?postercode=MAD-R1", fx.Alice, []int{http.StatusNotFound}},
		{"WrongMethod", http.MethodDelete, bookingsPath("me"), fx.Alice, []int{http.StatusMethodNotAllowed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tb.call(t, tc.as, tc.method, tc.path, nil)
			if !slices.Contains(tc.want, r.status) {
				t.Fatalf("status = %d, want one of %v; body: %s", r.status, tc.want, r.body)
			}
			if mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type")); mt != "application/problem+json" {
				t.Errorf("Content-Type = %q, want application/problem+json", r.header.Get("Content-Type"))
			}
			p := r.object(t)
			wantInt(t, "status", p["status"], int64(r.status))
			if title, _ := p["title"].(string); title == "" {
				t.Errorf("title = %#v, want one", p["title"])
			}
		})
	}
}

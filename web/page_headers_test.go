package web_test

import (
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// notPages are the routes outside /api and /static that serve no HTML: the probes, the metrics and SCIM.
// Every other route is a page and must send the security headers, whatever its response.
var notPages = []string{"/healthz", "/readyz", "/metrics", "/scim/v2/*"}

// wantSecurityHeaders checks the headers that every page response must have, error pages and redirects
// included: a Content-Security-Policy that allows no inline script, no eval and no framing; nosniff; a
// referrer policy; and X-Frame-Options.
func wantSecurityHeaders(t *testing.T, where string, h http.Header) {
	t.Helper()
	csp := h.Get("Content-Security-Policy")
	if csp == "" {
		t.Errorf("%s: no Content-Security-Policy", where)
	}
	directives := map[string][]string{}
	for _, d := range strings.Split(csp, ";") {
		if f := strings.Fields(d); len(f) > 0 {
			directives[strings.ToLower(f[0])] = f[1:]
		}
	}
	scripts, ok := directives["script-src"]
	if !ok {
		scripts, ok = directives["default-src"]
	}
	if !ok {
		t.Errorf("%s: Content-Security-Policy %q restricts no scripts (neither script-src nor default-src)", where, csp)
	}
	for _, unsafe := range []string{"'unsafe-inline'", "'unsafe-eval'", "*", "data:"} {
		if slices.Contains(scripts, unsafe) {
			t.Errorf("%s: Content-Security-Policy %q allows %s scripts", where, csp, unsafe)
		}
	}
	if got := directives["frame-ancestors"]; !slices.Equal(got, []string{"'none'"}) {
		t.Errorf("%s: Content-Security-Policy %q: frame-ancestors = %q, want 'none'", where, csp, got)
	}
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		t.Errorf("%s: X-Content-Type-Options = %q, want nosniff", where, got)
	}
	if got := h.Get("Referrer-Policy"); !slices.Contains([]string{"no-referrer", "same-origin", "strict-origin", "strict-origin-when-cross-origin"}, got) {
		t.Errorf("%s: Referrer-Policy = %q, want a policy that keeps paths from other sites", where, got)
	}
	if got := h.Get("X-Frame-Options"); got != "DENY" {
		t.Errorf("%s: X-Frame-Options = %q, want DENY", where, got)
	}
}

// noRedirects returns a client that uses the browser's cookies but returns redirects instead of
// following them.
func (b *browser) noRedirects() *http.Client {
	return &http.Client{Jar: b.client.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// TestSecurityHeadersOnEveryPage checks the security headers on every page route (all routes except /api,
// /static and notPages), signed in and signed out, and on the error pages. It reads the routes from the
// server, so a new page route is covered without changing the test.
func TestSecurityHeadersOnEveryPage(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	srv := pb.server
	anonymous := pb.browser(t)

	// One of Alice's bookings, for the routes that take a booking ID.
	b := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	params := map[string]string{
		"bookingId": b.ID.String(), "resourceId": fx.RoomGoya.String(), "posterCode": "MAD-R1",
		"floorId": fx.FloorMadrid.String(), "file": strings.Repeat("0", 64) + ".svg", // no such plan: an error page
		"tokenId": uuid.NewString(), "seriesId": uuid.NewString(),
		"domain":    "acme.test",
		"closureId": uuid.NewString(),
		"webhookId": uuid.NewString(), "deliveryId": uuid.NewString(), "teamId": uuid.NewString(), "zoneId": uuid.NewString(),
		"personId":   fx.Bob.String(),
		"buildingId": fx.BuildingMadrid.String(),
		"ruleId":     fx.RuleRoom.String(), "userId": fx.Bob.String(), "collection": "features", "id": fx.FeatureScreen.String(),
		"secret": strings.Repeat("A", 43), "kind": "reminder", // an unsubscribe link that names nobody
	}

	send := func(t *testing.T, client *http.Client, method, path string, header http.Header) *http.Response {
		t.Helper()
		var form io.Reader
		if method != http.MethodGet {
			form = strings.NewReader("")
		}
		req, err := http.NewRequestWithContext(t.Context(), method, pb.srv.URL+path, form)
		if err != nil {
			t.Fatalf("new request: %v", err)
		}
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		for k, v := range header {
			req.Header[k] = v
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		res.Body.Close()
		return res
	}

	pages := 0
	for _, r := range srv.Routes() {
		if r.Path == "/api" || strings.HasPrefix(r.Path, "/api/") || strings.HasPrefix(r.Path, "/static/") ||
			slices.Contains(notPages, r.Path) {
			continue
		}
		pages++
		path := r.Path
		for name, v := range params {
			path = strings.ReplaceAll(path, ":"+name, url.PathEscape(v))
		}
		if strings.Contains(path, ":") || strings.Contains(path, "*") {
			t.Errorf("%s %s: no value for its parameters; add one to the test", r.Method, r.Path)
			continue
		}
		t.Run(r.Method+r.Path, func(t *testing.T) {
			alice := pb.signedIn(t, fx.Alice) // a new session each time, because one of the routes signs out
			for _, who := range []struct {
				name   string
				client *http.Client
			}{{"SignedIn", alice.noRedirects()}, {"Anonymous", anonymous.noRedirects()}} {
				res := send(t, who.client, r.Method, path, nil)
				wantSecurityHeaders(t, who.name+" "+r.Method+" "+path+" → "+res.Status, res.Header)
				res = send(t, who.client, r.Method, path, http.Header{"Hx-Request": {"true"}})
				wantSecurityHeaders(t, who.name+" htmx "+r.Method+" "+path+" → "+res.Status, res.Header)
			}
		})
	}
	if pages < 10 {
		t.Errorf("found %d page routes, want the pages of routes.go", pages)
	}

	// The error pages: unknown paths, a wrong method, refused access, a cross-site form post, unknown or
	// malformed IDs, a bad query, and a refusal shown as an htmx notice.
	for _, tc := range []struct {
		name, method, path string
		header             http.Header
		want               int
	}{
		{"UnknownPath", http.MethodGet, "/nowhere", nil, http.StatusNotFound},
		{"UnknownPathHTMX", http.MethodGet, "/nowhere", http.Header{"Hx-Request": {"true"}}, http.StatusNotFound},
		{"UnknownNestedPath", http.MethodGet, "/bookings/" + uuid.NewString() + "/nowhere", nil, http.StatusNotFound},
		{"WrongMethod", http.MethodDelete, "/bookings", nil, http.StatusMethodNotAllowed},
		{"KioskIsForReception", http.MethodGet, "/kiosk", nil, http.StatusForbidden},
		{"PostersAreForAdmins", http.MethodGet, "/posters", nil, http.StatusForbidden},
		{"CrossSiteForm", http.MethodPost, "/logout", http.Header{"Sec-Fetch-Site": {"cross-site"}}, http.StatusForbidden},
		{"BookingNotFound", http.MethodGet, "/bookings/" + uuid.NewString(), nil, http.StatusNotFound},
		{"MalformedBookingID", http.MethodGet, "/bookings/not-a-booking", nil, http.StatusNotFound},
		{"UnknownPosterCode", http.MethodGet, "/p/NO-SUCH-CODE", nil, http.StatusNotFound},
		{"BadQuery", http.MethodGet, "/find?kind=boat", nil, http.StatusBadRequest},
		{"RefusalAsHTMXNotice", http.MethodPost, "/bookings/" + uuid.NewString() + "/cancel", http.Header{"Hx-Request": {"true"}}, http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := send(t, pb.signedIn(t, fx.Alice).noRedirects(), tc.method, tc.path, tc.header)
			if res.StatusCode != tc.want {
				t.Errorf("%s %s: status = %d, want %d", tc.method, tc.path, res.StatusCode, tc.want)
			}
			wantSecurityHeaders(t, tc.method+" "+tc.path+" → "+res.Status, res.Header)
		})
	}
}

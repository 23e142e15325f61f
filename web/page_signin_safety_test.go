package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// noRedirects is a client that returns a redirect instead of following it.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// signInLocation signs in as Alice through the development sign-in with the given next, and returns the
// response's Location header.
func signInLocation(t *testing.T, pb *pageBundle, next string) string {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, pb.srv.URL+"/login/dev",
		strings.NewReader(url.Values{"user": {fx.Alice.String()}, "next": {next}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("next %q: status = %d, want 303", next, res.StatusCode)
	}
	return res.Header.Get("Location")
}

// TestSignInNextIsACleanPath checks that after signing in, next is followed only if it is a clean path on
// this site. Browsers treat a tab, a newline or a backslash after the first slash as the start of another
// host.
func TestSignInNextIsACleanPath(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	for _, next := range []string{
		"/\t/evil.example", "/\n/evil.example", "/\r/evil.example", "\t//evil.example", "/\\evil.example",
		"/x\\..\\\\evil.example", "\\\\evil.example", "//evil.example", "https://evil.example/", "javascript:alert(1)",
		"/%09/evil.example", "/%0a/evil.example", "/%0d%0a/evil.example", "/%5cevil.example", "/%2f%2fevil.example",
		"/%2F/evil.example", "%2f%2fevil.example", "/find%00", "/find\x7f", "",
	} {
		if got := signInLocation(t, pb, next); got != "/" {
			t.Errorf("next %q: Location = %q, want /", next, got)
		}
	}
	// A NUL in any form is refused before anyone is signed in.
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, pb.srv.URL+"/login/dev",
		strings.NewReader(url.Values{"user": {fx.Alice.String()}, "next": {"/find\x00"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("next with a NUL: status = %d, want 400", res.StatusCode)
	}
	for _, next := range []string{"/bookings?when=past", "/find?date=2026-11-24&kind=room", "/p/MAD-R1", "/find?q=a%20b"} {
		if got := signInLocation(t, pb, next); got != next {
			t.Errorf("next %q: Location = %q, want it kept", next, got)
		}
	}
}

// TestOIDCNonceIsChecked calls the sign-in callback with a code whose ID token has a different nonce from
// the one the sign-in started with. The callback must refuse it with 400, and nobody is signed in.
func TestOIDCNonceIsChecked(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	pb := setupPagesOIDC(t, m)

	for _, tc := range []struct {
		name   string
		nonce  func(sent string) string
		status int
	}{
		{"WrongNonce", func(string) string { return "another-sign-in" }, http.StatusBadRequest},
		{"NoNonce", func(string) string { return "" }, http.StatusBadRequest},
		{"RightNonce", func(sent string) string { return sent }, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := pb.browser(t)
			// Start the sign-in, but do not follow the redirect to the provider; read where it points.
			b.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
			res, err := b.client.Get(pb.srv.URL + "/login?next=/bookings")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			authorize, err := url.Parse(res.Header.Get("Location"))
			if err != nil {
				t.Fatal(err)
			}
			q := authorize.Query()
			// Set up the provider's session for that request, with the nonce this case chooses.
			user := &mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true}
			sess, err := m.SessionStore.NewSession(q.Get("scope"), tc.nonce(q.Get("nonce")), user,
				q.Get("code_challenge"), q.Get("code_challenge_method"))
			if err != nil {
				t.Fatal(err)
			}
			b.client.CheckRedirect = nil
			p := b.get("/auth/callback?" + url.Values{"code": {sess.SessionID}, "state": {q.Get("state")}}.Encode())
			p.wantStatus(t, tc.status)
			if tc.status != http.StatusOK {
				p.wantText(t, "main", "The identity provider's answer was not meant for this sign-in.")
				// Nobody is signed in, so /bookings redirects to the sign-in page.
				b.client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
				res, err := b.client.Get(pb.srv.URL + "/bookings")
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/login") {
					t.Errorf("after a refused nonce /bookings answered %d to %q, want 303 to /login", res.StatusCode, loc)
				}
				return
			}
			if p.url.Path != "/bookings" {
				t.Errorf("signed in at %s, want /bookings", p.url)
			}
			p.wantText(t, ".whoami", "alice Archer")
		})
	}
}

// TestCallbackErrorIsNotReflected calls the sign-in callback with the provider's error: the page says a
// fixed sentence for each error code of RFC 6749, and never shows what the request carried.
func TestCallbackErrorIsNotReflected(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	pb := setupPagesOIDC(t, m)
	const hostile = "Your account is locked. Call +1 555 0100 or visit evil.example"
	for _, tc := range []struct{ name, code, want string }{
		{"AccessDenied", "access_denied", "The identity provider refused the sign-in."},
		{"UnknownCode", "evil_code_here", "The identity provider could not sign you in."},
		{"ServerError", "server_error", "The identity provider had a problem."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := pb.browser(t).get("/auth/callback?" + url.Values{"error": {tc.code}, "error_description": {hostile}}.Encode())
			p.wantStatus(t, http.StatusBadRequest)
			for _, reflected := range []string{"Call +1 555", "evil.example", "evil_code_here", tc.code} {
				if strings.Contains(p.body, reflected) {
					t.Errorf("the page shows %q", reflected)
				}
			}
			if !strings.Contains(p.text("main"), tc.want) {
				t.Errorf("page text = %q, want %q", p.text("main"), tc.want)
			}
		})
	}
}

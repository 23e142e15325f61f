package web_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

func TestDevelopmentSignIn(t *testing.T) {
	t.Parallel()

	t.Run("ListsEverybodyBehindTheBanner", func(t *testing.T) {
		pb := setupPages(t)
		p := pb.browser(t).get("/login")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".dev-banner", "Development mode")
		p.wantText(t, ".people", "alice Archer", "rita Reyes", "Receptionist", "adam Adler", "Admin", "boris Becker")
		if got := p.count(`.people form[action="/login/dev"][method="post"] button`); got < 5 {
			t.Errorf("sign-in buttons = %d, want one per fixture person (at least 5)", got)
		}
		// The roles come first, where a newcomer finds them: the receptionist, the admin, then employees.
		var names []string
		p.doc.Find(".people .name").Each(func(_ int, s *goquery.Selection) { names = append(names, s.Text()) })
		if len(names) < 4 || names[0] != "rita Reyes" || names[1] != "adam Adler" {
			t.Errorf("sign-in list starts %q, want rita Reyes (receptionist), then adam Adler (admin)", names)
		}
	})

	t.Run("OneClickSignsInAndGoesWhereAsked", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.browser(t)
		p := b.get("/bookings?when=past")
		if p.url.Path != "/login" || p.url.Query().Get("next") != "/bookings?when=past" {
			t.Fatalf("a page without a session ended at %s, want /login?next=/bookings?when=past", p.url)
		}
		p = b.post("/login/dev", url.Values{"user": {fx.Alice.String()}, "next": {p.url.Query().Get("next")}})
		p.wantStatus(t, http.StatusOK)
		if p.url.RequestURI() != "/bookings?when=past" {
			t.Errorf("signed in at %s, want /bookings?when=past", p.url.RequestURI())
		}
		p.wantText(t, ".whoami", "alice Archer")
	})

	t.Run("NextNeverLeavesTheSite", func(t *testing.T) {
		pb := setupPages(t)
		for _, next := range []string{"https://evil.test/", "//evil.test/", `/\evil.test`, "javascript:alert(1)"} {
			p := pb.browser(t).post("/login/dev", url.Values{"user": {fx.Alice.String()}, "next": {next}})
			if p.url.Host != strings.TrimPrefix(pb.srv.URL, "http://") || p.url.Path != "/" {
				t.Errorf("next %q ended at %s, want this site's start page", next, p.url)
			}
		}
	})

	t.Run("UnknownPersonIs404AndSignsNobodyIn", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.browser(t)
		p := b.post("/login/dev", url.Values{"user": {"00000000-0000-4000-8000-999999999999"}})
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, "main", "No user with id")
		if p := b.get("/bookings"); p.url.Path != "/login" {
			t.Errorf("after a refused sign-in /bookings ended at %s, want /login", p.url)
		}
		p = b.post("/login/dev", url.Values{"user": {"not-a-uuid"}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "main", "Choose a person to sign in as")
	})

	t.Run("NeverWithoutDev", func(t *testing.T) {
		pb := setupPages(t, func(d *web.Deps) { d.Dev = false })
		b := pb.browser(t)
		p := b.get("/login")
		p.wantStatus(t, http.StatusServiceUnavailable)
		p.wantText(t, "h1", "Sign-in is not set up")
		if p.count(".dev-banner") != 0 {
			t.Error("the development banner shows without --dev")
		}
		p = b.post("/login/dev", url.Values{"user": {fx.Alice.String()}})
		p.wantStatus(t, http.StatusNotFound)
		if p := b.get("/bookings"); p.url.Path != "/login" {
			t.Errorf("/bookings ended at %s, want /login", p.url)
		}
	})

	t.Run("SignOutEndsTheSession", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		old := b.client.Jar.Cookies(mustURL(t, pb.srv.URL))
		p := b.post("/logout", url.Values{})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "You are signed out")
		if p := b.get("/bookings"); p.url.Path != "/login" {
			t.Errorf("after signing out /bookings ended at %s, want /login", p.url)
		}
		// The old cookie no longer refers to a session.
		replay := pb.browser(t)
		replay.client.Jar.SetCookies(mustURL(t, pb.srv.URL), old)
		if p := replay.get("/bookings"); p.url.Path != "/login" {
			t.Errorf("the cookie from before signing out still opens /bookings (ended at %s)", p.url)
		}
	})

	t.Run("SessionCookieIsHttpOnlyAndLax", func(t *testing.T) {
		pb := setupPages(t)
		req, _ := http.NewRequest(http.MethodPost, pb.srv.URL+"/login/dev",
			strings.NewReader(url.Values{"user": {fx.Alice.String()}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("status = %d, want 303", res.StatusCode)
		}
		cookies := res.Cookies()
		if len(cookies) != 1 || cookies[0].Name != "booking_session" || !cookies[0].HttpOnly ||
			cookies[0].SameSite != http.SameSiteLaxMode || cookies[0].Secure {
			t.Errorf("cookies = %+v, want one booking_session cookie, HttpOnly, SameSite=Lax, not Secure on http", cookies)
		}
	})
}

func TestPageSafety(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)

	t.Run("SecurityHeaders", func(t *testing.T) {
		p := pb.signedIn(t, fx.Alice).get("/bookings")
		csp := p.header.Get("Content-Security-Policy")
		for _, part := range []string{"script-src 'self'", "style-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, part) {
				t.Errorf("Content-Security-Policy %q lacks %q", csp, part)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("Content-Security-Policy %q allows inline code", csp)
		}
		for h, want := range map[string]string{
			"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin", "X-Frame-Options": "DENY",
		} {
			if got := p.header.Get(h); got != want {
				t.Errorf("%s = %q, want %q", h, got, want)
			}
		}
		if n := p.count("script:not([src]), [style]"); n != 0 {
			t.Errorf("the page has %d inline scripts or style attributes", n)
		}
	})

	t.Run("CrossSitePostIsRefused", func(t *testing.T) {
		b := pb.signedIn(t, fx.Alice)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, pb.srv.URL+"/logout", nil)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		p := b.send(req)
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", "sent from another site")
		if p := b.get("/bookings"); p.url.Path != "/bookings" {
			t.Errorf("the refused sign-out signed Alice out (ended at %s)", p.url)
		}
	})

	t.Run("UnknownPathIsAnHTMLPage", func(t *testing.T) {
		p := pb.browser(t).get("/nowhere")
		p.wantStatus(t, http.StatusNotFound)
		if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("Content-Type = %q, want text/html", ct)
		}
		p.wantText(t, "main", "There is no page at this address.")
	})

	t.Run("HTMXWithoutSessionIsSentToSignIn", func(t *testing.T) {
		b := pb.browser(t)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, pb.srv.URL+"/find?date=2026-11-24", nil)
		req.Header.Set("HX-Request", "true")
		req.Header.Set("HX-Current-URL", pb.srv.URL+"/find?kind=room")
		p := b.send(req)
		p.wantStatus(t, http.StatusNoContent)
		// After signing in, the person returns to the page they were on, not to the fragment htmx requested.
		if got, want := p.header.Get("HX-Redirect"), "/login?next="+url.QueryEscape("/find?kind=room"); got != want {
			t.Errorf("HX-Redirect = %q, want %q", got, want)
		}
	})

	t.Run("StaticScriptsAreSmall", func(t *testing.T) {
		total := 0
		for _, f := range []string{"/static/js/htmx-2.0.11.min.js", "/static/js/app.js", "/static/js/qr-scanner.min.js"} {
			p := pb.browser(t).get(f)
			p.wantStatus(t, http.StatusOK)
			total += len(p.body)
		}
		if total > 100_000 {
			t.Errorf("the scripts a page may load weigh %d bytes, want at most 100 KB", total)
		}
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, pb.srv.URL+"/static/js/htmx-2.0.11.min.js", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		n, _ := io.Copy(io.Discard, res.Body)
		if res.Header.Get("Content-Encoding") != "gzip" || n > 20_000 {
			t.Errorf("htmx went as %q in %d bytes, want gzip in at most 20 KB", res.Header.Get("Content-Encoding"), n)
		}
	})
}

// TestOIDCSignIn checks signing in through the authorization-code flow with PKCE, against mockoidc.
func TestOIDCSignIn(t *testing.T) {
	t.Parallel()
	m := runProvider(t)

	setup := func(t *testing.T) *pageBundle { return setupPagesOIDC(t, m) }

	t.Run("KnownByEmailSignsIn", func(t *testing.T) {
		pb := setup(t)
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
		b := pb.browser(t)
		p := b.get("/bookings")
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/bookings" {
			t.Fatalf("ended at %s, want /bookings", p.url)
		}
		p.wantText(t, ".whoami", "alice Archer")
		if p.count(".dev-banner") != 0 {
			t.Error("the development banner shows with an identity provider")
		}
	})

	t.Run("UnknownPersonGetsAClearPage", func(t *testing.T) {
		pb := setup(t)
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|stranger", Email: "stranger@elsewhere.test", EmailVerified: true})
		p := pb.browser(t).get("/find")
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", "stranger@elsewhere.test", "no person with that account")
		if got := p.text(".lead"); got != "You signed in as stranger@elsewhere.test, but Workspace Booking has no person with that account." {
			t.Errorf("lead = %q", got)
		}
	})

	t.Run("NoEmailReadsProperly", func(t *testing.T) {
		pb := setup(t)
		m.QueueUser(&claimsUser{Subject: "idp|nameless"}) // no e-mail address in the ID token nor at userinfo
		p := pb.browser(t).get("/find")
		p.wantStatus(t, http.StatusForbidden)
		if got := p.text(".lead"); got != "You signed in, but Workspace Booking has no person with that account." {
			t.Errorf("lead = %q", got)
		}
		p.wantText(t, ".reason", "Your identity provider sent no e-mail address.")
	})

	// Bob is already linked to a subject. Another subject with Bob's address, and no email_verified, is
	// refused, and Bob stays linked to his own subject.
	t.Run("ForgedSubjectWithBoundUsersEmailIsRefused", func(t *testing.T) {
		pb := setup(t)
		bob := fx.Layout().Users[1]
		bob.OIDCSubject = ptrTo("idp|bob")
		if _, err := layout.New(pb.Pool, pb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{bob}}); err != nil {
			t.Fatalf("import: %v", err)
		}
		for _, verified := range []bool{false, true} {
			m.QueueUser(&mockoidc.MockUser{Subject: "idp|mallory", Email: "bob@acme.test", EmailVerified: verified})
			p := pb.browser(t).get("/bookings")
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", "bob@acme.test", "no person with that account")
			if p.count(".whoami") != 0 {
				t.Errorf("email_verified %v: somebody is signed in: %q", verified, p.text(".whoami"))
			}
		}
		var subject string
		if err := pb.Pool.QueryRow(t.Context(), `SELECT oidc_subject FROM users WHERE id = $1`, fx.Bob).Scan(&subject); err != nil {
			t.Fatal(err)
		}
		if subject != "idp|bob" {
			t.Errorf("Bob's oidc_subject = %q, want idp|bob", subject)
		}
	})

	t.Run("UnverifiedEmailIsRefused", func(t *testing.T) {
		pb := setup(t)
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test"})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", "alice@acme.test", "no person with that account")
	})

	t.Run("ForgedStateIsRefused", func(t *testing.T) {
		pb := setup(t)
		p := pb.browser(t).get("/auth/callback?code=x&state=forged")
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "main", "This sign-in link has expired or was not started here.")
	})

	t.Run("SignOutDoesNotSignInAgain", func(t *testing.T) {
		pb := setup(t)
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
		b := pb.browser(t)
		b.get("/bookings")
		p := b.post("/logout", url.Values{})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "You are signed out")
	})
}

// runProvider starts a mock identity provider that stops when the test ends.
func runProvider(t *testing.T) *mockoidc.MockOIDC {
	t.Helper()
	return startProvider(t, nil)
}

// oneAtATime answers one request at a time. mockoidc keeps its sessions in a map and its key id in a
// field without a lock, so two sign-ins at once (two tabs, or parallel subtests on one provider) race.
func oneAtATime() func(http.Handler) http.Handler {
	var mu sync.Mutex
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}
}

// setupPagesOIDC is like setupPages, with m as the identity provider that people sign in with.
func setupPagesOIDC(t *testing.T, m *mockoidc.MockOIDC) *pageBundle {
	t.Helper()
	pb := setupPages(t, func(d *web.Deps) {
		d.Provider = discoveredProvider(t, web.ProviderConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, BaseURL: d.BaseURL,
		})
	})
	proveFixtureDomains(t, pb.Bundle)
	return pb
}

// discoveredProvider returns the identity provider of cfg, discovered.
func discoveredProvider(t testing.TB, cfg web.ProviderConfig) *web.Provider {
	t.Helper()
	p, err := web.NewProvider(cfg, nil)
	if err != nil {
		t.Fatalf("NewProvider: %v", err)
	}
	if err := p.Discover(t.Context()); err != nil {
		t.Fatalf("Discover: %v", err)
	}
	return p
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestBrowserSignIn signs in through a real authorization-code flow (PKCE, state, nonce) in Chromium.
func TestBrowserSignIn(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	pb := setupPagesOIDC(t, m)
	b := newTab(t, pb.srv.URL)
	m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
	b.open("/bookings")
	b.waitText(".whoami", "alice Archer")

	b.do(chromedp.Click(chromedp.CSS(".whoami button")))
	b.waitText("h1", "You are signed out")
	b.check("signed-out")
}

// TestBrowserDevSignIn checks the development sign-in page.
func TestBrowserDevSignIn(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := newTab(t, pb.srv.URL)
	b.open("/login")
	b.waitText(".dev-banner", "Development mode")
	b.check("sign-in")
}

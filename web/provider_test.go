package web_test

import (
	"context"
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	gojwt "github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// claimsUser is a person at the mock identity provider who decides what the ID token and the userinfo
// answer carry, as real providers differ: some name the e-mail address only at userinfo. Userinfo always
// carries "sub" (the Subject, unless Info sets another).
type claimsUser struct {
	Subject string
	IDToken map[string]any // claims added to the ID token
	Info    map[string]any // claims of the userinfo answer
}

func (u *claimsUser) ID() string { return u.Subject }

func (u *claimsUser) Userinfo([]string) ([]byte, error) {
	claims := map[string]any{"sub": u.Subject}
	maps.Copy(claims, u.Info)
	return json.Marshal(claims)
}

func (u *claimsUser) Claims(_ []string, base *mockoidc.IDTokenClaims) (gojwt.Claims, error) {
	return extraClaims{IDTokenClaims: base, extra: u.IDToken}, nil
}

// extraClaims are the ID token's standard claims and more.
type extraClaims struct {
	*mockoidc.IDTokenClaims
	extra map[string]any
}

func (c extraClaims) MarshalJSON() ([]byte, error) {
	std, err := json.Marshal(c.IDTokenClaims)
	if err != nil {
		return nil, err
	}
	all := map[string]any{}
	if err := json.Unmarshal(std, &all); err != nil {
		return nil, err
	}
	maps.Copy(all, c.extra)
	return json.Marshal(all)
}

// gateListener refuses every connection (it accepts and closes it at once) until it is opened, as a
// provider that is down does.
type gateListener struct {
	net.Listener
	open atomic.Bool
}

func (g *gateListener) Accept() (net.Conn, error) {
	for {
		c, err := g.Listener.Accept()
		if err != nil || g.open.Load() {
			return c, err
		}
		c.Close()
	}
}

// startProvider starts a mock identity provider on ln (a new loopback listener when nil), with mws
// around each of its endpoints, and stops it when the test ends.
func startProvider(t *testing.T, ln net.Listener, mws ...func(http.Handler) http.Handler) *mockoidc.MockOIDC {
	t.Helper()
	m, err := mockoidc.NewServer(nil)
	if err != nil {
		t.Fatalf("mockoidc: %v", err)
	}
	for _, mw := range append([]func(http.Handler) http.Handler{oneAtATime()}, mws...) {
		if err := m.AddMiddleware(mw); err != nil {
			t.Fatal(err)
		}
	}
	if ln == nil {
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Start(ln, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	return m
}

// publishing adds fields to the provider's discovery document.
func publishing(fields map[string]any) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != mockoidc.DiscoveryEndpoint {
				next.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			next.ServeHTTP(rec, r)
			doc := map[string]any{}
			if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			maps.Copy(doc, fields)
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(doc)
		})
	}
}

// introspector is an introspection endpoint (RFC 7662) that knows the tokens in answers, and counts the
// questions it was asked.
type introspector struct {
	id, secret string
	mu         sync.Mutex
	answers    map[string]map[string]any
	asked      atomic.Int64
}

func (in *introspector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if r.Method != http.MethodPost || !ok || id != in.id || secret != in.secret {
		http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
		return
	}
	in.asked.Add(1)
	in.mu.Lock()
	answer, known := in.answers[r.PostFormValue("token")]
	in.mu.Unlock()
	if !known {
		answer = map[string]any{"active": false}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(answer)
}

// TestProviderIssuerSpelling checks that an OIDC_ISSUER with a trailing slash the provider does not write
// is accepted, and that the provider's tokens, which carry its own spelling, are then accepted too.
func TestProviderIssuerSpelling(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	idp := discoveredProvider(t, web.ProviderConfig{Issuer: m.Issuer() + "/", ClientID: m.ClientID})
	tb := setupOIDC(t, idp)
	bindBob(t, tb)
	now := time.Now()
	tok, err := m.Keypair.SignJWT(gojwt.MapClaims{
		"iss": m.Issuer(), "aud": m.ClientID, "sub": "idp|bob", "iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	if err != nil {
		t.Fatal(err)
	}
	wantStatus(t, tb.callWith(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil,
		http.Header{"Authorization": {"Bearer " + tok}}), http.StatusOK)

	t.Run("AnotherIssuerIsRefused", func(t *testing.T) {
		p, err := web.NewProvider(web.ProviderConfig{Issuer: m.Addr() + "/oidc/other", ClientID: m.ClientID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Discover(t.Context()); err == nil || p.Ready() {
			t.Errorf("Discover of a provider under another issuer: err = %v, ready = %v; want refused", err, p.Ready())
		}
	})
}

// TestProviderDownAtStart starts the service while its identity provider refuses connections: the
// service serves, says that sign-in is starting, accepts its own tokens, and signs people in once the
// provider answers.
func TestProviderDownAtStart(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gate := &gateListener{Listener: ln}
	m := startProvider(t, gate)
	tb, idp := setupWithProviderDown(t, m)
	pb := &pageBundle{Bundle: tb.Bundle, srv: tb.srv}

	ready := tb.call(t, uuid.Nil, http.MethodGet, "/readyz", nil)
	wantStatus(t, ready, http.StatusOK)
	if got := string(ready.body); got != "ready\nsign-in not ready: the identity provider has not answered yet\n" {
		t.Errorf("/readyz = %q", got)
	}
	p := pb.browser(t).get("/find")
	p.wantStatus(t, http.StatusServiceUnavailable)
	p.wantText(t, "h1", "Sign-in is starting")
	p.wantText(t, ".lead", "Try again in a minute.")
	if got := p.header.Get("Retry-After"); got != "60" {
		t.Errorf("Retry-After = %q, want 60", got)
	}
	if got := p.attr("main a.button", "href"); got != "/login?next=%2Ffind" {
		t.Errorf("Try again leads to %q, want back to /login?next=%%2Ffind", got)
	}
	// The service's own tokens work; the provider's wait for it.
	wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil), http.StatusOK)
	now := time.Now()
	tok, err := m.Keypair.SignJWT(gojwt.MapClaims{
		"iss": m.Issuer(), "aud": m.ClientID, "sub": "idp|alice", "email": "alice@acme.test", "email_verified": true,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
	})
	if err != nil {
		t.Fatal(err)
	}
	wantProblem(t, tb.callWith(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil,
		http.Header{"Authorization": {"Bearer " + tok}}), http.StatusServiceUnavailable, booking.CodeUnavailable, noIndex)

	gate.open.Store(true)
	waitReady(t, idp)
	if got := string(tb.call(t, uuid.Nil, http.MethodGet, "/readyz", nil).body); got != "ready\n" {
		t.Errorf("/readyz once the provider answers = %q, want ready", got)
	}
	m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
	p = pb.browser(t).get("/bookings")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".whoami", "alice Archer")
}

// setupWithProviderDown is setup with m as the identity provider, not yet discovered: the provider's Run
// tries to reach it until the test ends.
func setupWithProviderDown(t *testing.T, m *mockoidc.MockOIDC) (*testBundle, *web.Provider) {
	t.Helper()
	var idp *web.Provider
	tb := setupOIDC(t, nil, func(d *web.Deps) {
		var err error
		if idp, err = web.NewProvider(web.ProviderConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, BaseURL: d.BaseURL,
		}, nil); err != nil {
			t.Fatal(err)
		}
		d.Provider = idp
	})
	proveFixtureDomains(t, tb.Bundle)
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	go idp.Run(ctx)
	return tb, idp
}

// waitReady waits until the provider has been discovered (Run tries again after 1, 2, 4… seconds).
func waitReady(t *testing.T, idp *web.Provider) {
	t.Helper()
	deadline := time.Now().Add(40 * time.Second)
	for !idp.Ready() {
		if time.Now().After(deadline) {
			t.Fatal("the provider was not discovered within 40 s of answering")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestProviderUserinfo signs in through providers whose ID token carries no e-mail address: the service
// asks the userinfo endpoint, and uses its answer only when it is about the same subject.
func TestProviderUserinfo(t *testing.T) {
	t.Parallel()
	m := runProvider(t)

	t.Run("EmailOnlyAtUserinfo", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|alice", Info: map[string]any{
			"email": "alice@acme.test", "email_verified": true, "name": "alice Archer",
		}})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".whoami", "alice Archer")
		var subject string
		if err := pb.Pool.QueryRow(t.Context(), `SELECT oidc_subject FROM users WHERE id = $1`, fx.Alice).Scan(&subject); err != nil {
			t.Fatal(err)
		}
		if subject != "idp|alice" {
			t.Errorf("Alice's subject = %q, want idp|alice", subject)
		}
	})

	t.Run("UnverifiedAtUserinfoBindsNobody", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|alice", Info: map[string]any{"email": "alice@acme.test"}})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, ".lead", "You signed in as alice@acme.test")
	})

	t.Run("AnswerAboutAnotherSubjectIsRefused", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|mallory", Info: map[string]any{
			"sub": "idp|alice", "email": "alice@acme.test", "email_verified": true,
		}})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "main", "The identity provider's answer about you could not be read.")
		var bound int
		if err := pb.Pool.QueryRow(t.Context(), `SELECT count(*) FROM users WHERE oidc_subject IS NOT NULL`).Scan(&bound); err != nil || bound != 0 {
			t.Errorf("people bound to a subject: %d (%v), want 0", bound, err)
		}
	})

	// Okta: the ID token names the address, and only userinfo says it is verified.
	t.Run("VerifiedOnlyAtUserinfo", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|alice",
			IDToken: map[string]any{"email": "alice@acme.test"},
			Info:    map[string]any{"email": "Alice@acme.test", "email_verified": true}})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".whoami", "alice Archer")
	})

	t.Run("UserinfoVouchesOnlyForItsOwnAddress", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|mallory",
			IDToken: map[string]any{"email": "alice@acme.test"},
			Info:    map[string]any{"email": "mallory@acme.test", "email_verified": true}})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, ".reason", "has not verified your e-mail address alice@acme.test")
	})

	// Entra ID sends no email_verified; xms_edov says the address's domain owner verified it.
	t.Run("DomainOwnerVerified", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|alice", IDToken: map[string]any{"email": "alice@acme.test", "xms_edov": true}})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".whoami", "alice Archer")
	})

	t.Run("DomainOwnerNotVerified", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|alice", IDToken: map[string]any{"email": "alice@acme.test", "xms_edov": false}})
		pb.browser(t).get("/bookings").wantStatus(t, http.StatusForbidden)
	})

	t.Run("IDTokenEmailWins", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesOIDC(t, m)
		m.QueueUser(&claimsUser{Subject: "idp|alice",
			IDToken: map[string]any{"email": "alice@acme.test", "email_verified": true},
			Info:    map[string]any{"email": "bob@acme.test", "email_verified": true}})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".whoami", "alice Archer")
	})
}

// TestProviderIntrospection checks the API with access tokens that are not JWTs: refused with a reason
// while introspection is off, and mapped by subject through the provider's introspection endpoint
// (RFC 7662) while it is on, with the answer kept until the token expires.
func TestProviderIntrospection(t *testing.T) {
	t.Parallel()
	in := &introspector{answers: map[string]map[string]any{}}
	endpoint := httptest.NewServer(in)
	t.Cleanup(endpoint.Close)
	m := startProvider(t, nil, publishing(map[string]any{"introspection_endpoint": endpoint.URL}))
	in.id, in.secret = m.ClientID, m.ClientSecret
	exp := time.Now().Add(time.Hour).Unix()
	in.answers["opaque-bob"] = map[string]any{"active": true, "sub": "idp|bob", "exp": exp, "client_id": m.ClientID}
	in.answers["opaque-stranger"] = map[string]any{"active": true, "sub": "idp|stranger", "exp": exp}
	in.answers["opaque-expired"] = map[string]any{"active": true, "sub": "idp|bob", "exp": time.Now().Add(-time.Minute).Unix()}
	in.answers["opaque-no-subject"] = map[string]any{"active": true, "exp": exp}

	status := func(t *testing.T, tb *testBundle, token string) reply {
		t.Helper()
		return tb.callWith(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil,
			http.Header{"Authorization": {"Bearer " + token}})
	}
	on := func(t *testing.T) *testBundle {
		tb := setupOIDC(t, discoveredProvider(t, web.ProviderConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, Introspection: true,
		}))
		bindBob(t, tb)
		return tb
	}

	t.Run("OffSaysWhy", func(t *testing.T) {
		tb := setupOIDC(t, discoveredProvider(t, web.ProviderConfig{Issuer: m.Issuer(), ClientID: m.ClientID}))
		bindBob(t, tb)
		r := status(t, tb, "opaque-bob")
		wantUnauthorized(t, r)
		wantDetail(t, r.object(t), "this token is not a JWT and introspection is off")
	})

	t.Run("ActiveTokenOfABoundPerson", func(t *testing.T) {
		tb := on(t)
		before := in.asked.Load()
		b := created(t, tb.callWith(t, uuid.Nil, http.MethodPost, bookingsPath("me"),
			[]any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))},
			http.Header{"Authorization": {"Bearer opaque-bob"}}), 1)[0]
		wantValue(t, "creator.id", b["creator"].(map[string]any)["id"], fx.Bob.String())
		wantStatus(t, status(t, tb, "opaque-bob"), http.StatusOK)
		if got := in.asked.Load() - before; got != 1 {
			t.Errorf("the provider was asked %d times for two calls with one token, want once", got)
		}
	})

	for name, token := range map[string]string{
		"InactiveToken":          "opaque-unknown",
		"ExpiredToken":           "opaque-expired",
		"NoSubject":              "opaque-no-subject",
		"SubjectBoundToNobody":   "opaque-stranger",
		"EncryptedJWTNotAsked":   "eyJhbGciOiJSU0EtT0FFUCJ9.a.b.c.d",
		"EmptyishTokenWithSpace": "opaque bob",
	} {
		t.Run(name, func(t *testing.T) {
			tb := on(t)
			wantUnauthorized(t, status(t, tb, token))
		})
	}

	t.Run("InactiveSaysWhy", func(t *testing.T) {
		tb := on(t)
		wantDetail(t, status(t, tb, "opaque-unknown").object(t), "the identity provider says this token is not active")
	})

	t.Run("ProviderWithoutEndpoint", func(t *testing.T) {
		plain := runProvider(t)
		tb := setupOIDC(t, discoveredProvider(t, web.ProviderConfig{
			Issuer: plain.Issuer(), ClientID: plain.ClientID, ClientSecret: plain.ClientSecret, Introspection: true,
		}))
		r := status(t, tb, "opaque-bob")
		wantUnauthorized(t, r)
		wantDetail(t, r.object(t), "publishes no introspection endpoint")
	})
}

// TestParseScopes checks OIDC_SCOPES.
func TestParseScopes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                            "openid profile email",
		"openid profile email groups": "openid profile email groups",
		"  openid   email ":           "openid email",
	} {
		got, err := web.ParseScopes(in)
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("ParseScopes(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"profile email", "openid gr\"oups", "openid " + strings.Repeat("x", 101),
		strings.Repeat("openid ", 21)} {
		if _, err := web.ParseScopes(in); err == nil {
			t.Errorf("ParseScopes(%.40q) accepted", in)
		}
	}
}

// TestBrowserSignInWithProviders signs in, in Chromium, through a provider that names the e-mail address
// only at userinfo, and through one that was down when the service started.
func TestBrowserSignInWithProviders(t *testing.T) {
	t.Parallel()
	t.Run("EmailOnlyAtUserinfo", func(t *testing.T) {
		t.Parallel()
		m := runProvider(t)
		pb := setupPagesOIDC(t, m)
		b := newTab(t, pb.srv.URL)
		m.QueueUser(&claimsUser{Subject: "idp|alice", Info: map[string]any{"email": "alice@acme.test", "email_verified": true}})
		b.open("/bookings")
		b.waitText(".whoami", "alice Archer")
	})

	t.Run("DownAtStart", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		gate := &gateListener{Listener: ln}
		m := startProvider(t, gate)
		tb, idp := setupWithProviderDown(t, m)
		b := newTab(t, tb.srv.URL)
		b.open("/bookings")
		b.waitText("h1", "Sign-in is starting")
		b.check("sign-in-starting")
		gate.open.Store(true)
		waitReady(t, idp)
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
		b.do(chromedp.Click(chromedp.CSS("main a.button")))
		b.waitText(".whoami", "alice Archer")
		if got := b.location(); !strings.HasSuffix(got, "/bookings") {
			t.Errorf("after trying again, at %s, want /bookings", got)
		}
	})
}

// TestAnotherHostName opens the service under another host name than BASE_URL's: pages are sent to
// BASE_URL before the sign-in starts, so the sign-in ends where it began. The API, the probes and the
// static files answer under any name.
func TestAnotherHostName(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	tb := setupOIDC(t, nil, func(d *web.Deps) {
		// The test server listens on 127.0.0.1; BASE_URL names it localhost.
		d.BaseURL = strings.Replace(d.BaseURL, "127.0.0.1", "localhost", 1)
		d.Provider = discoveredProvider(t, web.ProviderConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, BaseURL: d.BaseURL,
		})
	})
	proveFixtureDomains(t, tb.Bundle)
	base := strings.Replace(tb.srv.URL, "127.0.0.1", "localhost", 1)

	t.Run("SignInEndsUnderBaseURL", func(t *testing.T) {
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
		pb := &pageBundle{Bundle: tb.Bundle, srv: tb.srv}
		p := pb.browser(t).get("/bookings?view=past")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".whoami", "alice Archer")
		if got := p.url.String(); got != base+"/bookings?view=past" {
			t.Errorf("ended at %s, want %s/bookings?view=past", got, base)
		}
	})

	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(t *testing.T, url string, header http.Header) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		maps.Copy(req.Header, header)
		res, err := noRedirects.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}

	t.Run("PageIsSentToBaseURL", func(t *testing.T) {
		res := get(t, tb.srv.URL+"/find?day=2026-12-01", nil)
		if res.StatusCode != http.StatusTemporaryRedirect || res.Header.Get("Location") != base+"/find?day=2026-12-01" {
			t.Errorf("GET /find under 127.0.0.1: %d to %q, want 307 to %s/find?day=2026-12-01", res.StatusCode, res.Header.Get("Location"), base)
		}
		if got := res.Header.Get("Set-Cookie"); got != "" {
			t.Errorf("the redirect sets a cookie: %q", got)
		}
	})

	t.Run("ProxysHostNameIsRead", func(t *testing.T) {
		res := get(t, tb.srv.URL+"/find", http.Header{"X-Forwarded-Host": {strings.TrimPrefix(base, "http://")}})
		if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login") {
			t.Errorf("GET /find with the proxy's host name: %d to %q, want 303 to /login", res.StatusCode, res.Header.Get("Location"))
		}
	})

	t.Run("APIAndProbesAnswerUnderAnyName", func(t *testing.T) {
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil), http.StatusOK)
		for _, path := range []string{"/healthz", "/readyz", "/static/js/app.js"} {
			if res := get(t, tb.srv.URL+path, nil); res.StatusCode != http.StatusOK {
				t.Errorf("GET %s under 127.0.0.1: %d, want 200", path, res.StatusCode)
			}
		}
	})
}

package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/oauth2-proxy/mockoidc"
)

// TestBrowserSignIn signs in through a real authorization-code flow (PKCE, state, nonce) in chromium.
func TestBrowserSignIn(t *testing.T) {
	t.Parallel()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatalf("mockoidc: %v", err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
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

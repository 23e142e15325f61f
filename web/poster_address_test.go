package web_test

import (
	"net/http"
	"testing"

	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Outside development mode, a service that does not know its public address (BASE_URL) prints no
// posters: their QR codes would hold whatever address the admin's browser used. The pages say so.
func TestPostersNeedBaseURL(t *testing.T) {
	t.Parallel()
	m, err := mockoidc.Run()
	if err != nil {
		t.Fatalf("mockoidc: %v", err)
	}
	t.Cleanup(func() { _ = m.Shutdown() })
	pb := setupPages(t, func(d *web.Deps) {
		login, err := web.NewLogin(t.Context(), web.LoginConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, BaseURL: d.BaseURL,
		})
		if err != nil {
			t.Fatalf("NewLogin: %v", err)
		}
		d.Login, d.Dev, d.BaseURL = login, false, ""
	})
	m.QueueUser(&mockoidc.MockUser{Subject: "idp|adam", Email: "adam@acme.test", EmailVerified: true})
	b := pb.browser(t)
	p := b.get("/posters?floor=" + fx.FloorMadrid.String())
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".posters-admin [role=alert]", "BASE_URL")

	p = b.get("/posters/print?floor=" + fx.FloorMadrid.String())
	p.wantStatus(t, http.StatusServiceUnavailable)
	p.wantText(t, "[role=alert]", "BASE_URL")
	if n := p.count("article.poster, svg.qr"); n != 0 {
		t.Errorf("%d posters or QR codes printed without BASE_URL, want none", n)
	}
}

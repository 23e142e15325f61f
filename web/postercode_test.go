package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestPosterCodesIgnoreCase checks that poster codes are case-insensitive. A code typed or scanned in lower
// case finds the resource on the API, the poster page and the kiosk, and the responses show the code as
// printed.
func TestPosterCodesIgnoreCase(t *testing.T) {
	t.Parallel()
	tb := setupOIDC(t, nil, func(d *web.Deps) { d.Dev = true })
	pb := &pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server}

	r := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "mad-r1"), nil)
	wantStatus(t, r, http.StatusOK)
	if got := r.object(t)["resource"].(map[string]any)["posterCode"]; got != "MAD-R1" {
		t.Errorf("statusinfo of mad-r1: posterCode %v, want MAD-R1", got)
	}

	start := fx.Now.Truncate(time.Minute)
	wantStatus(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}), http.StatusCreated)
	r = tb.call(t, fx.Alice, http.MethodPost, posterCheckInPath("me", "Mad-R1"), nil)
	wantStatus(t, r, http.StatusOK)
	if got := r.object(t)["status"]; got != "ACTIVE" {
		t.Errorf("check-in by Mad-R1: status %v, want ACTIVE", got)
	}

	p := pb.signedIn(t, fx.Alice).get("/p/mad-r2")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "main", "Velázquez")

	p = pb.signedIn(t, fx.Rita).get("/kiosk/resource?code=mad-r2")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "main", "Velázquez", "MAD-R2")
}

// TestKioskHintIsARealPosterCode checks that the kiosk's hint uses one of the organization's real poster
// codes as its example. The demo's receptionist, Rosa, speaks Spanish, so the hint is in Spanish.
func TestKioskHintIsARealPosterCode(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	if _, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now); err != nil {
		t.Fatalf("demo: %v", err)
	}
	people, err := pb.Identity().DevelopmentUsers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range people {
		if u.Email != "rosa.delgado@acme.example" {
			continue
		}
		p := pb.signedIn(t, u.ID).get("/kiosk")
		p.wantStatus(t, http.StatusOK)
		m := regexp.MustCompile(`Por ejemplo (\S+):`).FindStringSubmatch(p.text("#code-hint"))
		if m == nil {
			t.Fatalf("hint = %q, want one giving an example code", p.text("#code-hint"))
		}
		var n int
		if err := pb.Pool.QueryRow(t.Context(), "SELECT count(*) FROM resources WHERE organization_id = $1 AND poster_code = $2 AND visible",
			u.OrganizationID, m[1]).Scan(&n); err != nil || n != 1 {
			t.Errorf("the hint's example %q is not a poster code of the organization (%v)", m[1], err)
		}
		return
	}
	t.Fatal("no receptionist in the demo")
}

// TestBrowserPosterCodesIgnoreCase types a poster code in lower case on the kiosk, and opens a poster's
// URL in lower case on a phone. Both find the resource and show its code as printed.
func TestBrowserPosterCodesIgnoreCase(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	code := strings.ToLower("MAD-R1")

	kiosk := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(kiosk, fx.Rita, "/kiosk")
	kiosk.waitText("h1", "Kiosk")
	kiosk.do(chromedp.SendKeys(chromedp.CSS("#code"), code), chromedp.Click(chromedp.CSS("form.kiosk-code button[type=submit]")))
	kiosk.waitText("h1", "Goya")
	kiosk.waitText(".kiosk-where", "MAD-R1")
	kiosk.waitText("#resource-status", "Free until 20:00 Madrid time")

	phone := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(phone, fx.Alice, "/p/"+code)
	phone.waitText("h1", "Goya")
	phone.waitText("#resource-status", "Free")
	if got := phone.attrOf("form[action$='/book']", "action"); got != "/p/MAD-R1/book" {
		t.Errorf("the poster's booking form posts to %q, want /p/MAD-R1/book", got)
	}
}

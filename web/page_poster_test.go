package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestPosterPage checks what a resource's poster page shows, signed in and signed out.
func TestPosterPage(t *testing.T) {
	t.Parallel()

	t.Run("SignInFirstThenBackToThePoster", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.browser(t)
		p := b.get("/p/MAD-R1")
		if p.url.Path != "/login" {
			t.Fatalf("signed out, /p/MAD-R1 ends at %s, want the sign-in page", p.url)
		}
		next := p.attr("input[name=next]", "value")
		if next != "/p/MAD-R1" {
			t.Fatalf("sign-in comes back to %q, want /p/MAD-R1", next)
		}
		p = b.post("/login/dev", url.Values{"user": {fx.Alice.String()}, "next": {next}})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/p/MAD-R1" {
			t.Fatalf("after signing in the browser is at %s, want /p/MAD-R1", p.url)
		}
		p.wantText(t, "h1", "Goya")
	})

	t.Run("FreeOffersBookNowUntilTheLongestAllowed", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Alice).get("/p/MAD-R1")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".kiosk-where", "madrid-1", "Madrid HQ")
		p.wantText(t, "#resource-status", "Free until 20:00 Madrid time")
		p.wantText(t, "form[action='/p/MAD-R1/book'] button", "Book now")
		p.wantText(t, "form[action='/p/MAD-R1/book'] .kiosk-until", "As long as possible, until 13:00")
		p.wantText(t, "#book-hint", "For you, alice Archer, from 09:00; you are checked in at once.", "It is free until 20:00, but bookings here last at most 4 hours.")
		if got := p.attr("form[action='/p/MAD-R1/book'] input[name=until][checked]", "value"); got != rfc3339(fx.At(0, 13, 0)) {
			t.Errorf("until = %q, want 13:00", got)
		}
		if p.count("form[action='/p/MAD-R1/checkin'] button") != 0 {
			t.Errorf("Check in is offered without a booking to check in")
		}
	})

	t.Run("UnknownCodeIs404", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		alice := pb.signedIn(t, fx.Alice)
		p := alice.get("/p/NOPE-1")
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, "main", "No resource has the poster code NOPE-1")
		p = alice.post("/p/NOPE-1/checkin", url.Values{})
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, "main", "No resource has the poster code NOPE-1.")
		p = alice.hxPost("/p/NOPE-1/book", url.Values{"until": {rfc3339(fx.At(0, 10, 0))}})
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, ".notice", "No resource has the poster code NOPE-1.")
		if got := p.header.Get("HX-Retarget"); got != "#notice" {
			t.Errorf("HX-Retarget = %q, want #notice", got)
		}
	})

	t.Run("UnavailableOffersNothing", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Alice).get("/p/MAD-RH")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#resource-status", "Unavailable", "cannot be booked at the moment")
		if p.count("form.poster-action") != 0 {
			t.Errorf("a closed-down resource offers an action")
		}
	})

	t.Run("ClosedOffersNothing", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		pb.Clock.Set(fx.At(0, 21, 0))
		p := pb.signedIn(t, fx.Alice).get("/p/MAD-R1")
		p.wantText(t, "#resource-status", "Closed", "Closed now: it can be booked from 08:00 to 20:00 Madrid time")
		if p.count("form[action='/p/MAD-R1/book']") != 0 || p.count("form[action='/p/MAD-R1/checkin']") != 0 {
			t.Errorf("outside the window, with no booking to check in: want no action")
		}
	})
}

// TestPosterPageActions checks booking and checking in from a resource's poster page.
func TestPosterPageActions(t *testing.T) {
	t.Parallel()

	t.Run("BookNow", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		alice := pb.signedIn(t, fx.Alice)
		p := alice.post("/p/MAD-R1/book", url.Values{"until": {rfc3339(fx.At(0, 13, 0))}})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/p/MAD-R1" {
			t.Errorf("after booking the browser is at %s, want /p/MAD-R1", p.url)
		}
		p.wantText(t, ".kiosk-outcome", "Booked for you and checked in until 13:00 Madrid time.")
		p.wantText(t, "#resource-status", "Yours, checked in until 13:00")
		if p.count("form[action='/p/MAD-R1/book']") != 0 {
			t.Errorf("Book now is still offered")
		}
		if got := countBookings(t, pb, "organizer_id = $1 AND creator_id = $1 AND resource_id = $2 AND start_date = $3 AND end_date = $4",
			fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 13, 0)); got != 1 {
			t.Errorf("alice's bookings of Goya 09:00–13:00 = %d, want 1", got)
		}
	})

	t.Run("BookNowWithHTMX", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Bob).hxPost("/p/MAD-D1/book", url.Values{"until": {rfc3339(fx.At(1, 0, 0))}})
		p.wantStatus(t, http.StatusOK)
		if strings.Contains(p.body, "<html") {
			t.Errorf("htmx answer is a whole page")
		}
		p.wantText(t, ".kiosk-outcome", "Booked for you and checked in until midnight Madrid time.")
	})

	t.Run("BookNowRefused", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		alice := pb.signedIn(t, fx.Alice)
		// Alice's page offered Goya until 13:00, but Bob then books it from 10:00.
		bookRoom(t, pb, fx.Bob, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		form := url.Values{"until": {rfc3339(fx.At(0, 13, 0))}}
		for _, p := range []htmlPage{alice.hxPost("/p/MAD-R1/book", form), alice.post("/p/MAD-R1/book", form)} {
			p.wantStatus(t, http.StatusConflict)
			p.wantText(t, ".kiosk-outcome", "Not booked", "Goya is already booked during part of that time.")
			// The updated status offers the time that is still free.
			p.wantText(t, "form[action='/p/MAD-R1/book'] .kiosk-until", "As long as possible, until 10:00")
		}
		p := alice.hxPost("/p/MAD-R1/book", url.Values{})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".kiosk-outcome", "Choose how long to book it.")
		if got := countBookings(t, pb, "organizer_id = $1", fx.Alice); got != 0 {
			t.Errorf("alice's bookings = %d, want 0", got)
		}
	})

	t.Run("CheckIn", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := bookRoom(t, pb, fx.Alice, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		p := pb.signedIn(t, fx.Alice).post("/p/MAD-R1/checkin", nil)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".kiosk-outcome", "Checked in", "You are checked in to Goya until 10:00 Madrid time.")
		if got := countBookings(t, pb, "id = $1 AND status = 'ACTIVE'", b.ID); got != 1 {
			t.Errorf("alice's booking is not ACTIVE")
		}
	})

	t.Run("CheckInRefused", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		// Alice may not check in to Bob's booking.
		bookRoom(t, pb, fx.Bob, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		alice := pb.signedIn(t, fx.Alice)
		for _, p := range []htmlPage{alice.hxPost("/p/MAD-R1/checkin", url.Values{}), alice.post("/p/MAD-R1/checkin", url.Values{})} {
			p.wantStatus(t, http.StatusNotFound)
			p.wantText(t, ".kiosk-outcome", "Not checked in", "Alice has no booking of Goya whose check-in is open now.")
		}
		if got := countBookings(t, pb, "status = 'ACTIVE'"); got != 0 {
			t.Errorf("active bookings = %d, want 0", got)
		}
	})
}

func TestPosters(t *testing.T) {
	t.Parallel()
	floor := fx.FloorMadrid.String()

	t.Run("AdminsOnly", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		for _, who := range []string{"alice", "rita"} {
			id := map[string]string{"alice": fx.Alice.String(), "rita": fx.Rita.String()}[who]
			b := pb.browser(t)
			if p := b.post("/login/dev", url.Values{"user": {id}, "next": {"/posters"}}); p.status != http.StatusForbidden {
				t.Errorf("%s: /posters status = %d, want 403", who, p.status)
			} else {
				p.wantText(t, "main", "Posters are printed by admins")
			}
			if p := b.get("/posters/print?floor=" + floor); p.status != http.StatusForbidden {
				t.Errorf("%s: /posters/print status = %d, want 403", who, p.status)
			}
		}
	})

	t.Run("ChooseBuildingFloorAndResource", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		adam := pb.signedIn(t, fx.Adam)
		p := adam.get("/posters")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "nav[aria-label=Buildings]", "Madrid HQ", "New York Office")
		p.wantText(t, "h2", "Floors of Madrid HQ")
		if got, want := p.count(".posters-floors li"), 1; got != want {
			t.Errorf("floors = %d, want %d (not the hidden floor)", got, want)
		}
		if p.count("a[href='/posters/print?floor="+floor+"']") != 1 {
			t.Errorf("no link prints the floor's posters")
		}
		p = adam.get("/posters?building=" + fx.BuildingNewYork.String())
		p.wantText(t, "h2", "Floors of New York Office")
		p.wantText(t, ".posters-floors", "new-york-1")

		p = adam.get("/posters?floor=" + floor)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#floor-resources", "Desks and rooms of madrid-1")
		if got, want := p.count(".posters-table tbody tr"), 5; got != want {
			t.Errorf("resources listed = %d, want %d", got, want)
		}
		if p.count("a[href='/posters/print?resource="+fx.RoomGoya.String()+"']") != 1 {
			t.Errorf("no link prints Goya's poster")
		}
		adam.get("/posters?floor="+fx.FloorHidden.String()).wantStatus(t, http.StatusNotFound)
		adam.get("/posters?building=nope").wantStatus(t, http.StatusBadRequest)
	})

	// posters reads the printed posters on a page: name, code, address, and the QR code's path and viewBox.
	type poster struct{ name, code, url, path, viewBox string }
	posters := func(p htmlPage) []poster {
		var out []poster
		p.doc.Find("article.poster").Each(func(_ int, s *goquery.Selection) {
			path, _ := s.Find("svg.qr path").Attr("d")
			vb, _ := s.Find("svg.qr").Attr("viewBox")
			out = append(out, poster{
				name: strings.TrimSpace(s.Find(".poster-name").Text()),
				code: strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.Find(".poster-code").Text()), "Poster code")),
				url:  strings.TrimSpace(s.Find(".poster-url").Text()), path: path, viewBox: vb,
			})
		})
		return out
	}
	// wantQR fails the test unless the poster shows the address want and its QR code encodes it.
	wantQR := func(t *testing.T, ps poster, want string) {
		t.Helper()
		if ps.url != want {
			t.Errorf("%s: address = %q, want %q", ps.name, ps.url, want)
		}
		q, err := views.NewQR(want)
		if err != nil {
			t.Fatalf("NewQR: %v", err)
		}
		if ps.path == "" || ps.path != q.Path {
			t.Errorf("%s: the QR code does not encode %s", ps.name, want)
		}
		if got := "0 0 " + strconv.Itoa(q.Size) + " " + strconv.Itoa(q.Size); ps.viewBox != got {
			t.Errorf("%s: viewBox = %q, want %q", ps.name, ps.viewBox, got)
		}
	}

	t.Run("PrintAFloor", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t, func(d *web.Deps) { d.BaseURL = "https://booking.example.com/" })
		p := signInAs(t, pb.browserAt(t, "booking.example.com"), fx.Adam).get("/posters/print?floor=" + floor)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Posters of madrid-1, Madrid HQ")
		got := posters(p)
		var names []string
		for _, ps := range got {
			names = append(names, ps.name+" "+ps.code)
			wantQR(t, ps, "https://booking.example.com/p/"+ps.code)
		}
		if want := "Boardroom MAD-R3,Desk 1 MAD-D1,Desk 2 MAD-D2,Goya MAD-R1,Velázquez MAD-R2"; strings.Join(names, ",") != want {
			t.Errorf("posters = %v, want %s", names, want)
		}
		if got := p.count("article.poster svg.qr"); got != 5 {
			t.Errorf("QR codes = %d, want 5", got)
		}
		p.wantText(t, "article.poster", "Scan to see if it is free, book it or check in")
		if p.count("button#print-posters[hidden]") != 1 || p.attr("script[src='/static/js/print.js']", "src") == "" {
			t.Errorf("the Print button (shown by print.js) is missing")
		}
	})

	t.Run("PrintOneResourceUnderTheRequestsAddress", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t, func(d *web.Deps) { d.BaseURL = "" })
		p := pb.signedIn(t, fx.Adam).get("/posters/print?resource=" + fx.RoomGoya.String())
		p.wantStatus(t, http.StatusOK)
		got := posters(p)
		if len(got) != 1 || got[0].code != "MAD-R1" {
			t.Fatalf("posters = %+v, want Goya's alone", got)
		}
		wantQR(t, got[0], pb.srv.URL+"/p/MAD-R1")
	})

	t.Run("PrintRefusals", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		adam := pb.signedIn(t, fx.Adam)
		for path, want := range map[string]int{
			"/posters/print":         http.StatusBadRequest,
			"/posters/print?floor=x": http.StatusBadRequest,
			"/posters/print?floor=" + fx.FloorHidden.String():      http.StatusNotFound,
			"/posters/print?floor=" + fx.FloorB.String():           http.StatusNotFound,
			"/posters/print?resource=" + fx.RoomHidden.String():    http.StatusNotFound,
			"/posters/print?floor=" + floor + "&resource=" + floor: http.StatusBadRequest,
		} {
			if p := adam.get(path); p.status != want {
				t.Errorf("%s: status = %d, want %d", path, p.status, want)
			} else if p.count("article.poster") != 0 {
				t.Errorf("%s: posters printed", path)
			}
		}
	})
}

// TestBrowserPosters checks a poster page on a phone (booking now, which also checks in) and the admins'
// posters page, on screen and ready to print.
func TestBrowserPosters(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	phone := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(phone, fx.Alice, "/p/MAD-R1")
	phone.waitText("h1", "Goya")
	phone.waitText("form[action='/p/MAD-R1/book'] .kiosk-until", "As long as possible, until 13:00")
	phone.check("poster")
	phone.do(chromedp.Click(chromedp.CSS("form[action='/p/MAD-R1/book'] button")))
	phone.waitText(".kiosk-outcome", "Booked for you and checked in until 13:00 Madrid time.")
	phone.waitText("#resource-status", "Yours, checked in until 13:00")
	phone.check("poster-checked-in")

	admin := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(admin, fx.Adam, "/posters?floor="+fx.FloorMadrid.String())
	admin.waitText("#floor-resources", "madrid-1")
	admin.check("posters")
	admin.open("/posters/print?floor=" + fx.FloorMadrid.String())
	admin.do(chromedp.WaitVisible(chromedp.CSS("#print-posters")))
	admin.waitText("article.poster", "MAD-R3")
	admin.check("posters-print")

	// The vendored scanner reads the first poster's QR code, rendered as an image, and gets its address.
	got, err := chromedp.Run(admin.ctx, chromedp.Evaluate[string](`(async () => {
		const { default: QrScanner } = await import("/static/js/qr-scanner.min.js");
		const svg = document.querySelector("article.poster svg.qr").outerHTML.replace("<svg ", '<svg width="400" height="400" ');
		const result = await QrScanner.scanImage("data:image/svg+xml;base64," + btoa(svg), { returnDetailedScanResult: true });
		return result.data;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("scan the printed QR code: %v", err)
	}
	if want := pb.srv.URL + "/p/MAD-R3"; got != want {
		t.Errorf("the first poster's QR code reads %q, want %q", got, want)
	}

	// An unknown poster code shows the error page.
	admin.open("/p/NOPE-1")
	admin.waitText("main", "No resource has the poster code NOPE-1.")
	admin.check("poster-not-found")
}

// TestPostersNeedBaseURL checks that outside development mode, a service without a public address
// (BASE_URL) prints no posters, and the pages say why. Otherwise the QR codes would hold whatever address
// the admin's browser happened to use.
func TestPostersNeedBaseURL(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	pb := setupPages(t, func(d *web.Deps) {
		d.Provider = discoveredProvider(t, web.ProviderConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, BaseURL: d.BaseURL,
		})
		d.Dev, d.BaseURL = false, ""
	})
	proveFixtureDomains(t, pb.Bundle)
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

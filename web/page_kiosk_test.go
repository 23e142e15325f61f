package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// Helpers for the kiosk and poster tests.

// rfc3339 formats an end time as the kiosk's forms send it.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// fixtureUser loads a fixture user from organization A.
func fixtureUser(t *testing.T, pb *pageBundle, id uuid.UUID) booking.User {
	t.Helper()
	return pb.User(t, fx.OrgA, id)
}

// bookRoom books a room for organizer, with the receptionist as creator, and fails the test on any error.
func bookRoom(t *testing.T, pb *pageBundle, organizer uuid.UUID, resource uuid.UUID, start, end time.Time) booking.Booking {
	t.Helper()
	bs, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: fixtureUser(t, pb, fx.Rita), Organizer: fixtureUser(t, pb, organizer), Category: booking.CategorySpace, Bookings: []booking.NewBooking{{ResourceID: resource, Start: start, End: end, Subject: "Meeting"}}})
	if err != nil {
		t.Fatalf("CreateBookings: %v", err)
	}
	return bs[0]
}

// countBookings returns the number of bookings that match the SQL condition where.
func countBookings(t *testing.T, pb *pageBundle, where string, args ...any) int {
	t.Helper()
	var n int
	if err := pb.Pool.QueryRow(t.Context(), "SELECT count(*) FROM bookings WHERE "+where, args...).Scan(&n); err != nil {
		t.Fatalf("count bookings: %v", err)
	}
	return n
}

// hideRoomBookings sets the meeting rooms' subcategory to hide who booked a room.
func hideRoomBookings(t *testing.T, pb *pageBundle) {
	t.Helper()
	l := fx.Layout()
	for i := range l.Subcategories {
		if l.Subcategories[i].ID == fx.SubRoom.String() {
			l.Subcategories[i].HideBookings = true
		}
	}
	if _, err := layout.New(pb.Pool, pb.Service).Import(t.Context(), l); err != nil {
		t.Fatalf("Import: %v", err)
	}
}

// wantNoText fails the test if the selector's text contains part.
func (p htmlPage) wantNoText(t *testing.T, selector, part string) {
	t.Helper()
	if got := p.text(selector); strings.Contains(got, part) {
		t.Errorf("text of %q = %q, want it without %q", selector, got, part)
	}
}

// TestKiosk checks who may use the kiosk and what it shows about a resource.
func TestKiosk(t *testing.T) {
	t.Parallel()

	t.Run("EmployeeIsRefused", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		alice := pb.signedIn(t, fx.Alice)
		for _, p := range []htmlPage{
			alice.get("/kiosk"),
			alice.get("/kiosk/resource?code=MAD-R1"),
			alice.post("/kiosk/book", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 10, 0))}}),
			alice.post("/kiosk/checkin", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}}),
		} {
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", "The kiosk is for reception")
		}
		if got := countBookings(t, pb, "true"); got != 0 {
			t.Errorf("bookings = %d, want 0", got)
		}
	})

	t.Run("ScanPage", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		for _, who := range []uuid.UUID{fx.Rita, fx.Adam} {
			p := pb.signedIn(t, who).get("/kiosk")
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, "h1", "Kiosk")
			// The scan button is hidden until the script can start the camera.
			want := map[string]any{
				"code form action":  "/kiosk/resource",
				"code label for":    "code",
				"code fields":       1,
				"hidden scan start": 1,
				"module script":     "/static/js/kiosk.js",
				"data-kiosk-idle":   "60",
			}
			got := map[string]any{
				"code form action":  p.attr("form.kiosk-code", "action"),
				"code label for":    p.attr("label[for=code]", "for"),
				"code fields":       p.count("input#code[name=code]"),
				"hidden scan start": p.count("button#scan-start[hidden]"),
				"module script":     p.attr("script[type=module]", "src"),
				"data-kiosk-idle":   p.attr("[data-kiosk-idle]", "data-kiosk-idle"),
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("kiosk page of %s (-want +got):\n%s", who, diff)
			}
		}
	})

	t.Run("TypedCodeShowsFreeUntil", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Rita).get("/kiosk/resource?code=+MAD-R1+")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Goya")
		p.wantText(t, ".kiosk-where", "madrid-1", "Madrid HQ", "MAD-R1")
		p.wantText(t, "#resource-status", "Free", "Free until 20:00 Madrid time")
		// The form offers four end times, up to the rule's 4-hour limit, with the longest selected.
		if got, want := p.count("input[name=until]"), 4; got != want {
			t.Errorf("end choices = %d, want %d", got, want)
		}
		if got := p.attr("input[name=until]:checked", "value"); got != rfc3339(fx.At(0, 13, 0)) {
			t.Errorf("chosen end = %q, want 13:00", got)
		}
		p.wantText(t, ".kiosk-until", "30 minutes, until 09:30", "1 hour, until 10:00", "2 hours, until 11:00",
			"As long as possible, until 13:00")
		if p.count("input#user-q") != 1 || p.count("button[formaction='/kiosk/book']") != 1 {
			t.Errorf("the colleague picker or Book now is missing")
		}
		// Nobody has a booking here whose check-in is open, so Check in is not offered.
		if p.count("button[formaction='/kiosk/checkin']") != 0 {
			t.Errorf("Check in is offered while no booking here can be checked in")
		}
	})

	t.Run("ScannedAddressShowsTheResource", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Rita).get("/kiosk/resource?code=" + url.QueryEscape("https://booking.example.com/p/MAD-R2"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Velázquez")
	})

	t.Run("WholeDayDeskIsFreeUntilMidnight", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Rita).get("/kiosk/resource?code=MAD-D1")
		p.wantText(t, "#resource-status", "Free until midnight Madrid time")
	})

	t.Run("BusyShowsWhoUntilWhen", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		bookRoom(t, pb, fx.Bob, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		bookRoom(t, pb, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 10, 30))
		p := pb.signedIn(t, fx.Rita).get("/kiosk/resource?code=MAD-R1")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#resource-status", "Busy", "Busy until 10:30 Madrid time — booked by bob Baker",
			"waiting for check-in")
		if p.count("button[formaction='/kiosk/book']") != 0 || p.count("input[name=until]") != 0 {
			t.Errorf("Book now is offered while the room is busy")
		}
		if p.count("button[formaction='/kiosk/checkin']") != 1 {
			t.Errorf("Check in is not offered while the room is busy")
		}
	})

	t.Run("HiddenBookingsNameNobody", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		hideRoomBookings(t, pb)
		bookRoom(t, pb, fx.Bob, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		p := pb.signedIn(t, fx.Rita).get("/kiosk/resource?code=MAD-R1")
		p.wantText(t, "#resource-status", "Busy until 10:00 Madrid time")
		p.wantNoText(t, "main", "booked by")
		p.wantNoText(t, "main", "bob")
	})

	t.Run("UnknownCodeIs404", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		rita := pb.signedIn(t, fx.Rita)
		p := rita.get("/kiosk/resource?code=NOPE-9")
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, "main", "No resource has the poster code NOPE-9")
		if got := p.attr("input#code", "value"); got != "NOPE-9" {
			t.Errorf("typed code = %q, want it kept for correction", got)
		}
		// Another organization's resources are not found either.
		p = rita.get("/kiosk/resource?code=" + url.QueryEscape("Globex room"))
		p.wantStatus(t, http.StatusNotFound)
		p = rita.get("/kiosk/resource?code=")
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "main", "Type the poster code")
	})
}

// TestKioskBook checks booking a resource for a colleague at the kiosk.
func TestKioskBook(t *testing.T) {
	t.Parallel()

	t.Run("PickerFindsPeopleWithoutJavaScript", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Rita).get("/kiosk/resource?code=MAD-R1&q=bob&until=" + url.QueryEscape(rfc3339(fx.At(0, 10, 0))))
		p.wantStatus(t, http.StatusOK)
		if got := p.attr("input[name=user][type=radio]", "value"); got != fx.Bob.String() {
			t.Errorf("found = %q, want bob", got)
		}
		if got := p.attr("input[name=until]:checked", "value"); got != rfc3339(fx.At(0, 10, 0)) {
			t.Errorf("chosen end = %q, want 10:00 kept", got)
		}
	})

	t.Run("BookForBob", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		rita := pb.signedIn(t, fx.Rita)
		p := rita.post("/kiosk/book", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 11, 0))}})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/kiosk/resource" {
			t.Errorf("after booking the browser is at %s, want /kiosk/resource", p.url)
		}
		p.wantText(t, ".kiosk-outcome", "Booked", "Booked for bob Baker until 11:00 Madrid time.")
		p.wantText(t, "#resource-status", "Busy until 11:00 Madrid time — booked by bob Baker")
		if got := p.attr("input[name=user]:checked", "value"); got != fx.Bob.String() {
			t.Errorf("chosen person after booking = %q, want bob still chosen", got)
		}
		if got := countBookings(t, pb, "organizer_id = $1 AND creator_id = $2 AND resource_id = $3 AND start_date = $4 AND end_date = $5",
			fx.Bob, fx.Rita, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 11, 0)); got != 1 {
			t.Errorf("bookings of Goya for bob made by rita, 09:00–11:00 = %d, want 1", got)
		}
		// The outcome message shows only once.
		p = rita.get("/kiosk/resource?code=MAD-R1")
		if p.count(".kiosk-outcome") != 0 {
			t.Errorf("the outcome shows again on reload")
		}
	})

	t.Run("BookWithHTMXSwapsThePanel", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		pb.Clock.Set(fx.At(0, 9, 4).Add(20 * time.Second))
		p := pb.signedIn(t, fx.Adam).hxPost("/kiosk/book", url.Values{"code": {"MAD-D2"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 12, 0))}})
		p.wantStatus(t, http.StatusOK)
		if strings.Contains(p.body, "<html") || p.count("#kiosk-panel") != 0 {
			t.Errorf("htmx answer is not the panel alone")
		}
		p.wantText(t, ".kiosk-outcome", "Booked for bob Baker until 12:00 Madrid time.")
		if p.count(".kiosk-outcome[data-focus]") != 1 {
			t.Errorf("the outcome does not take the focus")
		}
		if got := countBookings(t, pb, "organizer_id = $1 AND creator_id = $2 AND resource_id = $3 AND start_date = $4 AND resource_type = 'WORKSTATION'",
			fx.Bob, fx.Adam, fx.DeskTwo, fx.At(0, 9, 4)); got != 1 {
			t.Errorf("desk bookings for bob from 09:04 made by adam = %d, want 1", got)
		}
	})

	t.Run("BookingNeedingApprovalSaysSo", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Rita).hxPost("/kiosk/book", url.Values{"code": {"MAD-R3"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 10, 0))}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".kiosk-outcome", "waiting for approval", "An admin must approve")
		p.wantText(t, "#resource-status", "waiting for an admin's approval")
	})

	t.Run("RefusedWhenBusy", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		rita := pb.signedIn(t, fx.Rita)
		// The form was loaded while Goya was free. Meanwhile, Alice books it from 09:30.
		bookRoom(t, pb, fx.Alice, fx.RoomGoya, fx.At(0, 9, 30), fx.At(0, 10, 30))
		form := url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 10, 0))}}
		for _, p := range []htmlPage{rita.hxPost("/kiosk/book", form), rita.post("/kiosk/book", form)} {
			p.wantStatus(t, http.StatusConflict)
			p.wantText(t, ".kiosk-outcome", "Not booked", "Goya is already booked during part of that time.")
			if got := p.attr("input[name=user]:checked", "value"); got != fx.Bob.String() {
				t.Errorf("chosen person after a refusal = %q, want bob kept", got)
			}
		}
		if got := countBookings(t, pb, "organizer_id = $1", fx.Bob); got != 0 {
			t.Errorf("bookings of bob = %d, want 0", got)
		}
	})

	t.Run("RefusedBeyondTheMaximumDuration", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Rita).hxPost("/kiosk/book", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 14, 0))}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, ".kiosk-outcome", "Not booked", "longer than the maximum of 4h")
		if got := countBookings(t, pb, "true"); got != 0 {
			t.Errorf("bookings = %d, want 0", got)
		}
	})

	t.Run("RefusedWithoutAPersonOrAnEnd", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		rita := pb.signedIn(t, fx.Rita)
		p := rita.hxPost("/kiosk/book", url.Values{"code": {"MAD-R1"}, "until": {rfc3339(fx.At(0, 10, 0))}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".kiosk-outcome", "Not booked", "Choose the employee first")
		p = rita.hxPost("/kiosk/book", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".kiosk-outcome", "Choose until when to book")
		p = rita.hxPost("/kiosk/book", url.Values{"code": {"MAD-R1"}, "user": {uuid.NewString()}, "until": {rfc3339(fx.At(0, 10, 0))}})
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, ".kiosk-outcome", "No user")
		if got := countBookings(t, pb, "true"); got != 0 {
			t.Errorf("bookings = %d, want 0", got)
		}
	})

	t.Run("UnknownCodeWhenBooking", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		p := pb.signedIn(t, fx.Rita).post("/kiosk/book", url.Values{"code": {"NOPE"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 10, 0))}})
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, "main", "No resource has the poster code NOPE.")
	})

}

// TestKioskCheckIn checks checking a colleague in at the kiosk.
func TestKioskCheckIn(t *testing.T) {
	t.Parallel()

	t.Run("CheckInBob", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := bookRoom(t, pb, fx.Bob, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		p := pb.signedIn(t, fx.Rita).post("/kiosk/checkin", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".kiosk-outcome", "Checked in", "bob Baker is checked in to Goya until 10:00 Madrid time.")
		p.wantText(t, "#resource-status", "Busy until 10:00 Madrid time — booked by bob Baker", "Checked in.")
		if got := countBookings(t, pb, "id = $1 AND status = 'ACTIVE'", b.ID); got != 1 {
			t.Errorf("bob's booking is not ACTIVE")
		}
	})

	t.Run("CheckInRefusedWithoutABooking", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		bookRoom(t, pb, fx.Bob, fx.RoomGoya, fx.At(0, 11, 0), fx.At(0, 12, 0)) // check-in opens 10:50
		p := pb.signedIn(t, fx.Rita).hxPost("/kiosk/checkin", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}})
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, ".kiosk-outcome", "Not checked in", "Bob has no booking of Goya whose check-in is open now.")
		if got := countBookings(t, pb, "status = 'ACTIVE'"); got != 0 {
			t.Errorf("active bookings = %d, want 0", got)
		}
	})
}

// kioskBrowserSignIn signs the tab in as a fixture user through the development sign-in page, then
// opens path.
func kioskBrowserSignIn(b *tab, user uuid.UUID, path string) {
	b.t.Helper()
	b.open("/login?next=" + url.QueryEscape(path))
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(function () {
		var input = document.querySelector('form[action="/login/dev"] input[name=user][value="`+user.String()+`"]');
		input.form.requestSubmit();
		return true;
	})()`)); err != nil {
		b.t.Fatalf("sign in: %v", err)
	}
	// Signed in, the page offers a way out: the kiosk's "Leave kiosk", which asks before signing out, or
	// the sign-out button. They are waited for by their place, not their words: the person's language
	// may not be English.
	if strings.HasPrefix(path, "/kiosk") {
		b.do(chromedp.WaitVisible(chromedp.CSS("header.top .kiosk-leave summary")))
	} else {
		b.do(chromedp.WaitVisible(chromedp.CSS(".whoami button[type=submit]")))
	}
	b.waitLoaded()
}

// waitLoaded waits until a page that a script navigated to has finished loading. The page's text can
// appear earlier, but the browser keeps replacing nodes while it loads, and clicking a replaced node
// fails with "Could not find node with given id".
func (b *tab) waitLoaded() {
	b.t.Helper()
	b.do(chromedp.Poll[chromedp.Void](`document.readyState === "complete"`, chromedp.WithPollingTimeout(15*time.Second)))
}

// TestBrowserKiosk follows a receptionist on a tablet: the camera cannot start because there is none,
// a poster code is typed instead, and a room is booked for a colleague found by name.
func TestBrowserKiosk(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, fx.Rita, "/kiosk")
	b.waitText("h1", "Kiosk")
	b.check("kiosk")

	// The scan button appears once the script runs; the browser's fake camera starts, and stops again.
	// The code is typed only once the preview is hidden: while it opens and takes its size, the form
	// below it moves, and a click aimed before a move would miss the button.
	b.do(chromedp.WaitVisible(chromedp.CSS("#scan-start")), chromedp.Click(chromedp.CSS("#scan-start")))
	b.waitText("#scan-message", "Hold the poster's QR code in front of the camera.")
	b.do(chromedp.Click(chromedp.CSS("#scan-stop")))
	b.waitText("#scan-message", "The camera is off.")
	b.do(chromedp.WaitNotVisible(chromedp.CSS("#scan-area")))

	b.do(chromedp.SendKeys(chromedp.CSS("#code"), "MAD-R1"), chromedp.Click(chromedp.CSS("form.kiosk-code button[type=submit]")))
	b.waitText("h1", "Goya")
	b.waitText("#resource-status", "Free until 20:00 Madrid time")
	b.check("kiosk-resource")

	b.do(chromedp.SendKeys(chromedp.CSS("#user-q"), "bob"))
	b.waitText("#user-choices", "bob Baker")
	b.do(
		chromedp.Click(chromedp.CSS(`#user-choices input[value="`+fx.Bob.String()+`"]`)),
		chromedp.Click(chromedp.CSS(`input[name=until][value="`+rfc3339(fx.At(0, 10, 0))+`"]`)),
		chromedp.Click(chromedp.CSS(`button[formaction="/kiosk/book"]`)),
	)
	b.waitText(".kiosk-outcome", "Booked for bob Baker until 10:00 Madrid time.")
	b.waitText("#resource-status", "Busy until 10:00 Madrid time — booked by bob Baker")
	b.check("kiosk-booked")
	if got := countBookings(t, pb, "organizer_id = $1 AND creator_id = $2 AND end_date = $3", fx.Bob, fx.Rita, fx.At(0, 10, 0)); got != 1 {
		t.Errorf("bookings of bob made by rita until 10:00 = %d, want 1", got)
	}

	// Bob is still selected, so he can be checked in.
	b.do(chromedp.Click(chromedp.CSS(`button[formaction="/kiosk/checkin"]`)))
	b.waitText(".kiosk-outcome", "Checked in", "bob Baker is checked in to Goya until 10:00 Madrid time.")
	b.waitText("#resource-status", "Checked in.")

	// Left idle, the kiosk goes back to the start page. The test shortens the idle minute to a second.
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(function () {
		const setTimeout = window.setTimeout;
		window.setTimeout = (fn, ms) => setTimeout(fn, Math.min(ms, 1000));
		document.dispatchEvent(new KeyboardEvent("keydown"));
		return true;
	})()`)); err != nil {
		t.Fatalf("shorten the idle time: %v", err)
	}
	b.waitText("h1", "Kiosk")
	if loc := b.location(); !strings.HasSuffix(loc, "/kiosk") {
		t.Errorf("after idling the kiosk is at %s, want /kiosk", loc)
	}
}

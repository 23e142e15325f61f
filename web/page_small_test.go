package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Small issues people ran into on the pages: a cancelled booking leaves "Upcoming", the booking just made
// is highlighted, "0 free" says why, and the filters offer only what fits the chosen kind.

func TestCancelledLeavesUpcoming(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	goya := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	pb.mbCreate(t, fx.Alice, fx.RoomVelazquez, fx.At(1, 12, 0), fx.At(1, 13, 0))
	b := pb.signedIn(t, fx.Alice)
	// The cancel forms of cards in the Upcoming list send list=upcoming. That field, not the page the form
	// returns to, decides whether the cancelled card is removed.
	form := "#booking-" + goya.ID.String() + " form.cancel-form"
	if got := b.get("/bookings").attr(form+" input[name=list]", "value"); got != "upcoming" {
		t.Fatalf("the cancel form of a card in Upcoming sends list=%q, want upcoming", got)
	}
	if got := b.get("/bookings?when=past").count("input[name=list]"); got != 0 {
		t.Errorf("the Past list has %d cards that say they are in Upcoming", got)
	}
	p := b.hxPost("/bookings/"+goya.ID.String()+"/cancel", url.Values{"back": {"/bookings?when=upcoming"}, "list": {"upcoming"}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "#booking-"+goya.ID.String(), "Booking cancelled.", "now under Past")
	if n := p.count(".booking-card"); n != 0 {
		t.Errorf("the cancelled booking still shows as a card in Upcoming")
	}
	// On the booking's own page, the card stays and shows as cancelled.
	velazquez := findOwnBookings(t, pb, fx.Alice)[0]
	p = b.hxPost("/bookings/"+velazquez.ID.String()+"/cancel", url.Values{"back": {"/bookings/" + velazquez.ID.String()}})
	p.wantText(t, ".booking-card", "Cancelled")

	// A card whose form does not send list=upcoming stays, whatever page it returns to.
	later := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(2, 10, 0), fx.At(2, 11, 0))
	p = b.hxPost("/bookings/"+later.ID.String()+"/cancel", url.Values{"back": {"/bookings?when=upcoming"}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".booking-card", "Cancelled")
}

// TestBrowserCancelLeavesUpcoming cancels a booking from the Upcoming list and checks that it leaves the list.
func TestBrowserCancelLeavesUpcoming(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	goya := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, fx.Alice, "/bookings")
	card := "#booking-" + goya.ID.String()
	b.do(chromedp.Click(chromedp.CSS(card+" .cancel summary")), chromedp.Click(chromedp.CSS(card+" .cancel-form button")))
	b.waitText(card, "Booking cancelled.", "now under Past")
	if n, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll("#booking-list .booking-card").length`)); n != 0 {
		t.Errorf("Upcoming still shows %d cards after the cancel", n)
	}
}

func TestJustBookedHighlighted(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	old := pb.mbCreate(t, fx.Alice, fx.RoomVelazquez, fx.At(1, 8, 0), fx.At(1, 9, 0))
	b := pb.signedIn(t, fx.Alice)
	p := b.post("/bookings", url.Values{
		"resource": {fx.RoomGoya.String()}, "date": {"2026-11-24", "2026-11-25"}, "from": {"10:00"}, "to": {"11:00"},
	})
	p.wantStatus(t, http.StatusOK)
	if p.url.Path != "/bookings" {
		t.Fatalf("after booking the browser is at %s", p.url)
	}
	if n := p.count(".booking-card.just-booked"); n != 2 {
		t.Errorf("%d cards are marked as just booked, want 2", n)
	}
	p.wantText(t, ".booking-card.just-booked", "Just booked")
	if p.count("#booking-"+old.ID.String()+".just-booked") != 0 {
		t.Errorf("an older booking is marked as just booked")
	}
	if n := b.get("/bookings").count(".just-booked"); n != 0 {
		t.Errorf("after a reload %d cards are still marked", n)
	}
}

func TestFindZeroFreeSaysWhy(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	for _, tc := range []struct{ name, path, want string }{
		{"OutsideOpeningHours", findPath("kind", "room", "date", "2026-11-24", "from", "21:00", "to", "22:00"), "0 free rooms: outside opening hours"},
		{"TooFarAhead", findPath("kind", "room", "date", "2027-02-01", "from", "10:00", "to", "11:00"), "0 free rooms: too far ahead"},
		{"Over", findPath("kind", "room", "date", "2026-11-23", "from", "07:00", "to", "08:30"), "0 free rooms: that time is over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.get(tc.path).wantText(t, "#results-h", tc.want)
		})
	}
	// When the desks are simply booked, the headline gives no reason, just "0 free desks".
	findBook(t, pb, fx.Bob, fx.DeskOne, booking.CategoryWorkstation, fx.At(1, 10, 0), fx.At(1, 11, 0))
	findBook(t, pb, fx.Alice, fx.DeskTwo, booking.CategoryWorkstation, fx.At(1, 10, 0), fx.At(1, 11, 0))
	p := b.get(findPath("kind", "desk", "date", "2026-11-24", "from", "10:00", "to", "11:00"))
	if got := p.text("#results-h"); got != "0 free desks" {
		t.Errorf("headline = %q, want 0 free desks", got)
	}
}

func TestFindFiltersFitTheKind(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	features := func(p htmlPage, kind string) []string {
		var out []string
		p.doc.Find("fieldset.features-" + kind + " label").Each(func(_ int, s *goquery.Selection) {
			out = append(out, squash(s.Text()))
		})
		return out
	}
	// Desk 1 has a screen, and the rooms have screens and whiteboards. Only rooms have a number of people.
	p := b.get(findPath("kind", "desk", "date", "2026-11-24"))
	if got := features(p, "desk"); len(got) != 1 || got[0] != "Screen" {
		t.Errorf("features offered for desks = %v, want [Screen]", got)
	}
	if p.count("#f-capacity") != 0 {
		t.Errorf("the number of people is offered for desks")
	}
	p = b.get(findPath("kind", "room", "date", "2026-11-24"))
	if got := features(p, "room"); len(got) != 2 {
		t.Errorf("features offered for rooms = %v, want Screen and Whiteboard", got)
	}
	if p.count("#f-capacity") != 1 {
		t.Errorf("the number of people is not offered for rooms")
	}
	// Switching the kind with htmx swaps in both the capacity field and the features.
	p = b.do(http.MethodGet, findPath("kind", "room", "date", "2026-11-24", "shown_kind", "desk"), nil, true)
	if p.count("#f-people[hx-swap-oob] #f-capacity") != 1 || len(features(p, "room")) != 2 {
		t.Errorf("switching to rooms does not swap in their filters")
	}
	// Filters that do not apply to desks are ignored for them, so both desks are found.
	p = b.get(findPath("kind", "desk", "date", "2026-11-24", "capacity", "6", "features", fx.FeatureWhiteboard.String()))
	if free, _ := resultNames(p); len(free) != 2 {
		t.Errorf("desks found with a room's capacity and feature = %v, want both", free)
	}
}

// TestBrowserFindKindFilters switches the kind. The number of people and each kind's features show only
// for that kind, and if switching changes the hours, the page says so.
func TestBrowserFindKindFilters(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, fx.Alice, findPath("date", "2026-11-24"))
	b.waitText("#results-h", "free desks")
	visible := func(sel string) bool {
		v, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(function (e) { return !!e && e.checkVisibility(); })(document.querySelector(`+"`"+sel+"`"+`))`))
		if err != nil {
			t.Fatalf("visibility of %s: %v", sel, err)
		}
		return v
	}
	if visible("#f-capacity") || visible("fieldset.features-room") || !visible("fieldset.features-desk") {
		t.Errorf("desks: capacity %v, room features %v, desk features %v; want only the desk features",
			visible("#f-capacity"), visible("fieldset.features-room"), visible("fieldset.features-desk"))
	}
	from, to := b.attrOf("#f-from", "value"), b.attrOf("#f-to", "value")
	b.do(chromedp.Click(chromedp.CSS(`input[name=kind][value=room]`)))
	b.waitText("#results-h", "free rooms")
	if !visible("#f-capacity") || !visible("fieldset.features-room") || visible("fieldset.features-desk") {
		t.Errorf("rooms: capacity %v, room features %v, desk features %v; want capacity and the room features",
			visible("#f-capacity"), visible("fieldset.features-room"), visible("fieldset.features-desk"))
	}
	// Here desks default to 09:00–00:00 and rooms to 09:00–13:00, so the page says the hours changed.
	if newFrom, newTo := b.attrOf("#f-from", "value"), b.attrOf("#f-to", "value"); newFrom != from || newTo != to {
		b.waitText("#f-hours", "The hours changed to "+newFrom+"–"+newTo)
	} else {
		t.Errorf("the hours did not change with the kind: the test shows nothing")
	}
	b.check("find-rooms")
}

package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Small things people met on the pages: a cancelled booking leaves "Upcoming", the booking just made is
// marked, "0 free" says why, and the filters offer what fits the kind chosen.

func TestCancelledLeavesUpcoming(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	goya := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	pb.mbCreate(t, fx.Alice, fx.RoomVelazquez, fx.At(1, 12, 0), fx.At(1, 13, 0))
	b := pb.signedIn(t, fx.Alice)
	p := b.hxPost("/bookings/"+goya.ID.String()+"/cancel", url.Values{"back": {"/bookings?when=upcoming"}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "#booking-"+goya.ID.String(), "Booking cancelled.", "now under Past")
	if n := p.count(".booking-card"); n != 0 {
		t.Errorf("the cancelled booking still shows as a card in Upcoming")
	}
	// On its own page the card stays, cancelled.
	velazquez := findOwnBookings(t, pb, fx.Alice)[0]
	p = b.hxPost("/bookings/"+velazquez.ID.String()+"/cancel", url.Values{"back": {"/bookings/" + velazquez.ID.String()}})
	p.wantText(t, ".booking-card", "Cancelled")
}

// TestBrowserCancelLeavesUpcoming cancels from the list: the booking leaves it.
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
	// Busy ones are not a reason the headline can give in a word.
	findBook(t, pb, fx.Bob, fx.DeskOne, booking.CategoryWorkstation, fx.At(1, 10, 0), fx.At(1, 11, 0))
	findBook(t, pb, fx.Alice, fx.DeskTwo, booking.CategoryWorkstation, fx.At(1, 10, 0), fx.At(1, 11, 0))
	p := b.get(findPath("kind", "desk", "date", "2026-11-24", "from", "10:00", "to", "11:00"))
	if got := p.text("#results-h"); got != "0 free desks" {
		t.Errorf("headline = %q, want 0 free desks", got)
	}
}

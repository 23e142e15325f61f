package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// When a resource is busy during the searched hours, its page shows no booking form. Instead it says when
// the resource is next free, with a link to book as much of that time as one booking may take (4 hours
// for rooms).

func TestResourceBusyOffersFreeNext(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(1, 11, 0), fx.At(1, 11, 10))
	findBook(t, pb, fx.Bob, fx.RoomVelazquez, booking.CategorySpace, fx.At(1, 16, 0), fx.At(1, 20, 0))
	b := pb.signedIn(t, fx.Alice)
	goya := "/find/resources/" + fx.RoomGoya.String() + "?date=2026-11-24&kind=room"

	for _, htmx := range []bool{false, true} {
		p := b.do(http.MethodGet, goya+"&from=10:00&to=11:00", nil, htmx)
		p.wantStatus(t, http.StatusOK)
		if n := p.count("form.booking-form"); n != 0 {
			t.Errorf("htmx %v: a busy resource offers %d booking forms", htmx, n)
		}
		// 11:00–11:10 is booked too, right after; a gap shorter than 15 minutes does not count as free.
		p.wantText(t, "#free-next", "Free next on Tuesday 24 November: 11:10–20:00 Madrid time.")
		href := p.attr("#free-next a", "href")
		if !strings.Contains(href, "from=11%3A10") || !strings.Contains(href, "to=15%3A10") {
			t.Errorf("the link to the free hours is %q", href)
		}
		// Following the link shows the form for those hours.
		p = b.get(href)
		if got := p.attr("#b-from", "value"); got != "11:10" {
			t.Errorf("the form after the link starts at %q, want 11:10", got)
		}
	}

	// Busy until the end of the day, so nothing is free that day.
	p := b.get("/find/resources/" + fx.RoomVelazquez.String() + "?date=2026-11-24&kind=room&from=17:00&to=18:00")
	p.wantText(t, "#free-next", "Not free again on Tuesday 24 November")
	if n := p.count("form.booking-form"); n != 0 {
		t.Errorf("a busy resource offers %d booking forms", n)
	}

	// For free hours, the form is still shown.
	if n := b.get(goya + "&from=12:00&to=13:00").count("form.booking-form"); n != 1 {
		t.Errorf("a free resource offers %d booking forms, want 1", n)
	}
}

// TestResourceBusyFreeNextOnClockChangeDays checks that on days when the clocks change, the free time shown
// and the hours in the link agree. Both use wall-clock times (11:00 means 11:00), not time elapsed since
// midnight.
func TestResourceBusyFreeNextOnClockChangeDays(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, date, day string
		now, busy       time.Time
	}{
		{"ClocksGoBack", "2026-10-25", "Sunday 25 October",
			time.Date(2026, 10, 24, 9, 0, 0, 0, fx.Madrid), time.Date(2026, 10, 25, 10, 0, 0, 0, fx.Madrid)},
		{"ClocksGoForward", "2027-03-28", "Sunday 28 March",
			time.Date(2027, 3, 27, 9, 0, 0, 0, fx.Madrid), time.Date(2027, 3, 28, 10, 0, 0, 0, fx.Madrid)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pb := setupPages(t)
			pb.Clock.Set(tc.now)
			findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, tc.busy, tc.busy.Add(time.Hour))
			b := pb.signedIn(t, fx.Alice)
			p := b.get("/find/resources/" + fx.RoomGoya.String() + "?date=" + tc.date + "&kind=room&from=10:00&to=11:00")
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, "#free-next", "Free next on "+tc.day+": 11:00–20:00 Madrid time.", "Book it 11:00–15:00")
			href := p.attr("#free-next a", "href")
			if !strings.Contains(href, "from=11%3A00") || !strings.Contains(href, "to=15%3A00") {
				t.Errorf("the link to 11:00–15:00 is %q", href)
			}
			p = b.get(href)
			if from, to := p.attr("#b-from", "value"), p.attr("#b-to", "value"); from != "11:00" || to != "15:00" {
				t.Errorf("the form after the link is for %s–%s, want 11:00–15:00", from, to)
			}
		})
	}
}

// TestBrowserResourceBusy follows a busy resource's link to its next free hours, and books them.
func TestBrowserResourceBusy(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, fx.Alice, "/find/resources/"+fx.RoomGoya.String()+"?date=2026-11-24&from=10:00&to=11:00&kind=room")
	b.waitText("#res-h", "Goya")
	b.waitText("#free-next", "Free next on Tuesday 24 November: 11:00–20:00 Madrid time.")
	if n, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll("form.booking-form").length`)); n != 0 {
		t.Errorf("a busy resource offers a booking form")
	}
	b.check("resource-busy")
	b.do(chromedp.Click(chromedp.CSS("#free-next a")))
	b.do(chromedp.WaitVisible(chromedp.CSS("form.booking-form")))
	if got := b.attrOf("#b-from", "value"); got != "11:00" {
		t.Errorf("from = %q, want 11:00", got)
	}
}

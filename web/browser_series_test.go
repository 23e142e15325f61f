package web_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBrowserSeries sets up a weekly series in the booking form, on a phone (390×844) and on a desktop
// (1280×900): Desk 1 on Tuesdays and Wednesdays from Tue 1 Dec to Wed 9 Dec, 09:00–18:00, with Wed 2 Dec
// already taken by Bob. Choosing "Book the free days and tell me which are not", My bookings names Wed 2
// Dec as not booked, with its reason, and lists the series as one item; its page lists the four days.
func TestBrowserSeries(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"desktop", 1280, 900}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			pb := setupPages(t)
			pb.takeDeskWednesday(t)
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			kioskBrowserSignIn(b, fx.Alice, findPath("kind", "desk", "date", "2026-12-01", "from", "09:00", "to", "18:00", "resource", fx.DeskOne.String()))
			b.waitText("aside#booking", "Desk 1")
			// Repeat is closed; it opens on its summary, without script of the page's own.
			if open := b.evalText(`document.querySelector("details.repeat").open`); open != "false" {
				t.Errorf("Repeat is open before it is asked for (open = %s)", open)
			}
			b.evalText(`document.querySelector("details.repeat > summary").scrollIntoView({block: "center"}); true`)
			b.do(chromedp.Click(chromedp.CSS("details.repeat > summary")))
			b.do(chromedp.Click(chromedp.CSS(`details.repeat input[name=repeat]`)))
			if got := b.evalText(`[...document.querySelectorAll("details.repeat input[name=repeatDay]:checked")].map(i => i.value).join()`); got != "TUESDAY" {
				t.Errorf("weekdays ticked at first = %s, want TUESDAY (1 Dec 2026 is a Tuesday)", got)
			}
			b.do(chromedp.Click(chromedp.CSS(`details.repeat input[name=repeatDay][value=WEDNESDAY]`)))
			b.do(chromedp.SetValue(chromedp.CSS("#b-repeat-until"), "2026-12-09"))
			b.do(chromedp.Click(chromedp.CSS(`details.repeat input[name=repeatMode][value=FREE]`)))
			b.axe(fmt.Sprintf("booking form with Repeat open, %s", size.name))
			b.evalText(`document.querySelector("details.repeat").scrollIntoView({block: "start"}); true`)
			b.viewportShot("series-form-" + size.name)
			b.copyShot("series-form-" + size.name)

			b.do(chromedp.Click(chromedp.CSS(`form.booking-form button[type=submit]`)))
			b.waitText(".series-made", "Repeated booking made: 3 of 4 days booked.", "Wed 2 Dec: it is already booked at that time")
			b.waitText(".series-card", "Every Tue, Wed until Wed 9 Dec · 09:00–18:00 · Desk 1", "Next: Tue 1 Dec")
			if n := b.number(`document.querySelectorAll("#booking-list .booking-card").length`); n != 0 {
				t.Errorf("%.0f occurrences listed as cards, want the series alone", n)
			}
			b.axe(fmt.Sprintf("My bookings after a series, %s", size.name))
			b.screenshot("series-made-" + size.name)
			b.copyShot("series-made-" + size.name)

			b.do(chromedp.Click(chromedp.CSS(".series-card h2 a")))
			b.waitText("li.occurrence.refused", "Wed 2 Dec", "Not booked: it is already booked at that time")
			b.axe(fmt.Sprintf("series page, %s", size.name))
			b.screenshot("series-page-" + size.name)
			b.copyShot("series-page-" + size.name)
		})
	}
}

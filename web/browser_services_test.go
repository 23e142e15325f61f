package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBrowserServicesSavedInSight saves a booking's services on a phone. The confirmation shows beside
// the Save button, on the screen, and takes the focus so that a screen reader says it.
func TestBrowserServicesSavedInSight(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	const w, h = 390, 844
	room := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), withSubject("Planning"))
	b := newTabSized(t, pb.srv.URL, w, h)
	kioskBrowserSignIn(b, fx.Alice, "/bookings/"+room.ID.String())
	b.waitText("h1", "Goya")
	b.do(chromedp.Click(chromedp.CSS(`#services input[name=reservable]`)),
		chromedp.ScrollIntoView(chromedp.CSS(`#services button[type=submit]`)),
		chromedp.Click(chromedp.CSS(`#services button[type=submit]`)))
	b.waitText("#services", "Services saved.")
	b.wantOnScreen("#services .notice.ok", w, h)
	focused, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(document.activeElement || {innerText: ""}).innerText`))
	if err != nil || focused != "Services saved." {
		t.Errorf("after saving, the focus is on %q (%v), want the confirmation", focused, err)
	}
	b.viewportShot("services-saved-phone")
}

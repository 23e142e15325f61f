package web_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBrowserKioskBookThenCheckIn books a room for a colleague at the kiosk of a 1024×768 tablet. The
// next step, checking them in, is on the screen without scrolling; once they are checked in, it is no
// longer offered.
func TestBrowserKioskBookThenCheckIn(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	const w, h = 1024, 768
	b := newTabSized(t, pb.srv.URL, w, h)
	kioskBrowserSignIn(b, fx.Rita, "/kiosk/resource?code=MAD-R1")
	b.waitText("h1", "Goya")
	b.do(chromedp.SendKeys(chromedp.CSS("#user-q"), "bob"))
	b.waitText("#user-choices", "bob Baker")
	b.do(
		chromedp.Click(chromedp.CSS(`#user-choices input[value="`+fx.Bob.String()+`"]`)),
		chromedp.Click(chromedp.CSS(`input[name=until][value="`+rfc3339(fx.At(0, 10, 0))+`"]`)),
		chromedp.Click(chromedp.CSS(`button[formaction="/kiosk/book"]`)),
	)
	b.waitText(".kiosk-outcome", "Booked for bob Baker until 10:00 Madrid time.")
	b.do(chromedp.Poll[chromedp.Void](`!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")`,
		chromedp.WithPollingTimeout(15*time.Second)))
	b.wantOnScreen(".kiosk-outcome", w, h)
	b.wantOnScreen(`button[formaction="/kiosk/checkin"]`, w, h)
	b.viewportShot("kiosk-tablet-booked")

	b.do(chromedp.Click(chromedp.CSS(`button[formaction="/kiosk/checkin"]`)))
	b.waitText(".kiosk-outcome", "bob Baker is checked in to Goya until 10:00 Madrid time.")
	if n, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`,
		`button[formaction="/kiosk/checkin"]`))); n != 0 {
		t.Errorf("after the check-in, Check in is still offered")
	}
	b.viewportShot("kiosk-tablet-checked-in")
}

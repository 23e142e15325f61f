package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// These tests run the kiosk on a tablet: what fits on its screen, what its camera does, and which parts
// of the site it keeps away from the reception desk.

// consoleErrors collects the errors a page reports: console.error calls, uncaught exceptions, and the
// browser's own error log (such as a blocked script or style, or a failed request).
type consoleErrors struct {
	mu   sync.Mutex
	errs []string
}

func (ce *consoleErrors) listen(b *tab) {
	if err := chromedp.Listen(b.ctx, func(ev any) {
		ce.mu.Lock()
		defer ce.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				ce.errs = append(ce.errs, "console.error: "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			ce.errs = append(ce.errs, "exception: "+msg)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				ce.errs = append(ce.errs, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	}); err != nil {
		b.t.Fatalf("listen: %v", err)
	}
}

func (ce *consoleErrors) take() []string {
	ce.mu.Lock()
	defer ce.mu.Unlock()
	out := ce.errs
	ce.errs = nil
	return out
}

// box is an element's bounding box in the viewport. tab.box returns it for the first element that
// matches a selector.
type box struct{ Top, Bottom, Left, Right, Width, Height float64 }

func (b *tab) box(selector string) box {
	b.t.Helper()
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(function (e) {
		if (!e) return "";
		const r = e.getBoundingClientRect();
		return JSON.stringify({Top: r.top, Bottom: r.bottom, Left: r.left, Right: r.right, Width: r.width, Height: r.height});
	})(document.querySelector(%q))`, selector)))
	if err != nil || raw == "" {
		b.t.Fatalf("box of %q: %v (none found: %v)", selector, err, raw == "")
	}
	var bx box
	if err := json.Unmarshal([]byte(raw), &bx); err != nil {
		b.t.Fatal(err)
	}
	return bx
}

// wantOnScreen fails the test unless the element is visible inside a w×h viewport without scrolling.
func (b *tab) wantOnScreen(selector string, w, h float64) {
	b.t.Helper()
	bx := b.box(selector)
	if bx.Width == 0 || bx.Height == 0 || bx.Top < 0 || bx.Left < 0 || bx.Bottom > h || bx.Right > w {
		b.t.Errorf("%s is at %+v, want it inside the %.0f×%.0f screen", selector, bx, w, h)
	}
}

// TestBrowserKioskTablet runs the kiosk on a 1024×768 tablet. It checks that:
//   - there is no way into the rest of the site, and no one-tap sign-out;
//   - the scanning hint and the two actions fit on the screen;
//   - typing a name causes no console errors;
//   - the rear camera's preview is not mirrored, and the camera is released when the page is left.
func TestBrowserKioskTablet(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	const w, h = 1024, 768
	b := newTabSized(t, pb.srv.URL, w, h)
	var ce consoleErrors
	ce.listen(b)
	kioskBrowserSignIn(b, fx.Rita, "/kiosk")
	b.waitText("h1", "Kiosk")

	// No site navigation and no one-tap sign-out, only a discreet way out that asks first.
	for _, sel := range []string{`nav[aria-label="Main"]`, `a.brand[href]`} {
		if n, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))); n != 0 {
			t.Errorf("the kiosk shows %s", sel)
		}
	}
	if visible, _ := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`!!Array.from(document.querySelectorAll("form[action='/logout'] button")).find(e => e.checkVisibility())`)); visible {
		t.Errorf("a sign-out button shows on the kiosk at once")
	}
	b.do(chromedp.WaitVisible(chromedp.CSS(".kiosk-leave summary")), chromedp.Click(chromedp.CSS(".kiosk-leave summary")))
	b.waitText(".kiosk-leave", "Sign out")

	// The camera's hint is on screen, its preview is not mirrored, and pagehide releases it.
	b.do(chromedp.WaitVisible(chromedp.CSS("#scan-start")), chromedp.Click(chromedp.CSS("#scan-start")))
	b.waitText("#scan-message", "Hold the poster's QR code in front of the camera.")
	b.wantOnScreen("#scan-message", w, h)
	b.screenshot("kiosk-tablet-scanning")
	if tr, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("scan-video")).transform`)); tr != "none" {
		t.Errorf("the preview's transform = %q, want none (not mirrored)", tr)
	}
	live, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(function () {
		window.dispatchEvent(new PageTransitionEvent("pagehide", {persisted: false}));
		const v = document.getElementById("scan-video");
		return !!(v.srcObject && v.srcObject.getTracks().some(t => t.readyState === "live"));
	})()`))
	if err != nil || live {
		t.Errorf("after pagehide the camera is still live (%v)", err)
	}

	// Which QR codes count as posters of this service, and what a scan of another one shows.
	for _, tc := range []struct{ in, want string }{
		{pb.srv.URL + "/p/MAD-R1", "MAD-R1"},
		{pb.srv.URL + "/p/MAD%20R1/", "MAD R1"},
		{"MAD-R1", "MAD-R1"},
		{"https://evil.example/p/MAD-R1", ""},
		{pb.srv.URL + "/bookings", ""},
		{"WIFI:S:guest;T:WPA;P:secret;;", ""},
	} {
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`window.kiosk.posterCode(%q)`, tc.in)))
		if err != nil || got != tc.want {
			t.Errorf("posterCode(%q) = %q (%v), want %q", tc.in, got, err, tc.want)
		}
	}
	b.eval(`window.kiosk.scanned("https://evil.example/p/MAD-R1")`)
	b.waitText("#scan-message", "not a poster of this service")

	// On a resource page, both actions are on screen, and typing a name raises no error. Alice's booking
	// of the room at 09:10 can be checked in from 09:00, so Check in is offered beside Book now.
	findBook(t, pb, fx.Alice, fx.RoomGoya, booking.CategorySpace, fx.At(0, 9, 10), fx.At(0, 10, 0))
	b.open("/kiosk/resource?code=MAD-R1")
	b.waitText("h1", "Goya")
	ce.take()
	b.eval(`window.settledSearches = [];
		document.body.addEventListener("htmx:afterSettle", e => window.settledSearches.push(e.detail.xhr.responseURL))`)
	b.do(chromedp.SendKeys(chromedp.CSS("#user-q"), "bob"))
	b.waitText("#user-choices", "bob Baker")
	// Wait until the search for "bob" has been answered and settled, and no request is in flight.
	b.do(chromedp.Poll[chromedp.Void](`window.settledSearches.some(u => new URL(u).searchParams.get("q") === "bob") &&
		!document.querySelector(".htmx-request")`, chromedp.WithPollingTimeout(15*time.Second)))
	for _, e := range ce.take() {
		t.Errorf("while typing a name: %s", e)
	}
	b.do(chromedp.Click(chromedp.CSS(`#user-choices input[value="` + fx.Bob.String() + `"]`)))
	b.wantOnScreen(`button[formaction="/kiosk/book"]`, w, h)
	b.wantOnScreen(`button[formaction="/kiosk/checkin"]`, w, h)
	b.screenshot("kiosk-tablet-resource")
}

package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBrowserWeek uses My week and Who's in in Chromium on a phone (390×844) and a desktop (1280×900):
// Alice books her usual desk for tomorrow with one tap, sees it as hers, then opens tomorrow's Who's in
// and finds her teammate Bob on the list and on the plan. axe-core checks both pages; the screenshots
// are week-*.png and whos-in-*.png (SHOTS=dir copies them there).
func TestBrowserWeek(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"desktop", 1280, 900}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pb := setupPages(t)
			pb.pageTeam(t, fx.Alice, fx.Bob)
			pb.mbCreate(t, fx.Alice, fx.DeskOne, fx.At(0, 10, 0), fx.At(0, 17, 0)) // her usual desk
			pb.mbCreate(t, fx.Bob, fx.DeskTwo, fx.At(1, 9, 0), fx.At(1, 17, 0))

			b := newTabSized(t, pb.srv.URL, c.w, c.h)
			kioskBrowserSignIn(b, fx.Alice, "/")
			b.waitText("main h1", "My week")
			b.waitText(".days-ahead > li:nth-child(2)", "bob Baker · Desk 2", "Book Desk 1, your usual")
			b.wantNoSidewaysScroll("body")
			b.axe("my week on a " + c.name)
			b.settingsShot("week-" + c.name)

			// One tap.
			b.do(chromedp.Click(chromedp.CSS(`.days-ahead > li:nth-child(2) form.one-tap button`)))
			b.waitText(".notice.ok", "Desk 1 is booked for you on Tue 24 Nov.")
			b.waitText(".days-ahead > li:nth-child(2) .mine", "Desk 1")
			b.settingsShot("week-" + c.name + "-booked")

			b.do(chromedp.Click(chromedp.CSS(`.days-ahead > li:nth-child(2) .links a`)))
			b.waitText("main h1", "Who's in")
			b.waitText(".whos-floor .whos-list", "alice Archer", "bob Baker", "Your team")
			if names := b.evalText(`Array.from(document.querySelectorAll(".whos-plan .person text")).map(t => t.textContent).join(", ")`); !strings.Contains(names, "bob Baker") {
				t.Errorf("the plan names %q, want bob Baker", names)
			}
			b.wantNoSidewaysScroll("body")
			b.axe("who's in on a " + c.name)
			b.settingsShot("whos-in-" + c.name)
		})
	}
}

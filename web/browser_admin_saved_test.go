package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBrowserAdminAddConfirmsInPlace clicks "Add the rule" and "Add a feature" in Chromium, on a phone and
// on a desktop: the new rule or feature shows in its list at once with a confirmation that names it, the
// focus moves to that confirmation, and the add form is closed and empty again.
func TestBrowserAdminAddConfirmsInPlace(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	pb := setupPages(t)
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"desktop", 1440, 900}} {
		t.Run(size.name, func(t *testing.T) {
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			var ce consoleErrors
			ce.listen(b)
			kioskBrowserSignIn(b, fx.Adam, "/admin/rules")
			b.waitText("main h1", "Rules")

			name := "Phone booths " + size.name
			rule := "#rule-" + strings.TrimPrefix(b.attrOf(".add-new form", "action"), "/admin/rules/")
			b.do(chromedp.Click(chromedp.CSS(".add-new summary")),
				chromedp.SendKeys(chromedp.CSS(".add-new form input[name=name]"), name),
				chromedp.Click(chromedp.CSS(".add-new form button[type=submit]")))
			b.waitText(rule+" [role=status]", "Added the rule “"+name+"”.")
			b.waitText(rule+" h2", name)
			b.waitFocus(rule + " [role=status]")
			b.wantAddFormReset(".add-new")
			if loc := b.location(); !strings.HasSuffix(loc, "/admin/rules") {
				t.Errorf("after adding the rule at %s, want still at /admin/rules", loc)
			}
			b.axe("rules after adding a rule, " + size.name)
			b.viewportShot("admin-rules-added-" + size.name + "-view")
			b.screenshot("admin-rules-added-" + size.name)

			b.open("/admin/catalogue")
			b.waitLoaded()
			feature := "Standing desk " + size.name
			item := "#features-" + strings.TrimPrefix(b.attrOf("#features .add-new form", "action"), "/admin/catalogue/features/")
			b.do(chromedp.Click(chromedp.CSS("#features .add-new > summary")),
				chromedp.SendKeys(chromedp.CSS("#features .add-new form input[name=name]"), feature),
				chromedp.Click(chromedp.CSS("#features .add-new form button[type=submit]")))
			b.waitText(item+" [role=status]", "Added “"+feature+"”.")
			b.waitText("#features .admin-list "+item+" summary", feature)
			b.waitFocus(item + " [role=status]")
			b.wantAddFormReset("#features .add-new")
			b.viewportShot("admin-catalogue-added-" + size.name + "-view")
			b.screenshot("admin-catalogue-added-" + size.name)
			if errs := ce.take(); len(errs) > 0 {
				t.Errorf("the pages reported errors: %v", errs)
			}
		})
	}
}

// TestBrowserAdminNavShowsCurrentTab opens sections late in the office settings' navigation on a phone,
// where the sections are a row of tabs wider than the screen: the current one is in view.
func TestBrowserAdminNavShowsCurrentTab(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	pb := setupPages(t)
	b := newTabSized(t, pb.srv.URL, 390, 844)
	kioskBrowserSignIn(b, fx.Adam, "/admin/buildings")
	for _, section := range []string{"buildings", "people", "identity", "audit"} {
		b.open("/admin/" + section)
		b.waitLoaded()
		box, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](`(() => {
			const r = document.querySelector('.admin-nav a[aria-current="page"]').getBoundingClientRect();
			return [r.left, r.top, r.right, r.bottom, document.documentElement.clientWidth, document.documentElement.clientHeight];
		})()`))
		if err != nil || len(box) != 6 {
			t.Fatalf("the current tab of %s: %v", section, err)
		}
		if box[0] < 0 || box[1] < 0 || box[2] > box[4] || box[3] > box[5] {
			t.Errorf("on /admin/%s the current tab is at %v–%v, outside the %v × %v screen",
				section, box[:2], box[2:4], box[4], box[5])
		}
	}
	b.screenshot("admin-nav-audit-phone")
}

// waitFocus waits until the element that matches selector has the keyboard focus.
func (b *tab) waitFocus(selector string) {
	b.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](fmt.Sprintf(
			`((e) => !!e && e === document.activeElement)(document.querySelector(%q))`, selector)))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			focused, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : ""`))
			b.t.Fatalf("%q does not have the focus; %s has it (at %s)", selector, focused, b.location())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// wantAddFormReset checks that the add form in the details element that matches selector is closed and
// its name empty.
func (b *tab) wantAddFormReset(selector string) {
	b.t.Helper()
	state, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(`((d) => d ? (d.open ? "open" : "closed") + ":" + d.querySelector("input[name=name]").value : "none")(document.querySelector(%q))`, selector)))
	if err != nil || state != "closed:" {
		b.t.Errorf("the add form %s after adding: %q (%v), want closed and empty", selector, state, err)
	}
}

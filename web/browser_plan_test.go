package web_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestBrowserPlanNamesAndChoice looks at the demo office's plans in Chromium, on a laptop and on a
// phone: the employee sees every desk's name written on it (her own desk's too) and the desk she
// chooses marked as chosen; the admin adds a row of desks and sees them, named, in free space.
func TestBrowserPlanNamesAndChoice(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	demo, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now)
	if err != nil {
		t.Fatalf("demo: %v", err)
	}
	objs, err := layout.New(pb.Pool, pb.Service).List(t.Context(), demo.Admin, layout.Resources)
	if err != nil {
		t.Fatal(err)
	}
	desks := map[string]layout.LayoutResource{}
	for _, o := range objs {
		var r layout.LayoutResource
		if err := json.Unmarshal(o.JSON, &r); err != nil {
			t.Fatal(err)
		}
		desks[r.PosterCode] = r
	}
	// Madrid's first floor; Lucía has Desk 1.02 there on Tuesday.
	first, second := desks["MAD-1-D05"], desks["MAD-1-D13"]
	floor, err := layout.New(pb.Pool, pb.Service).Get(t.Context(), demo.Admin, layout.Floors, uuid.MustParse(first.FloorID))
	if err != nil {
		t.Fatal(err)
	}
	var f layout.LayoutFloor
	if err := json.Unmarshal(floor.JSON, &f); err != nil {
		t.Fatal(err)
	}
	plan := "/find/plan?building=" + f.BuildingID + "&floor=" + f.ID + "&kind=desk&date=2026-11-24&from=09:00&to=17:00"

	for _, size := range []struct {
		name string
		w, h int64
	}{{"laptop", 1440, 900}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			e := newTab(t, pb.srv.URL)
			e.do(chromedp.EmulateViewport(size.w, size.h))
			// The demo's employee, Lucía, reads the plan in Spanish.
			kioskBrowserSignIn(e, demo.Employee.ID, plan+"&resource="+first.ID)
			e.waitText("#panel", "Reservar "+first.Name)
			// Every spot writes a name that is shown, inside its shape.
			bad, err := chromedp.Run(e.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("svg.plan a.spot")].filter(a => {
				const t = a.querySelector("text.name"), r = a.querySelector("rect.area");
				if (!t || getComputedStyle(t).display === "none" || t.textContent.trim() === "") return true;
				const tb = t.getBBox(), rb = r.getBBox();
				return tb.x < rb.x || tb.y < rb.y || tb.x + tb.width > rb.x + rb.width || tb.y + tb.height > rb.y + rb.height;
			}).map(a => a.getAttribute("aria-label"))`))
			if err != nil {
				t.Fatal(err)
			}
			if len(bad) > 0 {
				t.Errorf("spots without a name shown inside them: %q", bad)
			}
			own, _ := chromedp.Run(e.ctx, chromedp.Evaluate[string](`(document.querySelector('svg.plan a.spot.mine[aria-label^="Desk 1.02,"] text.name') || {}).textContent || ""`))
			if got := squash(own); got != "1.02" {
				t.Errorf("Lucía's own desk shows %q, want its number 1.02", got)
			}
			e.screenshot("find-plan-chosen-" + size.name)

			// Choosing another desk moves the mark, in looks and in words. On the phone the details cover
			// the bottom of the screen: close them, and bring the desk into view as the arrow keys do.
			if size.name == "phone" {
				e.do(chromedp.Click(chromedp.CSS(`#panel [data-close-panel]`)))
			}
			if _, err := chromedp.Run(e.ctx, chromedp.Evaluate[any](`document.querySelector('a.spot[aria-label^="`+second.Name+`,"]').focus()`)); err != nil {
				t.Fatal(err)
			}
			e.do(chromedp.Click(chromedp.CSS(`a.spot[aria-label^="` + second.Name + `,"]`)))
			e.waitText("#panel", "Reservar "+second.Name)
			chosen := e.attrOf("svg.plan a.spot.selected", "aria-label")
			current := e.attrOf("svg.plan a.spot[aria-current=true]", "aria-label")
			n, _ := chromedp.Run(e.ctx, chromedp.Evaluate[int](`document.querySelectorAll("svg.plan a.spot.selected, svg.plan a.spot[aria-current]").length`))
			if want := second.Name + ", libre hasta las 21:00 hora de Madrid, elegido"; chosen != want || current != want || n != 1 {
				t.Errorf("after choosing %s: chosen %q, current %q (%d marked), want only %q", second.Name, chosen, current, n, want)
			}

			// The admin adds a row of four desks: they are named on the plan, clear of the others.
			a := newTab(t, pb.srv.URL)
			a.do(chromedp.EmulateViewport(size.w, size.h))
			kioskBrowserSignIn(a, demo.Admin.ID, "/admin/floors/"+f.ID+"/plan")
			prefix := "New " + size.name
			a.do(chromedp.SetValue(chromedp.CSS("#prefix"), prefix),
				chromedp.Click(chromedp.CSS(`form[action$="/plan/grid"] button[type=submit]`)))
			a.waitText("main .notice.ok", "4 desks placed in the largest free part of the plan")
			hidden, err := chromedp.Run(a.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("svg.plan.editing g.spot")].filter(g => {
				const t = g.querySelector("text.name");
				return !t || getComputedStyle(t).display === "none" || t.getBBox().width === 0;
			}).map(g => g.dataset.name)`))
			if err != nil {
				t.Fatal(err)
			}
			if len(hidden) > 0 {
				t.Errorf("the editor shows no name on %q", hidden)
			}
			for i := 1; i <= 4; i++ {
				if got := a.attrOf(fmt.Sprintf(`svg.plan.editing g.spot[data-name="%s %d"] text.name`, prefix, i), "font-size"); got == "" {
					t.Errorf("%s %d is not named on the plan", prefix, i)
				}
			}
			a.screenshot("admin-plan-grid-" + size.name)
		})
	}
}

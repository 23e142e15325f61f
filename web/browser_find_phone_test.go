package web_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestBrowserFindPhone searches for desks on a phone (390×844): the filters are folded into one line and
// the results come first. Three desks are ticked one by one; after each tick the bar at the bottom of the
// screen names what is ticked and the page has not moved. Book leads to the form with its button in view,
// and the three desks are booked.
func TestBrowserFindPhone(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	demo, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now)
	if err != nil {
		t.Fatalf("demo: %v", err)
	}
	b := newTabSized(t, pb.srv.URL, 390, 844)
	kioskBrowserSignIn(b, demo.Employee.ID, "/find?kind=desk&date=2026-11-25")
	// The demo's employee, Lucía, reads the search in Spanish.
	b.waitText("#results-h", "puestos libres")

	// The filters show as one line; the search's controls are folded away.
	b.waitText("#filters-fold > summary", "Madrid HQ · puestos · mié 25 nov · ", "Cambiar")
	if open := b.evalText(`document.getElementById("filters-fold").open`); open != "false" {
		t.Errorf("the filters are open on a phone with results (open = %s), want them folded", open)
	}
	if shown := b.evalText(`document.getElementById("f-building").checkVisibility()`); shown != "false" {
		t.Errorf("the building list shows while folded (visible = %s), want it hidden", shown)
	}
	b.viewportShot("find-phone-top")
	b.copyShot("find-phone-top")
	y := b.number(`document.querySelector("#results li.result.free").getBoundingClientRect().top + scrollY`)
	if y >= 400 {
		t.Errorf("the first free desk starts at y = %.0f px, want it within the first 400 px", y)
	}
	t.Logf("the first free desk starts at y = %.0f px", y)
	if display := b.evalText(`getComputedStyle(document.getElementById("pick-bar")).display`); display != "none" {
		t.Errorf("the bar shows (%s) while nothing is ticked", display)
	}

	// Three desks, one by one, each scrolled to the middle of the screen first.
	var names []string
	for i := range 3 {
		id := b.evalText(fmt.Sprintf(`(() => {
			const p = document.querySelectorAll("#results li.result.free input.pick")[%d];
			p.closest("li").scrollIntoView({block: "center"});
			return p.id;
		})()`, 3+i*2))
		names = append(names, strings.TrimPrefix(b.text(`label[for="`+id+`"]`), "Elegir "))
		before := b.scrollY()
		b.do(chromedp.Click(chromedp.CSS("#" + id)))
		want := fmt.Sprintf("%d marcados: %s", i+1, strings.Join(names, ", "))
		if i == 0 {
			want = "1 marcado: " + names[0]
		}
		b.waitText("#pick-bar", want)
		b.waitSettled()
		if after := b.scrollY(); math.Abs(after-before) > 4 {
			t.Errorf("tick %d: the page moved from %.0f to %.0f px", i+1, before, after)
		}
		t.Logf("tick %d: the Book button is %.0f px below the ticked desk", i+1, b.number(`document.querySelector("#pick-bar .pick-book").getBoundingClientRect().top - document.getElementById("`+id+`").getBoundingClientRect().top`))
		if got := b.evalText(`(() => {
			const r = document.getElementById("pick-bar").getBoundingClientRect();
			return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight + 0.5 ? "in view" : "top " + r.top + ", bottom " + r.bottom + ", screen " + innerHeight;
		})()`); got != "in view" {
			t.Errorf("tick %d: the bar is not on the screen: %s", i+1, got)
		}
	}
	b.axe("find on a phone, three desks ticked")
	b.viewportShot("find-phone-ticked")
	b.copyShot("find-phone-ticked")

	// Book brings the form's button onto the screen, and the bar goes.
	b.do(chromedp.Click(chromedp.CSS("#pick-bar .pick-book")))
	if got := b.evalText(`(() => {
		const r = document.querySelector("#booking-box form button[type=submit]").getBoundingClientRect();
		return r.top >= 0 && r.bottom <= innerHeight ? "in view" : "top " + r.top + ", screen " + innerHeight;
	})()`); got != "in view" {
		t.Errorf("after Book, the form's button is not on the screen: %s", got)
	}
	b.waitText("#booking-box", names...)
	if display := b.evalText(`getComputedStyle(document.getElementById("pick-bar")).display`); display != "none" {
		t.Errorf("the bar still shows (%s) beside the booking form", display)
	}
	b.viewportShot("find-phone-book")
	b.copyShot("find-phone-book")
	// A person holds one desk at a time: the first one is booked, the other two are unticked in the form.
	for _, name := range names[1:] {
		b.evalText(`[...document.querySelectorAll("#booking-box input[name=resource]")].find(i => i.closest("label").innerText.includes("` + name + `")).click()`)
	}
	b.do(chromedp.Click(chromedp.CSS(`#booking-box form.booking-form button[type=submit]`)))
	// Lucía reads My bookings in Spanish.
	b.waitText("main", "1 reserva hecha.")
	b.waitText("main", names[0], "mié 25 nov")
}

// TestBrowserFindDesktopFilters shows the search on a desktop (1280×800): the filters are open, without
// the one-line summary, and no bar shows when a desk is ticked: the booking form is beside the list.
func TestBrowserFindDesktopFilters(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	demo, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now)
	if err != nil {
		t.Fatalf("demo: %v", err)
	}
	b := newTabSized(t, pb.srv.URL, 1280, 800)
	kioskBrowserSignIn(b, demo.Employee.ID, "/find?kind=desk")
	b.waitText("#results-h", "puestos libres")
	if shown := b.evalText(`document.getElementById("f-building").checkVisibility()`); shown != "true" {
		t.Errorf("the building list is hidden on a desktop (visible = %s), want it shown", shown)
	}
	if h := b.number(`document.querySelector("#filters-fold > summary").getBoundingClientRect().height`); h != 0 {
		t.Errorf("the one-line summary is %.0f px tall on a desktop, want it hidden", h)
	}
	if h := b.number(`document.getElementById("f-day-2026-11-24").closest("label").getBoundingClientRect().height`); h < 44 {
		t.Errorf("a day of the week strip is %.0f px tall, want at least 44", h)
	}
	b.do(chromedp.Click(chromedp.CSS("#results li.result.free input.pick")))
	b.waitText("#booking-box", "Desk")
	b.waitSettled()
	if display := b.evalText(`getComputedStyle(document.getElementById("pick-bar")).display`); display != "none" {
		t.Errorf("the bar shows (%s) on a desktop", display)
	}
	b.evalText(`window.scrollTo(0, 0)`)
	b.viewportShot("find-desktop")
	b.copyShot("find-desktop")
}

// TestBrowserFindWeekStrip picks days with the week strip on a phone: ticking a second day searches both,
// › and ‹ move a week on and back (never before this week), a day ticked in another week stays chosen,
// and a desk is booked on the two days. The floor plan's strip works the same way.
func TestBrowserFindWeekStrip(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	demo, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now)
	if err != nil {
		t.Fatalf("demo: %v", err)
	}
	b := newTabSized(t, pb.srv.URL, 390, 844)
	kioskBrowserSignIn(b, demo.Employee.ID, "/find?kind=desk&date=2026-11-25")
	// The demo's employee, Lucía, reads the search and the floor plan in Spanish.
	b.waitText("#results-h", "puestos libres")
	b.do(chromedp.Click(chromedp.CSS("#filters-fold > summary")))
	b.waitText("#f-week", "Semana del lun 23 nov")
	if disabled := b.evalText(`document.getElementById("f-week-prev").disabled`); disabled != "true" {
		t.Errorf("‹ can go to a past week (disabled = %s)", disabled)
	}

	// Friday too: the search covers Wednesday and Friday.
	b.do(chromedp.Click(chromedp.CSS("#f-day-2026-11-27")))
	b.waitText("#filters-summary", "2 días: mié 25 nov, vie 27 nov")
	b.waitText(".results-head .meta", "mié 25 nov y vie 27 nov")

	// The next week, then back: Monday and Wednesday are still ticked.
	b.do(chromedp.Click(chromedp.CSS("#f-week-next")))
	b.waitText("#f-week", "Semana del lun 30 nov")
	b.waitText("#f-week-strip .also-chosen", "También elegidos:", "mié 25 nov", "vie 27 nov")
	b.axe("the week strip, another week shown")
	b.do(chromedp.ScrollIntoView(chromedp.CSS("#f-days")))
	b.viewportShot("find-week-strip")
	b.copyShot("find-week-strip")
	b.do(chromedp.Click(chromedp.CSS("#f-week-prev")))
	b.waitText("#f-week", "Semana del lun 23 nov")
	for _, day := range []string{"2026-11-25", "2026-11-27"} {
		if checked := b.evalText(`document.getElementById("f-day-` + day + `").checked`); checked != "true" {
			t.Errorf("back on the first week, %s is not ticked", day)
		}
	}

	// Book the first free desk on both days.
	id := b.evalText(`document.querySelector("#results li.result.free input.pick").id`)
	name := strings.TrimPrefix(b.text(`label[for="`+id+`"]`), "Elegir ")
	b.do(chromedp.Click(chromedp.CSS("#" + id)))
	b.waitText("#pick-bar", "1 marcado: "+name)
	b.waitSettled()
	b.do(chromedp.Click(chromedp.CSS("#pick-bar .pick-book")))
	b.waitText("#booking-box", name, "miércoles, 25 de noviembre de 2026", "viernes, 27 de noviembre de 2026")
	b.do(chromedp.Click(chromedp.CSS(`#booking-box form.booking-form button[type=submit]`)))
	b.waitText("main", "2 reservas hechas.")

	// The floor plan has the same days controls: a range, and the strip with ‹ and ›.
	b.open("/find/plan?kind=desk&start=2026-11-26&until=2026-11-27&from=09:00&to=18:00")
	b.waitText("#p-week", "Semana del lun 23 nov")
	for _, day := range []string{"2026-11-26", "2026-11-27"} {
		if checked := b.evalText(`document.getElementById("p-day-` + day + `").checked`); checked != "true" {
			t.Errorf("on the plan, %s is not ticked", day)
		}
	}
	b.do(chromedp.ScrollIntoView(chromedp.CSS("#p-days")))
	b.viewportShot("plan-week-strip")
	b.copyShot("plan-week-strip")
	b.do(chromedp.Click(chromedp.CSS("#p-week-next")))
	b.waitText("#p-week", "Semana del lun 30 nov")
	b.waitText("#p-week-strip .also-chosen", "jue 26 nov", "vie 27 nov")
	b.do(chromedp.Click(chromedp.CSS("#p-day-2026-12-01")))
	b.waitText(".plan-head .meta", "3 días")
}

// evalText runs a script in the page and returns its result as text.
func (b *tab) evalText(script string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[any](script))
	if err != nil {
		b.t.Fatalf("evaluate: %v", err)
	}
	return fmt.Sprint(v)
}

// number runs a script in the page that returns a number.
func (b *tab) number(script string) float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](script))
	if err != nil {
		b.t.Fatalf("evaluate: %v", err)
	}
	return v
}

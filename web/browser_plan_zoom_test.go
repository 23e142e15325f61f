package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// planView is what a person sees of the floor plan, measured in the browser: the smallest name or mark
// on screen, the smallest hit area of a resource wholly in view, how many names are written, how much
// of the floor's width is shown, and how far the page reaches past the screen's right edge.
type planView struct {
	Font, TargetW, TargetH float64
	Names, Spots           float64
	Shown                  float64 // the share of the floor's width in view, 0 to 1
	Overflow               float64
}

const measurePlan = `(() => {
	const svg = document.querySelector("svg.plan"), s = svg.getScreenCTM().a, fr = svg.getBoundingClientRect();
	const v = {Font: 1000, TargetW: 1000, TargetH: 1000, Names: 0, Spots: 0};
	for (const a of svg.querySelectorAll("a.spot")) {
		const r = a.querySelector("rect.area").getBoundingClientRect();
		if (r.left < fr.left - 1 || r.right > fr.right + 1 || r.top < fr.top - 1 || r.bottom > fr.bottom + 1) continue;
		v.Spots++;
		const h = a.querySelector("rect.hit").getBoundingClientRect();
		v.TargetW = Math.min(v.TargetW, h.width); v.TargetH = Math.min(v.TargetH, h.height);
		for (const t of a.querySelectorAll("text.name, text.mark")) {
			if (getComputedStyle(t).display === "none" || !t.textContent.trim()) continue;
			v.Font = Math.min(v.Font, parseFloat(getComputedStyle(t).fontSize) * s);
			if (t.classList.contains("name")) v.Names++;
		}
	}
	v.Shown = svg.viewBox.baseVal.width / 1200;
	v.Overflow = document.documentElement.scrollWidth - innerWidth;
	return v;
})()`

// TestBrowserPlanZoom reads and uses the demo office's floor plan on a phone (by touch) and on a laptop:
// names and marks are at least 12 px tall on screen at every zoom, desks are 44×44 px targets on the
// phone (24×24 on the laptop), the page never reaches past the screen's edge, the buttons, two fingers
// and Ctrl with the wheel zoom, the arrow keys go from desk to desk in reading order, a busy desk says
// when it is free again, and a desk chosen on the plan is booked with its Book button in view.
func TestBrowserPlanZoom(t *testing.T) {
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
	// The admin has Desk MAD-1-D09 on Wednesday morning: busy from 09:00, free from 12:00.
	busy := desks["MAD-1-D09"]
	day := func(h int) time.Time { return time.Date(2026, 11, 25, h, 0, 0, 0, fx.Madrid) }
	if _, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: demo.Admin, Organizer: demo.Admin,
		Category: booking.CategoryWorkstation, Bookings: []booking.NewBooking{{ResourceID: uuid.MustParse(busy.ID), Start: day(9), End: day(12)}}}); err != nil {
		t.Fatal(err)
	}
	floor, err := layout.New(pb.Pool, pb.Service).Get(t.Context(), demo.Admin, layout.Floors, uuid.MustParse(busy.FloorID))
	if err != nil {
		t.Fatal(err)
	}
	var f layout.LayoutFloor
	if err := json.Unmarshal(floor.JSON, &f); err != nil {
		t.Fatal(err)
	}
	plan := "/find/plan?building=" + f.BuildingID + "&floor=" + f.ID + "&kind=desk&date=2026-11-25&from=09:00&to=17:00"

	for _, size := range []struct {
		name      string
		w, h      int
		touch     bool
		minTarget float64
	}{{"phone", 390, 844, true, 44}, {"laptop", 1280, 800, false, 24}} {
		t.Run(size.name, func(t *testing.T) {
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			kioskBrowserSignIn(b, demo.Employee.ID, plan)
			b.do(chromedp.Poll[chromedp.Void](`(() => { const m = document.querySelector("svg.plan[data-driven] text.mark"); return m && m.style.fontSize !== ""; })()`,
				chromedp.WithPollingTimeout(10*time.Second)))
			measure := func(when string) planView {
				t.Helper()
				v, err := chromedp.Run(b.ctx, chromedp.Evaluate[planView](measurePlan))
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: smallest text %.1f px, smallest target %.1f×%.1f px, %v names on %v spots in view, %.0f%% of the floor's width shown",
					when, v.Font, v.TargetW, v.TargetH, v.Names, v.Spots, 100*v.Shown)
				if v.Font < 11.95 {
					t.Errorf("%s: text %.1f px tall on screen, want at least 12", when, v.Font)
				}
				if v.Overflow > 0 {
					t.Errorf("%s: the page reaches %.0f px past the screen's right edge", when, v.Overflow)
				}
				return v
			}

			first := measure("first view")
			if first.Names < 4 {
				t.Errorf("first view: %v names written, want the desks in view named", first.Names)
			}
			if first.TargetW < size.minTarget || first.TargetH < size.minTarget {
				t.Errorf("first view: the smallest target is %.1f×%.1f px, want at least %.0f×%.0f", first.TargetW, first.TargetH, size.minTarget, size.minTarget)
			}
			if size.touch && first.Shown >= 1 {
				t.Errorf("the phone shows the whole floor at first (%.0f%%), want it zoomed in to fingertip size", 100*first.Shown)
			}
			if !size.touch && first.Shown < 1 {
				t.Errorf("the laptop shows %.0f%% of the floor at first, want all of it", 100*first.Shown)
			}
			b.evalText(`document.querySelector(".plan-head").scrollIntoView({block: "start"})`)
			b.viewportShot("plan-zoom-first-" + size.name)
			b.copyShot("plan-zoom-first-" + size.name)

			// The buttons zoom in and back to the whole floor; names stay legible.
			b.do(chromedp.Click(chromedp.CSS(`.plan-zoom [data-zoom="in"]`)))
			in := measure("zoomed in")
			if in.Shown >= first.Shown*0.7 {
				t.Errorf("Zoom in shows %.0f%% of the floor, want less than before (%.0f%%)", 100*in.Shown, 100*first.Shown)
			}
			b.do(chromedp.Click(chromedp.CSS(`.plan-zoom [data-zoom="fit"]`)))
			if fit := measure("fit"); fit.Shown != 1 {
				t.Errorf("Fit shows %.0f%% of the floor, want all of it", 100*fit.Shown)
			}
			b.evalText(`document.querySelector(".plan-head").scrollIntoView({block: "start"})`)
			b.viewportShot("plan-zoom-fit-" + size.name)
			b.copyShot("plan-zoom-fit-" + size.name)

			// Two fingers spread apart (phone), or Ctrl and the wheel (laptop), zoom in around them.
			centre := b.numbers(`(() => { const r = document.querySelector("svg.plan").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
			if size.touch {
				b.pinch(centre[0], centre[1], 20, 120)
			} else {
				b.evalText(fmt.Sprintf(`document.querySelector("svg.plan").dispatchEvent(new WheelEvent("wheel", {deltaY: -400, ctrlKey: true, clientX: %f, clientY: %f, bubbles: true, cancelable: true})) ? "not taken" : "taken"`, centre[0], centre[1]))
			}
			if v := measure("after the gesture"); v.Shown >= 0.8 {
				t.Errorf("the gesture left %.0f%% of the floor shown, want it zoomed in", 100*v.Shown)
			}

			// Arrow keys: right goes to the next desk in the same row, down to the row below.
			b.do(chromedp.Click(chromedp.CSS(`.plan-zoom [data-zoom="fit"]`)))
			b.evalText(`document.querySelector('svg.plan a.spot[aria-label^="` + desks["MAD-1-D01"].Name + `,"]').focus()`)
			where := func() []float64 {
				return b.numbers(`(() => { const r = document.activeElement.querySelector("rect.area"); return [+r.getAttribute("x"), +r.getAttribute("y")]; })()`)
			}
			from := where()
			b.do(chromedp.KeyEvent(kb.ArrowRight))
			if right := where(); right[1] != from[1] || right[0] <= from[0] {
				t.Errorf("ArrowRight went from %v to %v, want the next desk to the right in the same row", from, right)
			}
			b.do(chromedp.KeyEvent(kb.ArrowDown))
			if down := where(); down[1] <= from[1] {
				t.Errorf("ArrowDown went to %v, want a desk in the row below %v", down, from)
			}
			if n := b.number(`document.querySelectorAll('svg.plan a.spot[tabindex="0"]').length`); n != 1 {
				t.Errorf("%v desks are in the Tab order, want only the one reached", n)
			}

			// A busy desk says, on focus, when it is free again.
			b.evalText(`document.querySelector('svg.plan a.spot[aria-label^="` + busy.Name + `,"]').focus()`)
			b.waitText(".plan-tip", busy.Name+": ocupado, libre desde las 12:00") // the demo's employee reads the plan in Spanish

			// Choose a free desk (a tap on the phone) and book it with the button in view.
			b.do(chromedp.Click(chromedp.CSS(`.plan-zoom [data-zoom="fit"]`)))
			if size.touch {
				b.do(chromedp.Click(chromedp.CSS(`.plan-zoom [data-zoom="in"]`)), chromedp.Click(chromedp.CSS(`.plan-zoom [data-zoom="in"]`)))
			}
			target := desks["MAD-1-D13"]
			b.evalText(`document.querySelector('svg.plan a.spot[aria-label^="` + target.Name + `,"]').focus()`)
			spot := b.numbers(`(() => { const r = document.activeElement.querySelector("rect.area").getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
			if size.touch {
				b.tap(spot[0], spot[1])
			} else {
				b.do(chromedp.MouseClickXY(spot[0], spot[1]))
			}
			b.waitText("#panel", "Reservar "+target.Name)
			b.waitSettled()
			inView := `(() => {
				const r = document.querySelector("#panel .booking-form button[type=submit]").getBoundingClientRect();
				return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight ? "in view" : "top " + r.top + ", bottom " + r.bottom + ", screen " + innerHeight;
			})()`
			if got := b.evalText(inView); got != "in view" {
				t.Errorf("the Book button is not on the screen: %s", got)
			}
			if size.touch {
				if pos := b.evalText(`getComputedStyle(document.getElementById("panel")).position`); pos != "fixed" {
					t.Errorf("on a phone the details are %s, want a sheet fixed at the bottom", pos)
				}
			}
			if got := b.evalText(`(() => {
				const r = document.querySelector("svg.plan a.spot.selected rect.area").getBoundingClientRect();
				const p = document.getElementById("panel").getBoundingClientRect();
				const under = getComputedStyle(document.getElementById("panel")).position === "fixed" ? p.top : innerHeight;
				return r.top >= 0 && r.bottom <= under ? "in view" : "top " + r.top + ", bottom " + r.bottom + ", uncovered to " + under;
			})()`); got != "in view" {
				t.Errorf("the chosen desk is not in view beside its details: %s", got)
			}
			b.viewportShot("plan-zoom-chosen-" + size.name)
			b.copyShot("plan-zoom-chosen-" + size.name)
			b.do(chromedp.Click(chromedp.CSS(`#panel .booking-form button[type=submit]`)))
			b.waitText("main", "1 reserva hecha.") // the demo's employee reads My bookings in Spanish
			b.waitText("main", target.Name, "mié 25 nov")
			// The booking is the employee's, so another size must cancel it before booking again.
			if size.touch {
				cancelOwnDesk(t, pb, demo.Employee, uuid.MustParse(target.ID))
			}
		})
	}
}

// cancelOwnDesk cancels the person's booking of the desk, so that the next step can book it again.
func cancelOwnDesk(t *testing.T, pb *pageBundle, u booking.User, desk uuid.UUID) {
	t.Helper()
	page, err := pb.Service.UserBookings(t.Context(), u, booking.BookingFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, bk := range page.Bookings {
		if bk.Resource.ID == desk && bk.Status != booking.StatusCancelled {
			if _, err := pb.Service.Cancel(t.Context(), u, bk.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// numbers runs a script in the page that returns a list of numbers.
func (b *tab) numbers(script string) []float64 {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](script))
	if err != nil {
		b.t.Fatalf("evaluate: %v", err)
	}
	return v
}

// touches sends one touch event with the given fingers.
func touches(typ input.DispatchTouchEventType, points ...[2]float64) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{}}
		for i, pt := range points {
			id := float64(i + 1)
			p.TouchPoints = append(p.TouchPoints, &input.TouchPoint{X: pt[0], Y: pt[1], ID: &id})
		}
		_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, p)
		return err
	})
}

// tap touches the screen at x, y with one finger and lifts it.
func (b *tab) tap(x, y float64) {
	b.t.Helper()
	b.do(touches(input.DispatchTouchEventTypeTouchStart, [2]float64{x, y}), touches(input.DispatchTouchEventTypeTouchEnd))
}

// pinch puts two fingers from apart around x, y and spreads them to to apart, in ten steps.
func (b *tab) pinch(x, y, from, to float64) {
	b.t.Helper()
	at := func(d float64) [][2]float64 { return [][2]float64{{x - d/2, y}, {x + d/2, y}} }
	steps := []chromedp.Action[chromedp.Void]{touches(input.DispatchTouchEventTypeTouchStart, at(from)...)}
	for i := 1; i <= 10; i++ {
		steps = append(steps, touches(input.DispatchTouchEventTypeTouchMove, at(from+(to-from)*float64(i)/10)...))
	}
	b.do(append(steps, touches(input.DispatchTouchEventTypeTouchEnd))...)
}

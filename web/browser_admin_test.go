package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
)

// TestBrowserAdminSetsUpAnOffice is the admin console's journey in Chromium: the admin of a new, empty
// organization creates a building and a floor, uploads the floor's plan, adds four desks, places three
// by dragging and one with the keyboard, changes a rule on the rules page and gives one desk that rule;
// an employee then finds that desk on the floor plan and books it.
func TestBrowserAdminSetsUpAnOffice(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	o := newOffice(t, pb)
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, o.admin, "/admin/buildings")

	// An empty organization: the buildings page says where to start.
	b.waitText("main h1", "Buildings")
	b.waitText("main", "No buildings yet")
	b.check("admin-buildings-empty")
	b.do(chromedp.Click(chromedp.CSS(`.admin-empty a.button`)))
	b.waitText("main h1", "Add a building")

	// The time zone list shows the local time of the chosen zone, and follows the choice.
	b.do(chromedp.SetValue(chromedp.CSS("#name"), "Lisbon Office"),
		chromedp.SetValue(chromedp.CSS("#address"), "Rua Augusta 10"),
		chromedp.SetValue(chromedp.CSS("#city"), "Lisbon"),
		chromedp.SetValue(chromedp.CSS("#country"), "Portugal"))
	b.chooseOption("#timezone", "Europe/Lisbon")
	want := localTime("Europe/Lisbon")
	b.waitText("#tz-now", "Local time there now:", want)
	b.chooseOption("#timezone", "Asia/Tokyo")
	b.waitText("#tz-now", localTime("Asia/Tokyo"))
	b.chooseOption("#timezone", "Europe/Madrid")
	b.check("admin-building-new")
	b.do(chromedp.Click(chromedp.CSS(`form.admin-form button[type=submit]`)))
	b.waitText("main h1", "Lisbon Office")
	b.waitText("main .notice.ok", "Added. Lisbon Office is saved")
	building := pathTail(t, b.location(), "/admin/buildings/")

	// A floor of the building.
	b.do(chromedp.Click(chromedp.CSS(`a[href="/admin/floors/new?building=` + building + `"]`)))
	b.waitText("main h1", "Add a floor")
	b.do(chromedp.SetValue(chromedp.CSS("#number"), "1"), chromedp.SetValue(chromedp.CSS("#name"), "First floor"),
		chromedp.Click(chromedp.CSS(`form.admin-form button[type=submit]`)))
	b.waitText("main h1", "First floor")
	floor := pathTail(t, b.location(), "/admin/floors/")

	// Its plan, uploaded as an SVG file.
	if n, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll("#upload").length`)); n == 1 {
		plan := filepath.Join(t.TempDir(), "plan.svg")
		if err := os.WriteFile(plan, []byte(testPlanSVG), 0o644); err != nil {
			t.Fatal(err)
		}
		b.do(chromedp.SetUploadFiles(chromedp.CSS("#plan"), []string{plan}),
			chromedp.Click(chromedp.CSS(`#upload button[type=submit]`)))
		b.waitText("main .notice.ok", "Plan uploaded.")
		if src := b.attrOf("img.floor-thumb", "src"); src == "" {
			t.Errorf("the floor page shows no plan after the upload")
		}
	} else {
		t.Log("this build stores no floor plans: the upload is left out")
	}
	b.check("admin-floor")

	// Four desks in a row, from the plan editor.
	b.do(chromedp.Click(chromedp.CSS(`a[href="/admin/floors/` + floor + `/plan"]`)))
	b.waitText("main h1", "Place desks and rooms")
	b.do(chromedp.SetValue(chromedp.CSS("#rows"), "1"), chromedp.SetValue(chromedp.CSS("#columns"), "4"),
		chromedp.SetValue(chromedp.CSS("#prefix"), "Desk"), chromedp.SetValue(chromedp.CSS("#start"), "1"),
		chromedp.Click(chromedp.CSS(`form[action$="/plan/grid"] button[type=submit]`)))
	b.waitText("main .notice.ok", "4 desks placed")
	desks := o.desksOn(t, floor)
	if len(desks) != 4 {
		t.Fatalf("%d desks on the floor, want 4", len(desks))
	}
	for i, name := range []string{"Desk 1", "Desk 2", "Desk 3", "Desk 4"} {
		if desks[name].PosterCode != fmt.Sprintf("DESK-%d", i+1) {
			t.Errorf("%s has poster code %q, want DESK-%d", name, desks[name].PosterCode, i+1)
		}
	}

	// Two by dragging with the mouse, one with a finger, one with the keyboard.
	for i, name := range []string{"Desk 1", "Desk 2", "Desk 3"} {
		b.dragSpot(desks[name].ID, 120, 90+float64(i)*40, name == "Desk 3")
		b.waitText("#editor-status", "Saved "+name+".")
	}
	b.do(chromedp.Focus(chromedp.CSS("#spot-"+desks["Desk 4"].ID)),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight),
		chromedp.KeyEvent(kb.ArrowDown, chromedp.KeyModifiers(chromedp.ModifierShift)))
	b.waitText("#editor-status", "Saved Desk 4.")
	b.check("admin-plan-editor")

	moved := o.desksOn(t, floor)
	for _, name := range []string{"Desk 1", "Desk 2", "Desk 3"} {
		before, after := desks[name].MapCoordinates, moved[name].MapCoordinates
		if after.TopLeftX <= before.TopLeftX || after.TopLeftY <= before.TopLeftY {
			t.Errorf("%s at %+v after dragging from %+v, want further right and down", name, after, before)
		}
		if after.BottomRightX-after.TopLeftX != before.BottomRightX-before.TopLeftX {
			t.Errorf("%s changed its width while moving: %+v → %+v", name, before, after)
		}
	}
	d4, m4 := desks["Desk 4"].MapCoordinates, moved["Desk 4"].MapCoordinates
	if got, want := [2]int32{m4.TopLeftX - d4.TopLeftX, m4.TopLeftY - d4.TopLeftY}, [2]int32{10, 50}; got != want {
		t.Errorf("Desk 4 moved by %v with the keyboard, want %v (→ → and Shift+↓)", got, want)
	}

	// The admin shortens the morning rule on the rules page: bookable until 12:00 rather than 13:00.
	mornings := "#rule-" + o.mornings.String()
	b.open("/admin/rules")
	b.waitText("main h1", "Rules")
	b.do(chromedp.SetValue(chromedp.CSS(mornings+" input[name=until]"), "12:00"),
		chromedp.Click(chromedp.CSS(mornings+" button[type=submit]")))
	b.waitText(mornings+" .rule-sentence", "08:00–12:00")
	o.waitRuleEnd(t, o.mornings, 12*time.Hour)
	b.check("admin-rules")

	// Desk 2 gets the morning rule, chosen on its form.
	b.open("/admin/resources/" + desks["Desk 2"].ID)
	b.waitText("main h1", "Desk 2")
	b.chooseOption("#rule", o.mornings.String())
	b.do(chromedp.Click(chromedp.CSS(`form.admin-form button[type=submit]`)))
	b.waitText("main .notice.ok", "Saved.")
	if got := o.desksOn(t, floor)["Desk 2"].ResourceRuleID; got != o.mornings.String() {
		t.Errorf("Desk 2's rule is %s, want the morning rule %s", got, o.mornings)
	}
	b.check("admin-resource")

	// The floor started hidden while it was set up; now people may book on it.
	b.open("/admin/floors/" + floor)
	b.waitText("main h1", "First floor")
	b.do(chromedp.Click(chromedp.CSS(`input[name=visible]`)), chromedp.Click(chromedp.CSS(`form.admin-form button[type=submit]`)))
	b.waitText("main .notice.ok", "Saved.")

	// An employee finds Desk 2 on the floor plan and books it for the morning.
	e := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(e, o.employee, "/find/plan?building="+building+"&kind=desk&date=2026-11-24&from=09:00&to=11:00")
	e.waitText("#plan-h", "First floor", "Lisbon Office")
	e.do(chromedp.Click(chromedp.CSS(`a.spot[aria-label^="Desk 2,"]`)))
	e.waitText("#panel", "Desk 2", "Book Desk 2")
	e.do(chromedp.Click(chromedp.CSS("#booking-box button[type=submit]")))
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(e.location(), "/bookings?booked=1") {
		if time.Now().After(deadline) {
			t.Fatalf("after booking: at %s, want /bookings?booked=1", e.location())
		}
		time.Sleep(100 * time.Millisecond)
	}
	emp := pb.User(t, o.org, o.employee)
	page, err := pb.Service.UserBookings(t.Context(), emp, booking.BookingFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Bookings) != 1 || page.Bookings[0].Resource.Name != "Desk 2" {
		t.Fatalf("the employee's bookings: %+v, want one of Desk 2", page.Bookings)
	}
}

// office is a new organization with an admin, an employee, a kind of desk and two rules, and nothing else.
type office struct {
	org, admin, employee   uuid.UUID
	desk, allDay, mornings uuid.UUID
	svc                    *layout.Service
	adminUser              booking.User
}

// newOffice makes the new organization. The kind of desk and the rules are written through the admin
// domain, as the admin API writes them.
func newOffice(t *testing.T, pb *pageBundle) *office {
	t.Helper()
	o := &office{org: uuid.New(), admin: uuid.New(), employee: uuid.New(), desk: uuid.New(), allDay: uuid.New(), mornings: uuid.New()}
	org := o.org.String()
	if _, err := layout.New(pb.Pool, pb.Service).Import(t.Context(), layout.Layout{
		Organizations: []layout.LayoutOrganization{{ID: org, Name: "Initech"}},
		Users: []layout.LayoutUser{
			{ID: o.admin.String(), OrganizationID: org, Name: "Ada", Surname: "Admin", Email: "ada@initech.test", Role: "ADMIN"},
			{ID: o.employee.String(), OrganizationID: org, Name: "Emil", Surname: "Employee", Email: "emil@initech.test"},
		},
	}); err != nil {
		t.Fatalf("import the organization: %v", err)
	}
	o.svc = layout.New(pb.Pool, pb.Service)
	o.adminUser = pb.User(t, o.org, o.admin)
	hour := int64(time.Hour / time.Millisecond)
	for _, p := range []struct {
		coll layout.Collection
		id   uuid.UUID
		v    any
	}{
		{layout.Collection("subcategories"), o.desk, layout.LayoutSubcategory{ID: o.desk.String(), OrganizationID: org, Name: "Desk", Category: "WORKSTATION"}},
		{layout.Collection("resourceRules"), o.allDay, layout.LayoutResourceRule{ID: o.allDay.String(), OrganizationID: org, Name: "All day",
			StartTime: 7 * hour, EndTime: 21 * hour, MaximumDuration: 14 * hour, MaximumAdvance: 30 * 24 * hour}},
		{layout.Collection("resourceRules"), o.mornings, layout.LayoutResourceRule{ID: o.mornings.String(), OrganizationID: org, Name: "Mornings",
			StartTime: 8 * hour, EndTime: 13 * hour, MaximumDuration: 4 * hour, MaximumAdvance: 14 * 24 * hour}},
	} {
		body, err := json.Marshal(p.v)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := o.svc.Put(t.Context(), o.adminUser, p.coll, p.id, body, ""); err != nil {
			t.Fatalf("put %s: %v", p.coll, err)
		}
	}
	return o
}

// desksOn returns the resources of a floor by name, as the admin domain holds them.
func (o *office) desksOn(t *testing.T, floor string) map[string]layout.LayoutResource {
	t.Helper()
	objs, err := o.svc.List(t.Context(), o.adminUser, layout.Collection("resources"))
	if err != nil {
		t.Fatalf("list resources: %v", err)
	}
	out := map[string]layout.LayoutResource{}
	for _, obj := range objs {
		var r layout.LayoutResource
		if err := json.Unmarshal(obj.JSON, &r); err != nil {
			t.Fatal(err)
		}
		if r.FloorID == floor {
			out[r.Name] = r
		}
	}
	return out
}

// chooseOption chooses the option of a select by its value, as a person does: the select changes and
// says so.
func (b *tab) chooseOption(selector, value string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => {
		const s = document.querySelector(%q);
		s.value = %q;
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return s.value === %q;
	})()`, selector, value, value))); err != nil {
		b.t.Fatalf("choose %s in %s: %v", value, selector, err)
	}
}

// dragSpot drags a desk of the plan editor by dx, dy CSS pixels, in small steps, with the mouse or, if
// finger is true, with a touch.
func (b *tab) dragSpot(id string, dx, dy float64, finger bool) {
	b.t.Helper()
	sel := "#spot-" + id + " .area"
	b.do(chromedp.ScrollIntoView(chromedp.CSS(sel)))
	box, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](fmt.Sprintf(`(() => {
		const r = document.querySelector(%q).getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`, sel)))
	if err != nil || len(box) != 2 {
		b.t.Fatalf("find %s: %v", sel, err)
	}
	x, y := box[0], box[1]
	if finger {
		touch := func(typ input.DispatchTouchEventType, x, y float64) chromedp.Action[chromedp.Void] {
			return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				p := input.DispatchTouchEventParams{Type: typ, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}}
				if typ == input.DispatchTouchEventTypeTouchEnd {
					p.TouchPoints = []*input.TouchPoint{} // a touchEnd has no touch points
				}
				_, err := cdp.Call(ctx, t, input.DispatchTouchEvent, p)
				return err
			})
		}
		steps := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, x, y)}
		for i := 1; i <= 10; i++ {
			steps = append(steps, touch(input.DispatchTouchEventTypeTouchMove, x+dx*float64(i)/10, y+dy*float64(i)/10))
		}
		b.do(append(steps, touch(input.DispatchTouchEventTypeTouchEnd, x+dx, y+dy))...)
		return
	}
	held := func(p *input.DispatchMouseEventParams) {
		p.Button, p.Buttons, p.ClickCount = input.MouseButtonLeft, 1, 1
	}
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x, y, held)}
	for i := 1; i <= 10; i++ {
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x+dx*float64(i)/10, y+dy*float64(i)/10, held))
	}
	steps = append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x+dx, y+dy, held))
	b.do(steps...)
}

// localTime is the time of day now in a zone as the page's script writes it, "14:05".
func localTime(zone string) string {
	loc, _ := time.LoadLocation(zone)
	return time.Now().In(loc).Format("15:04")[:3] // the hour: the minute may turn while the test runs
}

// pathTail returns what follows prefix in the path of a URL, up to the next '/' or '?'.
func pathTail(t *testing.T, loc, prefix string) string {
	t.Helper()
	_, after, ok := strings.Cut(loc, prefix)
	if !ok {
		t.Fatalf("at %s, want a page under %s", loc, prefix)
	}
	if i := strings.IndexAny(after, "/?"); i >= 0 {
		after = after[:i]
	}
	return after
}

// testPlanSVG is a small floor plan: walls and a corridor.
const testPlanSVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1200 800" width="1200" height="800">
  <rect x="4" y="4" width="1192" height="792" fill="#f8fafc" stroke="#334155" stroke-width="8"/>
  <rect x="4" y="360" width="1192" height="80" fill="#e2e8f0"/>
  <line x1="600" y1="4" x2="600" y2="360" stroke="#334155" stroke-width="4"/>
  <text x="620" y="410" font-size="28" fill="#475569">Corridor</text>
</svg>`

// waitRuleEnd waits until the rule's stored end of day is end: the rules page saves without leaving it.
func (o *office) waitRuleEnd(t *testing.T, rule uuid.UUID, end time.Duration) {
	t.Helper()
	want := int64(end / time.Millisecond)
	var got layout.LayoutResourceRule
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		obj, err := o.svc.Get(t.Context(), o.adminUser, layout.Collection("resourceRules"), rule)
		if err != nil {
			t.Fatalf("get the rule: %v", err)
		}
		if err := json.Unmarshal(obj.JSON, &got); err != nil {
			t.Fatal(err)
		}
		if got.EndTime == want {
			return
		}
	}
	t.Fatalf("the rule ends at %d ms after midnight, want %d", got.EndTime, want)
}

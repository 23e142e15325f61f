package web_test

import (
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBrowserDrawNeighbourhood drags a rectangle on the plan editor of a desktop-sized Chromium: the
// form's corners take the rectangle in the plan's units, drawn over the desks without moving them.
func TestBrowserDrawNeighbourhood(t *testing.T) {
	t.Parallel()
	chromiumPath(t)
	pb := setupPages(t)
	if _, err := pb.Pool.Exec(t.Context(), `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, fx.OrgA, uuid.New()); err != nil {
		t.Fatal(err)
	}
	b := newTabSized(t, pb.srv.URL, 1440, 900)
	var ce consoleErrors
	ce.listen(b)
	kioskBrowserSignIn(b, fx.Adam, "/admin/floors/"+fx.FloorMadrid.String()+"/plan")
	b.waitText(".zones h2", "Neighbourhoods")
	spotBefore := b.attrOf("#spot-"+fx.DeskOne.String(), "data-x1")

	b.do(chromedp.Click(chromedp.CSS("#zone-draw")), chromedp.ScrollIntoView(chromedp.CSS("svg.plan.editing")))
	if got := b.attrOf("#zone-draw", "aria-pressed"); got != "true" {
		t.Fatalf("the draw button is pressed %q, want true", got)
	}
	box, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](`(() => {
		const r = document.querySelector("svg.plan.editing").getBoundingClientRect();
		return [r.left, r.top, r.width];
	})()`))
	if err != nil || len(box) != 3 {
		t.Fatalf("find the plan: %v", err)
	}
	held := func(p *input.DispatchMouseEventParams) {
		p.Button, p.Buttons, p.ClickCount = input.MouseButtonLeft, 1, 1
	}
	x, y := box[0]+5, box[1]+5
	steps := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x, y, held)}
	for i := 1; i <= 10; i++ {
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x+float64(i)*30, y+float64(i)*20, held))
	}
	b.do(append(steps, chromedp.MouseEvent(chromedp.MouseReleased, x+300, y+200, held))...)

	corners, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`["x1", "x2"].map(k => document.getElementById("zone-new-" + k).value)`))
	if err != nil || len(corners) != 2 {
		t.Fatalf("read the corners: %v", err)
	}
	x1, x2 := corners[0], corners[1]
	if n1, _ := strconv.Atoi(x1); n1 > 20 {
		t.Errorf("left corner = %s, want near 0", x1)
	}
	if n2, err := strconv.Atoi(x2); err != nil || n2 < 100 {
		t.Errorf("right corner = %q, want a rectangle across the plan", x2)
	}
	if got := b.attrOf("#spot-"+fx.DeskOne.String(), "data-x1"); got != spotBefore {
		t.Errorf("drawing moved Desk 1 from %s to %s", spotBefore, got)
	}
	b.screenshot("admin-plan-neighbourhood-desktop")
	if errs := ce.take(); len(errs) > 0 {
		t.Errorf("the page reported errors: %v", errs)
	}
}

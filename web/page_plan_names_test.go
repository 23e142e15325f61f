package web_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The plans draw each desk's and room's name from its data, inside its shape, whatever the uploaded
// image shows; and the employees' plan marks the chosen one.

// shapeOf reads the rectangle an element of a plan draws.
func shapeOf(t *testing.T, s *goquery.Selection) (x, y, w, h float64) {
	t.Helper()
	var v [4]float64
	for i, name := range []string{"x", "y", "width", "height"} {
		f, err := strconv.ParseFloat(s.AttrOr(name, ""), 64)
		if err != nil {
			t.Fatalf("%s of %s: %v", name, goquery.NodeName(s), err)
		}
		v[i] = f
	}
	return v[0], v[1], v[2], v[3]
}

// nameInside checks that a spot of a plan shows name as text whose centre and backing lie inside its
// shape, and returns the text element.
func nameInside(t *testing.T, spot *goquery.Selection, name string) *goquery.Selection {
	t.Helper()
	text := spot.Find("text.name")
	if got := squash(text.Text()); got != name {
		t.Errorf("%s: the plan writes %q on it, want its name", name, got)
		return text
	}
	x, y, w, h := shapeOf(t, spot.Find("rect.area"))
	cx, err1 := strconv.ParseFloat(text.AttrOr("x", ""), 64)
	cy, err2 := strconv.ParseFloat(text.AttrOr("y", ""), 64)
	if err1 != nil || err2 != nil || cx <= x || cx >= x+w || cy <= y || cy >= y+h {
		t.Errorf("%s: its name is written at %s,%s, outside its shape %v,%v %v×%v", name, text.AttrOr("x", ""), text.AttrOr("y", ""), x, y, w, h)
	}
	bx, by, bw, bh := shapeOf(t, spot.Find("rect.name-bg"))
	if bx < x || by < y || bx+bw > x+w || by+bh > y+h {
		t.Errorf("%s: the backing of its name %v,%v %v×%v leaves its shape %v,%v %v×%v", name, bx, by, bw, bh, x, y, w, h)
	}
	return text
}

func TestFloorPlanWritesNames(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Alice, fx.RoomVelazquez, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	findBook(t, pb, fx.Bob, fx.RoomBoard, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	b := pb.signedIn(t, fx.Alice)
	p := b.get(planPath("from", "10:00", "to", "11:00", "resource", fx.RoomGoya.String()))
	p.wantStatus(t, http.StatusOK)

	names := map[string]bool{}
	p.doc.Find("svg.plan a.spot").Each(func(_ int, s *goquery.Selection) {
		name, _, _ := strings.Cut(s.AttrOr("aria-label", ""), ",")
		names[name] = true
		nameInside(t, s, name)
	})
	for _, want := range []string{"Goya", "Velázquez", "Boardroom", "Desk 1", "Desk 2"} {
		if !names[want] {
			t.Errorf("%s is not drawn on the plan", want)
		}
	}

	// Velázquez is Alice's then: it still says its name, beside the mark that says so.
	mine := p.doc.Find("svg.plan a.spot.mine")
	if mine.Length() != 1 || !strings.HasPrefix(mine.AttrOr("aria-label", ""), "Velázquez, yours") {
		t.Fatalf("Alice's spot: %d drawn, labelled %q", mine.Length(), mine.AttrOr("aria-label", ""))
	}
	nameInside(t, mine, "Velázquez")
	if got := squash(mine.Find("text.mark").Text()); got != "★" {
		t.Errorf("Velázquez's mark = %q, want ★", got)
	}

	// Goya is the chosen one: marked so, in words too, and only it.
	chosen := p.doc.Find("svg.plan a.spot.selected")
	if chosen.Length() != 1 {
		t.Fatalf("%d spots marked as chosen, want 1", chosen.Length())
	}
	if got, want := chosen.AttrOr("aria-label", ""), "Goya, free until 20:00 Madrid time, chosen"; got != want {
		t.Errorf("the chosen spot's label = %q, want %q", got, want)
	}
	if got := chosen.AttrOr("aria-current", ""); got != "true" {
		t.Errorf("the chosen spot's aria-current = %q, want true", got)
	}
	nameInside(t, chosen, "Goya")
	if got := p.count(`svg.plan a.spot[aria-current]`); got != 1 {
		t.Errorf("%d spots are current, want only the chosen one", got)
	}
}

func TestAdminPlanEditorWritesNames(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	p := pb.signedIn(t, fx.Adam).get("/admin/floors/" + fx.FloorMadrid.String() + "/plan")
	p.wantStatus(t, http.StatusOK)
	n := 0
	p.doc.Find("svg.plan.editing g.spot").Each(func(_ int, s *goquery.Selection) {
		name, _, _ := strings.Cut(s.AttrOr("aria-label", ""), ",")
		nameInside(t, s, name)
		n++
	})
	if n != 6 {
		t.Errorf("%d spots on the editor, want Madrid's 6", n)
	}
}

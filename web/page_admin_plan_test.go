package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// The plan editor's "add a row or grid of desks": where the new desks go.

// rect is a rectangle on a floor plan.
type rect = layout.LayoutMapCoordinates

// placeAt moves a resource of A to a rectangle of the plan, through the admin domain.
func placeAt(t *testing.T, pb *pageBundle, id uuid.UUID, b rect) {
	t.Helper()
	r, etag := adminGetJSON[layout.LayoutResource](t, pb, "resources", id)
	r.MapCoordinates = b
	body, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := layout.New(pb.Pool, pb.Service).Put(t.Context(), pb.User(t, fx.OrgA, fx.Adam), layout.Resources, id, body, etag); err != nil {
		t.Fatalf("place %s at %+v: %v", r.Name, b, err)
	}
}

// resourcesOn returns the resources of a floor of A, by id.
func resourcesOn(t *testing.T, pb *pageBundle, floor uuid.UUID) map[string]layout.LayoutResource {
	t.Helper()
	objs, err := layout.New(pb.Pool, pb.Service).List(t.Context(), pb.User(t, fx.OrgA, fx.Adam), layout.Resources)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]layout.LayoutResource{}
	for _, o := range objs {
		var r layout.LayoutResource
		if err := json.Unmarshal(o.JSON, &r); err != nil {
			t.Fatal(err)
		}
		if r.FloorID == floor.String() {
			out[r.ID] = r
		}
	}
	return out
}

func overlaps(a, b rect) bool {
	return a.TopLeftX < b.BottomRightX && b.TopLeftX < a.BottomRightX && a.TopLeftY < b.BottomRightY && b.TopLeftY < a.BottomRightY
}

// gridForm is the form that adds rows × columns desks named "New desk 1", "New desk 2"…
func gridForm(rows, columns string) url.Values {
	return url.Values{"rows": {rows}, "columns": {columns}, "prefix": {"New desk"}, "start": {"1"},
		"subcategory": {fx.SubDesk.String()}, "rule": {fx.RuleDesk.String()}}
}

func TestAdminPlanGridGoesWhereThePlanIsFree(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	// Madrid's plan is 1200 × 800. A wide room along the top, one down the left side, and desks where
	// the old rule put new ones (the top left, and in a row below the lowest resource).
	placeAt(t, pb, fx.RoomGoya, rect{TopLeftX: 0, TopLeftY: 0, BottomRightX: 1200, BottomRightY: 300})
	placeAt(t, pb, fx.RoomVelazquez, rect{TopLeftX: 0, TopLeftY: 300, BottomRightX: 400, BottomRightY: 800})
	placeAt(t, pb, fx.RoomBoard, rect{TopLeftX: 700, TopLeftY: 500, BottomRightX: 900, BottomRightY: 640})
	placeAt(t, pb, fx.DeskOne, rect{TopLeftX: 420, TopLeftY: 320, BottomRightX: 480, BottomRightY: 360})
	placeAt(t, pb, fx.DeskTwo, rect{TopLeftX: 20, TopLeftY: 20, BottomRightX: 80, BottomRightY: 60})
	before := resourcesOn(t, pb, fx.FloorMadrid)

	b := pb.signedIn(t, fx.Adam)
	p := b.post("/admin/floors/"+fx.FloorMadrid.String()+"/plan/grid", gridForm("2", "4"))
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".notice.ok", "8 desks placed")

	after := resourcesOn(t, pb, fx.FloorMadrid)
	if got, want := len(after)-len(before), 8; got != want {
		t.Fatalf("%d desks added, want %d", got, want)
	}
	plan := rect{TopLeftX: 0, TopLeftY: 0, BottomRightX: 1200, BottomRightY: 800}
	for id, r := range after {
		if _, old := before[id]; old {
			continue
		}
		m := r.MapCoordinates
		if m.TopLeftX < plan.TopLeftX || m.TopLeftY < plan.TopLeftY || m.BottomRightX > plan.BottomRightX || m.BottomRightY > plan.BottomRightY {
			t.Errorf("%s at %+v is outside the plan %+v", r.Name, m, plan)
		}
		for _, o := range before {
			if overlaps(m, o.MapCoordinates) {
				t.Errorf("%s at %+v lies on %s at %+v", r.Name, m, o.Name, o.MapCoordinates)
			}
		}
		for oid, o := range after {
			if oid != id && overlaps(m, o.MapCoordinates) {
				t.Errorf("%s at %+v lies on %s at %+v", r.Name, m, o.Name, o.MapCoordinates)
			}
		}
	}
}

func TestAdminPlanGridOnAFullPlanIsRefused(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	// Goya covers the whole plan but a strip too narrow for a desk.
	placeAt(t, pb, fx.RoomGoya, rect{TopLeftX: 0, TopLeftY: 0, BottomRightX: 1200, BottomRightY: 770})
	before := resourcesOn(t, pb, fx.FloorMadrid)

	b := pb.signedIn(t, fx.Adam)
	p := b.post("/admin/floors/"+fx.FloorMadrid.String()+"/plan/grid", gridForm("1", "2"))
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, `form[action$="/plan/grid"] .notice`, "Please check the form",
		"There is no free space for 1 row of 2 desks on this plan", "nothing was added")
	if got := p.attr("#columns", "value"); got != "2" {
		t.Errorf("the form shows %q desks per row, want the 2 sent", got)
	}
	if got := len(resourcesOn(t, pb, fx.FloorMadrid)); got != len(before) {
		t.Errorf("%d resources on the floor after the refusal, want the %d there were", got, len(before))
	}
}

func TestAdminPlanGridOnAPlanOfUnknownSizeGoesBelow(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	// New York's plan is an image elsewhere, of a size the service does not know: the plan is as large
	// as its desks, and grows with them.
	f, etag := adminGetJSON[layout.LayoutFloor](t, pb, "floors", fx.FloorNewYork)
	f.Image = "https://example.com/new-york.png"
	body, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := layout.New(pb.Pool, pb.Service).Put(t.Context(), pb.User(t, fx.OrgA, fx.Adam), layout.Floors, fx.FloorNewYork, body, etag); err != nil {
		t.Fatal(err)
	}
	before := resourcesOn(t, pb, fx.FloorNewYork)
	b := pb.signedIn(t, fx.Adam)
	p := b.post("/admin/floors/"+fx.FloorNewYork.String()+"/plan/grid", gridForm("1", "4"))
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".notice.ok", "4 desks placed")
	for id, r := range resourcesOn(t, pb, fx.FloorNewYork) {
		if _, old := before[id]; old {
			continue
		}
		for _, o := range before {
			if overlaps(r.MapCoordinates, o.MapCoordinates) {
				t.Errorf("%s at %+v lies on %s at %+v", r.Name, r.MapCoordinates, o.Name, o.MapCoordinates)
			}
		}
	}
}

package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// The admin pages of the office's layout, as an admin's browser uses them: what each shows, what it
// saves, and what it refuses, in words.

// adminGetJSON reads one object through the admin domain as Adam, A's admin.
func adminGetJSON[T any](t *testing.T, pb *pageBundle, coll string, id uuid.UUID) (T, string) {
	t.Helper()
	var v T
	obj, err := layout.New(pb.Pool, pb.Service).Get(t.Context(), pb.User(t, fx.OrgA, fx.Adam), layout.Collection(coll), id)
	if err != nil {
		t.Fatalf("get %s %s: %v", coll, id, err)
	}
	if err := json.Unmarshal(obj.JSON, &v); err != nil {
		t.Fatal(err)
	}
	return v, obj.ETag
}

func TestAdminLayoutPagesAreForAdminsOnly(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	for _, who := range []uuid.UUID{fx.Alice, fx.Rita} {
		b := pb.signedIn(t, who)
		for _, path := range []string{
			"/admin/buildings", "/admin/buildings/new", "/admin/buildings/" + fx.BuildingMadrid.String(),
			"/admin/floors", "/admin/floors/" + fx.FloorMadrid.String(), "/admin/floors/" + fx.FloorMadrid.String() + "/plan",
			"/admin/resources", "/admin/resources/" + fx.DeskOne.String(),
		} {
			p := b.get(path)
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", "Not allowed", "Only an admin of the organization can change its settings.")
		}
		p := b.post("/admin/buildings/"+fx.BuildingMadrid.String(), url.Values{"name": {"Mine now"}})
		p.wantStatus(t, http.StatusForbidden)
	}
	if got, _ := adminGetJSON[layout.LayoutBuilding](t, pb, "buildings", fx.BuildingMadrid); got.Name != "Madrid HQ" {
		t.Errorf("after the refused posts, the building is called %q", got.Name)
	}
}

func TestAdminLayoutPagesHideOtherOrganizations(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	list := b.get("/admin/buildings")
	list.wantStatus(t, http.StatusOK)
	list.wantText(t, ".admin-list", "Madrid HQ", "New York Office")
	list.wantNoText(t, "main", "Globex")
	for _, path := range []string{
		"/admin/buildings/" + fx.BuildingB.String(), "/admin/floors/" + fx.FloorB.String(),
		"/admin/floors/" + fx.FloorB.String() + "/plan", "/admin/resources/" + fx.RoomB.String(),
	} {
		b.get(path).wantStatus(t, http.StatusNotFound)
	}
	p := b.post("/admin/resources/"+fx.RoomB.String()+"/position", url.Values{"x1": {"1"}, "y1": {"1"}, "x2": {"9"}, "y2": {"9"}})
	p.wantStatus(t, http.StatusNotFound)
}

// TestAdminNewFloorStartsHidden checks that a new floor's form offers it hidden from people booking, and
// that a floor saved so is hidden, as the switch's hint says: it is being set up.
func TestAdminNewFloorStartsHidden(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	form := b.get("/admin/floors/new?building=" + fx.BuildingMadrid.String())
	form.wantStatus(t, http.StatusOK)
	if n := form.count(`input[name=visible]:checked`); n != 0 {
		t.Errorf("a new floor's form offers it visible")
	}
	form.wantText(t, "main", "A new floor starts hidden while you set it up")
	p := b.post("/admin/floors", url.Values{
		"building": {fx.BuildingMadrid.String()}, "number": {"7"}, "name": {"Seventh floor"}, "status": {"ACTIVATED"},
	})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "main h1", "Seventh floor")
	id := uuid.MustParse(strings.TrimPrefix(p.url.Path, "/admin/floors/"))
	got, _ := adminGetJSON[layout.LayoutFloor](t, pb, "floors", id)
	if got.Visible == nil || *got.Visible {
		t.Errorf("the new floor's visible = %v, want false", got.Visible)
	}
}

func TestAdminBuildingCreate(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	form := b.get("/admin/buildings/new")
	form.wantStatus(t, http.StatusOK)
	if n := form.count(`#timezone option[value="Europe/Lisbon"]`); n != 1 {
		t.Errorf("the time zone list offers Europe/Lisbon %d times, want once", n)
	}
	p := b.post("/admin/buildings", url.Values{
		"name": {"Lisbon Office"}, "address": {"Rua Augusta 10"}, "city": {"Lisbon"}, "country": {"Portugal"},
		"timezone": {"Europe/Lisbon"}, "status": {"ACTIVATED"}, "visible": {"true"},
	})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "main h1", "Lisbon Office")
	p.wantText(t, "main .notice.ok", "Added. Lisbon Office is saved: add its floors next.")
	if got := p.attr("#timezone option[selected]", "value"); got != "Europe/Lisbon" {
		t.Errorf("the chosen time zone is %q, want Europe/Lisbon", got)
	}
	if got := p.text("#tz-time"); len(got) != len("Mon 15:04") {
		t.Errorf("local time shown: %q, want a day and a time", got)
	}
	id := uuid.MustParse(strings.TrimPrefix(p.url.Path, "/admin/buildings/"))
	got, _ := adminGetJSON[layout.LayoutBuilding](t, pb, "buildings", id)
	want := layout.LayoutBuilding{
		ID: id.String(), OrganizationID: fx.OrgA.String(), Name: "Lisbon Office", Timezone: "Europe/Lisbon", Status: "ACTIVATED",
		Address: layout.LayoutAddress{Address: "Rua Augusta 10", City: "Lisbon", Country: "Portugal"}, Visible: ptrTo(true),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("saved building (-want +got):\n%s", d)
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestAdminFormsRefuseInWords checks that a refused form comes back with its reason beside it, in words,
// and saves nothing.
func TestAdminFormsRefuseInWords(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	_, deskTag := adminGetJSON[layout.LayoutResource](t, pb, "resources", fx.DeskTwo)
	desk := url.Values{
		"etag": {deskTag}, "subcategory": {fx.SubDesk.String()}, "floor": {fx.FloorMadrid.String()}, "rule": {fx.RuleDesk.String()},
		"name": {"Desk 2"}, "posterCode": {"mad-d1"}, "status": {"ACTIVATED"}, "visible": {"true"},
	}
	for _, tc := range []struct {
		name, path string
		form       url.Values
		status     int
		message    string
	}{
		{"BuildingWithoutName", "/admin/buildings", url.Values{"timezone": {"Europe/Madrid"}, "status": {"ACTIVATED"}},
			http.StatusBadRequest, "Give the building a name."},
		{"UnknownTimeZone", "/admin/buildings", url.Values{"name": {"X"}, "timezone": {"Mars/Olympus"}, "status": {"ACTIVATED"}},
			http.StatusBadRequest, "Choose the building's time zone from the list."},
		{"FloorNumberNotANumber", "/admin/floors/" + fx.FloorMadrid.String(),
			url.Values{"building": {fx.BuildingMadrid.String()}, "name": {"1st"}, "number": {"first"}, "status": {"ACTIVATED"}},
			http.StatusBadRequest, "The floor number must be a whole number from -20 to 300."},
		{"PosterCodeTakenInAnotherCase", "/admin/resources/" + fx.DeskTwo.String(), desk, http.StatusBadRequest, `"mad-d1" is already the poster code of another resource`},
		{"GridTooLarge", "/admin/floors/" + fx.FloorMadrid.String() + "/plan/grid",
			url.Values{"rows": {"21"}, "columns": {"2"}, "prefix": {"Desk"}, "start": {"1"}, "subcategory": {fx.SubDesk.String()}, "rule": {fx.RuleDesk.String()}},
			http.StatusBadRequest, "The number of rows must be a whole number from 1 to 20."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := fx.TableCount(t, pb.Bundle, "resources") + fx.TableCount(t, pb.Bundle, "buildings")
			p := b.post(tc.path, tc.form)
			if p.status != tc.status {
				t.Errorf("status = %d, want %d", p.status, tc.status)
			}
			p.wantText(t, "form .notice.error", "Please check the form", tc.message)
			if after := fx.TableCount(t, pb.Bundle, "resources") + fx.TableCount(t, pb.Bundle, "buildings"); after != before {
				t.Errorf("%d rows before, %d after", before, after)
			}
		})
	}
	if got, _ := adminGetJSON[layout.LayoutResource](t, pb, "resources", fx.DeskTwo); got.PosterCode != "MAD-D2" {
		t.Errorf("Desk 2's poster code is %q after the refusal, want MAD-D2", got.PosterCode)
	}
}

// TestAdminStaleFormShowsTheCurrentVersion checks that a form saved after someone else's change is
// refused, says so in words and shows the current version.
func TestAdminStaleFormShowsTheCurrentVersion(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	opened := b.get("/admin/buildings/" + fx.BuildingMadrid.String())
	opened.wantStatus(t, http.StatusOK)
	etag := opened.attr(`input[name=etag]`, "value")
	if etag == "" {
		t.Fatal("the form carries no version")
	}
	// Another admin renames the building meanwhile.
	cur, _ := adminGetJSON[layout.LayoutBuilding](t, pb, "buildings", fx.BuildingMadrid)
	cur.Name = "Madrid Centre"
	body, _ := json.Marshal(cur)
	if _, _, err := layout.New(pb.Pool, pb.Service).Put(t.Context(), pb.User(t, fx.OrgA, fx.Adam), "buildings", fx.BuildingMadrid, body, etag); err != nil {
		t.Fatalf("the other admin's change: %v", err)
	}
	p := b.post("/admin/buildings/"+fx.BuildingMadrid.String(), url.Values{
		"etag": {etag}, "name": {"Madrid HQ 2"}, "timezone": {"Europe/Madrid"}, "status": {"ACTIVATED"}, "visible": {"true"},
	})
	p.wantStatus(t, http.StatusPreconditionFailed)
	p.wantText(t, "form .notice.warn", "Someone else changed this meanwhile", "Nothing was saved: someone else changed this building since you opened it.")
	if got := p.attr("#name", "value"); got != "Madrid Centre" {
		t.Errorf("the form shows %q, want the current name Madrid Centre", got)
	}
	if got, _ := adminGetJSON[layout.LayoutBuilding](t, pb, "buildings", fx.BuildingMadrid); got.Name != "Madrid Centre" {
		t.Errorf("the building is called %q, want Madrid Centre", got.Name)
	}
}

func TestAdminPlanEditor(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	p := b.get("/admin/floors/" + fx.FloorMadrid.String() + "/plan")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "main h1", "Place desks and rooms")
	// The same drawing as the employees' plan: the floor's image in its own coordinates.
	if got := p.attr("svg.plan.editing", "viewBox"); got != "0 0 1200 800" {
		t.Errorf("viewBox = %q, want the plan's 0 0 1200 800", got)
	}
	spot := "#spot-" + fx.DeskOne.String()
	if got := p.attr(spot, "aria-label"); got != "Desk 1, MAD-D1: arrow keys move it" {
		t.Errorf("Desk 1's label = %q", got)
	}
	etag := p.attr(spot, "data-etag")

	move := func(etag string) (int, map[string]any) {
		res := b.post("/admin/resources/"+fx.DeskOne.String()+"/position",
			url.Values{"x1": {"500"}, "y1": {"300"}, "x2": {"560"}, "y2": {"340"}, "etag": {etag}})
		var ans map[string]any
		if err := json.Unmarshal([]byte(res.body), &ans); err != nil {
			t.Fatalf("answer %q: %v", res.body, err)
		}
		return res.status, ans
	}
	status, ans := move(etag)
	if status != http.StatusOK || ans["etag"] == "" || ans["etag"] == etag {
		t.Fatalf("move: %d %v, want 200 with a new version", status, ans)
	}
	got, _ := adminGetJSON[layout.LayoutResource](t, pb, "resources", fx.DeskOne)
	if want := (layout.LayoutMapCoordinates{TopLeftX: 500, TopLeftY: 300, BottomRightX: 560, BottomRightY: 340}); got.MapCoordinates != want {
		t.Errorf("Desk 1 at %+v, want %+v", got.MapCoordinates, want)
	}
	// The same move again from the version the page was opened with is stale.
	status, ans = move(etag)
	if status != http.StatusPreconditionFailed || !strings.HasPrefix(ans["message"].(string), "Someone else changed Desk 1 since you opened this plan") {
		t.Errorf("stale move: %d %v, want 412 saying someone else changed it", status, ans)
	}
}

func TestAdminPlanGridNamesDesksInOrder(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	grid := url.Values{"rows": {"2"}, "columns": {"3"}, "prefix": {"Hot desk"}, "start": {"10"},
		"subcategory": {fx.SubDesk.String()}, "rule": {fx.RuleDesk.String()}}
	for range 2 {
		p := b.post("/admin/floors/"+fx.FloorMadrid.String()+"/plan/grid", grid)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "6 desks placed")
	}
	objs, err := layout.New(pb.Pool, pb.Service).List(t.Context(), pb.User(t, fx.OrgA, fx.Adam), "resources")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	codes := map[string]bool{}
	for _, o := range objs {
		var r layout.LayoutResource
		if err := json.Unmarshal(o.JSON, &r); err != nil {
			t.Fatal(err)
		}
		if codes[strings.ToLower(r.PosterCode)] {
			t.Errorf("poster code %s is used twice", r.PosterCode)
		}
		codes[strings.ToLower(r.PosterCode)] = true
		if strings.HasPrefix(r.Name, "Hot desk") {
			names = append(names, r.Name+" "+r.PosterCode)
		}
	}
	want := []string{
		"Hot desk 10 HOT-DESK-10", "Hot desk 11 HOT-DESK-11", "Hot desk 12 HOT-DESK-12",
		"Hot desk 13 HOT-DESK-13", "Hot desk 14 HOT-DESK-14", "Hot desk 15 HOT-DESK-15",
		"Hot desk 10 F1-HOT-DESK-10", "Hot desk 11 F1-HOT-DESK-11", "Hot desk 12 F1-HOT-DESK-12",
		"Hot desk 13 F1-HOT-DESK-13", "Hot desk 14 F1-HOT-DESK-14", "Hot desk 15 F1-HOT-DESK-15",
	}
	if d := cmp.Diff(want, names, cmpSorted); d != "" {
		t.Errorf("desks added (-want +got):\n%s", d)
	}
}

var cmpSorted = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestAdminResourcesPages(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Adam)
	list := b.get("/admin/resources?floor=" + fx.FloorMadrid.String())
	list.wantStatus(t, http.StatusOK)
	list.wantText(t, ".admin-table", "Goya", "MAD-R1", "Desk 1", "MAD-D1")
	list.wantNoText(t, ".admin-table", "Hudson")

	form := b.get("/admin/resources/" + fx.RoomGoya.String())
	form.wantStatus(t, http.StatusOK)
	if got := form.attr("#capacity", "value"); got != "8" {
		t.Errorf("Goya's capacity shows %q, want 8", got)
	}
	if n := form.count(`input[name=features][checked]`); n != 2 {
		t.Errorf("%d features ticked for Goya, want 2", n)
	}
	// Rename Goya, seat ten and keep only the screen.
	etag := form.attr("input[name=etag]", "value")
	p := b.post("/admin/resources/"+fx.RoomGoya.String(), url.Values{
		"etag": {etag}, "subcategory": {fx.SubRoom.String()}, "floor": {fx.FloorMadrid.String()}, "rule": {fx.RuleRoom.String()},
		"name": {"Goya (large)"}, "posterCode": {"MAD-R1"}, "capacity": {"10"}, "features": {fx.FeatureScreen.String()},
		"reservables": {fx.ReservableCoffee.String()}, "status": {"ACTIVATED"}, "visible": {"true"}, "approachable": {"true"},
	})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".notice.ok", "Saved. Goya (large) is up to date.")
	got, _ := adminGetJSON[layout.LayoutResource](t, pb, "resources", fx.RoomGoya)
	if got.Name != "Goya (large)" || got.Capacity == nil || *got.Capacity != 10 ||
		!cmp.Equal(got.FeatureIDs, []string{fx.FeatureScreen.String()}) || !cmp.Equal(got.ReservableIDs, []string{fx.ReservableCoffee.String()}) {
		t.Errorf("saved Goya: %+v", got)
	}

	// A new desk, from the empty form.
	n := b.get("/admin/resources/new?floor=" + fx.FloorMadrid.String())
	n.wantStatus(t, http.StatusOK)
	p = b.post("/admin/resources", url.Values{
		"subcategory": {fx.SubDesk.String()}, "floor": {fx.FloorMadrid.String()}, "rule": {fx.RuleDesk.String()},
		"name": {"Desk 3"}, "posterCode": {"MAD-D3"}, "status": {"ACTIVATED"}, "visible": {"true"}, "approachable": {"true"},
		"x1": {n.attr("input[name=x1]", "value")}, "y1": {n.attr("input[name=y1]", "value")},
		"x2": {n.attr("input[name=x2]", "value")}, "y2": {n.attr("input[name=y2]", "value")},
	})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "main h1", "Desk 3")
	b.get("/find?kind=desk&date=2026-11-24").wantText(t, "main", "Desk 3")
}

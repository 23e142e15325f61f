package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// zoneForm is the form of a neighbourhood of team.
func zoneForm(team, name string, teamOnly bool, corners ...string) url.Values {
	v := url.Values{"name": {name}, "teamId": {team}, "x1": {corners[0]}, "y1": {corners[1]}, "x2": {corners[2]}, "y2": {corners[3]}}
	if teamOnly {
		v.Set("teamOnly", "true")
	}
	return v
}

// The plan editor adds, changes and deletes a floor's neighbourhoods, draws them behind the desks, and
// says a refusal beside the form; the employees' plan draws them with their labels.
func TestPageAdminNeighbourhoods(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	team := uuid.New()
	if _, err := pb.Pool.Exec(t.Context(), `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, fx.OrgA, team); err != nil {
		t.Fatal(err)
	}
	b := pb.signedIn(t, fx.Adam)
	base := "/admin/floors/" + fx.FloorMadrid.String()

	p := b.get(base + "/plan")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".zones", "Neighbourhoods", "Add a neighbourhood", "Draw on the plan")
	if got := p.attr("#zone-new-team option", "value"); got != team.String() {
		t.Errorf("the team choice is %q, want Sales", got)
	}

	p = b.post(base+"/neighbourhoods", zoneForm(team.String(), "Window row", true, "0", "0", "300", "200"))
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".notice", "Neighbourhood Window row added.")
	p.wantText(t, "svg.plan.editing .zone.team-only .zone-name", "Window row · Sales · team only")
	if p.attr("svg.plan.editing .zone .zone-area", "width") != "300" {
		t.Errorf("the zone is drawn %s wide, want 300", p.attr("svg.plan.editing .zone .zone-area", "width"))
	}
	id := p.attr(".zone-item", "id")[len("zone-item-"):]

	p = b.post(base+"/neighbourhoods", zoneForm(team.String(), "Backwards", false, "300", "0", "100", "200"))
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".zone-add .notice.error", "Corners: the bottom right corner must lie below and to the right of the top left one")
	if got := p.attr("#zone-new-name", "value"); got != "Backwards" {
		t.Errorf("the form shows %q, want the name as typed", got)
	}
	p = b.post(base+"/neighbourhoods", zoneForm(team.String(), "Typo", false, "1O", "0", "100", "200"))
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".zone-add .notice.error", "must be a whole number")

	p = b.post(base+"/neighbourhoods/"+id, zoneForm(team.String(), "Sales", false, "0", "0", "300", "200"))
	p.wantText(t, ".notice", "Neighbourhood Sales saved.")
	p.wantText(t, "svg.plan.editing .zone .zone-name", "Sales")
	if p.count("svg.plan.editing .zone.team-only") != 0 {
		t.Error("the zone is still drawn as team only")
	}

	alice := pb.signedIn(t, fx.Alice)
	plan := alice.get("/find/plan?building=" + fx.BuildingMadrid.String() + "&floor=" + fx.FloorMadrid.String() + "&date=2026-11-24&from=09:00&to=10:00")
	plan.wantStatus(t, http.StatusOK)
	plan.wantText(t, "svg.plan .zone .zone-name", "Sales")
	if html, _ := plan.doc.Find("svg.plan").Html(); html == "" || !zoneBeforeSpots(html) {
		t.Error("the neighbourhood is not drawn behind the desks")
	}

	p = b.post(base+"/neighbourhoods/"+id+"/delete", url.Values{})
	p.wantText(t, ".notice", "Neighbourhood deleted.")
	if p.count("svg.plan.editing .zone") != 0 {
		t.Error("the deleted zone is still drawn")
	}
	pb.signedIn(t, fx.Bob).get(base+"/plan").wantStatus(t, http.StatusForbidden)
}

// zoneBeforeSpots reports whether the plan's markup draws its first zone before its first spot.
func zoneBeforeSpots(html string) bool {
	z, s := strings.Index(html, `class="zone`), strings.Index(html, `class="spot`)
	return z >= 0 && (s < 0 || z < s)
}

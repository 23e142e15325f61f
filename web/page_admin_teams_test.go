package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// createTeamPage makes a team by hand on the teams page and returns its page's path.
func createTeamPage(t *testing.T, b *browser, name string) string {
	t.Helper()
	p := b.post("/admin/teams", url.Values{"name": {name}, "idpGroup": {""}, "scimGroupId": {""}})
	p.wantStatus(t, http.StatusOK)
	if !strings.HasPrefix(p.url.Path, "/admin/teams/") {
		t.Fatalf("after creating, the page is %s, want the team's", p.url.Path)
	}
	p.wantText(t, ".notice.ok", "Team "+name+" created.")
	return p.url.Path
}

func TestPageAdminTeams(t *testing.T) {
	t.Parallel()

	t.Run("CreateAddRemoveDeleteAndAudit", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		path := createTeamPage(t, b, "Sales")
		p := b.post(path+"/members", url.Values{"member": {fx.Alice.String(), fx.Bob.String()}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "2 people added.")
		p.wantText(t, "#members-title", "2 members")
		p.wantText(t, ".team-member-list", "alice Archer", "bob Baker")
		if p.attr(".add-members input[data-picker]", "hx-get") != "/people?field=member&multi=1" {
			t.Errorf("the picker asks %q, want the colleague picker of members", p.attr(".add-members input[data-picker]", "hx-get"))
		}
		found := b.hxGet("/people?field=member&multi=1&q=rita")
		found.wantStatus(t, http.StatusOK)
		if got := found.attr(`input[name="member"]`, "value"); got != fx.Rita.String() {
			t.Errorf("the picker offers %q, want Rita", got)
		}
		p = b.post(path+"/members/"+fx.Alice.String()+"/remove", url.Values{})
		p.wantText(t, ".notice.ok", "alice Archer removed from the team.")
		p.wantText(t, "#members-title", "1 member")

		list := b.get("/admin/teams")
		list.wantStatus(t, http.StatusOK)
		list.wantText(t, ".team-row", "Sales", "1", "chosen here")
		if got := list.attr(`.admin-nav a[aria-current="page"]`, "href"); got != "/admin/teams" {
			t.Errorf("the navigation marks %q, want /admin/teams", got)
		}
		p = b.get(path)
		p.wantText(t, ".team-delete-lead", "also deletes its 0 neighbourhoods")
		p = b.post(path+"/delete", url.Values{})
		p.wantText(t, ".notice.ok", "Team Sales deleted.")
		p.wantText(t, "main", "No team yet.")

		audit := b.get("/admin/audit?collection=teams")
		audit.wantStatus(t, http.StatusOK)
		audit.wantText(t, ".audit-table", "Team", "Sales", "Members added", "alice Archer, bob Baker", "Members removed")
	})

	t.Run("RefusalsInWords", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		createTeamPage(t, b, "Sales")
		p := b.post("/admin/teams", url.Values{"name": {"sales"}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".notice.error", "Name: another team is already called sales")
		p = b.post("/admin/teams", url.Values{"name": {"Ops"}, "idpGroup": {"ops"}, "scimGroupId": {uuid.NewString()}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".notice.error", "not both")
		if got := p.attr("#team-name", "value"); got != "Ops" {
			t.Errorf("the form shows %q, want the name as typed", got)
		}
		if n := fx.TableCount(t, pb.Bundle, "teams"); n != 1 {
			t.Errorf("%d teams stored, want 1", n)
		}
	})

	t.Run("TiedTeamIsReadOnly", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/teams", url.Values{"name": {"Ops"}, "idpGroup": {"ops-madrid"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".team-tied", "The members follow the group ops-madrid of the sign-in")
		if p.count(".add-members") != 0 || p.count(".team-member button") != 0 {
			t.Error("a tied team's page offers to change its members")
		}
		path := p.url.Path
		p = b.post(path+"/members", url.Values{"member": {fx.Bob.String()}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".notice.error", "change them at the identity provider")
	})

	t.Run("OnlyAdminsAndOnlyTheirOrganization", func(t *testing.T) {
		pb := setupPages(t)
		var other uuid.UUID = uuid.New()
		if _, err := pb.Pool.Exec(t.Context(), `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Globex sales')`, fx.OrgB, other); err != nil {
			t.Fatal(err)
		}
		alice := pb.signedIn(t, fx.Alice)
		alice.get("/admin/teams").wantStatus(t, http.StatusForbidden)
		alice.post("/admin/teams", url.Values{"name": {"Mine"}}).wantStatus(t, http.StatusForbidden)
		b := pb.signedIn(t, fx.Adam)
		for _, path := range []string{"/admin/teams/" + other.String(), "/admin/teams/nope"} {
			b.get(path).wantStatus(t, http.StatusNotFound)
		}
		for _, path := range []string{"", "/delete", "/members", "/members/" + fx.Boris.String() + "/remove"} {
			b.post("/admin/teams/"+other.String()+path, url.Values{"name": {"Mine"}, "member": {fx.Bob.String()}}).wantStatus(t, http.StatusNotFound)
		}
		b.get("/admin/teams").wantNoText(t, "main", "Globex")
		if n := fx.TableCount(t, pb.Bundle, "team_members"); n != 0 {
			t.Errorf("%d team members stored, want none", n)
		}
	})

	t.Run("Spanish", func(t *testing.T) {
		pb := setupPages(t)
		if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, fx.Adam); err != nil {
			t.Fatal(err)
		}
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/teams", url.Values{"name": {"Ventas"}})
		p.wantText(t, ".notice.ok", "Se ha creado el equipo Ventas.")
		p.wantText(t, "#members-title", "0 miembros")
		p = b.post("/admin/teams", url.Values{"name": {"VENTAS"}})
		p.wantText(t, ".notice.error", "Nombre: ya hay otro equipo que se llama VENTAS")
		b.get("/admin/teams").wantText(t, ".team-row", "Ventas", "elegidos aquí")
	})
}

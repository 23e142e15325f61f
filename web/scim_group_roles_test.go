package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// groupPatch is a PATCH of a group with one operation, as Okta writes it.
func groupPatch(op string) string {
	return `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[` + op + `]}`
}

// TestSCIMRolesFollowMappedGroupsOnly checks that a person's role follows their SCIM groups only when a
// group the organization maps changes: joining, leaving, renaming or deleting a group the mapping does
// not name leaves the role as it is (Rita is a receptionist by hand), while a change of a mapped group,
// under its old name or its new one, sets the role from the person's mapped groups. Each role change is
// in the audit log.
func TestSCIMRolesFollowMappedGroupsOnly(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	if err := sb.Identity().SetSignInSettings(t.Context(), sb.User(t, fx.OrgA, fx.Adam), identity.SignInSettings{
		SCIMAnyDomain: true, GroupRoles: []identity.GroupRole{{Group: "Reception", Role: booking.RoleReceptionist}},
	}); err != nil {
		t.Fatal(err)
	}
	roles := func() map[string]string {
		got := map[string]string{}
		rows, err := sb.Pool.Query(t.Context(), `SELECT name, role FROM users WHERE organization_id = $1`, fx.OrgA)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var name, role string
			if err := rows.Scan(&name, &role); err != nil {
				t.Fatal(err)
			}
			got[name] = role
		}
		return got
	}
	group := func(name string) string {
		status, g := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"`+name+`","members":[]}`)
		wantSCIMStatus(t, "create "+name, status, g, http.StatusCreated)
		id, _ := g["id"].(string)
		return id
	}
	everyone, reception := group("All staff"), group("Reception")
	add := func(id string) string {
		return groupPatch(`{"op":"add","path":"members","value":[{"value":"` + id + `"}]}`)
	}
	remove := func(id string) string { return groupPatch(`{"op":"remove","path":"members[value eq \"` + id + `\"]"}`) }
	rename := func(name string) string {
		return groupPatch(`{"op":"replace","path":"displayName","value":"` + name + `"}`)
	}
	alice, rita := fx.Alice.String(), fx.Rita.String()
	before := map[string]string{"adam": "ADMIN", "alice": "EMPLOYEE", "bob": "EMPLOYEE", "rita": "RECEPTIONIST"}
	with := func(changes ...string) map[string]string {
		m := map[string]string{}
		for k, v := range before {
			m[k] = v
		}
		for i := 0; i < len(changes); i += 2 {
			m[changes[i]] = changes[i+1]
		}
		return m
	}

	for _, step := range []struct {
		name, method, group, body string
		want                      map[string]string
	}{
		{"RitaJoinsAnUnmappedGroup", http.MethodPatch, everyone, add(rita), before},
		{"AliceJoinsReception", http.MethodPatch, reception, add(alice), with("alice", "RECEPTIONIST")},
		{"AliceJoinsAnUnmappedGroup", http.MethodPatch, everyone, add(alice), with("alice", "RECEPTIONIST")},
		{"RitaLeavesTheUnmappedGroup", http.MethodPatch, everyone, remove(rita), with("alice", "RECEPTIONIST")},
		{"AliceLeavesReception", http.MethodPatch, reception, remove(alice), before},
		{"EmptyReceptionIsRenamed", http.MethodPatch, reception, rename("Lobby"), before},
		{"AllStaffBecomesReception", http.MethodPatch, everyone, rename("reception"), with("alice", "RECEPTIONIST")},
		{"ReceptionBecomesAllStaffAgain", http.MethodPatch, everyone, rename("All staff"), before},
		{"RitaJoinsAgain", http.MethodPatch, everyone, add(rita), before},
		{"TheUnmappedGroupIsDeleted", http.MethodDelete, everyone, "", before},
	} {
		var body any
		if step.body != "" {
			body = step.body
		}
		status, got := sb.scim(t, sb.tokenA, step.method, "/Groups/"+step.group, body)
		if status >= 300 {
			t.Fatalf("%s: status %d, body %v", step.name, status, got)
		}
		if d := cmp.Diff(step.want, roles()); d != "" {
			t.Errorf("%s: roles (-want +got):\n%s", step.name, d)
		}
	}
	// Alice became a receptionist twice and an employee twice, each in the audit log.
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM admin_audit WHERE object_id = $1 AND collection = 'users'
		AND action = 'UPDATE' AND after ? 'role' AND actor_name = 'SCIM token Okta, SCIM groups'`, fx.Alice); got != 4 {
		t.Errorf("%d changes of Alice's role in the audit log, want 4", got)
	}
}

// TestSCIMGroupsOfAnotherOrganization checks that B's token can neither read nor change A's group by any
// method, nor find it by name; that A's group cannot take B's person or an unknown id, in a create or a
// PATCH, with words that tell the two apart by nothing; and that nothing of A's group changed.
func TestSCIMGroupsOfAnotherOrganization(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception","members":[{"value":"`+fx.Alice.String()+`"}]}`)
	wantSCIMStatus(t, "create", status, created, http.StatusCreated)
	gid, _ := created["id"].(string)
	wantGroup := scimGroup(gid, "Reception", "", sb.member(fx.Alice.String(), "alice Archer"))

	for _, tc := range []struct{ method, body string }{
		{http.MethodGet, ""},
		{http.MethodPut, `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Taken","members":[]}`},
		{http.MethodPatch, groupPatch(`{"op":"add","path":"members","value":[{"value":"` + fx.Boris.String() + `"}]}`)},
		{http.MethodDelete, ""},
	} {
		var body any
		if tc.body != "" {
			body = tc.body
		}
		status, got := sb.scim(t, sb.tokenB, tc.method, "/Groups/"+gid, body)
		want := scimErrorBody("404", "", "no group "+gid+" in your organization")
		if d := cmp.Diff(want, got); status != http.StatusNotFound || d != "" {
			t.Errorf("%s of A's group with B's token: status %d, want 404; body (-want +got):\n%s", tc.method, status, d)
		}
	}
	status, list := sb.scim(t, sb.tokenB, http.MethodGet, "/Groups?filter="+url.QueryEscape(`displayName eq "Reception"`), nil)
	wantSCIMStatus(t, "B's filter", status, list, http.StatusOK)
	if d := cmp.Diff(scimList(0, 1), list); d != "" {
		t.Errorf("B's filter for A's group (-want +got):\n%s", d)
	}

	unknown := "7d8c0f3e-2b1a-4c5d-9e8f-0a1b2c3d4e5f"
	for _, id := range []string{fx.Boris.String(), unknown} {
		status, got := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Front desk","members":[{"value":"`+id+`"}]}`)
		want := scimErrorBody("400", "invalidValue", "members: no user "+id+" in your organization")
		if d := cmp.Diff(want, got); status != http.StatusBadRequest || d != "" {
			t.Errorf("create with member %s: status %d, want 400; body (-want +got):\n%s", id, status, d)
		}
		status, got = sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid,
			groupPatch(`{"op":"add","path":"members","value":[{"value":"`+id+`"}]}`))
		if d := cmp.Diff(want, got); status != http.StatusBadRequest || d != "" {
			t.Errorf("add member %s: status %d, want 400; body (-want +got):\n%s", id, status, d)
		}
	}
	status, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Groups/"+gid, nil)
	wantSCIMStatus(t, "A reads its group", status, got, http.StatusOK)
	if d := cmp.Diff(wantGroup, got, ignoreMeta); d != "" {
		t.Errorf("A's group after the refusals (-want +got):\n%s", d)
	}
	if got := fx.TableCount(t, sb.Bundle, "scim_groups"); got != 1 {
		t.Errorf("%d groups, want A's one", got)
	}
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM admin_audit WHERE collection = 'scimGroups'`); got != 1 {
		t.Errorf("%d audit entries of groups, want the creation alone", got)
	}
}

// TestSCIMGroupAudit checks what the audit log keeps of a group's life: by the SCIM token, its creation
// with its members, each change with the members added and removed (not the whole list), and its
// deletion.
func TestSCIMGroupAudit(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	alice, bob := fx.Alice.String(), fx.Bob.String()
	_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception","externalId":"g1","members":[{"value":"`+alice+`"}]}`)
	gid, _ := created["id"].(string)
	for _, body := range []string{
		groupPatch(`{"op":"add","path":"members","value":[{"value":"` + bob + `"}]},{"op":"remove","path":"members[value eq \"` + alice + `\"]"}`),
		groupPatch(`{"op":"replace","path":"displayName","value":"Front desk"}`),
	} {
		if status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid, body); status != http.StatusOK {
			t.Fatalf("PATCH: %d %v", status, got)
		}
	}
	if status, got := sb.scim(t, sb.tokenA, http.MethodDelete, "/Groups/"+gid, nil); status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %v", status, got)
	}
	type entry struct{ Actor, Action, Before, After string }
	var got []entry
	rows, err := sb.Pool.Query(t.Context(), `SELECT actor_name, action, coalesce(before::text, ''), coalesce(after::text, '')
		FROM admin_audit WHERE collection = 'scimGroups' AND object_id = $1 ORDER BY id`, gid)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var e entry
		if err := rows.Scan(&e.Actor, &e.Action, &e.Before, &e.After); err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []entry{
		{"SCIM token Okta", "CREATE", "", `{"members": ["` + alice + `"], "externalId": "g1", "displayName": "Reception"}`},
		{"SCIM token Okta", "UPDATE", `{"externalId": "g1", "displayName": "Reception"}`,
			`{"externalId": "g1", "displayName": "Reception", "membersAdded": ["` + bob + `"], "membersRemoved": ["` + alice + `"]}`},
		{"SCIM token Okta", "UPDATE", `{"externalId": "g1", "displayName": "Reception"}`, `{"externalId": "g1", "displayName": "Front desk"}`},
		{"SCIM token Okta", "DELETE", `{"externalId": "g1", "displayName": "Front desk"}`, ""},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("audit of the group (-want +got):\n%s", d)
	}
}

// TestSCIMRolesFollowANewMapping checks that the roles of SCIM groups' members follow a change of the
// roles of groups on the identity page, as they follow a change of the groups: groups pushed before the
// mapping named them give their roles once it does, and take them back when it stops. The admin who
// saves keeps their own role, and people in no changed group keep theirs.
func TestSCIMRolesFollowANewMapping(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	alice, bob, adam := fx.Alice.String(), fx.Bob.String(), fx.Adam.String()
	for name, members := range map[string][]string{"Reception": {alice, adam}, "Office managers": {bob}, "All staff": {alice, bob}} {
		body := `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"` + name + `","members":[`
		for i, m := range members {
			if i > 0 {
				body += ","
			}
			body += `{"value":"` + m + `"}`
		}
		if status, got := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups", body+`]}`); status != http.StatusCreated {
			t.Fatalf("create %s: %d %v", name, status, got)
		}
	}
	roles := func() map[string]string {
		got := map[string]string{}
		rows, err := sb.Pool.Query(t.Context(), `SELECT name, role FROM users WHERE organization_id = $1`, fx.OrgA)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var name, role string
			if err := rows.Scan(&name, &role); err != nil {
				t.Fatal(err)
			}
			got[name] = role
		}
		return got
	}
	browser := sb.pages.signedIn(t, fx.Adam)
	for _, step := range []struct {
		name, groupRoles string
		want             map[string]string
	}{
		{"MapReceptionAndManagers", "Reception = Receptionist\nOffice managers = Admin",
			map[string]string{"adam": "ADMIN", "alice": "RECEPTIONIST", "bob": "ADMIN", "rita": "RECEPTIONIST"}},
		{"MapAnotherGroup", "Reception = Receptionist\nOffice managers = Admin\nVisitors = Employee",
			map[string]string{"adam": "ADMIN", "alice": "RECEPTIONIST", "bob": "ADMIN", "rita": "RECEPTIONIST"}},
		{"UnmapReception", "Office managers = Admin\nVisitors = Employee",
			map[string]string{"adam": "ADMIN", "alice": "EMPLOYEE", "bob": "ADMIN", "rita": "RECEPTIONIST"}},
		{"ManagersBecomeReceptionists", "Office managers = Receptionist\nVisitors = Employee",
			map[string]string{"adam": "ADMIN", "alice": "EMPLOYEE", "bob": "RECEPTIONIST", "rita": "RECEPTIONIST"}},
	} {
		page := browser.post("/admin/identity/settings", url.Values{"defaultRole": {"EMPLOYEE"}, "scimAnyDomain": {"on"}, "groupRoles": {step.groupRoles}})
		page.wantStatus(t, http.StatusOK)
		if d := cmp.Diff(step.want, roles()); d != "" {
			t.Errorf("%s: roles (-want +got):\n%s", step.name, d)
		}
	}
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM admin_audit WHERE object_id = $1 AND collection = 'users'
		AND after ? 'role' AND actor_id = $2`, fx.Alice, fx.Adam); got != 2 {
		t.Errorf("%d changes of Alice's role by Adam in the audit log, want 2", got)
	}
}

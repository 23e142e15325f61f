package web_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
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
	if err := sb.Service.SetSignInSettings(t.Context(), sb.User(t, fx.OrgA, fx.Adam), booking.SignInSettings{
		SCIMAnyDomain: true, GroupRoles: []booking.GroupRole{{Group: "Reception", Role: booking.RoleReceptionist}},
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

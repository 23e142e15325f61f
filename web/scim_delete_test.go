package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// deactivate and rename are PATCH bodies as Okta sends them.
const (
	patchDeactivate = `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"active":false}}]}`
	patchRename     = `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"name.familyName","value":"Novak-Kim"}]}`
)

// TestSCIMDeletedUserIsGone checks that after DELETE /Users/{id} every request about the person answers
// 404 and no list or filter finds them, while the person stays in the database, deactivated.
func TestSCIMDeletedUserIsGone(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	wantSCIMStatus(t, "create", status, created, http.StatusCreated)
	id, _ := created["id"].(string)
	status, body := sb.scim(t, sb.tokenA, http.MethodDelete, "/Users/"+id, nil)
	wantSCIMStatus(t, "delete", status, body, http.StatusNoContent)

	for _, tc := range []struct {
		method string
		body   any
	}{
		{http.MethodGet, nil},
		{http.MethodPut, newNina},
		{http.MethodPatch, patchDeactivate},
		{http.MethodPatch, patchRename},
		{http.MethodDelete, nil},
	} {
		status, body := sb.scim(t, sb.tokenA, tc.method, "/Users/"+id, tc.body)
		if d := cmp.Diff(scimErrorBody("404", "", "no user "+id+" in your organization"), body); status != http.StatusNotFound || d != "" {
			t.Errorf("%s after DELETE: status %d, want 404; body (-want +got):\n%s", tc.method, status, d)
		}
	}
	for _, query := range []string{
		"?filter=" + url.QueryEscape(`userName eq "nina.novak@acme.test"`),
		"?filter=" + url.QueryEscape(`externalId eq "00u1nina"`),
	} {
		status, list := sb.scim(t, sb.tokenA, http.MethodGet, "/Users"+query, nil)
		wantSCIMStatus(t, query, status, list, http.StatusOK)
		if d := cmp.Diff(scimList(0, 1), list); d != "" {
			t.Errorf("GET /Users%s after DELETE (-want +got):\n%s", query, d)
		}
	}
	status, list := sb.scim(t, sb.tokenA, http.MethodGet, "/Users", nil)
	wantSCIMStatus(t, "list", status, list, http.StatusOK)
	if got := countsOf(list); got.TotalResults != 4 || got.Resources != 4 {
		t.Errorf("list after DELETE = %+v, want the fixture's 4 people", got)
	}

	// The person stays for history: deactivated, with the name and address they had.
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM users WHERE id = $1 AND NOT active
		AND email = 'nina.novak@acme.test' AND surname = 'Novak'`, id); got != 1 {
		t.Errorf("the deleted person is not kept, deactivated and unchanged")
	}
}

// TestSCIMCreateAfterDelete checks that a POST with the address of a deleted person brings back the same
// person, active, with what the POST says; and that a deleted person's address cannot be given to
// someone else meanwhile.
func TestSCIMCreateAfterDelete(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	id, _ := created["id"].(string)
	status, body := sb.scim(t, sb.tokenA, http.MethodDelete, "/Users/"+id, nil)
	wantSCIMStatus(t, "delete", status, body, http.StatusNoContent)

	again := map[string]any{}
	for k, v := range newNina {
		again[k] = v
	}
	again["name"] = map[string]any{"givenName": "Nina", "familyName": "Novak-Kim"}
	again["externalId"] = "00u2nina"
	status, body = sb.scim(t, sb.tokenA, http.MethodPost, "/Users", again)
	wantSCIMStatus(t, "create again", status, body, http.StatusCreated)
	want := scimUser(id, "nina.novak@acme.test", "Nina", "Novak-Kim", "00u2nina", true)
	if d := cmp.Diff(want, body, ignoreMeta); d != "" {
		t.Errorf("created again (-want +got):\n%s", d)
	}
	status, body = sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	wantSCIMStatus(t, "get", status, body, http.StatusOK)
	if d := cmp.Diff(want, body, ignoreMeta); d != "" {
		t.Errorf("GET after creating again (-want +got):\n%s", d)
	}
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM users WHERE email = 'nina.novak@acme.test'`); got != 1 {
		t.Errorf("%d people with Nina's address, want the one row", got)
	}
}

// TestSCIMDeleteInAnotherOrganization checks that B's token cannot delete A's people, and that a person
// A deleted stays out of B's sight too.
func TestSCIMDeleteInAnotherOrganization(t *testing.T) {
	t.Parallel()
	o := setupTwoOrganizations(t)
	idA, _ := o.ninaA["id"].(string)
	status, body := o.scim(t, o.tokenB, http.MethodDelete, "/Users/"+idA, nil)
	wantSCIMStatus(t, "B deletes A's Nina", status, body, http.StatusNotFound)
	status, body = o.scim(t, o.tokenA, http.MethodGet, "/Users/"+idA, nil)
	wantSCIMStatus(t, "A reads its Nina", status, body, http.StatusOK)
	status, body = o.scim(t, o.tokenA, http.MethodDelete, "/Users/"+idA, nil)
	wantSCIMStatus(t, "A deletes its Nina", status, body, http.StatusNoContent)
	idB, _ := o.ninaB["id"].(string)
	status, body = o.scim(t, o.tokenB, http.MethodGet, "/Users/"+idB, nil)
	wantSCIMStatus(t, "B reads its Nina", status, body, http.StatusOK)
	if d := cmp.Diff(o.ninaB, body, ignoreMeta); d != "" {
		t.Errorf("B's Nina after A deleted its own (-want +got):\n%s", d)
	}
}

// TestSCIMDeletedUserLeavesGroups checks that a deleted person leaves their groups, cannot join one
// again, and that the deletion is audited; and that an admin who reactivates them on the people page
// brings them back to SCIM.
func TestSCIMDeletedUserLeavesGroups(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	id := stringOf(created["id"])
	_, group := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception","members":[{"value":"`+id+`"}]}`)
	gid := stringOf(group["id"])
	if status, body := sb.scim(t, sb.tokenA, http.MethodDelete, "/Users/"+id, nil); status != http.StatusNoContent {
		t.Fatalf("delete: %d %v", status, body)
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Groups/"+gid, nil)
	if d := cmp.Diff(scimGroup(gid, "Reception", ""), got, ignoreMeta); d != "" {
		t.Errorf("the group after its member's deletion (-want +got):\n%s", d)
	}
	status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid,
		groupPatch(`{"op":"add","path":"members","value":[{"value":"`+id+`"}]}`))
	if d := cmp.Diff(scimErrorBody("400", "invalidValue", "members: no user "+id+" in your organization"), got); status != http.StatusBadRequest || d != "" {
		t.Errorf("adding the deleted person: status %d, want 400; body (-want +got):\n%s", status, d)
	}
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM admin_audit WHERE object_id = $1 AND action = 'DELETE'
		AND actor_name = 'SCIM token Okta'`, id); got != 1 {
		t.Errorf("%d audit entries of the deletion, want 1", got)
	}

	page := sb.pages.signedIn(t, fx.Adam).post("/admin/people/"+id+"/active", url.Values{"active": {"true"}})
	if page.status >= 400 {
		t.Fatalf("reactivate on the people page: %d", page.status)
	}
	status, got = sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	wantSCIMStatus(t, "get after the admin reactivated her", status, got, http.StatusOK)
	if got["active"] != true {
		t.Errorf("active = %v, want true", got["active"])
	}
}

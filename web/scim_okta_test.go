package web_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The bodies in this file are those of Okta's SCIM 2.0 reference ("SCIM 2.0 protocol reference",
// developer.okta.com/docs/api/openapi/okta-scim/guides/scim-20), with the ids of the fixture.

// scimGroup is a group as the service answers it, without meta; members are fixture people by id.
func scimGroup(id, name, externalID string, members ...map[string]any) map[string]any {
	list := make([]any, len(members))
	for i, m := range members {
		list[i] = m
	}
	g := map[string]any{
		"schemas": []any{"urn:ietf:params:scim:schemas:core:2.0:Group"},
		"id":      id, "displayName": name, "members": list,
	}
	if externalID != "" {
		g["externalId"] = externalID
	}
	return g
}

// member is a fixture person as a group's member.
func (sb *scimBundle) member(id, display string) map[string]any {
	return map[string]any{"value": id, "display": display, "type": "User", "$ref": sb.srv.URL + "/scim/v2/Users/" + id}
}

// TestSCIMOktaGroups sends Okta's group requests in the order "Push Groups" sends them: create the group,
// rename it (Okta repeats the group's id in the value), replace it whole with PUT (Okta's body carries the
// id and each member's display), add a member, and remove one by a path filter.
func TestSCIMOktaGroups(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	alice, bob := fx.Alice.String(), fx.Bob.String()
	status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Test SCIMv2","members":[]}`)
	wantSCIMStatus(t, "create", status, created, http.StatusCreated)
	id, _ := created["id"].(string)

	for _, step := range []struct {
		name, method, body string
		want               map[string]any
	}{
		{
			"Rename", http.MethodPatch,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"id":"` + id + `","displayName":"Test SCIMv2 Renamed"}}]}`,
			scimGroup(id, "Test SCIMv2 Renamed", ""),
		},
		{
			"Replace", http.MethodPut,
			`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"id":"` + id + `","displayName":"Test SCIMv2",` +
				`"members":[{"value":"` + alice + `","display":"alice@acme.test"}]}`,
			scimGroup(id, "Test SCIMv2", "", sb.member(alice, "alice Archer")),
		},
		{
			"AddMember", http.MethodPatch,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"add","path":"members",` +
				`"value":[{"value":"` + bob + `","display":"bob@acme.test"}]}]}`,
			scimGroup(id, "Test SCIMv2", "", sb.member(alice, "alice Archer"), sb.member(bob, "bob Baker")),
		},
		{
			"RemoveMember", http.MethodPatch,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"remove","path":"members[value eq \"` + alice + `\"]"}]}`,
			scimGroup(id, "Test SCIMv2", "", sb.member(bob, "bob Baker")),
		},
	} {
		status, got := sb.scim(t, sb.tokenA, step.method, "/Groups/"+id, step.body)
		wantSCIMStatus(t, step.name, status, got, http.StatusOK)
		if d := cmp.Diff(step.want, got, ignoreMeta); d != "" {
			t.Errorf("%s (-want +got):\n%s", step.name, d)
		}
	}
	status, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Groups/"+id, nil)
	wantSCIMStatus(t, "get", status, got, http.StatusOK)
	if d := cmp.Diff(scimGroup(id, "Test SCIMv2", "", sb.member(bob, "bob Baker")), got, ignoreMeta); d != "" {
		t.Errorf("GET after Okta's changes (-want +got):\n%s", d)
	}
}

// TestSCIMChangeOfID checks that an operation naming another id is refused with mutability and changes
// nothing, whether it names the id by path or in its value, for people and groups alike.
func TestSCIMChangeOfID(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, group := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception","members":[]}`)
	gid, _ := group["id"].(string)
	other := "4f0b3c52-9a55-4a4f-9c8e-0d6c9e1a2b3c"
	for _, path := range []string{"/Groups/" + gid, "/Users/" + fx.Alice.String()} {
		for _, body := range []string{
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","value":{"id":"` + other + `","displayName":"Renamed"}}]}`,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"id","value":"` + other + `"}]}`,
		} {
			status, got := sb.scim(t, sb.tokenA, http.MethodPatch, path, body)
			want := scimErrorBody("400", "mutability", "Operations[0]: id cannot be changed.")
			if d := cmp.Diff(want, got); status != http.StatusBadRequest || d != "" {
				t.Errorf("PATCH %s %s: status %d, want 400; body (-want +got):\n%s", path, body, status, d)
			}
		}
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Groups/"+gid, nil)
	if d := cmp.Diff(scimGroup(gid, "Reception", ""), got, ignoreMeta); d != "" {
		t.Errorf("the group after the refusals (-want +got):\n%s", d)
	}
}

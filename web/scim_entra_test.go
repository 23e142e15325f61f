package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The bodies in this file are shaped as Microsoft Entra ID sends them ("Tutorial: Develop and plan
// provisioning for a SCIM endpoint", learn.microsoft.com/entra/identity/app-provisioning/
// use-scim-to-provision-users-and-groups).

const enterpriseUser = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"

// TestSCIMEntraManager checks that the manager of the enterprise extension, which Entra ID's default
// mappings send as the manager's id alone rather than as {"value": id}, is accepted and ignored: the
// service keeps no managers, and a refusal would stop the person's other changes.
func TestSCIMEntraManager(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	create := entraUser("nnovak", "nina@acme.test")
	create[enterpriseUser] = map[string]any{"department": "Facilities", "manager": "26118915-6090-4610-87e4-49d8ca9f808d"}
	status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", create)
	wantSCIMStatus(t, "create with a manager", status, created, http.StatusCreated)
	id, _ := created["id"].(string)
	want := scimUser(id, "nina@acme.test", "Nina", "Novak", "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", true)
	want["userName"] = "nnovak"
	if d := cmp.Diff(want, created, ignoreMeta); d != "" {
		t.Errorf("created (-want +got):\n%s", d)
	}
	for _, op := range []string{
		`{"op":"Add","path":"` + enterpriseUser + `:manager","value":"26118915-6090-4610-87e4-49d8ca9f808d"}`,
		`{"op":"Replace","path":"` + enterpriseUser + `:manager","value":{"value":"26118915-6090-4610-87e4-49d8ca9f808d"}}`,
		`{"op":"Remove","path":"` + enterpriseUser + `:manager"}`,
		`{"op":"Replace","value":{"` + enterpriseUser + `:manager":"26118915-6090-4610-87e4-49d8ca9f808d","name.familyName":"Novak"}}`,
	} {
		status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+id,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[`+op+`]}`)
		wantSCIMStatus(t, op, status, got, http.StatusOK)
		if d := cmp.Diff(want, got, ignoreMeta); d != "" {
			t.Errorf("PATCH %s (-want +got):\n%s", op, d)
		}
	}
	put := entraUser("nnovak", "nina@acme.test")
	put[enterpriseUser] = map[string]any{"manager": "26118915-6090-4610-87e4-49d8ca9f808d"}
	status, got := sb.scim(t, sb.tokenA, http.MethodPut, "/Users/"+id, put)
	wantSCIMStatus(t, "PUT with a manager", status, got, http.StatusOK)
	if d := cmp.Diff(want, got, ignoreMeta); d != "" {
		t.Errorf("PUT (-want +got):\n%s", d)
	}
}

// TestSCIMEntraRequests sends Entra ID's documented requests for people and groups: a create with meta
// and roles, the PATCH of the work address and family name, a group created with Microsoft's own schema
// beside the core one, members added with "$ref": null, the group read without members, and a member
// removed by a value list.
func TestSCIMEntraRequests(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	status, user := sb.scim(t, sb.tokenA, http.MethodPost, "/Users",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User","urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],`+
			`"externalId":"0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef","userName":"Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1","active":true,`+
			`"emails":[{"primary":true,"type":"work","value":"Test_User_fd0ea19b@acme.test"}],"meta":{"resourceType":"User"},`+
			`"name":{"formatted":"givenName familyName","familyName":"familyName","givenName":"givenName"},"roles":[]}`)
	wantSCIMStatus(t, "create user", status, user, http.StatusCreated)
	uid, _ := user["id"].(string)
	want := scimUser(uid, "Test_User_fd0ea19b@acme.test", "givenName", "familyName", "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", true)
	want["userName"] = "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1"
	if d := cmp.Diff(want, user, ignoreMeta); d != "" {
		t.Errorf("created user (-want +got):\n%s", d)
	}
	status, user = sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+uid,
		`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[`+
			`{"op":"Replace","path":"emails[type eq \"work\"].value","value":"updatedEmail@acme.test"},`+
			`{"op":"Replace","path":"name.familyName","value":"updatedFamilyName"}]}`)
	wantSCIMStatus(t, "update user", status, user, http.StatusOK)
	want = scimUser(uid, "updatedEmail@acme.test", "givenName", "updatedFamilyName", "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", true)
	want["userName"] = "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1"
	if d := cmp.Diff(want, user, ignoreMeta); d != "" {
		t.Errorf("updated user (-want +got):\n%s", d)
	}

	status, group := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups",
		`{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group","http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group"],`+
			`"externalId":"8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159","displayName":"displayName","meta":{"resourceType":"Group"}}`)
	wantSCIMStatus(t, "create group", status, group, http.StatusCreated)
	gid, _ := group["id"].(string)
	status, group = sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid,
		`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Add","path":"members","value":[{"$ref":null,"value":"`+uid+`"}]}]}`)
	wantSCIMStatus(t, "add member", status, group, http.StatusOK)
	if d := cmp.Diff(scimGroup(gid, "displayName", "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159", sb.member(uid, "givenName updatedFamilyName")), group, ignoreMeta); d != "" {
		t.Errorf("after adding a member (-want +got):\n%s", d)
	}
	status, group = sb.scim(t, sb.tokenA, http.MethodGet, "/Groups/"+gid+"?excludedAttributes=members", nil)
	wantSCIMStatus(t, "get group", status, group, http.StatusOK)
	noMembers := scimGroup(gid, "displayName", "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159")
	delete(noMembers, "members")
	if d := cmp.Diff(noMembers, group, ignoreMeta); d != "" {
		t.Errorf("group without members (-want +got):\n%s", d)
	}
	status, group = sb.scim(t, sb.tokenA, http.MethodPatch, "/Groups/"+gid,
		`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Remove","path":"members","value":[{"$ref":null,"value":"`+uid+`"}]}]}`)
	wantSCIMStatus(t, "remove member", status, group, http.StatusOK)
	if d := cmp.Diff(scimGroup(gid, "displayName", "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159"), group, ignoreMeta); d != "" {
		t.Errorf("after removing the member (-want +got):\n%s", d)
	}
}

// TestSCIMEntraUserNameChange sends Entra ID's "Update User [Single-valued properties]": the userName
// changes as sent, the address stays, and the person is found by the new userName only. A userName of
// 256 characters is kept whole.
func TestSCIMEntraUserNameChange(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("nnovak", "nina@acme.test"))
	id := stringOf(created["id"])
	for _, userName := range []string{"5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com", strings.Repeat("n", 256)} {
		status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+id,
			`{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"userName","value":"`+userName+`"}]}`)
		wantSCIMStatus(t, "rename", status, got, http.StatusOK)
		want := scimUser(id, "nina@acme.test", "Nina", "Novak", "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef", true)
		want["userName"] = userName
		if d := cmp.Diff(want, got, ignoreMeta); d != "" {
			t.Errorf("after the rename (-want +got):\n%s", d)
		}
		for filter, n := range map[string]int{`userName eq "` + userName + `"`: 1, `userName eq "nnovak"`: 0} {
			_, list := sb.scim(t, sb.tokenA, http.MethodGet, filtered(filter), nil)
			if got, _ := scimListed(t, list); got != n {
				t.Errorf("%s finds %d, want %d", filter, got, n)
			}
		}
	}
}

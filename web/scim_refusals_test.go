package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestSCIMRefusals checks the status and scimType of each kind of refusal, as RFC 7644 section 3.12
// pairs them, for people and groups, and that none of them changed anything.
func TestSCIMRefusals(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	_, group := sb.scim(t, sb.tokenA, http.MethodPost, "/Groups", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Reception"}`)
	sb.scim(t, sb.tokenA, http.MethodPost, "/Groups", `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"displayName":"Lobby"}`)
	gid, _ := group["id"].(string)
	alice := "/Users/" + fx.Alice.String()
	patch := func(op string) string {
		return `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[` + op + `]}`
	}
	user := func(userName, email string) string {
		return `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],"userName":"` + userName + `","emails":[{"value":"` + email + `","primary":true}]}`
	}
	type refusal struct {
		Status   int
		ScimType string
	}
	for _, tc := range []struct {
		name, method, path, body string
		want                     refusal
	}{
		{"BodyNotJSON", http.MethodPost, "/Users", `{"userName": `, refusal{400, "invalidSyntax"}},
		{"GroupPatchWithoutSchemas", http.MethodPatch, "/Groups/" + gid, `{"Operations":[{"op":"replace","path":"displayName","value":"X"}]}`, refusal{400, "invalidSyntax"}},
		{"GroupPatchUnknownOp", http.MethodPatch, "/Groups/" + gid, patch(`{"op":"merge","path":"displayName","value":"X"}`), refusal{400, "invalidSyntax"}},
		{"GroupPatchNoOperations", http.MethodPatch, "/Groups/" + gid, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[]}`, refusal{400, "invalidSyntax"}},
		{"RemoveDisplayName", http.MethodPatch, "/Groups/" + gid, patch(`{"op":"remove","path":"displayName"}`), refusal{400, "invalidValue"}},
		{"PutGroupWithoutDisplayName", http.MethodPut, "/Groups/" + gid, `{"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],"members":[]}`, refusal{400, "invalidValue"}},
		{"RenameToATakenName", http.MethodPatch, "/Groups/" + gid, patch(`{"op":"replace","path":"displayName","value":"LOBBY"}`), refusal{409, "uniqueness"}},
		{"RemoveUserNameByURN", http.MethodPatch, alice, patch(`{"op":"remove","path":"urn:ietf:params:scim:schemas:core:2.0:User:userName"}`), refusal{400, "invalidValue"}},
		{"EmptyUserName", http.MethodPatch, alice, patch(`{"op":"replace","path":"userName","value":" "}`), refusal{400, "invalidValue"}},
		{"RemoveWithoutPath", http.MethodPatch, alice, patch(`{"op":"remove"}`), refusal{400, "noTarget"}},
		{"UnknownPath", http.MethodPatch, alice, patch(`{"op":"replace","path":"shoeSize","value":"44"}`), refusal{400, "invalidPath"}},
		{"WrongType", http.MethodPatch, alice, patch(`{"op":"replace","path":"active","value":"maybe"}`), refusal{400, "invalidValue"}},
		{"TakenAddress", http.MethodPost, "/Users", user("nnovak", "BOB@acme.test"), refusal{409, "uniqueness"}},
		{"TakenUserName", http.MethodPost, "/Users", user("Alice@Acme.Test", "nina@acme.test"), refusal{409, "uniqueness"}},
		{"UserNameTooLong", http.MethodPost, "/Users", user(strings.Repeat("n", 257), "nina@acme.test"), refusal{400, "invalidValue"}},
		{"FilterOr", http.MethodGet, "/Users?filter=" + url.QueryEscape(`userName eq "a" or userName eq "b"`), "", refusal{400, "invalidFilter"}},
		{"FilterCannotBeRead", http.MethodGet, "/Groups?filter=" + url.QueryEscape(`displayName eq`), "", refusal{400, "invalidFilter"}},
		{"GroupFilterOnMembers", http.MethodGet, "/Groups?filter=" + url.QueryEscape(`members.value eq "x"`), "", refusal{400, "invalidFilter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body any
			if tc.body != "" {
				body = tc.body
			}
			status, got := sb.scim(t, sb.tokenA, tc.method, tc.path, body)
			if d := cmp.Diff(tc.want, refusal{status, stringOf(got["scimType"])}); d != "" {
				t.Errorf("%s %s: (-want +got):\n%s\nbody: %v", tc.method, tc.path, d, got)
			}
		})
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, alice, nil)
	if d := cmp.Diff(scimUser(fx.Alice.String(), "alice@acme.test", "alice", "Archer", "", true), got, ignoreMeta); d != "" {
		t.Errorf("Alice after the refusals (-want +got):\n%s", d)
	}
	_, got = sb.scim(t, sb.tokenA, http.MethodGet, "/Groups/"+gid, nil)
	if d := cmp.Diff(scimGroup(gid, "Reception", ""), got, ignoreMeta); d != "" {
		t.Errorf("the group after the refusals (-want +got):\n%s", d)
	}
	if got := fx.TableCount(t, sb.Bundle, "users"); got != len(fx.Layout().Users) {
		t.Errorf("%d people, want the fixture's %d", got, len(fx.Layout().Users))
	}
}

package web_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSCIMBearerSchemeInAnyCase checks that the scheme of the Authorization header is read in any case
// (RFC 9110 section 11.1), as some clients write it "bearer".
func TestSCIMBearerSchemeInAnyCase(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	for _, scheme := range []string{"Bearer", "bearer", "BEARER"} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, sb.srv.URL+"/scim/v2/Users?count=0", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", scheme+" "+sb.tokenB)
		res := sb.send(t, req)
		var got map[string]any
		if err := json.Unmarshal(res.body, &got); err != nil {
			t.Fatalf("%s: body is not JSON: %s", scheme, res.body)
		}
		if d := cmp.Diff(scimList(1, 1), got); res.status != http.StatusOK || d != "" {
			t.Errorf("%s: status %d, want 200; body (-want +got):\n%s", scheme, res.status, d)
		}
	}
}

// TestSCIMAddressFromEmails checks that a userName that is not an address is kept as sent (Entra ID
// sends such names), that the address is the primary one of emails, wherever it is in the list, and that
// a PATCH of the work address changes it.
func TestSCIMAddressFromEmails(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	status, created := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", map[string]any{
		"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:User"}, "userName": "nnovak",
		"name": map[string]any{"givenName": "Nina", "familyName": "Novak"},
		"emails": []any{
			map[string]any{"value": "nina@home.test", "type": "home"},
			map[string]any{"value": "nina.novak@acme.test", "type": "work", "primary": true},
		},
	})
	wantSCIMStatus(t, "create", status, created, http.StatusCreated)
	id, _ := created["id"].(string)
	want := scimUser(id, "nina.novak@acme.test", "Nina", "Novak", "", true)
	want["userName"] = "nnovak"
	if d := cmp.Diff(want, created, ignoreMeta); d != "" {
		t.Errorf("created (-want +got):\n%s", d)
	}

	patch := `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"replace","path":"emails[type eq \"work\"].value","value":"nina.novak-kim@acme.test"}]}`
	status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+id, patch)
	wantSCIMStatus(t, "patch", status, got, http.StatusOK)
	want = scimUser(id, "nina.novak-kim@acme.test", "Nina", "Novak", "", true)
	want["userName"] = "nnovak"
	if d := cmp.Diff(want, got, ignoreMeta); d != "" {
		t.Errorf("patched (-want +got):\n%s", d)
	}
}

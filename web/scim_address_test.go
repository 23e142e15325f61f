package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSCIMAddressChoice checks which address of a SCIM User becomes the person's e-mail address: the
// primary one of emails, else the first work one, else a userName that is an address, else the first of
// emails. The person is then found by that address with Entra ID's filter, and by no other.
func TestSCIMAddressChoice(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	email := func(value, kind string, primary bool) map[string]any {
		e := map[string]any{"value": value, "type": kind}
		if primary {
			e["primary"] = true
		}
		return e
	}
	for i, tc := range []struct {
		name, userName string
		emails         []any
		want           string
	}{
		{"PrimaryFirst", "n1", []any{email("n1@home.test", "home", true), email("n1@acme.test", "work", false)}, "n1@home.test"},
		{"FirstWorkAddress", "n2", []any{email("n2@home.test", "home", false), email("n2@acme.test", "work", false), email("n2b@acme.test", "work", false)}, "n2@acme.test"},
		{"UserNameWithoutEmails", "n3@acme.test", nil, "n3@acme.test"},
		{"UserNameBeforeAHomeAddress", "n4@acme.test", []any{email("n4@home.test", "home", false)}, "n4@acme.test"},
		{"AHomeAddressAlone", "n5", []any{email("n5@home.test", "home", false)}, "n5@home.test"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{
				"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:User"}, "userName": tc.userName,
				"name": map[string]any{"givenName": "Nina", "familyName": fmt.Sprint(i)},
			}
			if tc.emails != nil {
				body["emails"] = tc.emails
			}
			status, got := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", body)
			wantSCIMStatus(t, "create", status, got, http.StatusCreated)
			want := []any{map[string]any{"value": tc.want, "type": "work", "primary": true}}
			if d := cmp.Diff(want, got["emails"]); d != "" {
				t.Errorf("emails (-want +got):\n%s", d)
			}
			status, list := sb.scim(t, sb.tokenA, http.MethodGet, "/Users?filter="+url.QueryEscape(`emails[type eq "work"].value eq "`+tc.want+`"`), nil)
			wantSCIMStatus(t, "filter", status, list, http.StatusOK)
			if n, ids := scimListed(t, list); n != 1 || ids[0] != got["id"] {
				t.Errorf("filter by %s found %d: %v", tc.want, n, ids)
			}
		})
	}
	status, got := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", map[string]any{
		"schemas": []string{"urn:ietf:params:scim:schemas:core:2.0:User"}, "userName": "n6",
	})
	want := scimErrorBody("400", "invalidValue", "A person needs an e-mail address: in emails, or as a userName that is one.")
	if d := cmp.Diff(want, got); status != http.StatusBadRequest || d != "" {
		t.Errorf("no address at all: status %d, want 400; body (-want +got):\n%s", status, d)
	}
}

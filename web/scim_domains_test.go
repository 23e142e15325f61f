package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// TestSCIMDomainRule checks that, unless an admin allows other domains, SCIM gives people addresses only
// at the organization's verified domains: in a create, a PUT and a PATCH, with words naming the domain,
// and changing nothing. Ticking the setting on the identity page is audited and lets other domains in,
// but never a domain another organization verified.
func TestSCIMDomainRule(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	sb.exec(t, `UPDATE organizations SET scim_any_domain = false`)
	fx.VerifyDomain(t, sb.Service, fx.OrgA, "acme.test")
	fx.VerifyDomain(t, sb.Service, fx.OrgB, "globex.test")
	adam := sb.User(t, fx.OrgA, fx.Adam)
	if err := sb.Identity().SetSignInSettings(t.Context(), adam, identity.SignInSettings{Domains: []string{"acme.test", "pending.test"}}); err != nil {
		t.Fatal(err)
	}
	outside := func(email, domain string) map[string]any {
		return scimErrorBody("400", "invalidValue", "emails: "+email+" is at "+domain+", which is not one of your organization's verified domains; "+
			"an admin verifies it, or allows other domains, on the page /admin/identity")
	}
	status, nina := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("nina", "nina@ACME.test"))
	wantSCIMStatus(t, "create at the verified domain", status, nina, http.StatusCreated)
	id := stringOf(nina["id"])
	patchEmail := func(email string) string {
		return `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"Replace","path":"emails[type eq \"work\"].value","value":"` + email + `"}]}`
	}

	for _, tc := range []struct {
		name, method, path string
		body               any
		want               map[string]any
	}{
		{"CreateAtAClaimedDomain", http.MethodPost, "/Users", entraUser("omar", "omar@pending.test"), outside("omar@pending.test", "pending.test")},
		{"CreateElsewhere", http.MethodPost, "/Users", entraUser("omar", "omar@elsewhere.test"), outside("omar@elsewhere.test", "elsewhere.test")},
		{"CreateAtAnotherOrganizationsDomain", http.MethodPost, "/Users", entraUser("omar", "omar@globex.test"), outside("omar@globex.test", "globex.test")},
		{"PutElsewhere", http.MethodPut, "/Users/" + id, entraUser("nina", "nina@elsewhere.test"), outside("nina@elsewhere.test", "elsewhere.test")},
		{"PatchElsewhere", http.MethodPatch, "/Users/" + id, patchEmail("nina@elsewhere.test"), outside("nina@elsewhere.test", "elsewhere.test")},
	} {
		status, got := sb.scim(t, sb.tokenA, tc.method, tc.path, tc.body)
		if d := cmp.Diff(tc.want, got); status != http.StatusBadRequest || d != "" {
			t.Errorf("%s: status %d, want 400; body (-want +got):\n%s", tc.name, status, d)
		}
	}
	if got := fx.TableCount(t, sb.Bundle, "users"); got != len(fx.Layout().Users)+1 {
		t.Errorf("%d people, want the fixture's and Nina", got)
	}
	_, got := sb.scim(t, sb.tokenA, http.MethodGet, "/Users/"+id, nil)
	if d := cmp.Diff(nina, got, ignoreMeta); d != "" {
		t.Errorf("Nina after the refusals (-want +got):\n%s", d)
	}

	// An admin allows other domains on the identity page; the change is audited.
	page := sb.pages.signedIn(t, fx.Adam).post("/admin/identity/settings", url.Values{
		"domains": {"acme.test\npending.test"}, "defaultRole": {"EMPLOYEE"}, "scimAnyDomain": {"on"},
	})
	page.wantStatus(t, http.StatusOK)
	if got := fx.RowCount(t, sb.Bundle, `SELECT count(*) FROM admin_audit WHERE collection = 'signInSettings'
		AND action = 'UPDATE' AND NOT before ? 'scimAnyDomain' AND after -> 'scimAnyDomain' = 'true'`); got != 1 {
		t.Errorf("%d audit entries allowing other domains, want 1", got)
	}
	for _, email := range []string{"omar@elsewhere.test", "pia@pending.test"} {
		if status, got := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser(email, email)); status != http.StatusCreated {
			t.Errorf("create %s once allowed: %d %v", email, status, got)
		}
	}
	if status, got := sb.scim(t, sb.tokenA, http.MethodPatch, "/Users/"+id, patchEmail("nina@elsewhere.test")); status != http.StatusOK {
		t.Errorf("PATCH to elsewhere.test once allowed: %d %v", status, got)
	}
	status, got = sb.scim(t, sb.tokenA, http.MethodPost, "/Users", entraUser("omar2", "omar@globex.test"))
	want := scimErrorBody("400", "invalidValue", "emails: addresses at globex.test cannot be used in this organization")
	if d := cmp.Diff(want, got); status != http.StatusBadRequest || d != "" {
		t.Errorf("B's domain once other domains are allowed: status %d, want 400; body (-want +got):\n%s", status, d)
	}
}

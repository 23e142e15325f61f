package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestIdentityPagesAreForAdmins checks that the identity pages refuse a person who is not an admin as
// every other admin page does, before any handler runs.
func TestIdentityPagesAreForAdmins(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	alice := pb.signedIn(t, fx.Alice)
	const refusal = "Only an admin of the organization can change its settings."
	other := alice.get("/admin/people")
	other.wantStatus(t, http.StatusForbidden)
	other.wantText(t, "main", refusal)
	for _, r := range []struct {
		method, path string
		form         url.Values
	}{
		{http.MethodGet, "/admin/identity", nil},
		{http.MethodPost, "/admin/identity/settings", url.Values{"domains": {"acme.test"}, "defaultRole": {"ADMIN"}}},
		{http.MethodPost, "/admin/identity/domains/acme.test/verify", url.Values{}},
		{http.MethodPost, "/admin/identity/tokens", url.Values{"name": {"Okta"}}},
		{http.MethodPost, "/admin/identity/tokens/" + uuid.NewString() + "/revoke", url.Values{}},
	} {
		p := alice.do(r.method, r.path, r.form, false)
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", refusal)
	}
	var tokens int
	if err := pb.Pool.QueryRow(t.Context(), `SELECT count(*) FROM scim_tokens`).Scan(&tokens); err != nil || tokens != 0 {
		t.Errorf("%d SCIM tokens (%v), want none", tokens, err)
	}
}

// TestPlanWithoutSignInSetUp checks that a floor plan asked for with no session and no bearer token,
// on a service where no sign-in is set up, is refused with 401 rather than sent to a sign-in page that
// cannot work.
func TestPlanWithoutSignInSetUp(t *testing.T) {
	t.Parallel()
	tb := setupOIDC(t, nil, func(d *web.Deps) { d.Dev = false })
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, tb.srv.URL+"/plans/"+fx.FloorMadrid.String()+"/"+fmt.Sprintf("%064d", 0)+".svg", nil)
	if err != nil {
		t.Fatal(err)
	}
	r := tb.send(t, req)
	wantStatus(t, r, http.StatusUnauthorized)
	if got := r.header.Get("WWW-Authenticate"); got == "" {
		t.Errorf("WWW-Authenticate is missing: an app cannot tell it needs a bearer token")
	}
}

package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
)

// TestAdminIdentityAPI reads and writes the sign-in settings through the Admin API, and proves a domain
// with a DNS record on a real DNS server.
func TestAdminIdentityAPI(t *testing.T) {
	t.Parallel()
	d := fx.NewDNS(t)
	tb := setupService(t, nil, []identity.Option{identity.WithResolver(d.Resolver())})
	path := api + "/admin/identity"

	r := tb.call(t, fx.Adam, http.MethodGet, path, nil)
	wantStatus(t, r, http.StatusOK)
	if d := cmp.Diff(`{"domains":[],"defaultRole":"EMPLOYEE","defaultUserRuleId":null,"defaultMobileRoleId":null,"groupsClaim":"","groupRoles":[],"scimAnyDomain":false,"defaultLanguage":"en","defaultBookingsVisibleTo":"TEAM","lastSignInClaims":[]}`+"\n", string(r.body)); d != "" {
		t.Errorf("settings at first (-want +got):\n%s", d)
	}
	first := r.header.Get("ETag")

	put := map[string]any{
		"domains":     []any{map[string]any{"domain": "ACME.test", "verified": true}}, // states are read-only
		"defaultRole": "RECEPTIONIST", "groupsClaim": "groups",
		"groupRoles": []any{map[string]any{"group": "Office managers", "role": "ADMIN"}},
	}
	r = tb.callWith(t, fx.Adam, http.MethodPut, path, put, http.Header{"If-Match": {first}})
	wantStatus(t, r, http.StatusOK)
	var got struct {
		Domains []struct {
			Domain             string `json:"domain"`
			Verified           bool   `json:"verified"`
			VerificationRecord string `json:"verificationRecord"`
		} `json:"domains"`
		DefaultRole string `json:"defaultRole"`
		GroupRoles  []any  `json:"groupRoles"`
	}
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Domains) != 1 || got.Domains[0].Domain != "acme.test" || got.Domains[0].Verified || got.DefaultRole != "RECEPTIONIST" || len(got.GroupRoles) != 1 {
		t.Fatalf("settings after PUT = %s", r.body)
	}
	second := r.header.Get("ETag")
	if second == first || second == "" {
		t.Errorf("ETag after the change = %q, before %q; want a new one", second, first)
	}

	// A stale If-Match changes nothing.
	r = tb.callWith(t, fx.Adam, http.MethodPut, path, map[string]any{"domains": []any{}, "defaultRole": "EMPLOYEE", "groupsClaim": "", "groupRoles": []any{}},
		http.Header{"If-Match": {first}})
	wantProblem(t, r, http.StatusPreconditionFailed, booking.CodePreconditionFailed, noIndex)
	// A public mail domain is refused, naming nobody.
	r = tb.call(t, fx.Adam, http.MethodPut, path, map[string]any{"domains": []any{map[string]any{"domain": "gmail.com"}}, "defaultRole": "EMPLOYEE", "groupsClaim": "", "groupRoles": []any{}})
	p := wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantValue(t, "detail", p["detail"], "domains: gmail.com cannot be used; add a domain that your organization owns")
	if r := tb.call(t, fx.Adam, http.MethodGet, path, nil); r.header.Get("ETag") != second {
		t.Error("a refused PUT changed the settings")
	}

	// The record is not there yet, then it is.
	verify := api + "/admin/identity/domains/acme.test/verify"
	r = tb.call(t, fx.Adam, http.MethodPost, verify, nil)
	p = wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
	wantDetail(t, p, got.Domains[0].VerificationRecord, "was found at acme.test yet")
	d.SetTXT("acme.test", got.Domains[0].VerificationRecord)
	r = tb.call(t, fx.Adam, http.MethodPost, verify, nil)
	wantStatus(t, r, http.StatusOK)
	proved := r.object(t)
	wantKeys(t, "domain", proved, "domain", "verified", "verifiedBy", "verifiedAt", "checkedAt")
	wantValue(t, "verifiedBy", proved["verifiedBy"], "DNS")

	// The changes are in the audit log, by Adam.
	r = tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?collection=signInSettings", nil)
	wantStatus(t, r, http.StatusOK)
	if n := len(array(t, "entries", r.object(t)["entries"])); n != 1 {
		t.Errorf("%d audit entries of the settings, want 1", n)
	}
	r = tb.call(t, fx.Adam, http.MethodGet, api+"/admin/audit?collection=emailDomains", nil)
	wantStatus(t, r, http.StatusOK)
	if n := len(array(t, "entries", r.object(t)["entries"])); n != 1 {
		t.Errorf("%d audit entries of domains, want 1", n)
	}

	// An employee may neither read nor change them.
	wantProblem(t, tb.call(t, fx.Alice, http.MethodGet, path, nil), http.StatusForbidden, booking.CodeForbidden, noIndex)
	wantProblem(t, tb.call(t, fx.Alice, http.MethodPut, path, put), http.StatusForbidden, booking.CodeForbidden, noIndex)
}

// TestPeoplePageRefusesAnotherOrganizationsDomain checks that the people page refuses, in words that name
// nobody, a person at a domain another organization proved.
func TestPeoplePageRefusesAnotherOrganizationsDomain(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	fx.VerifyDomain(t, pb.Service, fx.OrgB, "globex.test")
	b := pb.signedIn(t, fx.Adam)
	p := b.post("/admin/people", url.Values{"name": {"Planted"}, "email": {"ceo@globex.test"}, "role": {"EMPLOYEE"}})
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, "main", "addresses at globex.test cannot be used in this organization")
	if n := fx.RowCount(t, pb.Bundle, "SELECT count(*) FROM users WHERE email = 'ceo@globex.test'"); n != 0 {
		t.Errorf("%d people planted", n)
	}
	if got := p.text("main"); containsAny(got, "Globex", fx.OrgB.String()) {
		t.Errorf("the refusal names the domain's organization: %q", got)
	}
}

// TestIdentityPageProvesADomain shows a claimed domain's record on the identity page and proves it with
// the page's button, against a real DNS server.
func TestIdentityPageProvesADomain(t *testing.T) {
	t.Parallel()
	d := fx.NewDNS(t)
	tb := setupService(t, nil, []identity.Option{identity.WithResolver(d.Resolver())}, func(d *web.Deps) { d.Dev = true })
	pb := &pageBundle{Bundle: tb.Bundle, srv: tb.srv, server: tb.server}
	b := pb.signedIn(t, fx.Adam)
	p := b.post("/admin/identity/settings", url.Values{"domains": {"acme.test"}, "defaultRole": {"EMPLOYEE"}})
	p.wantStatus(t, http.StatusOK)
	record := p.text(".domain-record")
	p.wantText(t, ".email-domains", "acme.test", "Waiting for its DNS record", "booking-domain-verification=")

	p = b.post("/admin/identity/domains/acme.test/verify", url.Values{})
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".notice.error", "no TXT record \""+record+"\" was found at acme.test yet")

	d.SetTXT("acme.test", record)
	p = b.post("/admin/identity/domains/acme.test/verify", url.Values{})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "main", "acme.test is verified")
	p.wantText(t, ".domain-status", "Verified", "by its DNS record")
	if p.count(".domain-record") != 0 {
		t.Error("the record still shows once verified")
	}
	// A new person at the domain now gets an account at first sign-in (the domain's own test covers the
	// sign-in itself); here, a person of B cannot be added with it.
	_, err := layout.New(pb.Pool, pb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{
		{ID: uuid.NewString(), OrganizationID: fx.OrgB.String(), Name: "Planted", Email: "x@acme.test"},
	}})
	fx.WantCode(t, err, booking.CodeInvalidRequest)
}

// containsAny reports whether s holds one of the words.
func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

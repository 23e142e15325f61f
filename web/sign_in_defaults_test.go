package web_test

import (
	"crypto/sha256"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// defaultsOf reads the user rule and mobile role of the person with the address, "" for none.
func defaultsOf(t *testing.T, pb *pageBundle, email string) (rule, mobile string) {
	t.Helper()
	if err := pb.Pool.QueryRow(t.Context(), `SELECT coalesce(user_rule_id::text, ''), coalesce(mobile_role_id::text, '')
		FROM users WHERE email = $1`, email).Scan(&rule, &mobile); err != nil {
		t.Fatalf("person %s: %v", email, err)
	}
	return rule, mobile
}

// TestSignInDefaults checks the identity page's default user rule and mobile role, given to people
// created at their first sign-in and by SCIM; the scopes and claim names it shows; and the log of a
// refused sign-in, which names nobody.
func TestSignInDefaults(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	var logs syncBuffer
	tb := setupOIDC(t, nil, func(d *web.Deps) {
		d.Logger = slog.New(slog.NewJSONHandler(&logs, nil))
		d.Provider = discoveredProvider(t, web.ProviderConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, BaseURL: d.BaseURL,
			Scopes: []string{"openid", "profile", "email", "groups"},
		})
	})
	pb := &pageBundle{Bundle: tb.Bundle, srv: tb.srv}
	proveFixtureDomains(t, pb.Bundle)
	ruleA, mobileA, ruleB := uuid.New(), uuid.New(), uuid.New()
	tb.exec(t, `INSERT INTO user_rules (organization_id, id, name) VALUES ($1, $2, 'Hot desks'), ($3, $4, 'Globex rule')`, fx.OrgA, ruleA, fx.OrgB, ruleB)
	tb.exec(t, `INSERT INTO mobile_roles (organization_id, id, name) VALUES ($1, $2, 'Phone app')`, fx.OrgA, mobileA)

	m.QueueUser(&mockoidc.MockUser{Subject: "idp|adam", Email: "adam@acme.test", EmailVerified: true})
	adam := pb.browser(t)
	p := adam.get("/admin/identity")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".sign-in-scopes", "openid profile email groups")
	// Adam's own sign-in is the latest: the names of its claims, never their values.
	p.wantText(t, ".last-claims", "email email_verified", " sub")
	if got := p.text(".last-claims"); strings.Contains(got, "adam@acme.test") || strings.Contains(got, "idp|adam") {
		t.Errorf("the claims line shows values: %q", got)
	}
	if got := p.text("#default-user-rule option[selected]"); got != "None" {
		t.Errorf("user rule chosen at first = %q, want None", got)
	}

	form := func(rule, mobile string) url.Values {
		return url.Values{"domains": {"acme.test"}, "defaultRole": {"EMPLOYEE"}, "groupsClaim": {"groups"},
			"groupRoles": {""}, "defaultUserRule": {rule}, "defaultMobileRole": {mobile}}
	}
	t.Run("AnotherOrganizationsRuleIsRefused", func(t *testing.T) {
		p := adam.post("/admin/identity/settings", form(ruleB.String(), ""))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "[role=alert]", "Not saved.", "your organization has no user rule "+ruleB.String())
		var rule *uuid.UUID
		if err := tb.Pool.QueryRow(t.Context(), `SELECT default_user_rule_id FROM organizations WHERE id = $1`, fx.OrgA).Scan(&rule); err != nil || rule != nil {
			t.Errorf("A's default user rule = %v (%v), want none", rule, err)
		}
	})

	p = adam.post("/admin/identity/settings", form(ruleA.String(), mobileA.String()))
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "[role=status]", "Sign-in settings saved.")
	p.wantText(t, "#default-user-rule option[selected]", "Hot desks")
	p.wantText(t, "#default-mobile-role option[selected]", "Phone app")
	if p.count("#default-user-rule option[value='"+ruleB.String()+"']") != 0 {
		t.Errorf("A's page offers B's user rule")
	}
	// The latest sign-in carried no groups claim.
	p.wantText(t, ".claim-missing", "The latest sign-in carried no groups claim")

	t.Run("FirstSignInGetsThem", func(t *testing.T) {
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|nina", Email: "nina@acme.test", EmailVerified: true})
		pb.browser(t).get("/bookings").wantStatus(t, http.StatusOK)
		if rule, mobile := defaultsOf(t, pb, "nina@acme.test"); rule != ruleA.String() || mobile != mobileA.String() {
			t.Errorf("Nina's user rule and mobile role = %q, %q; want %s, %s", rule, mobile, ruleA, mobileA)
		}
	})

	t.Run("SCIMGetsThem", func(t *testing.T) {
		_, secret, err := tb.Identity().CreateSCIMToken(t.Context(), tb.User(t, fx.OrgA, fx.Adam), "Okta")
		if err != nil {
			t.Fatal(err)
		}
		r := tb.callWith(t, uuid.Nil, http.MethodPost, "/scim/v2/Users", map[string]any{
			"schemas":  []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
			"userName": "omar@acme.test", "name": map[string]any{"givenName": "Omar", "familyName": "Ortiz"},
			"emails": []map[string]any{{"value": "omar@acme.test", "primary": true}},
		}, http.Header{"Authorization": {"Bearer " + secret}, "Content-Type": {"application/scim+json"}})
		wantStatus(t, r, http.StatusCreated)
		if rule, mobile := defaultsOf(t, pb, "omar@acme.test"); rule != ruleA.String() || mobile != mobileA.String() {
			t.Errorf("Omar's user rule and mobile role = %q, %q; want %s, %s", rule, mobile, ruleA, mobileA)
		}
	})

	t.Run("RefusedSignInIsLoggedWithoutNames", func(t *testing.T) {
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|stranger", Email: "Stranger@elsewhere.test", EmailVerified: true})
		pb.browser(t).get("/bookings").wantStatus(t, http.StatusForbidden)
		var refused map[string]any
		for _, l := range logs.lines(t) {
			if l["msg"] == "sign-in refused" {
				refused = l
			}
		}
		hash := func(v string) string { return fmt.Sprintf("%x", sha256.Sum256([]byte(v)))[:12] }
		if refused == nil || refused["reason"] != "domain-not-verified" || refused["subject_hash"] != hash("idp|stranger") ||
			refused["email_hash"] != hash("stranger@elsewhere.test") {
			t.Errorf("log of the refused sign-in = %v, want reason domain-not-verified and the hashes", refused)
		}
		if all := logs.String(); strings.Contains(all, "idp|stranger") || strings.Contains(strings.ToLower(all), "stranger@elsewhere.test") {
			t.Errorf("the log names the person who was refused")
		}
	})
}

// TestAdminAPISignInDefaults checks defaultUserRuleId and defaultMobileRoleId in the Admin API: PUT
// keeps them when left out and clears them with null; another organization's rule is refused.
func TestAdminAPISignInDefaults(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	rule, ruleB := uuid.New(), uuid.New()
	tb.exec(t, `INSERT INTO user_rules (organization_id, id, name) VALUES ($1, $2, 'Hot desks'), ($3, $4, 'Globex rule')`, fx.OrgA, rule, fx.OrgB, ruleB)
	const path = "/api/v1/admin/identity"
	put := func(t *testing.T, body map[string]any) reply {
		t.Helper()
		return tb.call(t, fx.Adam, http.MethodPut, path, body)
	}
	base := map[string]any{"domains": []any{}, "defaultRole": "EMPLOYEE", "groupsClaim": "", "groupRoles": []any{}}
	with := func(kv ...any) map[string]any {
		m := map[string]any{}
		for k, v := range base {
			m[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	got := put(t, with("defaultUserRuleId", rule.String())).object(t)
	wantValue(t, "defaultUserRuleId", got["defaultUserRuleId"], rule.String())
	wantValue(t, "defaultMobileRoleId", got["defaultMobileRoleId"], nil)
	wantValue(t, "lastSignInClaims", fmt.Sprint(got["lastSignInClaims"]), "[]")

	got = put(t, with()).object(t)
	wantValue(t, "defaultUserRuleId once left out", got["defaultUserRuleId"], rule.String())

	wantProblem(t, put(t, with("defaultUserRuleId", ruleB.String())), http.StatusBadRequest, 2000, noIndex)
	got = tb.call(t, fx.Adam, http.MethodGet, path, nil).object(t)
	wantValue(t, "defaultUserRuleId after a refusal", got["defaultUserRuleId"], rule.String())

	got = put(t, with("defaultUserRuleId", nil)).object(t)
	wantValue(t, "defaultUserRuleId once null", got["defaultUserRuleId"], nil)
}

// TestBrowserIdentityPage looks at the identity page on a phone and a desktop, with the defaults of new
// people and the SCIM domain switch.
func TestBrowserIdentityPage(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	for _, q := range []string{
		`INSERT INTO user_rules (organization_id, id, name) VALUES ($1, $2, 'Hot desks, two days ahead')`,
		`INSERT INTO mobile_roles (organization_id, id, name) VALUES ($1, $2, 'Phone app')`,
	} {
		if _, err := pb.Pool.Exec(t.Context(), q, fx.OrgA, uuid.New()); err != nil {
			t.Fatal(err)
		}
	}
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"desktop", 1280, 900}} {
		t.Run(size.name, func(t *testing.T) {
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			kioskBrowserSignIn(b, fx.Adam, "/admin/identity")
			b.waitText("#default-user-rule", "Hot desks, two days ahead")
			b.waitText(".field.checkbox label", "SCIM may create people with addresses outside our domains")
			b.check("admin-identity-" + size.name)
		})
	}
}

// TestDefaultLanguageOfNewPeople checks the organization's default language: set in the Admin API, it is
// the language of people created at their first sign-in and by SCIM, whose pages then speak it; another
// organization keeps its own; a language the service does not speak is refused and changes nothing.
func TestDefaultLanguageOfNewPeople(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	tb := setupOIDC(t, nil, func(d *web.Deps) {
		d.Provider = discoveredProvider(t, web.ProviderConfig{
			Issuer: m.Issuer(), ClientID: m.ClientID, ClientSecret: m.ClientSecret, BaseURL: d.BaseURL,
		})
	})
	pb := &pageBundle{Bundle: tb.Bundle, srv: tb.srv}
	proveFixtureDomains(t, pb.Bundle)
	const path = "/api/v1/admin/identity"
	languageOf := func(t *testing.T, email string) string {
		t.Helper()
		var code string
		if err := tb.Pool.QueryRow(t.Context(), `SELECT user_language FROM users WHERE email = $1`, email).Scan(&code); err != nil {
			t.Fatalf("person %s: %v", email, err)
		}
		return code
	}

	got := tb.call(t, fx.Adam, http.MethodGet, path, nil).object(t)
	wantValue(t, "defaultLanguage at first", got["defaultLanguage"], "en")
	body := map[string]any{"domains": []any{map[string]any{"domain": "acme.test"}}, "defaultRole": "EMPLOYEE", "groupsClaim": "", "groupRoles": []any{}}
	for _, bad := range []any{"fr", "", "es-", 7} {
		body["defaultLanguage"] = bad
		r := tb.call(t, fx.Adam, http.MethodPut, path, body)
		wantProblem(t, r, http.StatusBadRequest, 2000, noIndex)
	}
	got = tb.call(t, fx.Adam, http.MethodGet, path, nil).object(t)
	wantValue(t, "defaultLanguage after refusals", got["defaultLanguage"], "en")

	body["defaultLanguage"] = "es"
	got = tb.call(t, fx.Adam, http.MethodPut, path, body).object(t)
	wantValue(t, "defaultLanguage once set", got["defaultLanguage"], "es")
	delete(body, "defaultLanguage")
	got = tb.call(t, fx.Adam, http.MethodPut, path, body).object(t)
	wantValue(t, "defaultLanguage once left out", got["defaultLanguage"], "es")
	var globex string
	if err := tb.Pool.QueryRow(t.Context(), `SELECT default_language FROM organizations WHERE id = $1`, fx.OrgB).Scan(&globex); err != nil || globex != "en" {
		t.Errorf("Globex's default language = %q (%v), want en", globex, err)
	}

	t.Run("ConsolePage", func(t *testing.T) {
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|adam", Email: "adam@acme.test", EmailVerified: true})
		adam := pb.browser(t)
		p := adam.get("/admin/identity")
		p.wantStatus(t, http.StatusOK)
		if got := p.attr("#default-language option[selected]", "value"); got != "es" {
			t.Errorf("language of new people chosen on the page = %q, want es", got)
		}
		form := url.Values{"domains": {"acme.test"}, "defaultRole": {"EMPLOYEE"}, "groupsClaim": {""}, "groupRoles": {""}}
		form.Set("defaultLanguage", "fr")
		p = adam.post("/admin/identity/settings", form)
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "[role=alert]", "Choose a language from the list.")
		form.Del("defaultLanguage") // a page opened before the field existed keeps the language
		adam.post("/admin/identity/settings", form).wantStatus(t, http.StatusOK)
		got := tb.call(t, fx.Adam, http.MethodGet, path, nil).object(t)
		wantValue(t, "defaultLanguage after the page's refusal and a form without it", got["defaultLanguage"], "es")
		form.Set("defaultLanguage", "en")
		adam.post("/admin/identity/settings", form).wantStatus(t, http.StatusOK)
		got = tb.call(t, fx.Adam, http.MethodGet, path, nil).object(t)
		wantValue(t, "defaultLanguage chosen on the page", got["defaultLanguage"], "en")
		form.Set("defaultLanguage", "es")
		adam.post("/admin/identity/settings", form).wantStatus(t, http.StatusOK)
	})
	t.Run("FirstSignIn", func(t *testing.T) {
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|nina", Email: "nina@acme.test", EmailVerified: true})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		if got := languageOf(t, "nina@acme.test"); got != "es" {
			t.Errorf("Nina's language = %q, want es", got)
		}
		if got := p.attr("html", "lang"); got != "es" {
			t.Errorf("Nina's first page: <html lang=%q>, want es", got)
		}
	})
	t.Run("SCIM", func(t *testing.T) {
		_, secret, err := tb.Identity().CreateSCIMToken(t.Context(), tb.User(t, fx.OrgA, fx.Adam), "Okta")
		if err != nil {
			t.Fatal(err)
		}
		r := tb.callWith(t, uuid.Nil, http.MethodPost, "/scim/v2/Users", map[string]any{
			"schemas":  []string{"urn:ietf:params:scim:schemas:core:2.0:User"},
			"userName": "omar@acme.test", "name": map[string]any{"givenName": "Omar", "familyName": "Ortiz"},
			"emails": []map[string]any{{"value": "omar@acme.test", "primary": true}},
		}, http.Header{"Authorization": {"Bearer " + secret}, "Content-Type": {"application/scim+json"}})
		wantStatus(t, r, http.StatusCreated)
		if got := languageOf(t, "omar@acme.test"); got != "es" {
			t.Errorf("Omar's language = %q, want es", got)
		}
	})
}

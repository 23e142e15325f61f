package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-cmp/cmp"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// providerUser is a person of the mock identity provider whose ID token carries names and, when Groups
// is not nil, a groups claim.
type providerUser struct {
	mockoidc.MockUser
	GivenName, FamilyName string
}

type providerClaims struct {
	*mockoidc.IDTokenClaims
	Email         string   `json:"email,omitempty"`
	EmailVerified bool     `json:"email_verified,omitempty"`
	GivenName     string   `json:"given_name,omitempty"`
	FamilyName    string   `json:"family_name,omitempty"`
	Groups        []string `json:"groups"`
}

type providerClaimsNoGroups struct {
	*mockoidc.IDTokenClaims
	Email         string `json:"email,omitempty"`
	EmailVerified bool   `json:"email_verified,omitempty"`
	GivenName     string `json:"given_name,omitempty"`
	FamilyName    string `json:"family_name,omitempty"`
}

func (u *providerUser) Claims(_ []string, c *mockoidc.IDTokenClaims) (jwt.Claims, error) {
	if u.Groups == nil {
		return &providerClaimsNoGroups{IDTokenClaims: c, Email: u.Email, EmailVerified: u.EmailVerified, GivenName: u.GivenName, FamilyName: u.FamilyName}, nil
	}
	return &providerClaims{IDTokenClaims: c, Email: u.Email, EmailVerified: u.EmailVerified, GivenName: u.GivenName, FamilyName: u.FamilyName, Groups: u.Groups}, nil
}

// setSignIn sets organization A's sign-in settings as its admin Adam.
func setSignIn(t *testing.T, pb *pageBundle, st identity.SignInSettings) {
	t.Helper()
	if err := pb.Identity().SetSignInSettings(t.Context(), pb.User(t, fx.OrgA, fx.Adam), st); err != nil {
		t.Fatalf("SetSignInSettings: %v", err)
	}
}

// person is what the database holds of a person signed in just in time.
type person struct {
	Organization, Name, Surname, Role, Subject string
}

func personByEmail(t *testing.T, pb *pageBundle, email string) (person, bool) {
	t.Helper()
	var p person
	err := pb.Pool.QueryRow(t.Context(), `SELECT organization_id::text, name, surname, role, coalesce(oidc_subject, '')
		FROM users WHERE email = $1`, email).Scan(&p.Organization, &p.Name, &p.Surname, &p.Role, &p.Subject)
	return p, err == nil
}

// roleOf reads a person's role.
func roleOf(t *testing.T, pb *pageBundle, email string) string {
	t.Helper()
	p, ok := personByEmail(t, pb, email)
	if !ok {
		t.Fatalf("no person %s", email)
	}
	return p.Role
}

// TestJustInTimeAccounts checks the accounts made at a first sign-in, and the refusals, with mockoidc.
func TestJustInTimeAccounts(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	nina := func(verified bool, email string) *providerUser {
		return &providerUser{MockUser: mockoidc.MockUser{Subject: "idp|nina", Email: email, EmailVerified: verified}, GivenName: "Nina", FamilyName: "Novak"}
	}

	t.Run("VerifiedAddressOfARegisteredDomainGetsAnAccount", func(t *testing.T) {
		pb := setupPagesOIDC(t, m)
		setSignIn(t, pb, identity.SignInSettings{Domains: []string{"ACME.test"}, DefaultRole: booking.RoleEmployee})
		m.QueueUser(nina(true, "nina@acme.test"))
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".whoami", "Nina Novak")
		got, _ := personByEmail(t, pb, "nina@acme.test")
		want := person{Organization: fx.OrgA.String(), Name: "Nina", Surname: "Novak", Role: "EMPLOYEE", Subject: "idp|nina"}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("the new person (-want +got):\n%s", d)
		}
	})

	for _, tc := range []struct {
		name     string
		verified bool
		email    string
		want     []string
	}{
		{"UnregisteredDomainIsRefused", true, "nina@elsewhere.test",
			[]string{"no person with that account", "not set up for sign-in", "add and verify the domain elsewhere.test, or to add you"}},
		{"UnverifiedAddressIsRefused", false, "nina@acme.test",
			[]string{"no person with that account", "has not verified your e-mail address nina@acme.test", "office manager to add you"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pb := setupPagesOIDC(t, m)
			setSignIn(t, pb, identity.SignInSettings{Domains: []string{"acme.test"}})
			m.QueueUser(nina(tc.verified, tc.email))
			p := pb.browser(t).get("/bookings")
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", tc.want...)
			if _, ok := personByEmail(t, pb, tc.email); ok {
				t.Errorf("an account was made for %s", tc.email)
			}
		})
	}

	t.Run("GroupsSetTheRoleAtEverySignIn", func(t *testing.T) {
		pb := setupPagesOIDC(t, m)
		setSignIn(t, pb, identity.SignInSettings{
			Domains: []string{"acme.test"}, DefaultRole: booking.RoleEmployee, GroupsClaim: "groups",
			GroupRoles: []identity.GroupRole{{Group: "Office managers", Role: booking.RoleAdmin}, {Group: "Reception", Role: booking.RoleReceptionist}},
		})
		for _, step := range []struct {
			groups []string // nil: the token has no groups claim
			want   string
		}{
			{[]string{"Reception"}, "RECEPTIONIST"},
			{[]string{"Reception", "office managers"}, "ADMIN"}, // the highest; names in any case
			{nil, "ADMIN"},                        // no claim: the role stays
			{[]string{"Engineering"}, "EMPLOYEE"}, // no group mapped: the default role
		} {
			u := &providerUser{MockUser: mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true, Groups: step.groups}}
			m.QueueUser(u)
			pb.browser(t).get("/bookings").wantStatus(t, http.StatusOK)
			if got := roleOf(t, pb, "alice@acme.test"); got != step.want {
				t.Errorf("groups %q: role = %s, want %s", step.groups, got, step.want)
			}
		}
	})

	t.Run("DeactivatedPersonIsToldWhomToAsk", func(t *testing.T) {
		pb := setupPagesOIDC(t, m)
		if err := pb.Identity().SetUserActive(t.Context(), pb.User(t, fx.OrgA, fx.Adam), fx.Alice, false); err != nil {
			t.Fatal(err)
		}
		m.QueueUser(&mockoidc.MockUser{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
		p := pb.browser(t).get("/bookings")
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", "Your account is deactivated", "adam Adler", "adam@acme.test")
		if p.count(".whoami") != 0 {
			t.Error("somebody is signed in")
		}
	})
}

// TestDeactivationEndsTheSession checks that a person deactivated while signed in loses the session at
// their next page.
func TestDeactivationEndsTheSession(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	if err := pb.Identity().SetUserActive(t.Context(), pb.User(t, fx.OrgA, fx.Adam), fx.Alice, false); err != nil {
		t.Fatal(err)
	}
	p := b.get("/bookings")
	p.wantStatus(t, http.StatusForbidden)
	p.wantText(t, "main", "Your account is deactivated")
	if err := pb.Identity().SetUserActive(t.Context(), pb.User(t, fx.OrgA, fx.Adam), fx.Alice, true); err != nil {
		t.Fatal(err)
	}
	if p := b.get("/bookings"); p.url.Path != "/login" {
		t.Errorf("after reactivation the old session opened %s, want the sign-in page", p.url)
	}
}

// TestAdminIdentityPage checks the admins' page: settings, and a SCIM token created, shown once, used and
// revoked.
func TestAdminIdentityPage(t *testing.T) {
	t.Parallel()

	t.Run("SettingsAreSavedAndRefusedInWords", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/identity/settings", url.Values{
			"domains": {"acme.test\nACME-corp.test"}, "defaultRole": {"RECEPTIONIST"}, "groupsClaim": {"groups"},
			"groupRoles": {"Office managers = Admin\nReception = receptionist"},
		})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "Sign-in settings saved.")
		if got, want := p.text("#domains"), "acme-corp.test acme.test"; got != want {
			t.Errorf("domains = %q, want %q", got, want)
		}
		if got := p.attr("#default-role option[selected]", "value"); got != "RECEPTIONIST" {
			t.Errorf("default role = %q, want RECEPTIONIST", got)
		}
		if got, want := p.text("#group-roles"), "Office managers = Admin Reception = Receptionist"; got != want {
			t.Errorf("group roles = %q, want %q", got, want)
		}

		// A domain another organization proved is refused without naming it, and nothing changes.
		fx.VerifyDomain(t, pb.Service, fx.OrgB, "globex.test")
		p = b.post("/admin/identity/settings", url.Values{"domains": {"acme.test globex.test"}, "defaultRole": {"EMPLOYEE"}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".notice.error", "globex.test cannot be used; add a domain that your organization owns")
		if strings.Contains(p.text("main"), "Globex") {
			t.Error("the refusal names the organization that holds the domain")
		}
		st, err := pb.Identity().SignInSettings(t.Context(), pb.User(t, fx.OrgA, fx.Adam))
		if err != nil || st.DefaultRole != booking.RoleReceptionist || len(st.Domains) != 2 {
			t.Errorf("after the refusal settings = %+v, %v; want them unchanged", st, err)
		}
	})

	t.Run("GroupNamesMayHoldEquals", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/identity/settings", url.Values{
			"defaultRole": {"EMPLOYEE"}, "groupsClaim": {"groups"},
			"groupRoles": {"CN=Office,OU=Groups = Admin\r\nCN=Front desk,OU=Groups=receptionist\n"},
		})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "Sign-in settings saved.")
		st, err := pb.Identity().SignInSettings(t.Context(), pb.User(t, fx.OrgA, fx.Adam))
		if err != nil {
			t.Fatal(err)
		}
		want := []identity.GroupRole{
			{Group: "CN=Front desk,OU=Groups", Role: booking.RoleReceptionist},
			{Group: "CN=Office,OU=Groups", Role: booking.RoleAdmin},
		}
		if d := cmp.Diff(want, st.GroupRoles); d != "" {
			t.Errorf("saved group roles (-want +got):\n%s", d)
		}
		if got, want := p.text("#group-roles"), "CN=Front desk,OU=Groups = Receptionist CN=Office,OU=Groups = Admin"; got != want {
			t.Errorf("group roles shown = %q, want %q", got, want)
		}
	})

	t.Run("TokenIsShownOnceWorksAndIsRevoked", func(t *testing.T) {
		sb := setupSCIM(t)
		b := sb.pages.signedIn(t, fx.Adam)
		p := b.post("/admin/identity/tokens", url.Values{"name": {"Entra ID"}})
		p.wantStatus(t, http.StatusCreated)
		if got := p.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("Cache-Control = %q, want no-store", got)
		}
		secret := p.attr("#new-token-secret", "value")
		p.wantText(t, ".new-token", "Copy the token Entra ID now", "shown only this once")
		p.wantText(t, ".scim-url", sb.srv.URL+"/scim/v2")
		if status, body := sb.scim(t, secret, http.MethodGet, "/Users", nil); status != http.StatusOK {
			t.Fatalf("the new token: status %d, %v", status, body)
		}

		p = b.get("/admin/identity")
		if p.count("#new-token-secret") != 0 || p.count(".new-token") != 0 {
			t.Error("the secret shows again")
		}
		p.wantText(t, ".scim-tokens", "Entra ID", "adam Adler")
		action := ""
		p.doc.Find(".scim-tokens tr").Each(func(_ int, row *goquery.Selection) {
			if row.Find(".token-name").Text() == "Entra ID" {
				action, _ = row.Find("form").Attr("action")
			}
		})
		p = b.post(action, url.Values{})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "The SCIM token is revoked")
		if status, _ := sb.scim(t, secret, http.MethodGet, "/Users", nil); status != http.StatusUnauthorized {
			t.Errorf("the revoked token: status %d, want 401", status)
		}
	})

	t.Run("OnlyAdmins", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Rita)
		b.get("/admin/identity").wantStatus(t, http.StatusForbidden)
		b.post("/admin/identity/tokens", url.Values{"name": {"Mine"}}).wantStatus(t, http.StatusForbidden)
		if got := fx.TableCount(t, pb.Bundle, "scim_tokens"); got != 0 {
			t.Errorf("scim_tokens = %d, want 0", got)
		}
	})
}

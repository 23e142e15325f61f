package identity_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/postgres"
)

// Bea is an admin of organization B that the identity tests add.
var Bea = uuid.MustParse("00000000-0000-4000-8000-000000000299")

// setupIdentity returns the fixture with Bea, an admin of B, and a DNS server the service asks.
func setupIdentity(t *testing.T) (*bundle, *fx.DNS) {
	t.Helper()
	d := fx.NewDNS(t)
	b := setup(t, identity.WithResolver(d.Resolver()))
	importUsers(t, b, layout.LayoutUser{ID: Bea.String(), OrganizationID: fx.OrgB.String(), Name: "Bea", Email: "bea@globex.test", Role: "ADMIN"})
	return b, d
}

func importUsers(t *testing.T, b *bundle, us ...layout.LayoutUser) {
	t.Helper()
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: us}); err != nil {
		t.Fatalf("import: %v", err)
	}
}

// account is what the identity tests compare of a person's account.
type account struct {
	Organization uuid.UUID
	Email        string
	Subject      string
	BindsByEmail bool
}

func accountsWithEmail(t *testing.T, b *bundle, email string) []account {
	t.Helper()
	rows, err := b.Pool.Query(t.Context(), `SELECT organization_id, email, coalesce(oidc_subject, ''), binds_by_email
		FROM users WHERE lower(email) = lower($1) ORDER BY organization_id`, email)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []account
	for rows.Next() {
		var a account
		if err := rows.Scan(&a.Organization, &a.Email, &a.Subject, &a.BindsByEmail); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

func scimClient(org uuid.UUID) identity.SCIMClient {
	return identity.SCIMClient{OrganizationID: org, TokenID: uuid.New(), TokenName: "Okta"}
}

// TestSignInLandsInTheDomainsOrganization checks that an account another organization plants with an
// address of A's domain never catches A's people: e-mail matching looks only in the organization that
// proved the domain.
func TestSignInLandsInTheDomainsOrganization(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	// B plants ceo@acme.test before A has proved acme.test, which nothing can refuse yet.
	importUsers(t, b, layout.LayoutUser{ID: uuid.NewString(), OrganizationID: fx.OrgB.String(), Name: "Planted", Email: "ceo@acme.test"})
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")

	ceo := identity.Identity{Subject: "idp|ceo", Email: "CEO@acme.test", EmailVerified: true, GivenName: "Carla", FamilyName: "Ortiz"}
	_, err := b.People.UserByIdentity(t.Context(), ceo.Subject, ceo.Email, true)
	fx.WantCode(t, err, booking.CodeUnauthorized)
	u, err := b.People.SignIn(t.Context(), ceo)
	if err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	if u.OrganizationID != fx.OrgA {
		t.Errorf("the CEO signed in to organization %v, want A", u.OrganizationID)
	}
	want := []account{
		{Organization: fx.OrgA, Email: "CEO@acme.test", Subject: "idp|ceo", BindsByEmail: true},
		{Organization: fx.OrgB, Email: "ceo@acme.test", BindsByEmail: true},
	}
	if d := cmp.Diff(want, accountsWithEmail(t, b, "ceo@acme.test")); d != "" {
		t.Errorf("accounts (-want +got):\n%s", d)
	}

	t.Run("AnUnprovedDomainMatchesNobody", func(t *testing.T) {
		b, _ := setupIdentity(t)
		_, err := b.People.UserByIdentity(t.Context(), "idp|alice", "alice@acme.test", true)
		fx.WantCode(t, err, booking.CodeUnauthorized)
		_, err = b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true})
		fx.WantMessagePrefix(t, err, "The organization of alice@acme.test is not set up for sign-in here")
		if got := accountsWithEmail(t, b, "alice@acme.test"); got[0].Subject != "" {
			t.Errorf("Alice was bound to %q", got[0].Subject)
		}
	})
}

// TestPeopleOfAnotherOrganizationsDomain checks that no organization adds or renames people to an address
// of a domain another organization proved, by import or SCIM, and that the refusal names nobody.
func TestPeopleOfAnotherOrganizationsDomain(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	const refusal = "addresses at acme.test cannot be used in this organization"
	before := fx.RowCount(t, b.Bundle, "SELECT count(*) FROM users")

	_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{
		{ID: uuid.NewString(), OrganizationID: fx.OrgB.String(), Name: "Planted", Email: "ceo@ACME.test"},
	}})
	wantRefusal(t, err, "users[0].email: "+refusal)

	// Even when B lets SCIM create people at any domain.
	if _, err := b.Pool.Exec(t.Context(), `UPDATE organizations SET scim_any_domain = true WHERE id = $1`, fx.OrgB); err != nil {
		t.Fatal(err)
	}
	b2 := scimClient(fx.OrgB)
	_, err = b.People.ProvisionPerson(t.Context(), b2, identity.PersonFields{Email: "ceo@acme.test", Active: true})
	wantRefusal(t, err, "emails: "+refusal)
	_, err = b.People.ReplaceProvisionedPerson(t.Context(), b2, fx.Boris, identity.PersonFields{Email: "boris@acme.test", Active: true}, "")
	wantRefusal(t, err, "emails: "+refusal)
	if got := fx.RowCount(t, b.Bundle, "SELECT count(*) FROM users"); got != before {
		t.Errorf("%d people, want %d", got, before)
	}
	if got := accountsWithEmail(t, b, "boris@globex.test"); len(got) != 1 {
		t.Errorf("Boris's address changed: %v", got)
	}

	// A itself adds people at its domain, and B keeps renaming its own people.
	importUsers(t, b, layout.LayoutUser{ID: uuid.NewString(), OrganizationID: fx.OrgA.String(), Name: "Ceo", Email: "ceo@acme.test"})
	if _, err := b.People.ReplaceProvisionedPerson(t.Context(), b2, fx.Boris, identity.PersonFields{Email: "boris.becker@globex.test", Active: true}, ""); err != nil {
		t.Errorf("rename Boris: %v", err)
	}
}

// wantRefusal fails unless err is 2000 with exactly the message want, naming no organization.
func wantRefusal(t *testing.T, err error, want string) {
	t.Helper()
	fx.WantCode(t, err, booking.CodeInvalidRequest)
	if got := err.Error(); got != booking.CodeInvalidRequest.String()+": "+want {
		t.Errorf("message = %q, want %q", got, want)
	}
	for _, name := range []string{"Acme", "Globex", fx.OrgA.String(), fx.OrgB.String()} {
		if strings.Contains(err.Error(), name) {
			t.Errorf("message %q names %s", err, name)
		}
	}
}

// TestSubjects checks that a subject names one account at most and that only a sign-in binds one, with
// its audit entry.
func TestSubjects(t *testing.T) {
	t.Parallel()

	t.Run("BindingByEmailIsAudited", func(t *testing.T) {
		b, _ := setupIdentity(t)
		fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
		u, err := b.People.UserByIdentity(t.Context(), "idp|alice", "alice@acme.test", true)
		if err != nil || u.ID != fx.Alice {
			t.Fatalf("UserByIdentity = %v, %v; want Alice", u.ID, err)
		}
		entries, err := b.Service.ListAudit(t.Context(), fx.OrgA, booking.AuditFilter{ObjectID: &fx.Alice, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 {
			t.Fatalf("%d audit entries for Alice, want 1", len(entries))
		}
		e := entries[0]
		got := []string{string(e.Action), e.Collection, e.ActorName, e.ActorID.String(), string(e.Before), string(e.After)}
		want := []string{"BIND", "users", "alice Archer", fx.Alice.String(), `{"oidcSubject": null}`,
			`{"matchedBy": "verified e-mail alice@acme.test", "oidcSubject": "idp|alice"}`}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("audit entry (-want +got):\n%s", d)
		}
	})

	t.Run("ASubjectIsOneAccounts", func(t *testing.T) {
		b, _ := setupIdentity(t)
		alice := fx.Layout().Users[0]
		alice.OIDCSubject = ptr("idp|alice")
		importUsers(t, b, alice)
		boris := fx.Layout().Users[4]
		boris.OIDCSubject = ptr("idp|alice")
		_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{boris}})
		wantRefusal(t, err, "users[0].oidcSubject: is already used by another object")
		u, err := b.People.UserByIdentity(t.Context(), "idp|alice", "", false)
		if err != nil || u.ID != fx.Alice {
			t.Errorf("idp|alice names %v, %v; want Alice", u.ID, err)
		}
	})
}

// TestSCIMRenames checks that a SCIM client cannot hand an account over by changing its address.
func TestSCIMRenames(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	okta := scimClient(fx.OrgA)

	_, err := b.People.ReplaceProvisionedPerson(t.Context(), okta, fx.Adam, identity.PersonFields{Email: "mallory@acme.test", Name: "adam", Active: true}, "")
	wantRefusal(t, err, "userName: the e-mail address of an admin cannot be changed through SCIM; an admin of the organization can change it")

	// Bob, never signed in, gets a new address: it no longer binds his account.
	if _, err := b.People.ReplaceProvisionedPerson(t.Context(), okta, fx.Bob, identity.PersonFields{Email: "robert@acme.test", Name: "bob", Active: true}, ""); err != nil {
		t.Fatalf("rename Bob: %v", err)
	}
	_, err = b.People.UserByIdentity(t.Context(), "idp|robert", "robert@acme.test", true)
	fx.WantCode(t, err, booking.CodeUnauthorized)
	_, err = b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|robert", Email: "robert@acme.test", EmailVerified: true})
	fx.WantMessagePrefix(t, err, "The account with the e-mail address robert@acme.test is already linked to another sign-in")
	want := []account{{Organization: fx.OrgA, Email: "robert@acme.test", BindsByEmail: false}}
	if d := cmp.Diff(want, accountsWithEmail(t, b, "robert@acme.test")); d != "" {
		t.Errorf("Bob's account (-want +got):\n%s", d)
	}

	// An admin who gives him an address vouches for it: it binds again.
	bob := fx.Layout().Users[1]
	bob.Email = "bob.baker@acme.test"
	importUsers(t, b, bob)
	if u, err := b.People.UserByIdentity(t.Context(), "idp|bob", "bob.baker@acme.test", true); err != nil || u.ID != fx.Bob {
		t.Errorf("UserByIdentity = %v, %v; want Bob", u.ID, err)
	}
}

// TestLastAdmin checks that nobody deactivates themselves and that no surface leaves an organization
// without an active admin.
func TestLastAdmin(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	adam := b.User(t, fx.OrgA, fx.Adam)

	err := b.People.SetUserActive(t.Context(), adam, fx.Adam, false)
	wantRefusal(t, err, "you cannot deactivate your own account; ask another admin")
	err = b.People.DeleteProvisionedPerson(t.Context(), scimClient(fx.OrgA), fx.Adam, "")
	fx.WantCode(t, err, booking.CodeLastAdmin)
	adamAsEmployee := fx.Layout().Users[3]
	adamAsEmployee.Role = "EMPLOYEE"
	_, err = layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{adamAsEmployee}})
	fx.WantCode(t, err, booking.CodeLastAdmin)
	_, err = layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{
		func() layout.LayoutUser { u := fx.Layout().Users[3]; u.Active = ptr(false); return u }(),
	}})
	fx.WantCode(t, err, booking.CodeLastAdmin)
	if u := b.User(t, fx.OrgA, fx.Adam); u.Role != booking.RoleAdmin || !u.Active {
		t.Fatalf("Adam is %s, active %v; want an active admin", u.Role, u.Active)
	}

	// With Rita made admin too, Adam may go.
	rita := fx.Layout().Users[2]
	rita.Role = "ADMIN"
	importUsers(t, b, rita)
	if err := b.People.DeleteProvisionedPerson(t.Context(), scimClient(fx.OrgA), fx.Adam, ""); err != nil {
		t.Fatalf("deactivate Adam with Rita an admin: %v", err)
	}
}

// TestLastAdminsDeactivatingEachOther checks that two admins who deactivate each other at the same moment
// leave one of them an admin.
func TestLastAdminsDeactivatingEachOther(t *testing.T) {
	t.Parallel()
	for round := range 5 {
		b, _ := setupIdentity(t)
		rita := fx.Layout().Users[2]
		rita.Role = "ADMIN"
		importUsers(t, b, rita)
		adam, ritaAdmin := b.User(t, fx.OrgA, fx.Adam), b.User(t, fx.OrgA, fx.Rita)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		for i, pair := range [][2]booking.User{{adam, ritaAdmin}, {ritaAdmin, adam}} {
			wg.Go(func() {
				<-start
				errs[i] = b.People.SetUserActive(t.Context(), pair[0], pair[1].ID, false)
			})
		}
		close(start)
		wg.Wait()
		refused := 0
		for _, err := range errs {
			if booking.ErrorCode(err) == booking.CodeLastAdmin {
				refused++
			} else if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if n := fx.RowCount(t, b.Bundle, "SELECT count(*) FROM users WHERE organization_id = $1 AND role = 'ADMIN' AND active", fx.OrgA); n != 1 || refused != 1 {
			t.Fatalf("round %d: %d active admins and %d refusals, want 1 and 1", round, n, refused)
		}
	}
}

// TestEmailDomainProof checks the claims of e-mail domains and their proof by DNS and by the operator,
// against a real DNS server.
func TestEmailDomainProof(t *testing.T) {
	t.Parallel()
	b, d := setupIdentity(t)
	adam := b.User(t, fx.OrgA, fx.Adam)
	bea := b.User(t, fx.OrgB, Bea)
	setDomains := func(actor booking.User, domains ...string) error {
		return b.People.SetSignInSettings(t.Context(), actor, identity.SignInSettings{Domains: domains})
	}

	for _, public := range []string{"gmail.com", "GMX.de", "gmx.net", "hotmail.co.uk", "outlook.com", "yahoo.es", "web.de", "icloud.com"} {
		err := setDomains(adam, public)
		wantRefusal(t, err, "domains: "+strings.ToLower(public)+" cannot be used; add a domain that your organization owns")
	}

	if err := setDomains(adam, "acme.test"); err != nil {
		t.Fatalf("claim acme.test: %v", err)
	}
	if err := setDomains(bea, "acme.test", "globex.test"); err != nil {
		t.Fatalf("B claims acme.test too, while nobody has proved it: %v", err)
	}
	claim := domainOf(t, b, adam, "acme.test")
	if claim.Verified() || len(claim.Token) != 32 || claim.Record() != "booking-domain-verification="+claim.Token {
		t.Fatalf("new claim = %+v, want unverified with a 32-digit token", claim)
	}
	// Before the record exists, a sign-in with the domain creates nobody.
	_, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|nina", Email: "nina@acme.test", EmailVerified: true})
	fx.WantCode(t, err, booking.CodeUnauthorized)

	_, err = b.People.VerifyEmailDomain(t.Context(), adam, "acme.test")
	wantRefusal(t, err, `domains: no TXT record "`+claim.Record()+`" was found at acme.test yet; add it at your DNS provider, and try again once it is published (often within an hour)`)
	d.SetTXT("acme.test", "v=spf1 -all", claim.Record())
	got, err := b.People.VerifyEmailDomain(t.Context(), adam, "ACME.test")
	if err != nil {
		t.Fatalf("VerifyEmailDomain: %v", err)
	}
	if !got.Verified() || got.VerifiedBy != identity.VerifiedByDNS || got.Token != claim.Token {
		t.Errorf("after the record: %+v, want verified by DNS with the same token", got)
	}
	// Saving the settings again keeps the proof.
	if err := setDomains(adam, "acme.test", "acme-labs.test"); err != nil {
		t.Fatal(err)
	}
	if !domainOf(t, b, adam, "acme.test").Verified() {
		t.Error("saving the settings again forgot the proof")
	}
	if u, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|nina", Email: "nina@acme.test", EmailVerified: true}); err != nil || u.OrganizationID != fx.OrgA {
		t.Errorf("Nina's first sign-in = %v, %v; want an account in A", u.OrganizationID, err)
	}

	// B's own claim cannot be proved now, even with A's record in place, and a new claim is refused.
	d.SetTXT("acme.test", domainOf(t, b, bea, "acme.test").Record())
	_, err = b.People.VerifyEmailDomain(t.Context(), bea, "acme.test")
	wantRefusal(t, err, "domains: acme.test cannot be used; add a domain that your organization owns")
	err = setDomains(bea, "globex.test", "acme.test")
	wantRefusal(t, err, "domains: acme.test cannot be used; add a domain that your organization owns")
	_, err = b.People.VerifyEmailDomain(t.Context(), bea, "initech.test")
	fx.WantCode(t, err, booking.CodeObjectNotFound)
	_, err = b.People.ApproveEmailDomain(t.Context(), fx.OrgB, "acme.test")
	wantRefusal(t, err, "domains: acme.test cannot be used; add a domain that your organization owns")

	// A DNS server that fails is said in words, and verifies nothing.
	d.SetFailing(true)
	_, err = b.People.VerifyEmailDomain(t.Context(), bea, "globex.test")
	wantRefusal(t, err, "domains: the DNS look-up of globex.test failed (the name server refused the question); try again later")
	d.SetFailing(false)

	// The operator proves a domain whatever DNS says.
	got, err = b.People.ApproveEmailDomain(t.Context(), fx.OrgB, "Globex.test")
	if err != nil || got.VerifiedBy != identity.VerifiedByOperator {
		t.Errorf("ApproveEmailDomain = %+v, %v; want verified by the operator", got, err)
	}
	n := fx.RowCount(t, b.Bundle, "SELECT count(*) FROM admin_audit WHERE action = 'VERIFY'")
	if n != 2 {
		t.Errorf("%d VERIFY entries in the audit log, want 2", n)
	}
}

// TestDailyDomainCheck checks that the daily round proves the claims whose record appeared, and looks
// each claim up at most once a day.
func TestDailyDomainCheck(t *testing.T) {
	t.Parallel()
	b, d := setupIdentity(t)
	adam := b.User(t, fx.OrgA, fx.Adam)
	if err := b.People.SetSignInSettings(t.Context(), adam, identity.SignInSettings{Domains: []string{"acme.test", "acme-labs.test"}}); err != nil {
		t.Fatal(err)
	}
	if n, err := b.People.CheckEmailDomains(t.Context()); err != nil || n != 0 {
		t.Fatalf("first round proved %d, %v; want 0", n, err)
	}
	d.SetTXT("acme.test", domainOf(t, b, adam, "acme.test").Record())
	b.Clock.Set(fx.Now.Add(time.Hour))
	if n, err := b.People.CheckEmailDomains(t.Context()); err != nil || n != 0 {
		t.Fatalf("a round within the day proved %d, %v; want 0 (looked up already)", n, err)
	}
	b.Clock.Set(fx.Now.Add(identity.DomainRecheckAfter + time.Minute))
	if n, err := b.People.CheckEmailDomains(t.Context()); err != nil || n != 1 {
		t.Fatalf("the next day's round proved %d, %v; want 1", n, err)
	}
	if got := domainOf(t, b, adam, "acme.test"); got.VerifiedBy != identity.VerifiedByDNS {
		t.Errorf("acme.test = %+v, want verified by DNS", got)
	}
	if domainOf(t, b, adam, "acme-labs.test").Verified() {
		t.Error("acme-labs.test was verified without its record")
	}
}

func domainOf(t *testing.T, b *bundle, actor booking.User, domain string) identity.EmailDomain {
	t.Helper()
	ds, err := b.People.EmailDomains(t.Context(), actor)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Domain == domain {
			return d
		}
	}
	t.Fatalf("no claim of %s", domain)
	return identity.EmailDomain{}
}

// TestGroupNamesFoldOnlyASCII checks that a group name matches a mapped one in any ASCII case and in any
// Unicode composition, but never through a look-alike letter that full case folding would equate.
func TestGroupNamesFoldOnlyASCII(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	adam := b.User(t, fx.OrgA, fx.Adam)
	if err := b.People.SetSignInSettings(t.Context(), adam, identity.SignInSettings{
		Domains: []string{"acme.test"}, GroupsClaim: "groups",
		GroupRoles: []identity.GroupRole{{Group: "Office managers", Role: booking.RoleAdmin}, {Group: "kitchen", Role: booking.RoleReceptionist}, {Group: "Caf\u00e9", Role: booking.RoleReceptionist}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		group string
		want  booking.Role
	}{
		{"OFFICE MANAGERS", booking.RoleAdmin},
		{"Office manager\u017f", booking.RoleEmployee}, // ſ, long s
		{"\u212aitchen", booking.RoleEmployee},         // K, Kelvin sign
		{"KITCHEN", booking.RoleReceptionist},
		{"cafe\u0301", booking.RoleReceptionist}, // é written as e and a combining accent
	} {
		u, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|bob", Email: "bob@acme.test", EmailVerified: true,
			Claims: map[string]any{"groups": []any{tc.group}}})
		if err != nil {
			t.Fatalf("%q: %v", tc.group, err)
		}
		if u.Role != tc.want {
			t.Errorf("group %q gives %s, want %s", tc.group, u.Role, tc.want)
		}
	}
	err := b.People.SetSignInSettings(t.Context(), adam, identity.SignInSettings{GroupRoles: []identity.GroupRole{
		{Group: "Kitchen", Role: booking.RoleEmployee}, {Group: "\u212aitchen", Role: booking.RoleAdmin}}})
	if err != nil {
		t.Errorf("two groups that differ by a look-alike letter are refused: %v", err)
	}
}

// TestIdentityMigrationSettlesDuplicates checks that migration 0019 clears a subject that several
// accounts share, renames an address that differs from another only in case, writes both to the audit
// log, and leaves the domains claimed before it waiting for their proof.
func TestIdentityMigrationSettlesDuplicates(t *testing.T) {
	t.Parallel()
	db := fx.MigratedBefore(t, "identity_hardening.sql")
	twin := uuid.MustParse("ffffffff-0000-4000-8000-000000000001")
	for _, stmt := range []string{
		`UPDATE users SET oidc_subject = 'idp|shared' WHERE id IN ('` + fx.Alice.String() + `', '` + fx.Boris.String() + `')`,
		`UPDATE users SET oidc_subject = 'idp|bob' WHERE id = '` + fx.Bob.String() + `'`,
		`INSERT INTO users (organization_id, id, name, email) VALUES ('` + fx.OrgA.String() + `', '` + twin.String() + `', 'Twin', 'ALICE@acme.test')`,
		`INSERT INTO organization_email_domains (organization_id, domain) VALUES ('` + fx.OrgA.String() + `', 'acme.test')`,
	} {
		if _, err := db.Conn.Exec(t.Context(), stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	if _, err := postgres.Migrate(t.Context(), db.URL); err != nil {
		t.Fatalf("Migrate: %v", err)
	}

	type row struct {
		ID           uuid.UUID
		Email        string
		Subject      string
		BindsByEmail bool
	}
	rows, err := db.Conn.Query(t.Context(), `SELECT id, email, coalesce(oidc_subject, ''), binds_by_email FROM users
		WHERE id = ANY ($1) ORDER BY id`, []uuid.UUID{fx.Alice, fx.Bob, fx.Boris, twin})
	if err != nil {
		t.Fatal(err)
	}
	var got []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.ID, &r.Email, &r.Subject, &r.BindsByEmail); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	want := []row{
		{fx.Alice, "alice@acme.test", "", true},
		{fx.Bob, "bob@acme.test", "idp|bob", true},
		{fx.Boris, "boris@globex.test", "", true},
		{twin, "ALICE+duplicate-ffffffff@acme.test", "", false},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("accounts after the migration (-want +got):\n%s", d)
	}

	var audited []string
	arows, err := db.Conn.Query(t.Context(), `SELECT object_id || ' ' || action || ' ' || before::text || ' -> ' || after::text
		FROM admin_audit ORDER BY object_id`)
	if err != nil {
		t.Fatal(err)
	}
	for arows.Next() {
		var s string
		if err := arows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		audited = append(audited, s)
	}
	wantAudit := []string{
		fx.Alice.String() + ` UPDATE {"oidcSubject": "idp|shared"} -> {"oidcSubject": null}`,
		fx.Boris.String() + ` UPDATE {"oidcSubject": "idp|shared"} -> {"oidcSubject": null}`,
		twin.String() + ` UPDATE {"email": "ALICE@acme.test"} -> {"email": "ALICE+duplicate-ffffffff@acme.test"}`,
	}
	if d := cmp.Diff(wantAudit, audited); d != "" {
		t.Errorf("audit log (-want +got):\n%s", d)
	}

	var verified bool
	var token string
	if err := db.Conn.QueryRow(t.Context(), `SELECT verified_at IS NOT NULL, verification_token FROM organization_email_domains`).Scan(&verified, &token); err != nil {
		t.Fatal(err)
	}
	if verified || len(token) != 32 {
		t.Errorf("the domain claimed before: verified %v, token %q; want waiting, with a 32-digit token", verified, token)
	}
	if _, err := db.Conn.Exec(t.Context(), `UPDATE users SET oidc_subject = 'idp|bob' WHERE id = $1`, fx.Alice); err == nil {
		t.Error("two accounts got one subject after the migration")
	}
}

// TestGroupsKeepTheLastAdmin checks that a groups claim that would demote the organization's last active
// admin leaves their role, and demotes them once another admin exists.
func TestGroupsKeepTheLastAdmin(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	adam := b.User(t, fx.OrgA, fx.Adam)
	if err := b.People.SetSignInSettings(t.Context(), adam, identity.SignInSettings{
		GroupsClaim: "groups", GroupRoles: []identity.GroupRole{{Group: "Office managers", Role: booking.RoleAdmin}},
	}); err != nil {
		t.Fatal(err)
	}
	signIn := func() booking.Role {
		u, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|adam", Email: "adam@acme.test", EmailVerified: true,
			Claims: map[string]any{"groups": []any{"Engineering"}}})
		if err != nil {
			t.Fatalf("SignIn: %v", err)
		}
		return u.Role
	}
	if got := signIn(); got != booking.RoleAdmin {
		t.Errorf("the last admin signed in as %s, want ADMIN kept", got)
	}
	rita := fx.Layout().Users[2]
	rita.Role = "ADMIN"
	importUsers(t, b, rita)
	if got := signIn(); got != booking.RoleEmployee {
		t.Errorf("with another admin, Adam signed in as %s, want EMPLOYEE", got)
	}
}

// TestEmailIsUniqueInAnyCase checks that an organization cannot hold two people whose addresses differ
// only in case, while another organization may hold the same address.
func TestEmailIsUniqueInAnyCase(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{
		{ID: uuid.NewString(), OrganizationID: fx.OrgA.String(), Name: "Twin", Email: "ALICE@acme.test"},
	}})
	wantRefusal(t, err, "users[0].email: is already used by another object")
	if _, err := b.Pool.Exec(t.Context(), `UPDATE organizations SET scim_any_domain = true WHERE id = $1`, fx.OrgA); err != nil {
		t.Fatal(err)
	}
	_, err = b.People.ProvisionPerson(t.Context(), scimClient(fx.OrgA), identity.PersonFields{Email: "Alice@Acme.test", Active: true})
	if err != identity.ErrPersonExists {
		t.Errorf("SCIM create of Alice's address in other case = %v, want ErrPersonExists", err)
	}
	importUsers(t, b, layout.LayoutUser{ID: uuid.NewString(), OrganizationID: fx.OrgB.String(), Name: "Alice", Email: "ALICE@acme.test"})
}

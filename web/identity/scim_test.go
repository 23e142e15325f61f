package identity_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// TestSCIMTokenUse checks that a token's use is noted at most once a minute, and that a revoked token
// names no client.
func TestSCIMTokenUse(t *testing.T) {
	t.Parallel()
	b := setup(t)
	adam := b.User(t, fx.OrgA, fx.Adam)
	tok, secret, err := b.People.CreateSCIMToken(t.Context(), adam, "Okta")
	if err != nil {
		t.Fatal(err)
	}
	var got []*time.Time
	for _, after := range []time.Duration{0, 30 * time.Second, 61 * time.Second, 90 * time.Second} {
		b.Clock.Set(fx.Now.Add(after))
		c, err := b.People.SCIMClientByToken(t.Context(), secret)
		if err != nil {
			t.Fatalf("SCIMClientByToken after %v: %v", after, err)
		}
		if want := (identity.SCIMClient{OrganizationID: fx.OrgA, TokenID: tok.ID, TokenName: "Okta"}); c != want {
			t.Errorf("client = %+v, want %+v", c, want)
		}
		ts, err := b.People.SCIMTokens(t.Context(), adam)
		if err != nil || len(ts) != 1 {
			t.Fatalf("SCIMTokens = %v, %v", ts, err)
		}
		got = append(got, ts[0].LastUsedAt)
	}
	first, second := fx.Now, fx.Now.Add(61*time.Second)
	want := []*time.Time{&first, &first, &second, &second}
	if d := cmp.Diff(want, got, cmpopts.EquateApproxTime(time.Millisecond)); d != "" {
		t.Errorf("last used after each request (-want +got):\n%s", d)
	}

	if err := b.People.RevokeSCIMToken(t.Context(), adam, tok.ID); err != nil {
		t.Fatal(err)
	}
	_, err = b.People.SCIMClientByToken(t.Context(), secret)
	fx.WantCode(t, err, booking.CodeUnauthorized)
}

// TestSCIMTokenLimits checks that only admins manage tokens, and that at most MaxSCIMTokens are in use.
func TestSCIMTokenLimits(t *testing.T) {
	t.Parallel()
	b := setup(t)
	adam, rita := b.User(t, fx.OrgA, fx.Adam), b.User(t, fx.OrgA, fx.Rita)

	var first identity.SCIMToken
	for i := range identity.MaxSCIMTokens {
		tok, _, err := b.People.CreateSCIMToken(t.Context(), adam, fmt.Sprintf("Okta %d", i))
		if err != nil {
			t.Fatalf("token %d: %v", i, err)
		}
		if i == 0 {
			first = tok
		}
	}
	_, _, err := b.People.CreateSCIMToken(t.Context(), adam, "One too many")
	wantRefusal(t, err, "at most 10 SCIM tokens may be in use; revoke one first")
	if err := b.People.RevokeSCIMToken(t.Context(), adam, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.People.CreateSCIMToken(t.Context(), adam, "In its place"); err != nil {
		t.Errorf("a token after one was revoked: %v", err)
	}

	_, err = b.People.SCIMTokens(t.Context(), rita)
	fx.WantCode(t, err, booking.CodeForbidden)
	_, _, err = b.People.CreateSCIMToken(t.Context(), rita, "Mine")
	fx.WantCode(t, err, booking.CodeForbidden)
	err = b.People.RevokeSCIMToken(t.Context(), rita, first.ID)
	fx.WantCode(t, err, booking.CodeForbidden)
}

// TestProvisionPerson checks what a SCIM client's new person is: fields trimmed, the name from the
// address when none is given, and the organization's default role.
func TestProvisionPerson(t *testing.T) {
	t.Parallel()
	b := setup(t)
	if err := b.People.SetSignInSettings(t.Context(), b.User(t, fx.OrgA, fx.Adam), identity.SignInSettings{DefaultRole: booking.RoleReceptionist, SCIMAnyDomain: true}); err != nil {
		t.Fatal(err)
	}
	person := func(email, name, surname, externalID string, active bool) identity.ProvisionedPerson {
		return identity.ProvisionedPerson{ExternalID: externalID, UserName: email, User: booking.User{
			OrganizationID: fx.OrgA, Name: name, Surname: surname, Email: email, CanBeSearched: true,
			Type: "SERVICE_INTERNAL", UserLanguage: "en", Role: booking.RoleReceptionist, Active: active,
		}}
	}
	for _, tc := range []struct {
		name string
		f    identity.PersonFields
		want identity.ProvisionedPerson
	}{
		{"Trimmed", identity.PersonFields{Email: " nina@acme.test\t", Name: " Nina ", Surname: " Novak ", ExternalID: " 00u1 ", Active: true},
			person("nina@acme.test", "Nina", "Novak", "00u1", true)},
		{"NameFromTheAddress", identity.PersonFields{Email: "omar@acme.test", Active: true},
			person("omar@acme.test", "omar", "", "", true)},
		{"Inactive", identity.PersonFields{Email: "ivan@acme.test", Name: "Ivan"},
			person("ivan@acme.test", "Ivan", "", "", false)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := b.People.ProvisionPerson(t.Context(), scimClient(fx.OrgA), tc.f)
			if err != nil {
				t.Fatalf("ProvisionPerson: %v", err)
			}
			if d := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(booking.User{}, "ID"),
				cmpopts.IgnoreFields(identity.ProvisionedPerson{}, "Created", "Modified")); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestProvisionedPeoplePages checks that one page holds at most MaxSCIMPage people, whatever count asks.
func TestProvisionedPeoplePages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	if _, err := b.Pool.Exec(t.Context(), `INSERT INTO users (organization_id, id, name, email)
		SELECT $1, gen_random_uuid(), 'p' || i, 'p' || lpad(i::text, 3, '0') || '@acme.test' FROM generate_series(1, 101) AS i`, fx.OrgA); err != nil {
		t.Fatal(err)
	}
	wantEmails := []string{"adam@acme.test", "alice@acme.test", "bob@acme.test"}
	for i := 1; len(wantEmails) < identity.MaxSCIMPage; i++ {
		wantEmails = append(wantEmails, fmt.Sprintf("p%03d@acme.test", i))
	}
	for _, tc := range []struct {
		name              string
		startIndex, count int
		want              []string
	}{
		{"CountOverTheMax", 1, 1000, wantEmails},
		{"LastPage", 101, 10, []string{"p098@acme.test", "p099@acme.test", "p100@acme.test", "p101@acme.test", "rita@acme.test"}},
		{"CountZero", 1, 0, nil},
		{"PastTheEnd", 106, 10, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps, total, err := b.People.ProvisionedPeople(t.Context(), scimClient(fx.OrgA), identity.PeopleFilter{}, tc.startIndex, tc.count)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				got = append(got, p.Email)
			}
			if d := cmp.Diff(tc.want, got); d != "" || total != 105 {
				t.Errorf("total = %d, want 105; e-mail addresses (-want +got):\n%s", total, d)
			}
		})
	}
}

package identity_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// TestSignInSettingsRefusals checks the bounds of the settings: public mail domains are refused but
// domains that merely start like one are not, a group given twice in another case is refused, and at most
// MaxGroupRoles groups are mapped.
func TestSignInSettingsRefusals(t *testing.T) {
	t.Parallel()
	b := setup(t)
	adam := b.User(t, fx.OrgA, fx.Adam)
	groups := func(n int) []identity.GroupRole {
		gs := make([]identity.GroupRole, n)
		for i := range gs {
			gs[i] = identity.GroupRole{Group: fmt.Sprintf("Group %d", i), Role: booking.RoleEmployee}
		}
		return gs
	}
	for _, tc := range []struct {
		name    string
		st      identity.SignInSettings
		refusal string // "" when the settings are saved
	}{
		{"PublicDomainUnderAnotherTopLevelDomain", identity.SignInSettings{Domains: []string{"live.at"}},
			"domains: live.at cannot be used; add a domain that your organization owns"},
		{"DomainsThatStartLikePublicOnes", identity.SignInSettings{Domains: []string{"liveperson.test", "gmxcorp.test", "outlookers.test", "aolabs.test"}}, ""},
		{"GroupTwiceInAnotherCase", identity.SignInSettings{GroupRoles: []identity.GroupRole{
			{Group: "Office managers", Role: booking.RoleAdmin}, {Group: "OFFICE MANAGERS", Role: booking.RoleEmployee}}},
			"groupRoles: OFFICE MANAGERS is given twice"},
		{"MaxGroupRoles", identity.SignInSettings{GroupRoles: groups(identity.MaxGroupRoles)}, ""},
		{"OneGroupRoleTooMany", identity.SignInSettings{GroupRoles: groups(identity.MaxGroupRoles + 1)}, "groupRoles: at most 100"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := b.People.SetSignInSettings(t.Context(), adam, tc.st)
			if tc.refusal == "" {
				if err != nil {
					t.Errorf("SetSignInSettings: %v, want the settings saved", err)
				}
				return
			}
			wantRefusal(t, err, tc.refusal)
		})
	}
}

// TestGroupsClaimShapes checks the groups claims that set a role: a list or a single string; a claim
// the organization maps no group of leaves the role as it is.
func TestGroupsClaimShapes(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	adam := b.User(t, fx.OrgA, fx.Adam)
	signInRita := func(claim any) booking.Role {
		t.Helper()
		u, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|rita", Email: "rita@acme.test", EmailVerified: true,
			Claims: map[string]any{"groups": claim}})
		if err != nil {
			t.Fatalf("SignIn with %v: %v", claim, err)
		}
		return u.Role
	}

	// A groups claim but no group mapped: Rita stays a receptionist, though the default role is employee.
	if err := b.People.SetSignInSettings(t.Context(), adam, identity.SignInSettings{Domains: []string{"acme.test"}, GroupsClaim: "groups"}); err != nil {
		t.Fatal(err)
	}
	got := []booking.Role{signInRita([]any{"Engineering"})}

	if err := b.People.SetSignInSettings(t.Context(), adam, identity.SignInSettings{
		Domains: []string{"acme.test"}, GroupsClaim: "groups", GroupRoles: []identity.GroupRole{{Group: "Office managers", Role: booking.RoleAdmin}},
	}); err != nil {
		t.Fatal(err)
	}
	got = append(got, signInRita("Office managers"), signInRita([]string{"Engineering"}), signInRita(42))
	want := []booking.Role{booking.RoleReceptionist, booking.RoleAdmin, booking.RoleEmployee, booking.RoleEmployee}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("roles: no mapping, a string, a list, a number (-want +got):\n%s", d)
	}
}

// TestSignInRefusesTheDeactivated checks that a deactivated person's sign-in is refused with
// ErrDeactivated, and returns the person so that the caller can name their organization's admins.
func TestSignInRefusesTheDeactivated(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	if err := b.People.SetUserActive(t.Context(), b.User(t, fx.OrgA, fx.Adam), fx.Alice, false); err != nil {
		t.Fatal(err)
	}
	want, err := b.People.FindUser(t.Context(), fx.Alice)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []identity.Identity{
		{Subject: "idp|alice", Email: "alice@acme.test", EmailVerified: true}, // binds her by e-mail
		{Subject: "idp|alice"}, // finds her by subject
	} {
		got, err := b.People.SignIn(t.Context(), id)
		if !errors.Is(err, booking.ErrDeactivated) {
			t.Errorf("SignIn(%+v) error = %v, want ErrDeactivated", id, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("SignIn(%+v) person (-want +got):\n%s", id, d)
		}
	}
}

package identity_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
)

// TestGroupsMayLowerTheDefaultRole checks that a mapped group gives its role even when it is below the
// organization's default role, to new people and to people who have signed in before.
func TestGroupsMayLowerTheDefaultRole(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")
	if err := b.People.SetSignInSettings(t.Context(), b.User(t, fx.OrgA, fx.Adam), identity.SignInSettings{
		Domains: []string{"acme.test"}, DefaultRole: booking.RoleReceptionist, GroupsClaim: "groups",
		GroupRoles: []identity.GroupRole{{Group: "Contractors", Role: booking.RoleEmployee}, {Group: "Office managers", Role: booking.RoleAdmin}},
	}); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		name   string
		groups []any
		want   booking.Role
	}{
		{"MappedBelowTheDefault", []any{"Contractors"}, booking.RoleEmployee},
		{"MappedBelowAndUnmapped", []any{"Engineering", "contractors"}, booking.RoleEmployee},
		{"TheHighestMapped", []any{"Contractors", "Office managers"}, booking.RoleAdmin},
		{"NoneMapped", []any{"Engineering"}, booking.RoleReceptionist},
		{"NoGroups", []any{}, booking.RoleReceptionist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			email := fmt.Sprintf("person%d@acme.test", i)
			u, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|" + email, Email: email, EmailVerified: true,
				Claims: map[string]any{"groups": tc.groups}})
			if err != nil {
				t.Fatalf("SignIn: %v", err)
			}
			got := []booking.Role{u.Role, b.User(t, fx.OrgA, u.ID).Role}
			if d := cmp.Diff([]booking.Role{tc.want, tc.want}, got); d != "" {
				t.Errorf("role signed in and stored (-want +got):\n%s", d)
			}
		})
	}

	t.Run("APersonWhoSignedInBefore", func(t *testing.T) {
		var got []booking.Role
		for _, groups := range [][]any{{"Office managers"}, {"Contractors"}, {"Engineering"}, {"Contractors"}} {
			u, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|bob", Email: "bob@acme.test", EmailVerified: true,
				Claims: map[string]any{"groups": groups}})
			if err != nil {
				t.Fatalf("SignIn with %v: %v", groups, err)
			}
			got = append(got, u.Role, b.User(t, fx.OrgA, fx.Bob).Role)
		}
		want := []booking.Role{booking.RoleAdmin, booking.RoleAdmin, booking.RoleEmployee, booking.RoleEmployee,
			booking.RoleReceptionist, booking.RoleReceptionist, booking.RoleEmployee, booking.RoleEmployee}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("roles signed in and stored, sign-in after sign-in (-want +got):\n%s", d)
		}
	})
}

// TestSignInDomainInAnyCase checks that an address's domain matches the organization's proved domain in
// any case: a first sign-in gets an account there, and a known person is found and bound.
func TestSignInDomainInAnyCase(t *testing.T) {
	t.Parallel()
	b, _ := setupIdentity(t)
	fx.VerifyDomain(t, b.Service, fx.OrgA, "acme.test")

	for _, email := range []string{"Nina@ACME.Test", "nina.novak@acme.TEST"} {
		t.Run("JustInTime"+email, func(t *testing.T) {
			got, err := b.People.SignIn(t.Context(), identity.Identity{Subject: "idp|" + email, Email: email, EmailVerified: true,
				GivenName: "Nina", FamilyName: "Novak"})
			if err != nil {
				t.Fatalf("SignIn: %v", err)
			}
			want := booking.User{
				OrganizationID: fx.OrgA, Name: "Nina", Surname: "Novak", Email: email, CanBeSearched: true,
				Type: "SERVICE_INTERNAL", UserLanguage: "en", Role: booking.RoleEmployee, Active: true,
			}
			if d := cmp.Diff(want, got, cmpopts.IgnoreFields(booking.User{}, "ID")); d != "" {
				t.Errorf("the new person (-want +got):\n%s", d)
			}
			if d := cmp.Diff(got, b.User(t, fx.OrgA, got.ID)); d != "" {
				t.Errorf("stored (-signed in +stored):\n%s", d)
			}
		})
	}

	t.Run("KnownPersonIsBound", func(t *testing.T) {
		u, err := b.People.UserByIdentity(t.Context(), "idp|alice", "ALICE@Acme.Test", true)
		if err != nil {
			t.Fatalf("UserByIdentity: %v", err)
		}
		if d := cmp.Diff(b.User(t, fx.OrgA, fx.Alice), u); d != "" {
			t.Errorf("found (-Alice +got):\n%s", d)
		}
		want := []account{{Organization: fx.OrgA, Email: "alice@acme.test", Subject: "idp|alice", BindsByEmail: true}}
		if d := cmp.Diff(want, accountsWithEmail(t, b, "alice@acme.test")); d != "" {
			t.Errorf("Alice's account (-want +got):\n%s", d)
		}
	})
}

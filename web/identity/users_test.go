package identity_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

func TestUserLookups(t *testing.T) {
	t.Parallel()
	t.Run("UserByIDOtherOrganizationIs1000", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		_, err := b.Service.UserByID(t.Context(), bookingtest.OrgA, bookingtest.Boris)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
	})
	t.Run("FindUserAnyOrganization", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		got, err := b.People.FindUser(t.Context(), bookingtest.Boris)
		if err != nil {
			t.Fatalf("FindUser: %v", err)
		}
		if got.OrganizationID != bookingtest.OrgB {
			t.Errorf("OrganizationID = %v, want %v", got.OrganizationID, bookingtest.OrgB)
		}
		_, err = b.People.FindUser(t.Context(), uuid.New())
		bookingtest.WantCode(t, err, booking.CodeUserNotFound)
	})
	t.Run("UserByIdentityEmail", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		bookingtest.VerifyDomain(t, b.Service, bookingtest.OrgA, "acme.test")
		got, err := b.People.UserByIdentity(t.Context(), "unknown-subject", "Rita@Acme.test", true)
		if err != nil {
			t.Fatalf("UserByIdentity: %v", err)
		}
		if got.ID != bookingtest.Rita {
			t.Errorf("ID = %v, want Rita", got.ID)
		}
		_, err = b.People.UserByIdentity(t.Context(), "nobody-subject", "nobody@acme.test", true)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		// Rita is now bound to that subject, so her address no longer matches her for another subject. An
		// address the provider has not verified matches nobody.
		_, err = b.People.UserByIdentity(t.Context(), "another-subject", "rita@acme.test", true)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		_, err = b.People.UserByIdentity(t.Context(), "another-subject", "alice@acme.test", false)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		got, err = b.People.UserByIdentity(t.Context(), "unknown-subject", "", false)
		if err != nil || got.ID != bookingtest.Rita {
			t.Errorf("UserByIdentity by the bound subject = %v, %v; want Rita", got.ID, err)
		}
	})
	t.Run("UserByIdentityEmailOnlyInTheDomainsOrganization", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		// Globex gets a user with Alice's address before Acme proves acme.test.
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{{
			ID: uuid.NewString(), OrganizationID: bookingtest.OrgB.String(), Name: "alice", Email: "alice@acme.test",
		}}}); err != nil {
			t.Fatalf("Import: %v", err)
		}
		// Until an organization proves the domain, the address names nobody.
		_, err := b.People.UserByIdentity(t.Context(), "unknown-subject", "alice@acme.test", true)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		// Then it names the person of that organization only.
		bookingtest.VerifyDomain(t, b.Service, bookingtest.OrgA, "acme.test")
		got, err := b.People.UserByIdentity(t.Context(), "unknown-subject", "alice@acme.test", true)
		if err != nil {
			t.Fatalf("UserByIdentity: %v", err)
		}
		if got.ID != bookingtest.Alice {
			t.Errorf("ID = %v, want Alice", got.ID)
		}
	})
}

package booking_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

func TestActingFor(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		actor  func(users) booking.User
		target *uuid.UUID // nil: none given
		want   uuid.UUID  // the user acted for, when no error
		code   booking.Code
	}{
		{"NilTargetIsActor", func(u users) booking.User { return u.alice }, nil, bookingtest.Alice, 0},
		{"OwnIDIsActor", func(u users) booking.User { return u.alice }, ptr(bookingtest.Alice), bookingtest.Alice, 0},
		{"OwnIDIsActorInOrganizationB", func(u users) booking.User { return u.boris }, ptr(bookingtest.Boris), bookingtest.Boris, 0},
		{"EmployeeForAnotherUserIs1001", func(u users) booking.User { return u.bob }, ptr(bookingtest.Alice), uuid.Nil, booking.CodeForbidden},
		{"EmployeeForUnknownUserIs1001", func(u users) booking.User { return u.bob }, ptr(uuid.New()), uuid.Nil, booking.CodeForbidden},
		{"EmployeeForOtherOrganizationIs1001", func(u users) booking.User { return u.boris }, ptr(bookingtest.Alice), uuid.Nil, booking.CodeForbidden},
		{"ReceptionistForAlice", func(u users) booking.User { return u.rita }, ptr(bookingtest.Alice), bookingtest.Alice, 0},
		{"ReceptionistForAdmin", func(u users) booking.User { return u.rita }, ptr(bookingtest.Adam), bookingtest.Adam, 0},
		{"AdminForBob", func(u users) booking.User { return u.adam }, ptr(bookingtest.Bob), bookingtest.Bob, 0},
		{"AdminForReceptionist", func(u users) booking.User { return u.adam }, ptr(bookingtest.Rita), bookingtest.Rita, 0},
		{"ReceptionistForUnknownIs1003", func(u users) booking.User { return u.rita }, ptr(uuid.New()), uuid.Nil, booking.CodeUserNotFound},
		{"ReceptionistForOtherOrganizationIs1003", func(u users) booking.User { return u.rita }, ptr(bookingtest.Boris), uuid.Nil, booking.CodeUserNotFound},
		{"AdminForOtherOrganizationIs1003", func(u users) booking.User { return u.adam }, ptr(bookingtest.Boris), uuid.Nil, booking.CodeUserNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			got, err := b.Service.ActingFor(t.Context(), tt.actor(fixtureUsers(t, b)), tt.target)
			bookingtest.WantCode(t, err, tt.code)
			if tt.code != 0 {
				if got.ID != uuid.Nil {
					t.Errorf("user = %v, want none on error", got.ID)
				}
				return
			}
			if got.ID != tt.want {
				t.Fatalf("user = %v, want %v", got.ID, tt.want)
			}
			// The user is returned complete, as stored.
			if got != b.User(t, got.OrganizationID, tt.want) {
				t.Errorf("user = %+v, want it as stored", got)
			}
		})
	}

	t.Run("TargetCarriesRoleAndOrganization", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		got, err := b.Service.ActingFor(t.Context(), u.rita, ptr(bookingtest.Alice))
		if err != nil {
			t.Fatalf("ActingFor: %v", err)
		}
		if got.Role != booking.RoleEmployee || got.OrganizationID != bookingtest.OrgA || got.Email != "alice@acme.test" {
			t.Errorf("user = %+v, want Alice, EMPLOYEE of A", got)
		}
	})
}

func TestUserLookups(t *testing.T) {
	t.Parallel()
	t.Run("UserByIDOtherOrganizationIs1000", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		_, err := b.Service.UserByID(t.Context(), bookingtest.OrgA, bookingtest.Boris)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
	})
	t.Run("FindUserAnyOrganization", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		got, err := b.Service.FindUser(t.Context(), bookingtest.Boris)
		if err != nil {
			t.Fatalf("FindUser: %v", err)
		}
		if got.OrganizationID != bookingtest.OrgB {
			t.Errorf("OrganizationID = %v, want %v", got.OrganizationID, bookingtest.OrgB)
		}
		_, err = b.Service.FindUser(t.Context(), uuid.New())
		bookingtest.WantCode(t, err, booking.CodeUserNotFound)
	})
	t.Run("UserByIdentityEmail", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		bookingtest.VerifyDomain(t, b.Service, bookingtest.OrgA, "acme.test")
		got, err := b.Service.UserByIdentity(t.Context(), "unknown-subject", "Rita@Acme.test", true)
		if err != nil {
			t.Fatalf("UserByIdentity: %v", err)
		}
		if got.ID != bookingtest.Rita {
			t.Errorf("ID = %v, want Rita", got.ID)
		}
		_, err = b.Service.UserByIdentity(t.Context(), "nobody-subject", "nobody@acme.test", true)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		// Rita is now bound to that subject, so her address no longer matches her for another subject. An
		// address the provider has not verified matches nobody.
		_, err = b.Service.UserByIdentity(t.Context(), "another-subject", "rita@acme.test", true)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		_, err = b.Service.UserByIdentity(t.Context(), "another-subject", "alice@acme.test", false)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		got, err = b.Service.UserByIdentity(t.Context(), "unknown-subject", "", false)
		if err != nil || got.ID != bookingtest.Rita {
			t.Errorf("UserByIdentity by the bound subject = %v, %v; want Rita", got.ID, err)
		}
	})
	t.Run("UserByIdentityEmailOnlyInTheDomainsOrganization", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		// Globex gets a user with Alice's address before Acme proves acme.test.
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{{
			ID: uuid.NewString(), OrganizationID: bookingtest.OrgB.String(), Name: "alice", Email: "alice@acme.test",
		}}}); err != nil {
			t.Fatalf("Import: %v", err)
		}
		// Until an organization proves the domain, the address names nobody.
		_, err := b.Service.UserByIdentity(t.Context(), "unknown-subject", "alice@acme.test", true)
		bookingtest.WantCode(t, err, booking.CodeUnauthorized)
		// Then it names the person of that organization only.
		bookingtest.VerifyDomain(t, b.Service, bookingtest.OrgA, "acme.test")
		got, err := b.Service.UserByIdentity(t.Context(), "unknown-subject", "alice@acme.test", true)
		if err != nil {
			t.Fatalf("UserByIdentity: %v", err)
		}
		if got.ID != bookingtest.Alice {
			t.Errorf("ID = %v, want Alice", got.ID)
		}
	})
}

package booking_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
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

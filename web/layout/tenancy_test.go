package layout_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

func TestOnlyAdmins(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	calls := map[string]func(u booking.User) error{
		"List": func(u booking.User) error { _, err := b.admin.List(ctx, u, "features"); return err },
		"Get": func(u booking.User) error {
			_, err := b.admin.Get(ctx, u, "features", bookingtest.FeatureScreen)
			return err
		},
		"Put": func(u booking.User) error {
			_, _, err := b.admin.Put(ctx, u, "features", bookingtest.FeatureScreen, []byte(`{"name": "TV"}`), "")
			return err
		},
		"Delete": func(u booking.User) error { return b.admin.Delete(ctx, u, "features", bookingtest.FeatureScreen, "") },
		"Export": func(u booking.User) error { _, err := b.admin.Export(ctx, u); return err },
		"Audit":  func(u booking.User) error { _, err := b.admin.Audit(ctx, u, booking.AuditFilter{}); return err },
	}
	rita := b.User(t, bookingtest.OrgA, bookingtest.Rita)
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			bookingtest.WantCode(t, call(b.alice), booking.CodeForbidden)
			bookingtest.WantCode(t, call(rita), booking.CodeForbidden)
		})
	}
	if got, _ := b.admin.Get(ctx, b.adam, "features", bookingtest.FeatureScreen); got.JSON == nil {
		t.Fatal("the feature is gone")
	}
}

func TestOtherOrganizationsObjectsAreUnknown(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	theirs := bookingtest.BuildingB
	_, err := b.admin.Get(ctx, b.adam, "buildings", theirs)
	bookingtest.WantCode(t, err, booking.CodeObjectNotFound)
	body := []byte(`{"name": "Taken", "timezone": "Europe/Madrid", "address": {}}`)
	_, _, err = b.admin.Put(ctx, b.adam, "buildings", theirs, body, "")
	bookingtest.WantCode(t, err, booking.CodeObjectNotFound)
	bookingtest.WantCode(t, b.admin.Delete(ctx, b.adam, "buildings", theirs, ""), booking.CodeObjectNotFound)
	// A user's id is global too: bearer tokens find users by id in every organization.
	_, _, err = b.admin.Put(ctx, b.adam, "users", bookingtest.Boris, []byte(`{"name": "Boris", "email": "boris@acme.test"}`), "")
	bookingtest.WantCode(t, err, booking.CodeObjectNotFound)
	if n := bookingtest.RowCount(t, b.Bundle, "SELECT count(*) FROM buildings WHERE id = $1", theirs); n != 1 {
		t.Errorf("buildings with the id = %d, want 1 (theirs)", n)
	}
	if n := bookingtest.RowCount(t, b.Bundle, "SELECT count(*) FROM users WHERE id = $1", bookingtest.Boris); n != 1 {
		t.Errorf("users with the id = %d, want 1 (theirs)", n)
	}
	list, err := b.admin.List(ctx, b.adam, "buildings")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range list {
		if o.ID == theirs {
			t.Errorf("List holds the other organization's building")
		}
	}
}

func TestPutBody(t *testing.T) {
	t.Parallel()
	b := setup(t)
	other := uuid.New()
	tests := []struct {
		name    string
		body    string
		code    booking.Code
		message string
	}{
		{"IDOfAnotherObject", fmt.Sprintf(`{"id": %q, "name": "X"}`, other), booking.CodeInvalidRequest,
			fmt.Sprintf("id: must be the id in the path (%s) or left out", b.newID)},
		{"AnotherOrganization", fmt.Sprintf(`{"organizationId": %q, "name": "X"}`, bookingtest.OrgB), booking.CodeInvalidRequest,
			fmt.Sprintf("organizationId: must be your organization's id (%s) or left out", bookingtest.OrgA)},
		{"NotAnObject", `["name"]`, booking.CodeInvalidRequest, "body: must be one JSON object"},
		{"UnknownField", `{"name": "X", "colour": "red"}`, booking.CodeInvalidRequest, `features[0]: unknown field "colour"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := b.admin.Put(t.Context(), b.adam, "features", b.newID, []byte(tc.body), "")
			bookingtest.WantCode(t, err, tc.code)
			if got := err.(*booking.Error).Message; got != tc.message {
				t.Errorf("Message = %q, want %q", got, tc.message)
			}
		})
	}
	t.Run("IDGivenAndSame", func(t *testing.T) {
		_, created, err := b.admin.Put(t.Context(), b.adam, "features", b.newID,
			fmt.Appendf(nil, `{"id": %q, "organizationId": %q, "name": "X"}`, b.newID, bookingtest.OrgA), "")
		if err != nil || !created {
			t.Errorf("Put = %v, %v; want created", created, err)
		}
	})
	t.Run("UnknownCollection", func(t *testing.T) {
		_, err := b.admin.List(t.Context(), b.adam, layout.Collection("bookings"))
		bookingtest.WantCode(t, err, booking.CodeObjectNotFound)
	})
}

// TestIDsOfAnotherCollectionAreUnknown uses the id of one of the organization's buildings as a feature's:
// ids are global, so no feature is created with it, and the building stays as it was.
func TestIDsOfAnotherCollectionAreUnknown(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := t.Context()
	building, err := b.admin.Get(ctx, b.adam, layout.Buildings, bookingtest.BuildingMadrid)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = b.admin.Put(ctx, b.adam, layout.Features, bookingtest.BuildingMadrid, []byte(`{"name": "Lamp"}`), "")
	bookingtest.WantCode(t, err, booking.CodeObjectNotFound)
	_, err = b.admin.Get(ctx, b.adam, layout.Features, bookingtest.BuildingMadrid)
	bookingtest.WantCode(t, err, booking.CodeObjectNotFound)
	bookingtest.WantCode(t, b.admin.Delete(ctx, b.adam, layout.Features, bookingtest.BuildingMadrid, ""), booking.CodeObjectNotFound)
	after, err := b.admin.Get(ctx, b.adam, layout.Buildings, bookingtest.BuildingMadrid)
	if diff := cmp.Diff(building, after); err != nil || diff != "" {
		t.Errorf("the building after (%v) (-before +after):\n%s", err, diff)
	}
	if n := bookingtest.RowCount(t, b.Bundle, "SELECT count(*) FROM features WHERE id = $1", bookingtest.BuildingMadrid); n != 0 {
		t.Errorf("features with the building's id = %d, want 0", n)
	}
}

package booking_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// A hidden building of organization A, with a visible floor, which the catalogue tests add to the fixture.
var (
	buildingHidden        = uuid.MustParse("00000000-0000-4000-8000-000000030001")
	floorOfHiddenBuilding = uuid.MustParse("00000000-0000-4000-8000-000000030002")
)

// setupCatalogue returns a bundle with the fixture and the hidden building, and the fixture's users.
func setupCatalogue(t *testing.T) (*bookingtest.Bundle, users) {
	t.Helper()
	b := bookingtest.Setup(t)
	org, no := bookingtest.OrgA.String(), false
	l := layout.Layout{
		Buildings: []layout.LayoutBuilding{{
			ID: buildingHidden.String(), OrganizationID: org, Name: "Archive", Timezone: "Europe/Madrid", Visible: &no,
		}},
		Floors: []layout.LayoutFloor{{
			ID: floorOfHiddenBuilding.String(), OrganizationID: org, BuildingID: buildingHidden.String(), Name: "archive-0",
		}},
	}
	importLayout(t, b, l)
	return b, fixtureUsers(t, b)
}

// TestCatalogue checks the buildings and floors a user may see.
func TestCatalogue(t *testing.T) {
	t.Parallel()
	b, u := setupCatalogue(t)

	t.Run("BuildingsVisibleByName", func(t *testing.T) {
		t.Parallel()
		bs, err := b.Service.Buildings(t.Context(), u.alice)
		if err != nil {
			t.Fatalf("Buildings: %v", err)
		}
		var got []string
		for _, bd := range bs {
			got = append(got, bd.Name)
		}
		if want := []string{"Madrid HQ", "New York Office"}; !slices.Equal(got, want) {
			t.Fatalf("buildings = %q, want %q", got, want)
		}
		m := bs[0]
		if m.ID != bookingtest.BuildingMadrid || m.Timezone != "Europe/Madrid" || m.City != "Madrid" || !m.Visible ||
			m.Coordinates == nil || m.Coordinates.Latitude != 40.4168 {
			t.Errorf("Madrid HQ = %+v, want it as imported", m)
		}
		if bs[1].Coordinates != nil {
			t.Errorf("New York Office: Coordinates = %+v, want none", bs[1].Coordinates)
		}
	})

	t.Run("BuildingsOfOtherOrganization", func(t *testing.T) {
		t.Parallel()
		bs, err := b.Service.Buildings(t.Context(), u.boris)
		if err != nil {
			t.Fatalf("Buildings: %v", err)
		}
		if len(bs) != 1 || bs[0].ID != bookingtest.BuildingB {
			t.Fatalf("buildings = %+v, want Globex Tower only", bs)
		}
	})

	t.Run("FloorsVisibleWithBuilding", func(t *testing.T) {
		t.Parallel()
		fs, err := b.Service.Floors(t.Context(), u.alice, bookingtest.BuildingMadrid)
		if err != nil {
			t.Fatalf("Floors: %v", err)
		}
		if len(fs) != 1 {
			t.Fatalf("floors = %+v, want madrid-1 only (the hidden floor is left out)", fs)
		}
		f := fs[0]
		if f.ID != bookingtest.FloorMadrid || f.Name != "madrid-1" || f.FloorNumber != 1 || f.Image != "/static/floors/madrid-1.svg" {
			t.Errorf("floor = %+v, want madrid-1 as imported", f)
		}
		if f.Building.ID != bookingtest.BuildingMadrid || f.Building.Name != "Madrid HQ" {
			t.Errorf("floor.Building = %+v, want Madrid HQ", f.Building)
		}
	})

	for _, tc := range []struct {
		name     string
		actor    booking.User
		building uuid.UUID
	}{
		{"FloorsOfUnknownBuildingIs1004", u.alice, uuid.New()},
		{"FloorsOfHiddenBuildingIs1004", u.alice, buildingHidden},
		{"FloorsOfOtherOrganizationsBuildingIs1004", u.alice, bookingtest.BuildingB},
		{"FloorsOfBuildingOfAIs1004ForB", u.boris, bookingtest.BuildingMadrid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.Service.Floors(t.Context(), tc.actor, tc.building)
			bookingtest.WantCode(t, err, booking.CodeBuildingNotFound)
		})
	}

}

// TestCatalogueSubcategoriesAndFeatures checks the subcategories and features a user may see.
func TestCatalogueSubcategoriesAndFeatures(t *testing.T) {
	t.Parallel()
	b, u := setupCatalogue(t)

	subcategories := func(t *testing.T, actor booking.User, c *booking.Category) []string {
		t.Helper()
		ss, err := b.Service.Subcategories(t.Context(), actor, c)
		if err != nil {
			t.Fatalf("Subcategories: %v", err)
		}
		out := []string{}
		for _, s := range ss {
			out = append(out, s.Name+" "+string(s.Category))
		}
		return out
	}
	category := func(c booking.Category) *booking.Category { return &c }
	for _, tc := range []struct {
		name     string
		actor    booking.User
		category *booking.Category
		want     []string
	}{
		{"SubcategoriesWorkstationsFirst", u.alice, nil, []string{"Desk WORKSTATION", "Meeting room SPACE"}},
		{"SubcategoriesOfSpaces", u.alice, category(booking.CategorySpace), []string{"Meeting room SPACE"}},
		{"SubcategoriesOfWorkstations", u.alice, category(booking.CategoryWorkstation), []string{"Desk WORKSTATION"}},
		{"SubcategoriesOfOtherOrganization", u.boris, nil, []string{"Room SPACE"}},
		{"NoWorkstationsInOtherOrganization", u.boris, category(booking.CategoryWorkstation), []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := subcategories(t, tc.actor, tc.category); !slices.Equal(got, tc.want) {
				t.Errorf("subcategories = %q, want %q", got, tc.want)
			}
		})
	}

	for _, c := range []booking.Category{"ROOM", "space", ""} {
		t.Run("SubcategoriesOfCategory"+string(c)+"Is2000", func(t *testing.T) {
			t.Parallel()
			_, err := b.Service.Subcategories(t.Context(), u.alice, &c)
			bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		})
	}

	t.Run("FeaturesByName", func(t *testing.T) {
		t.Parallel()
		fs, err := b.Service.Features(t.Context(), u.alice)
		if err != nil {
			t.Fatalf("Features: %v", err)
		}
		wantEqual(t, "features", []booking.Feature{
			{ID: bookingtest.FeatureScreen, OrganizationID: bookingtest.OrgA, Name: "Screen", Email: "av@acme.test"},
			{ID: bookingtest.FeatureWhiteboard, OrganizationID: bookingtest.OrgA, Name: "Whiteboard"},
		}, fs)
		fs, err = b.Service.Features(t.Context(), u.boris)
		if err != nil {
			t.Fatalf("Features: %v", err)
		}
		if fs == nil || len(fs) != 0 {
			t.Errorf("features of Globex = %#v, want an empty slice", fs)
		}
	})

}

// TestCatalogueReservables checks the reservables offered with a resource.
func TestCatalogueReservables(t *testing.T) {
	t.Parallel()
	b, u := setupCatalogue(t)

	reservables := func(t *testing.T, actor booking.User, resource uuid.UUID) []booking.Reservable {
		t.Helper()
		rs, err := b.Service.ResourceReservables(t.Context(), actor, resource)
		if err != nil {
			t.Fatalf("ResourceReservables: %v", err)
		}
		return rs
	}
	rvNames := func(rs []booking.Reservable) []string {
		out := []string{}
		for _, r := range rs {
			out = append(out, r.Name)
		}
		return out
	}

	t.Run("ReservablesOfResourceByName", func(t *testing.T) {
		t.Parallel()
		rs := reservables(t, u.alice, bookingtest.RoomGoya)
		if got, want := rvNames(rs), []string{"AV setup", "Coffee"}; !slices.Equal(got, want) {
			t.Fatalf("reservables = %q, want %q", got, want)
		}
		wantEqual(t, "reservables", []booking.Reservable{
			{ID: bookingtest.ReservableAV, OrganizationID: bookingtest.OrgA, Name: "AV setup", Type: rs[0].Type,
				MinimumCancellation: time.Hour, StandardDeliveryTime: 15 * time.Minute},
			{ID: bookingtest.ReservableCoffee, OrganizationID: bookingtest.OrgA, Name: "Coffee", Type: rs[1].Type,
				Description: "Coffee and tea", ChooseQuantity: true, ChooseDeliveryTime: true, AllowComments: true,
				MinimumCancellation: 2 * time.Hour, Email: "catering@acme.test"},
		}, rs)
		if got, want := rvNames(reservables(t, u.alice, bookingtest.RoomVelazquez)), []string{"Coffee"}; !slices.Equal(got, want) {
			t.Errorf("Velázquez: reservables = %q, want %q", got, want)
		}
		if got := rvNames(reservables(t, u.alice, bookingtest.RoomBoard)); len(got) != 0 {
			t.Errorf("Boardroom: reservables = %q, want none", got)
		}
	})

	t.Run("ReservablesWithoutTheModuleAreNone", func(t *testing.T) {
		t.Parallel()
		// Globex's room has a reservable, but Globex has no additional-services module.
		if rs := reservables(t, u.boris, bookingtest.RoomB); rs == nil || len(rs) != 0 {
			t.Errorf("reservables = %#v, want an empty slice", rs)
		}
	})

	for _, tc := range []struct {
		name     string
		actor    booking.User
		resource uuid.UUID
	}{
		{"ReservablesOfUnknownResourceIs1002", u.alice, uuid.New()},
		{"ReservablesOfHiddenResourceIs1002", u.alice, bookingtest.RoomHidden},
		{"ReservablesOfResourceOnHiddenFloorIs1002", u.alice, bookingtest.RoomOnHidden},
		{"ReservablesOfOtherOrganizationsResourceIs1002", u.alice, bookingtest.RoomB},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.Service.ResourceReservables(t.Context(), tc.actor, tc.resource)
			bookingtest.WantCode(t, err, booking.CodeResourceNotFound)
		})
	}
}

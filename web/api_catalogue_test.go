package web_test

import (
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// offeredReservableKeys are the keys of a reservable that a resource offers.
var offeredReservableKeys = append(slices.Clone(reservableKeys), "minimumCancellationMs", "standardDeliveryTimeMs")

// listOf checks a catalogue response: status 200, and a body whose only key is key, holding an array of
// objects with exactly the given keys. It returns the objects.
func listOf(t *testing.T, r reply, key string, keys ...string) []map[string]any {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	body := wantKeys(t, "body", r.object(t), key)
	list := array(t, key, body[key])
	out := make([]map[string]any, len(list))
	for i, e := range list {
		out[i] = wantKeys(t, fmt.Sprintf("%s[%d]", key, i), e, keys...)
	}
	return out
}

func idsOf(list []map[string]any) []string {
	out := []string{}
	for _, m := range list {
		out = append(out, m["id"].(string))
	}
	return out
}

// hiddenBuilding is an Acme building that is not visible. Its floor and room are visible.
var (
	hiddenBuilding        = uuid.MustParse("00000000-0000-4000-8000-000000000310")
	floorOfHiddenBuilding = uuid.MustParse("00000000-0000-4000-8000-000000000410")
	roomInHiddenBuilding  = uuid.MustParse("00000000-0000-4000-8000-000000000920")
)

func importHiddenBuilding(t *testing.T, tb *testBundle) {
	t.Helper()
	no := false
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{
		Buildings: []layout.LayoutBuilding{{ID: hiddenBuilding.String(), OrganizationID: fx.OrgA.String(), Name: "Annex",
			Timezone: "Europe/Madrid", Address: layout.LayoutAddress{Country: "ES", City: "Madrid", Address: "Calle Menor 2"}, Visible: &no}},
		Floors: []layout.LayoutFloor{{ID: floorOfHiddenBuilding.String(), OrganizationID: fx.OrgA.String(), BuildingID: hiddenBuilding.String(),
			Name: "annex-1", FloorNumber: 1}},
		Resources: []layout.LayoutResource{{ID: roomInHiddenBuilding.String(), OrganizationID: fx.OrgA.String(),
			FloorID: floorOfHiddenBuilding.String(), SubcategoryID: fx.SubRoom.String(), ResourceRuleID: fx.RuleRoom.String(),
			Name: "Annex room", PosterCode: "ANX-R1"}},
	}); err != nil {
		t.Fatalf("import hidden building: %v", err)
	}
}

// TestCatalogue checks the lists of buildings, floors, subcategories, features and reservables.
func TestCatalogue(t *testing.T) {
	t.Parallel()
	tb := setup(t) // the subtests only read
	importHiddenBuilding(t, tb)

	t.Run("Buildings", func(t *testing.T) {
		t.Parallel()
		bs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/buildings", nil), "buildings", buildingKeys...)
		if got, want := idsOf(bs), strs(fx.BuildingMadrid, fx.BuildingNewYork); !slices.Equal(got, want) {
			t.Fatalf("buildings = %v, want %v (by name, the hidden one left out)", got, want)
		}
		wantKeys(t, "Madrid.address", bs[0]["address"], addressKeys...)
		wantKeys(t, "Madrid.address.coordinates", field(bs[0], "address.coordinates"), "latitude", "longitude")
		wantKeys(t, "New York.address", bs[1]["address"], addressKeys...)
		wantFields(t, "Madrid", bs[0], map[string]any{
			"name": "Madrid HQ", "timezone": "Europe/Madrid", "status": "ACTIVATED",
			"organization": idObject(fx.OrgA.String()), "address.city": "Madrid",
		})
		wantFields(t, "New York", bs[1], map[string]any{"address.coordinates": nil, "timezone": "America/New_York"})
	})

	t.Run("Floors", func(t *testing.T) {
		t.Parallel()
		fs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/buildings/"+fx.BuildingMadrid.String()+"/floors", nil), "floors", floorKeys...)
		if got, want := idsOf(fs), strs(fx.FloorMadrid); !slices.Equal(got, want) {
			t.Fatalf("floors = %v, want %v (the hidden floor left out)", got, want)
		}
		wantKeys(t, "building", fs[0]["building"], buildingKeys...)
		wantFields(t, "madrid-1", fs[0], map[string]any{
			"name": "madrid-1", "floorNumber": num(1), "image": "/static/floors/madrid-1.svg", "status": "ACTIVATED",
			"type": "OFFICE", "visible": true, "building.id": fx.BuildingMadrid.String(),
		})

		fs = listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/buildings/"+fx.BuildingNewYork.String()+"/floors", nil), "floors", floorKeys...)
		if got, want := idsOf(fs), strs(fx.FloorNewYork); !slices.Equal(got, want) {
			t.Errorf("New York floors = %v, want %v", got, want)
		}
	})

	t.Run("Subcategories", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			query string
			want  []string
		}{
			{"", strs(fx.SubDesk, fx.SubRoom)}, // workstations first
			{"?category=WORKSTATION", strs(fx.SubDesk)},
			{"?category=SPACE", strs(fx.SubRoom)},
		} {
			ss := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/subcategories"+tc.query, nil), "subcategories", subcategoryKeys...)
			if got := idsOf(ss); !slices.Equal(got, tc.want) {
				t.Errorf("subcategories%s = %v, want %v", tc.query, got, tc.want)
			}
		}
		ss := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/subcategories", nil), "subcategories", subcategoryKeys...)
		wantFields(t, "Desk", ss[0], map[string]any{"name": "Desk", "category": "WORKSTATION", "organization": idObject(fx.OrgA.String())})
		wantFields(t, "Meeting room", ss[1], map[string]any{"category": "SPACE"})
	})

	t.Run("Features", func(t *testing.T) {
		t.Parallel()
		fs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/features", nil), "features", featureKeys...)
		if got, want := idsOf(fs), strs(fx.FeatureScreen, fx.FeatureWhiteboard); !slices.Equal(got, want) {
			t.Fatalf("features = %v, want %v", got, want)
		}
		wantFields(t, "Screen", fs[0], map[string]any{"name": "Screen", "email": "av@acme.test", "organization": idObject(fx.OrgA.String())})
	})

	t.Run("ResourceReservables", func(t *testing.T) {
		t.Parallel()
		rs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/resources/"+fx.RoomGoya.String()+"/reservables", nil),
			"reservables", offeredReservableKeys...)
		if got, want := idsOf(rs), strs(fx.ReservableAV, fx.ReservableCoffee); !slices.Equal(got, want) {
			t.Fatalf("Goya's reservables = %v, want %v (by name)", got, want)
		}
		wantFields(t, "AV setup", rs[0], map[string]any{
			"name": "AV setup", "minimumCancellationMs": num(hourMs), "standardDeliveryTimeMs": num(15 * minuteMs),
		})
		wantFields(t, "Coffee", rs[1], map[string]any{
			"organizationId": fx.OrgA.String(), "type": "SERVICE", "description": "Coffee and tea",
			"chooseQuantity": true, "minimumCancellationMs": num(2 * hourMs),
		})

		for _, tc := range []struct {
			resource uuid.UUID
			want     []string
		}{
			{fx.RoomVelazquez, strs(fx.ReservableCoffee)},
			{fx.DeskOne, []string{}},
		} {
			rs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/resources/"+tc.resource.String()+"/reservables", nil),
				"reservables", offeredReservableKeys...)
			if got := idsOf(rs); !slices.Equal(got, tc.want) {
				t.Errorf("reservables of %s = %v, want %v", tc.resource, got, tc.want)
			}
		}
	})

	// Boris, of Globex, sees Globex's catalogue and nothing of Acme's.
	t.Run("OtherOrganization", func(t *testing.T) {
		t.Parallel()
		for _, tc := range []struct {
			path, key string
			keys      []string
			want      []string
		}{
			{"/buildings", "buildings", buildingKeys, strs(fx.BuildingB)},
			{"/buildings/" + fx.BuildingB.String() + "/floors", "floors", floorKeys, strs(fx.FloorB)},
			{"/subcategories", "subcategories", subcategoryKeys, strs(fx.SubRoomB)},
			{"/subcategories?category=WORKSTATION", "subcategories", subcategoryKeys, []string{}},
			{"/features", "features", featureKeys, []string{}},
			// Globex does not have the additional-services module, so no reservable is offered.
			{"/resources/" + fx.RoomB.String() + "/reservables", "reservables", offeredReservableKeys, []string{}},
		} {
			r := tb.call(t, fx.Boris, http.MethodGet, api+tc.path, nil)
			if got := idsOf(listOf(t, r, tc.key, tc.keys...)); !slices.Equal(got, tc.want) {
				t.Errorf("%s as Boris = %v, want %v", tc.path, got, tc.want)
			}
		}
	})

}

// TestCatalogueRefused checks catalogue lookups that are refused: unknown, hidden, another
// organization's, malformed, or without a token.
func TestCatalogueRefused(t *testing.T) {
	t.Parallel()
	tb := setup(t) // the subtests only read
	importHiddenBuilding(t, tb)
	for _, tc := range []struct {
		name, path string
		as         uuid.UUID
		status     int
		code       booking.Code
		detail     []string
	}{
		{name: "FloorsOfUnknownBuilding", as: fx.Alice, path: "/buildings/" + uuid.NewString() + "/floors", status: http.StatusNotFound, code: booking.CodeBuildingNotFound},
		{name: "FloorsOfOtherOrganizationsBuilding", as: fx.Alice, path: "/buildings/" + fx.BuildingB.String() + "/floors", status: http.StatusNotFound, code: booking.CodeBuildingNotFound},
		{name: "FloorsOfAcmeAsBoris", as: fx.Boris, path: "/buildings/" + fx.BuildingMadrid.String() + "/floors", status: http.StatusNotFound, code: booking.CodeBuildingNotFound},
		{name: "FloorsOfHiddenBuilding", as: fx.Alice, path: "/buildings/" + hiddenBuilding.String() + "/floors", status: http.StatusNotFound, code: booking.CodeBuildingNotFound},
		{name: "FloorsBuildingIDNotAUUID", as: fx.Alice, path: "/buildings/madrid/floors", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"buildingId"}},
		{name: "BadCategory", as: fx.Alice, path: "/subcategories?category=ROOM", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"category"}},
		{name: "ReservablesOfUnknownResource", as: fx.Alice, path: "/resources/" + uuid.NewString() + "/reservables", status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "ReservablesOfHiddenResource", as: fx.Alice, path: "/resources/" + fx.RoomHidden.String() + "/reservables", status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "ReservablesOfResourceOnHiddenFloor", as: fx.Alice, path: "/resources/" + fx.RoomOnHidden.String() + "/reservables", status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "ReservablesOfResourceInHiddenBuilding", as: fx.Alice, path: "/resources/" + roomInHiddenBuilding.String() + "/reservables", status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "ReservablesOfOtherOrganizationsResource", as: fx.Alice, path: "/resources/" + fx.RoomB.String() + "/reservables", status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "ReservablesOfAcmeAsBoris", as: fx.Boris, path: "/resources/" + fx.RoomGoya.String() + "/reservables", status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "ReservablesResourceIDNotAUUID", as: fx.Alice, path: "/resources/goya/reservables", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"resourceId"}},
		{name: "BuildingsNoToken", path: "/buildings", status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
		{name: "FloorsNoToken", path: "/buildings/" + fx.BuildingMadrid.String() + "/floors", status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
		{name: "SubcategoriesNoToken", path: "/subcategories", status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
		{name: "FeaturesNoToken", path: "/features", status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
		{name: "ReservablesNoToken", path: "/resources/" + fx.RoomGoya.String() + "/reservables", status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tb.call(t, tc.as, http.MethodGet, api+tc.path, nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
		})
	}
}

// TestAvailabilityOfHiddenBuildingOrFloor checks that availability does not find a building or floor that
// the catalogue hides. /floors returns 1004 for a hidden building and leaves out a hidden floor, so
// availability must agree, with 1004 or 1006, instead of returning 200 with no resources.
func TestAvailabilityOfHiddenBuildingOrFloor(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	importHiddenBuilding(t, tb)
	from, to := fx.At(1, 0, 0), fx.At(2, 0, 0)

	t.Run("HiddenBuilding", func(t *testing.T) {
		t.Parallel()
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, api+"/buildings/"+hiddenBuilding.String()+"/floors", nil), http.StatusNotFound)
		r := tb.call(t, fx.Alice, http.MethodGet, availabilityPath("me", hiddenBuilding, fromTo(from, to)), nil)
		wantProblem(t, r, http.StatusNotFound, booking.CodeBuildingNotFound, noIndex)
	})

	t.Run("HiddenFloor", func(t *testing.T) {
		t.Parallel()
		r := tb.call(t, fx.Alice, http.MethodGet, availabilityPath("me", fx.BuildingMadrid, fromTo(from, to, "floorId", fx.FloorHidden.String())), nil)
		wantProblem(t, r, http.StatusNotFound, booking.CodeFloorNotFound, noIndex)
	})
}

func TestOpenAPIJSONServedWithoutToken(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	r := tb.call(t, uuid.Nil, http.MethodGet, api+"/openapi.json", nil) // no token needed
	wantStatus(t, r, http.StatusOK)
	if mt, _, err := mime.ParseMediaType(r.header.Get("Content-Type")); err != nil || mt != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", r.header.Get("Content-Type"))
	}
	var doc map[string]any
	if err := json.Unmarshal(r.body, &doc); err != nil {
		t.Fatalf("body is not a JSON object: %v", err)
	}
	if v, ok := doc["openapi"].(string); !ok || v == "" {
		t.Errorf("openapi = %#v, want the version of the document", doc["openapi"])
	}

	// A request with a token works too.
	wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, api+"/openapi.json", nil), http.StatusOK)
}

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
	"github.com/workspacebooking/booking/web/layoutimport"
)

// offeredReservableKeys are the keys of a reservable offered for a resource.
var offeredReservableKeys = append(slices.Clone(reservableKeys), "minimumCancellationMs", "standardDeliveryTimeMs")

// listOf checks a catalogue answer: 200, a body with only the key, holding an array of objects with exactly
// the keys. It returns the elements.
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

// hiddenBuilding is a building of Acme that is not visible, with a visible floor and room.
var (
	hiddenBuilding        = uuid.MustParse("00000000-0000-4000-8000-000000000310")
	floorOfHiddenBuilding = uuid.MustParse("00000000-0000-4000-8000-000000000410")
	roomInHiddenBuilding  = uuid.MustParse("00000000-0000-4000-8000-000000000920")
)

func importHiddenBuilding(t *testing.T, tb *testBundle) {
	t.Helper()
	no := false
	if _, err := layoutimport.Import(t.Context(), tb.Service, layoutimport.Layout{
		Buildings: []layoutimport.LayoutBuilding{{ID: hiddenBuilding.String(), OrganizationID: fx.OrgA.String(), Name: "Annex",
			Timezone: "Europe/Madrid", Address: layoutimport.LayoutAddress{Country: "ES", City: "Madrid", Address: "Calle Menor 2"}, Visible: &no}},
		Floors: []layoutimport.LayoutFloor{{ID: floorOfHiddenBuilding.String(), OrganizationID: fx.OrgA.String(), BuildingID: hiddenBuilding.String(),
			Name: "annex-1", FloorNumber: 1}},
		Resources: []layoutimport.LayoutResource{{ID: roomInHiddenBuilding.String(), OrganizationID: fx.OrgA.String(),
			FloorID: floorOfHiddenBuilding.String(), SubcategoryID: fx.SubRoom.String(), ResourceRuleID: fx.RuleRoom.String(),
			Name: "Annex room", PosterCode: "ANX-R1"}},
	}); err != nil {
		t.Fatalf("import hidden building: %v", err)
	}
}

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
		m := bs[0]
		wantValue(t, "name", m["name"], "Madrid HQ")
		wantValue(t, "timezone", m["timezone"], "Europe/Madrid")
		wantValue(t, "status", m["status"], "ACTIVATED")
		wantID(t, "organization", m["organization"], fx.OrgA)
		addr := wantKeys(t, "address", m["address"], addressKeys...)
		wantValue(t, "address.city", addr["city"], "Madrid")
		wantKeys(t, "address.coordinates", addr["coordinates"], "latitude", "longitude")
		ny := wantKeys(t, "New York.address", bs[1]["address"], addressKeys...)
		wantValue(t, "New York.address.coordinates", ny["coordinates"], nil)
		wantValue(t, "New York.timezone", bs[1]["timezone"], "America/New_York")
	})

	t.Run("Floors", func(t *testing.T) {
		t.Parallel()
		fs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/buildings/"+fx.BuildingMadrid.String()+"/floors", nil), "floors", floorKeys...)
		if got, want := idsOf(fs), strs(fx.FloorMadrid); !slices.Equal(got, want) {
			t.Fatalf("floors = %v, want %v (the hidden floor left out)", got, want)
		}
		f := fs[0]
		wantValue(t, "name", f["name"], "madrid-1")
		wantInt(t, "floorNumber", f["floorNumber"], 1)
		wantValue(t, "image", f["image"], "/static/floors/madrid-1.svg")
		wantValue(t, "status", f["status"], "ACTIVATED")
		wantValue(t, "type", f["type"], "OFFICE")
		wantValue(t, "visible", f["visible"], true)
		b := wantKeys(t, "building", f["building"], buildingKeys...)
		wantValue(t, "building.id", b["id"], fx.BuildingMadrid.String())

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
		wantValue(t, "Desk.name", ss[0]["name"], "Desk")
		wantValue(t, "Desk.category", ss[0]["category"], "WORKSTATION")
		wantValue(t, "Meeting room.category", ss[1]["category"], "SPACE")
		wantID(t, "Desk.organization", ss[0]["organization"], fx.OrgA)
	})

	t.Run("Features", func(t *testing.T) {
		t.Parallel()
		fs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/features", nil), "features", featureKeys...)
		if got, want := idsOf(fs), strs(fx.FeatureScreen, fx.FeatureWhiteboard); !slices.Equal(got, want) {
			t.Fatalf("features = %v, want %v", got, want)
		}
		wantValue(t, "Screen.name", fs[0]["name"], "Screen")
		wantValue(t, "Screen.email", fs[0]["email"], "av@acme.test")
		wantID(t, "Screen.organization", fs[0]["organization"], fx.OrgA)
	})

	t.Run("ResourceReservables", func(t *testing.T) {
		t.Parallel()
		rs := listOf(t, tb.call(t, fx.Alice, http.MethodGet, api+"/resources/"+fx.RoomGoya.String()+"/reservables", nil),
			"reservables", offeredReservableKeys...)
		if got, want := idsOf(rs), strs(fx.ReservableAV, fx.ReservableCoffee); !slices.Equal(got, want) {
			t.Fatalf("Goya's reservables = %v, want %v (by name)", got, want)
		}
		av, coffee := rs[0], rs[1]
		wantValue(t, "AV.name", av["name"], "AV setup")
		wantInt(t, "AV.minimumCancellationMs", av["minimumCancellationMs"], hourMs)
		wantInt(t, "AV.standardDeliveryTimeMs", av["standardDeliveryTimeMs"], 15*minuteMs)
		wantValue(t, "Coffee.organizationId", coffee["organizationId"], fx.OrgA.String())
		wantValue(t, "Coffee.type", coffee["type"], "SERVICE")
		wantValue(t, "Coffee.description", coffee["description"], "Coffee and tea")
		wantValue(t, "Coffee.chooseQuantity", coffee["chooseQuantity"], true)
		wantInt(t, "Coffee.minimumCancellationMs", coffee["minimumCancellationMs"], 2*hourMs)

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

	// Boris (Globex) sees Globex's catalogue and nothing of Acme's.
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
			// Globex has no additional-services module: nothing can be contracted.
			{"/resources/" + fx.RoomB.String() + "/reservables", "reservables", offeredReservableKeys, []string{}},
		} {
			r := tb.call(t, fx.Boris, http.MethodGet, api+tc.path, nil)
			if got := idsOf(listOf(t, r, tc.key, tc.keys...)); !slices.Equal(got, tc.want) {
				t.Errorf("%s as Boris = %v, want %v", tc.path, got, tc.want)
			}
		}
	})

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

// A building or floor hidden from the catalogue is not found by availability either: /floors answers 1004
// for the hidden building and leaves the hidden floor out, and availability should agree (1004, 1006)
// rather than answer 200 with no resources.
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

	// A token does no harm.
	wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, api+"/openapi.json", nil), http.StatusOK)
}

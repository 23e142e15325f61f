package web_test

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

var (
	// availableDeskKeys are the keys of a workstation in an availability response: the keys of a listed
	// resource plus category, busy and free. availableSpaceKeys adds capacity for rooms.
	availableDeskKeys  = append(slices.Clone(listedKeys), "category", "busy", "free")
	availableSpaceKeys = append(slices.Clone(availableDeskKeys), "capacity")
)

func availabilityPath(user string, building any, query url.Values) string {
	p := fmt.Sprintf("%s/users/%s/buildings/%s/availability", api, user, building)
	if len(query) > 0 {
		p += "?" + query.Encode()
	}
	return p
}

// fromTo returns the query for the range from–to (to excluded), plus the key/value pairs in kv.
func fromTo(from, to time.Time, kv ...string) url.Values {
	return with(url.Values{"from": {msParam(from)}, "to": {msParam(to)}}, kv...)
}

// available checks an availability response: the status, the exact shape of the body and of every
// resource, and that from and to are echoed back. It returns the resources by ID, and the IDs in order.
func available(t *testing.T, r reply, from, to time.Time) (map[string]map[string]any, []string) {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	body := wantKeys(t, "body", r.object(t), "from", "to", "resources")
	wantInt(t, "from", body["from"], from.UnixMilli())
	wantInt(t, "to", body["to"], to.UnixMilli())
	byID := map[string]map[string]any{}
	var order []string
	for i, e := range array(t, "resources", body["resources"]) {
		where := fmt.Sprintf("resources[%d]", i)
		m, _ := e.(map[string]any)
		keys := availableDeskKeys
		if m["category"] == "SPACE" {
			keys = availableSpaceKeys
		}
		res := wantKeys(t, where, e, keys...)
		wantKeys(t, where+".floor", res["floor"], "id")
		wantKeys(t, where+".subcategory", res["subcategory"], "id")
		wantKeys(t, where+".mapCoordinates", res["mapCoordinates"], mapKeys...)
		busy := array(t, where+".busy", res["busy"])
		for j, iv := range busy {
			wantKeys(t, fmt.Sprintf("%s.busy[%d]", where, j), iv, intervalKeys...)
		}
		if free, _ := res["free"].(bool); free != (len(busy) == 0) {
			t.Errorf("%s.free = %v with %d busy intervals", where, res["free"], len(busy))
		}
		id := res["id"].(string)
		byID[id] = res
		order = append(order, id)
	}
	return byID, order
}

// wantBusy checks a resource's busy intervals.
func wantBusy(t *testing.T, where string, res map[string]any, want ...[2]time.Time) {
	t.Helper()
	got := [][2]any{}
	for _, iv := range array(t, where+".busy", res["busy"]) {
		got = append(got, [2]any{field(iv, "startDate"), field(iv, "endDate")})
	}
	wantIntervals := [][2]any{}
	for _, w := range want {
		wantIntervals = append(wantIntervals, [2]any{num(w[0].UnixMilli()), num(w[1].UnixMilli())})
	}
	if diff := gocmp.Diff(wantIntervals, got); diff != "" {
		t.Errorf("%s.busy (-want +got):\n%s", where, diff)
	}
	wantValue(t, where+".free", res["free"], len(want) == 0)
}

// TestAvailability checks the list of a building's resources with their busy intervals, and its filters.
func TestAvailability(t *testing.T) {
	t.Parallel()
	tb := setup(t) // shared: the subtests only read
	// Tomorrow, Goya is booked 10–11 by Alice and 14–15 by Bob, and Bob's 12–13 booking is cancelled. The
	// Boardroom's 10–11 booking waits for approval. Desk 1 is booked all day. Velázquez and Desk 2 are free.
	tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
	tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 14, 0), fx.At(1, 15, 0))
	cancelled := tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0))
	detail(t, tb.call(t, fx.Bob, http.MethodDelete, bookingPath(cancelled), nil), http.StatusOK)
	tb.book(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))
	created(t, tb.call(t, fx.Bob, http.MethodPost, deskPath("me"), []any{allDay(fx.DeskOne, fx.At(1, 0, 0))}), 1)
	tb.book(t, fx.Boris, fx.RoomB, fx.At(1, 10, 0), fx.At(1, 11, 0))
	madrid := strs(fx.RoomBoard, fx.DeskOne, fx.DeskTwo, fx.RoomGoya, fx.RoomVelazquez) // sorted by floor number, then name
	day := [2]time.Time{fx.At(1, 0, 0), fx.At(2, 0, 0)}

	t.Run("ShapeAndValues", func(t *testing.T) {
		t.Parallel()
		from, to := fx.At(1, 10, 30), fx.At(1, 12, 30)
		byID, order := available(t, tb.call(t, fx.Alice, http.MethodGet, availabilityPath("me", fx.BuildingMadrid, fromTo(from, to)), nil), from, to)
		if !slices.Equal(order, madrid) {
			t.Fatalf("resources = %v, want %v", order, madrid)
		}
		goya := byID[fx.RoomGoya.String()]
		wantFields(t, "Goya", goya, map[string]any{
			"name": "Goya", "posterCode": "MAD-R1", "phone": "+34 910 000 001", "category": "SPACE",
			"visible": true, "approachable": true, "capacity": num(8),
			"floor": idObject(fx.FloorMadrid.String()), "subcategory": idObject(fx.SubRoom.String()),
		})
		// Intervals are cut to the range; the cancelled booking and the one outside the range are left out.
		wantBusy(t, "Goya", goya, [2]time.Time{from, fx.At(1, 11, 0)})
		wantBusy(t, "Boardroom", byID[fx.RoomBoard.String()], [2]time.Time{from, fx.At(1, 11, 0)})
		desk := byID[fx.DeskOne.String()]
		wantFields(t, "Desk 1", desk, map[string]any{"category": "WORKSTATION", "subcategory": idObject(fx.SubDesk.String())})
		wantBusy(t, "Desk 1", desk, [2]time.Time{from, to})
		wantBusy(t, "Desk 2", byID[fx.DeskTwo.String()])
		wantBusy(t, "Velázquez", byID[fx.RoomVelazquez.String()])
	})

	t.Run("EveryBusyIntervalEarliestFirst", func(t *testing.T) {
		t.Parallel()
		byID, _ := available(t, tb.call(t, fx.Alice, http.MethodGet, availabilityPath("me", fx.BuildingMadrid, fromTo(day[0], day[1])), nil), day[0], day[1])
		wantBusy(t, "Goya", byID[fx.RoomGoya.String()],
			[2]time.Time{fx.At(1, 10, 0), fx.At(1, 11, 0)}, [2]time.Time{fx.At(1, 14, 0), fx.At(1, 15, 0)})
	})

	t.Run("HalfOpen", func(t *testing.T) {
		t.Parallel()
		// 11:00–14:00 touches Goya's bookings at both ends without overlapping them.
		from, to := fx.At(1, 11, 0), fx.At(1, 14, 0)
		byID, _ := available(t, tb.call(t, fx.Alice, http.MethodGet, availabilityPath("me", fx.BuildingMadrid, fromTo(from, to)), nil), from, to)
		wantBusy(t, "Goya", byID[fx.RoomGoya.String()])
		wantBusy(t, "Boardroom", byID[fx.RoomBoard.String()])
	})

	t.Run("ThirtyOneDays", func(t *testing.T) {
		t.Parallel()
		from, to := fx.At(0, 0, 0), fx.At(0, 0, 0).Add(booking.MaxAvailabilityRange)
		available(t, tb.call(t, fx.Alice, http.MethodGet, availabilityPath("me", fx.BuildingMadrid, fromTo(from, to)), nil), from, to)
	})

	for _, tc := range []struct {
		name, user string
		as         uuid.UUID
		building   uuid.UUID
		kv         []string
		features   []string
		want       []string
	}{
		{name: "Floor", kv: []string{"floorId", fx.FloorMadrid.String()}, want: madrid},
		{name: "Workstations", kv: []string{"category", "WORKSTATION"}, want: strs(fx.DeskOne, fx.DeskTwo)},
		{name: "Spaces", kv: []string{"category", "SPACE"}, want: strs(fx.RoomBoard, fx.RoomGoya, fx.RoomVelazquez)},
		{name: "Subcategory", kv: []string{"subcategoryId", fx.SubDesk.String()}, want: strs(fx.DeskOne, fx.DeskTwo)},
		{name: "OneFeature", kv: []string{"features", fx.FeatureScreen.String()}, want: strs(fx.DeskOne, fx.RoomGoya, fx.RoomVelazquez)},
		{name: "EveryFeature", kv: []string{"features", fx.FeatureScreen.String() + "," + fx.FeatureWhiteboard.String()}, want: strs(fx.RoomGoya)},
		{name: "FeaturesRepeated", features: strs(fx.FeatureWhiteboard, fx.FeatureScreen), want: strs(fx.RoomGoya)},
		{name: "Capacity", kv: []string{"capacity", "5"}, want: strs(fx.RoomBoard, fx.RoomGoya)},
		{name: "CapacityAndFeature", kv: []string{"capacity", "5", "features", fx.FeatureScreen.String()}, want: strs(fx.RoomGoya)},
		{name: "SubcategoryOfTheOtherCategory", kv: []string{"subcategoryId", fx.SubDesk.String(), "category", "SPACE"}, want: nil},
		{name: "NewYork", building: fx.BuildingNewYork, want: strs(fx.RoomHudson)},
		{name: "OwnUserID", user: fx.Alice.String(), want: madrid},
		{name: "ReceptionistForAlice", as: fx.Rita, user: fx.Alice.String(), want: madrid},
		{name: "OtherOrganization", as: fx.Boris, building: fx.BuildingB, want: strs(fx.RoomB)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			as, building := fx.Alice, fx.BuildingMadrid
			if tc.as != uuid.Nil {
				as = tc.as
			}
			if tc.building != uuid.Nil {
				building = tc.building
			}
			query := fromTo(day[0], day[1], tc.kv...)
			if tc.features != nil {
				query["features"] = tc.features // as repeated parameters instead of comma-separated
			}
			r := tb.call(t, as, http.MethodGet, availabilityPath(cmp.Or(tc.user, "me"), building, query), nil)
			_, got := available(t, r, day[0], day[1])
			if !slices.Equal(got, tc.want) {
				t.Errorf("resources = %v, want %v", got, tc.want)
			}
		})
	}

	t.Run("OtherOrganizationSeesItsOwnBusy", func(t *testing.T) {
		t.Parallel()
		byID, _ := available(t, tb.call(t, fx.Boris, http.MethodGet, availabilityPath("me", fx.BuildingB, fromTo(day[0], day[1])), nil), day[0], day[1])
		wantBusy(t, "Globex room", byID[fx.RoomB.String()], [2]time.Time{fx.At(1, 10, 0), fx.At(1, 11, 0)})
	})

}

// TestAvailabilityRefused checks malformed queries, and buildings, floors, subcategories and people that
// do not exist or that the caller may not see.
func TestAvailabilityRefused(t *testing.T) {
	t.Parallel()
	tb := setup(t) // shared: the subtests only read
	day := [2]time.Time{fx.At(1, 0, 0), fx.At(2, 0, 0)}
	ok := func(kv ...string) url.Values { return fromTo(day[0], day[1], kv...) }
	for _, tc := range []struct {
		name, user string
		as         uuid.UUID
		noToken    bool
		building   string
		query      url.Values
		status     int
		code       booking.Code
		detail     []string
	}{
		{name: "MissingFrom", query: url.Values{"to": {msParam(day[1])}}, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"from"}},
		{name: "MissingTo", query: url.Values{"from": {msParam(day[0])}}, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"to"}},
		{name: "NoQuery", status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"from", "to"}},
		{name: "FromNotANumber", query: url.Values{"from": {"today"}, "to": {msParam(day[1])}}, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"from"}},
		{name: "ToEqualsFrom", query: fromTo(day[0], day[0]), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"to"}},
		{name: "ToBeforeFrom", query: fromTo(day[1], day[0]), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"to"}},
		{name: "LongerThan31Days", query: fromTo(day[0], day[0].Add(booking.MaxAvailabilityRange+time.Millisecond)), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"to"}},
		{name: "BadCategory", query: ok("category", "ROOM"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"category"}},
		{name: "LowerCaseCategory", query: ok("category", "space"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"category"}},
		{name: "BuildingIDNotAUUID", building: "madrid", query: ok(), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"buildingId"}},
		{name: "FloorIDNotAUUID", query: ok("floorId", "1"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"floorId"}},
		{name: "SubcategoryIDNotAUUID", query: ok("subcategoryId", "desk"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"subcategoryId"}},
		{name: "FeatureNotAUUID", query: ok("features", fx.FeatureScreen.String()+",screen"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"features[1]"}},
		{name: "NegativeCapacity", query: ok("capacity", "-1"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"capacity"}},
		{name: "CapacityNotANumber", query: ok("capacity", "many"), status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"capacity"}},
		{name: "UnknownBuilding", building: uuid.NewString(), query: ok(), status: http.StatusNotFound, code: booking.CodeBuildingNotFound},
		{name: "OtherOrganizationsBuilding", building: fx.BuildingB.String(), query: ok(), status: http.StatusNotFound, code: booking.CodeBuildingNotFound},
		{name: "UnknownFloor", query: ok("floorId", uuid.NewString()), status: http.StatusNotFound, code: booking.CodeFloorNotFound},
		{name: "FloorOfAnotherBuilding", query: ok("floorId", fx.FloorNewYork.String()), status: http.StatusNotFound, code: booking.CodeFloorNotFound},
		{name: "OtherOrganizationsFloor", query: ok("floorId", fx.FloorB.String()), status: http.StatusNotFound, code: booking.CodeFloorNotFound},
		{name: "UnknownSubcategory", query: ok("subcategoryId", uuid.NewString()), status: http.StatusNotFound, code: booking.CodeSubcategoryNotFound},
		{name: "OtherOrganizationsSubcategory", query: ok("subcategoryId", fx.SubRoomB.String()), status: http.StatusNotFound, code: booking.CodeSubcategoryNotFound},
		{name: "EmployeeForAnotherUser", user: fx.Bob.String(), query: ok(), status: http.StatusForbidden, code: booking.CodeForbidden},
		{name: "ReceptionistForUnknownUser", as: fx.Rita, user: uuid.NewString(), query: ok(), status: http.StatusNotFound, code: booking.CodeUserNotFound},
		{name: "NoToken", noToken: true, query: ok(), status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			as := fx.Alice
			switch {
			case tc.noToken:
				as = uuid.Nil
			case tc.as != uuid.Nil:
				as = tc.as
			}
			building := cmp.Or(tc.building, fx.BuildingMadrid.String())
			r := tb.call(t, as, http.MethodGet, availabilityPath(cmp.Or(tc.user, "me"), building, tc.query), nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
		})
	}
}

// TestFreeListingsPointToAvailability checks that the deprecated free listings (spec 4.2) point to
// availability, which replaces them.
func TestFreeListingsPointToAvailability(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, tc := range []struct {
		name, kind, user string
		as               uuid.UUID
		subcategory      uuid.UUID
		status           int
	}{
		{"WorkstationsMe", "workstations", "me", fx.Alice, fx.SubDesk, http.StatusOK},
		{"SpacesMe", "spaces", "me", fx.Alice, fx.SubRoom, http.StatusOK},
		{"WorkstationsForAlice", "workstations", fx.Alice.String(), fx.Rita, fx.SubDesk, http.StatusOK},
		{"SpacesForAlice", "spaces", fx.Alice.String(), fx.Rita, fx.SubRoom, http.StatusOK},
		{"EvenWhenRefused", "spaces", fx.Alice.String(), fx.Bob, fx.SubRoom, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tb.call(t, tc.as, http.MethodGet, freePath(tc.user, tc.kind, fx.BuildingMadrid, tc.subcategory, days(today10).Encode()), nil)
			wantStatus(t, r, tc.status)
			if got := r.header.Get("Deprecation"); got != "true" {
				t.Errorf("Deprecation = %q, want true", got)
			}
			want := fmt.Sprintf(`</api/v1/users/%s/buildings/%s/availability>; rel="successor-version"`, tc.user, fx.BuildingMadrid)
			if got := r.header.Get("Link"); got != want {
				t.Errorf("Link = %q, want %q", got, want)
			}
			// Availability works for the same user and building.
			from, to := today10[0], today10[1]
			available(t, tb.call(t, fx.Rita, http.MethodGet, availabilityPath(tc.user, fx.BuildingMadrid, fromTo(from, to)), nil), from, to)
		})
	}

	t.Run("AvailabilityIsNotDeprecated", func(t *testing.T) {
		t.Parallel()
		r := tb.call(t, fx.Alice, http.MethodGet, availabilityPath("me", fx.BuildingMadrid, fromTo(today10[0], today10[1])), nil)
		wantStatus(t, r, http.StatusOK)
		if got := r.header.Get("Deprecation"); got != "" {
			t.Errorf("Deprecation = %q, want none", got)
		}
	})
}

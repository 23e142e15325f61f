package web_test

import (
	"cmp"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// deskResourceKeys are the keys of a booked workstation: those of a booked space, minus capacity.
var deskResourceKeys = slices.DeleteFunc(slices.Clone(bookedResourceKeys), func(k string) bool { return k == "capacity" })

func deskPath(user string) string { return api + "/users/" + user + "/bookings/workstations/standard" }

// deskBooking returns one element of a workstation create request. If end is zero, endDate is left out.
func deskBooking(resource uuid.UUID, start, end time.Time, kv ...any) map[string]any {
	e := map[string]any{"resource": map[string]any{"id": resource.String()}, "startDate": start.UnixMilli(), "subject": "Focus"}
	if !end.IsZero() {
		e["endDate"] = end.UnixMilli()
	}
	for i := 0; i+1 < len(kv); i += 2 {
		e[kv[i].(string)] = kv[i+1]
	}
	return e
}

// allDay returns an all-day element for the day of t, without endDate.
func allDay(resource uuid.UUID, t time.Time) map[string]any {
	return deskBooking(resource, t, time.Time{}, "allDay", true)
}

func TestCreateWorkstationBookings(t *testing.T) {
	t.Parallel()

	t.Run("ShapeAndValues", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		start, end := fx.At(1, 9, 0), fx.At(1, 17, 0)
		b := created(t, tb.callWith(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, start, end)},
			http.Header{"User-Access-Token": {"idp-token"}}), 1)[0] // {"bookings": [Booking]}, with exactly the Booking keys
		wantInt(t, "startDate", b["startDate"], start.UnixMilli())
		wantInt(t, "endDate", b["endDate"], end.UnixMilli())
		wantInt(t, "duration", b["duration"], 8*hourMs)
		wantValue(t, "status", b["status"], "PENDING")
		wantValue(t, "resourceType", b["resourceType"], "WORKSTATION")
		wantValue(t, "importance", b["importance"], "LOW")
		wantValue(t, "subject", b["subject"], "Focus")
		wantValue(t, "buildingAccessStatus", b["buildingAccessStatus"], "PENDING")
		wantUser(t, "creator", b["creator"], fx.Alice, "alice", "Archer")
		wantUser(t, "organizer", b["organizer"], fx.Alice, "alice", "Archer")
		res := wantKeys(t, "resource", b["resource"], deskResourceKeys...)
		wantValue(t, "resource.id", res["id"], fx.DeskOne.String())
		wantValue(t, "resource.posterCode", res["posterCode"], "MAD-D1")
		wantKeys(t, "resource.floor", res["floor"], floorKeys...)
		sub := wantKeys(t, "resource.subcategory", res["subcategory"], subcategoryKeys...)
		wantValue(t, "resource.subcategory.category", sub["category"], "WORKSTATION")
		rule := wantKeys(t, "resource.resourceRule", res["resourceRule"], ruleKeysAllDay...)
		wantValue(t, "resourceRule.allDayBookings", rule["allDayBookings"], true)
		wantInt(t, "resourceRule.allDayBookingsCheckInMS", rule["allDayBookingsCheckInMS"], 11*hourMs)
		if got := ids(t, "resource.features", res["features"]); !slices.Equal(got, strs(fx.FeatureScreen)) {
			t.Errorf("resource.features = %v, want the screen", got)
		}

		got := tb.get(t, fx.Alice, b["id"].(string))
		wantValue(t, "allDay", got["allDay"], false)
		wantValue(t, "resourceType", got["resourceType"], "WORKSTATION")
	})

	t.Run("SameShapeAsTheSpacesOperation", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		desk := tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 17, 0))})
		room := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))})
		d, r := created(t, desk, 1)[0], created(t, room, 1)[0]
		for _, k := range []string{"creator", "organizer", "body", "supervisedBooking"} {
			dk, rk := keysOf(d[k]), keysOf(r[k])
			if !slices.Equal(dk, rk) {
				t.Errorf("%s keys = %v for a desk, %v for a room", k, dk, rk)
			}
		}
	})

	t.Run("AllDayTomorrow", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{allDay(fx.DeskOne, fx.At(1, 12, 0))}), 1)[0]
		// The booking covers the whole local day.
		wantInt(t, "startDate", b["startDate"], fx.At(1, 0, 0).UnixMilli())
		wantInt(t, "endDate", b["endDate"], fx.At(2, 0, 0).UnixMilli())
		wantInt(t, "duration", b["duration"], 24*hourMs)
		got := tb.get(t, fx.Alice, b["id"].(string))
		wantValue(t, "allDay", got["allDay"], true)
		checkIn := got["checkIn"].(map[string]any)
		wantInt(t, "checkIn.startDate", checkIn["startDate"], fx.At(1, 0, 0).UnixMilli())
		wantInt(t, "checkIn.endDate", checkIn["endDate"], fx.At(1, 11, 0).UnixMilli())

		// The desk is taken for the whole day.
		r := tb.call(t, fx.Bob, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 22, 0), fx.At(1, 23, 0))})
		wantProblem(t, r, http.StatusConflict, booking.CodeResourceNotAvailable, 0)
	})

	t.Run("AllDayTodayFromNow", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.Clock.Set(fx.At(0, 9, 17).Add(42 * time.Second))
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{allDay(fx.DeskOne, fx.At(0, 8, 0))}), 1)[0]
		wantInt(t, "startDate", b["startDate"], fx.At(0, 9, 17).UnixMilli())
		wantInt(t, "endDate", b["endDate"], fx.At(1, 0, 0).UnixMilli())
		tb.checkIn(t, b["id"].(string), fx.At(0, 10, 59))
	})

	t.Run("AllDayIgnoresEndDate", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"),
			[]any{deskBooking(fx.DeskOne, fx.At(1, 12, 0), fx.At(1, 13, 0), "allDay", true)}), 1)[0]
		wantInt(t, "startDate", b["startDate"], fx.At(1, 0, 0).UnixMilli())
		wantInt(t, "endDate", b["endDate"], fx.At(2, 0, 0).UnixMilli())
	})

	t.Run("AllDayFalseIsOrdinary", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"),
			[]any{deskBooking(fx.DeskOne, fx.At(1, 12, 0), fx.At(1, 13, 0), "allDay", false)}), 1)[0]
		wantInt(t, "startDate", b["startDate"], fx.At(1, 12, 0).UnixMilli())
		wantValue(t, "allDay", tb.get(t, fx.Alice, b["id"].(string))["allDay"], false)
	})

	t.Run("SeveralAtOnce", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		bs := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{
			allDay(fx.DeskOne, fx.At(1, 0, 0)), allDay(fx.DeskOne, fx.At(2, 0, 0)), deskBooking(fx.DeskTwo, fx.At(3, 9, 0), fx.At(3, 12, 0)),
		}), 3)
		wantInt(t, "bookings[1].startDate", bs[1]["startDate"], fx.At(2, 0, 0).UnixMilli())
		wantValue(t, "bookings[2].resource.id", bs[2]["resource"].(map[string]any)["id"], fx.DeskTwo.String())
		tb.wantRows(t, "bookings", 3)
	})

	t.Run("ReceptionistForAlice", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Rita, http.MethodPost, deskPath(fx.Alice.String()), []any{allDay(fx.DeskOne, fx.At(1, 0, 0))}), 1)[0]
		wantUser(t, "organizer", b["organizer"], fx.Alice, "alice", "Archer")
		wantUser(t, "creator", b["creator"], fx.Rita, "rita", "Reyes")
	})
}

// TestChangeWorkstationBooking checks changes to workstation bookings. An all-day booking stays all-day
// when moved to another desk, and becomes an ordinary booking when given new times. A desk booking cannot
// move to a space.
func TestChangeWorkstationBooking(t *testing.T) {
	t.Parallel()
	allDayBooking := func(t *testing.T, tb *testBundle) string {
		t.Helper()
		return created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{allDay(fx.DeskOne, fx.At(1, 0, 0))}), 1)[0]["id"].(string)
	}

	t.Run("AllDayToAnotherDesk", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := allDayBooking(t, tb)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id),
			map[string]any{"resource": map[string]any{"id": fx.DeskTwo.String()}}), http.StatusOK)
		wantValue(t, "resource.id", b["resource"].(map[string]any)["id"], fx.DeskTwo.String())
		wantValue(t, "allDay", b["allDay"], true)
		wantInt(t, "startDate", b["startDate"], fx.At(1, 0, 0).UnixMilli())
		wantInt(t, "endDate", b["endDate"], fx.At(2, 0, 0).UnixMilli())
		wantInt(t, "checkIn.endDate", b["checkIn"].(map[string]any)["endDate"], fx.At(1, 11, 0).UnixMilli())
		// Desk 1 can be booked again.
		created(t, tb.call(t, fx.Bob, http.MethodPost, deskPath("me"), []any{allDay(fx.DeskOne, fx.At(1, 0, 0))}), 1)
	})

	t.Run("NewTimesMakeItOrdinary", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := allDayBooking(t, tb)
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id),
			map[string]any{"startDate": fx.At(1, 9, 0).UnixMilli(), "endDate": fx.At(1, 13, 0).UnixMilli()}), http.StatusOK)
		wantValue(t, "allDay", b["allDay"], false)
		wantInt(t, "startDate", b["startDate"], fx.At(1, 9, 0).UnixMilli())
		wantInt(t, "endDate", b["endDate"], fx.At(1, 13, 0).UnixMilli())
	})

	t.Run("ToASpace", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := allDayBooking(t, tb)
		r := tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id), map[string]any{"resource": map[string]any{"id": fx.RoomGoya.String()}})
		wantDetail(t, wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex), "workstation")
		wantValue(t, "resource.id", tb.get(t, fx.Alice, id)["resource"].(map[string]any)["id"], fx.DeskOne.String())
	})
}

// TestCheckInToDeskWithoutMargins checks a desk whose rule has neither advanceCheckIn nor
// expirationMargin (the fixture's "no limits" desk rule). An ordinary booking of it must still have a
// non-empty check-in window, so that check-in works at its start. With an empty window, every check-in
// would be refused (4010 before the start, 4011 from the start on) and the sweep would expire the booking.
func TestCheckInToDeskWithoutMargins(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	b := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(0, 10, 0), fx.At(0, 12, 0))}), 1)[0]
	id := b["id"].(string)
	checkIn := tb.get(t, fx.Alice, id)["checkIn"].(map[string]any)
	if opens, closes := integer(t, "checkIn.startDate", checkIn["startDate"]), integer(t, "checkIn.endDate", checkIn["endDate"]); closes <= opens {
		t.Errorf("checkIn = [%d, %d), an empty window", opens, closes)
	}
	tb.Clock.Set(fx.At(0, 10, 0))
	r := tb.call(t, fx.Alice, http.MethodPost, bookingPath(id, "checkin"), nil)
	wantStatus(t, r, http.StatusOK)
	wantValue(t, "status", r.object(t)["status"], "ACTIVE")
}

func keysOf(v any) []string {
	m, _ := v.(map[string]any)
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestCreateWorkstationBookingsRefused(t *testing.T) {
	t.Parallel()
	ok := func() map[string]any { return deskBooking(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 12, 0)) }
	// roomRuledDesk is a desk governed by the room rule, which allows no all-day bookings.
	roomRuledDesk := uuid.MustParse("00000000-0000-4000-8000-000000000910")
	importRoomRuledDesk := func(t *testing.T, tb *testBundle) {
		t.Helper()
		if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Resources: []layout.LayoutResource{{
			ID: roomRuledDesk.String(), OrganizationID: fx.OrgA.String(), FloorID: fx.FloorMadrid.String(),
			SubcategoryID: fx.SubDesk.String(), ResourceRuleID: fx.RuleRoom.String(), Name: "Desk 3", PosterCode: "MAD-D3",
		}}}); err != nil {
			t.Fatalf("import desk: %v", err)
		}
	}
	for _, tc := range []struct {
		name   string
		as     uuid.UUID
		user   string
		before func(t *testing.T, tb *testBundle)
		body   any
		status int
		code   booking.Code
		index  int
		detail []string
	}{
		{name: "AllDayNotAllowedByTheRule", as: fx.Alice, before: importRoomRuledDesk,
			body:   []any{ok(), allDay(roomRuledDesk, fx.At(1, 0, 0))},
			status: http.StatusConflict, code: booking.CodeAllDayNotAllowed, index: 1},
		{name: "ASpace", as: fx.Alice, body: []any{ok(), deskBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 1, detail: []string{"resource.id", "workstation"}},
		{name: "ASpaceAllDay", as: fx.Alice, body: []any{allDay(fx.RoomGoya, fx.At(1, 0, 0))},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"resource.id"}},
		{name: "MissingEndDate", as: fx.Alice, body: []any{deskBooking(fx.DeskOne, fx.At(1, 9, 0), time.Time{})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"[0].endDate"}},
		{name: "MissingEndDateInSecond", as: fx.Alice, body: []any{ok(), deskBooking(fx.DeskTwo, fx.At(1, 9, 0), time.Time{})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 1, detail: []string{"[1].endDate"}},
		{name: "MissingEndDateAllDayFalse", as: fx.Alice, body: []any{deskBooking(fx.DeskOne, fx.At(1, 9, 0), time.Time{}, "allDay", false)},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"[0].endDate"}},
		{name: "AllDayWithoutStartDate", as: fx.Alice, body: []any{map[string]any{"resource": map[string]any{"id": fx.DeskOne.String()}, "allDay": true}},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"startDate"}},
		{name: "AllDayNotABoolean", as: fx.Alice, body: []any{deskBooking(fx.DeskOne, fx.At(1, 9, 0), time.Time{}, "allDay", "yes")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"allDay", "boolean"}},
		{name: "AllDayOfAPastDay", as: fx.Alice, body: []any{allDay(fx.DeskOne, fx.At(-1, 12, 0))},
			status: http.StatusConflict, code: booking.CodeDateInThePast, index: 0},
		{name: "OverlapsEarlierElement", as: fx.Alice, body: []any{ok(), allDay(fx.DeskOne, fx.At(1, 0, 0))},
			status: http.StatusConflict, code: booking.CodeResourceNotAvailable, index: 1},
		{name: "OverlapsExisting", as: fx.Alice, body: []any{deskBooking(fx.DeskTwo, fx.At(2, 9, 0), fx.At(2, 12, 0)), ok()},
			before: func(t *testing.T, tb *testBundle) {
				created(t, tb.call(t, fx.Bob, http.MethodPost, deskPath("me"), []any{allDay(fx.DeskOne, fx.At(1, 0, 0))}), 1)
			}, status: http.StatusConflict, code: booking.CodeResourceNotAvailable, index: 1},
		{name: "AcrossMidnightForMoreThanADay", as: fx.Alice, body: []any{deskBooking(fx.DeskOne, fx.At(1, 22, 0), fx.At(2, 22, 1))},
			status: http.StatusConflict, code: booking.CodeDurationExceedsMaximum, index: 0},
		{name: "UnknownResource", as: fx.Alice, body: []any{ok(), deskBooking(uuid.New(), fx.At(1, 9, 0), fx.At(1, 12, 0))},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound, index: 1},
		{name: "EmployeeForAnotherUser", as: fx.Alice, user: fx.Bob.String(), body: []any{ok()},
			status: http.StatusForbidden, code: booking.CodeForbidden, index: noIndex},
		{name: "ReceptionistForUnknownUser", as: fx.Rita, user: uuid.NewString(), body: []any{ok()},
			status: http.StatusNotFound, code: booking.CodeUserNotFound, index: noIndex},
		{name: "ObjectInsteadOfArray", as: fx.Alice, body: ok(),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"array"}},
		{name: "EmptyArray", as: fx.Alice, body: `[]`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex},
		{name: "NoToken", body: []any{ok()},
			status: http.StatusUnauthorized, code: booking.CodeUnauthorized, index: noIndex},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			if tc.before != nil {
				tc.before(t, tb)
			}
			before := tb.count(t, "bookings")
			r := tb.call(t, tc.as, http.MethodPost, deskPath(cmp.Or(tc.user, "me")), tc.body)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, tc.index), tc.detail...)
			tb.wantRows(t, "bookings", before)
		})
	}
}

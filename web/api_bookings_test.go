package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

var (
	bookingKeys = []string{
		"id", "startDate", "endDate", "duration", "status", "accessControlType", "creator", "organizer", "resource",
		"supervisedBooking", "subject", "body", "importance", "resourceType", "buildingAccessStatus",
	}
	userKeys = []string{
		"id", "name", "surname", "alias", "email", "image", "organization", "userRule", "mobileRole", "canBeSearched",
		"type", "userLanguage",
	}
	bookedResourceKeys = []string{
		"id", "name", "posterCode", "image", "phone", "mapCoordinates", "approachable", "floor", "subcategory",
		"resourceRule", "visible", "features", "capacity",
	}
	floorKeys    = []string{"id", "name", "floorNumber", "image", "building", "status", "type", "visible"}
	buildingKeys = []string{"id", "name", "address", "organization", "timezone", "status"}
	addressKeys  = []string{"country", "city", "address", "coordinates"}
	featureKeys  = []string{"id", "name", "email", "organization"}
)

// created checks that a create response is 201 with n bookings of the right shape, and returns them.
func created(t *testing.T, r reply, n int) []map[string]any {
	t.Helper()
	wantStatus(t, r, http.StatusCreated)
	body := wantKeys(t, "body", r.object(t), "bookings")
	list := array(t, "bookings", body["bookings"])
	if len(list) != n {
		t.Fatalf("bookings = %d, want %d", len(list), n)
	}
	out := make([]map[string]any, n)
	for i, e := range list {
		out[i] = wantKeys(t, fmt.Sprintf("bookings[%d]", i), e, bookingKeys...)
	}
	return out
}

// wantUser checks every field of a User in a response.
func wantUser(t *testing.T, where string, v any, id uuid.UUID, name, surname string) {
	t.Helper()
	wantKeys(t, where, v, userKeys...)
	wantFields(t, where, v, map[string]any{
		"id": id.String(), "name": name, "surname": surname, "email": name + "@acme.test",
		"type": "SERVICE_INTERNAL", "userLanguage": "en", "canBeSearched": true,
		"organization": idObject(fx.OrgA.String()),
	})
}

// testCreateSpaceBookingShape checks every field of a created booking, and that the identity provider's
// access token sent with the request is stored.
func testCreateSpaceBookingShape(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	start, end := fx.At(1, 10, 0), fx.At(1, 11, 30)
	bs := created(t, tb.callWith(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, start, end)},
		http.Header{"User-Access-Token": {"idp-access-token-of-alice"}}), 1)
	b := bs[0]

	id, _ := b["id"].(string)
	if _, err := uuid.Parse(id); err != nil {
		t.Errorf("id = %q, want a UUID", id)
	}
	wantUser(t, "creator", b["creator"], fx.Alice, "alice", "Archer")
	wantUser(t, "organizer", b["organizer"], fx.Alice, "alice", "Archer")
	for path, keys := range map[string][]string{
		"body":                            {"content", "bodyType"},
		"supervisedBooking":               nil,
		"resource":                        bookedResourceKeys,
		"resource.mapCoordinates":         mapKeys,
		"resource.floor":                  floorKeys,
		"resource.floor.building":         buildingKeys,
		"resource.floor.building.address": addressKeys,
		"resource.subcategory":            subcategoryKeys,
		"resource.resourceRule":           ruleKeysAllDay,
	} {
		wantKeys(t, path, field(b, path), keys...)
	}
	wantFields(t, "booking", b, map[string]any{
		"startDate": num(start.UnixMilli()), "endDate": num(end.UnixMilli()), "duration": num(end.Sub(start).Milliseconds()),
		"status": "PENDING", "accessControlType": "ANY", "subject": "Team sync", "importance": "LOW",
		"body.content": "Weekly planning", "body.bodyType": "TEXT",
		"resourceType": "SPACE", "buildingAccessStatus": "PENDING",

		"resource.id": fx.RoomGoya.String(), "resource.name": "Goya", "resource.posterCode": "MAD-R1",
		"resource.phone": "+34 910 000 001", "resource.visible": true, "resource.approachable": true,
		"resource.capacity": num(8),

		"resource.floor.id": fx.FloorMadrid.String(), "resource.floor.name": "madrid-1",
		"resource.floor.floorNumber": num(1), "resource.floor.image": "/static/floors/madrid-1.svg",
		"resource.floor.status": "ACTIVATED", "resource.floor.type": "OFFICE", "resource.floor.visible": true,

		"resource.floor.building.id": fx.BuildingMadrid.String(), "resource.floor.building.name": "Madrid HQ",
		"resource.floor.building.timezone": "Europe/Madrid", "resource.floor.building.status": "ACTIVATED",
		"resource.floor.building.organization":    idObject(fx.OrgA.String()),
		"resource.floor.building.address.country": "ES", "resource.floor.building.address.city": "Madrid",
		"resource.floor.building.address.address": "Calle Mayor 1",

		"resource.subcategory.id": fx.SubRoom.String(), "resource.subcategory.category": "SPACE",
		"resource.subcategory.organization": idObject(fx.OrgA.String()),

		"resource.resourceRule.id": fx.RuleRoom.String(), "resource.resourceRule.allDayBookings": false,
		"resource.resourceRule.allDayBookingsCheckInMS": num(0), "resource.resourceRule.endTime": num(20 * hourMs),
	})
	if field(b, "resource.floor.building.address.coordinates") == nil {
		t.Errorf("address.coordinates = null, want the building's coordinates")
	}

	features := array(t, "resource.features", field(b, "resource.features"))
	gotFeatures := map[string]any{}
	for i, f := range features {
		m := wantKeys(t, fmt.Sprintf("features[%d]", i), f, featureKeys...)
		gotFeatures[fmt.Sprint(m["id"])] = m
	}
	wantFeatures := map[string]any{
		fx.FeatureScreen.String(): map[string]any{
			"id": fx.FeatureScreen.String(), "name": "Screen", "email": "av@acme.test", "organization": idObject(fx.OrgA.String()),
		},
		fx.FeatureWhiteboard.String(): map[string]any{
			"id": fx.FeatureWhiteboard.String(), "name": "Whiteboard", "email": "", "organization": idObject(fx.OrgA.String()),
		},
	}
	if diff := cmp.Diff(wantFeatures, gotFeatures); diff != "" {
		t.Errorf("resource.features by id (-want +got):\n%s", diff)
	}

	// The identity provider's token is stored as Alice's.
	token, err := tb.Service.UserAccessToken(t.Context(), tb.User(t, fx.OrgA, fx.Alice))
	if err != nil {
		t.Fatalf("UserAccessToken: %v", err)
	}
	if got, want := token, "idp-access-token-of-alice"; got != want {
		t.Errorf("user access token = %q, want %q", got, want)
	}
}

// TestCreateSpaceBookings checks bookings that are created as requested.
func TestCreateSpaceBookings(t *testing.T) {
	t.Parallel()

	t.Run("ShapeAndValues", testCreateSpaceBookingShape)

	t.Run("WithoutUserAccessToken", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		tb.wantRows(t, "user_access_tokens", 0)
	})

	t.Run("UserRuleAndMobileRoleAreIDObjects", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		rule, role := uuid.New(), uuid.New()
		alice := fx.Layout().Users[0]
		alice.UserRule, alice.MobileRole = &layout.LayoutRef{ID: rule.String()}, &layout.LayoutRef{ID: role.String()}
		if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{
			UserRules:   []layout.LayoutNamed{{ID: rule.String(), OrganizationID: fx.OrgA.String(), Name: "Staff"}},
			MobileRoles: []layout.LayoutNamed{{ID: role.String(), OrganizationID: fx.OrgA.String(), Name: "Mobile"}},
			Users:       []layout.LayoutUser{alice},
		}); err != nil {
			t.Fatalf("import: %v", err)
		}
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"),
			[]any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))}), 1)[0]
		u := wantKeys(t, "organizer", b["organizer"], userKeys...)
		wantID(t, "organizer.userRule", u["userRule"], rule)
		wantID(t, "organizer.mobileRole", u["mobileRole"], role)
	})

	t.Run("SeveralAtOnce", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{
			spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0)),
			spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)),
			spaceBooking(fx.RoomGoya, fx.At(2, 10, 0), fx.At(2, 11, 0)),
		})
		bs := created(t, r, 3)
		for i, want := range []uuid.UUID{fx.RoomGoya, fx.RoomVelazquez, fx.RoomGoya} {
			wantValue(t, fmt.Sprintf("bookings[%d].resource.id", i), bs[i]["resource"].(map[string]any)["id"], want.String())
		}
		wantInt(t, "bookings[2].startDate", bs[2]["startDate"], fx.At(2, 10, 0).UnixMilli())
		tb.wantRows(t, "bookings", 3)
	})

	t.Run("RoomRequiringApprovalWaits", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"),
			[]any{spaceBooking(fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0))}), 1)[0]
		wantValue(t, "status", b["status"], "WAITING_APPROVAL")
		wantValue(t, "buildingAccessStatus", b["buildingAccessStatus"], "PENDING")
		rule := wantKeys(t, "resource.resourceRule", b["resource"].(map[string]any)["resourceRule"], ruleKeysAllDay...)
		wantValue(t, "resourceRule.requiresApproval", rule["requiresApproval"], true)
	})

	t.Run("OptionalFieldsAndAttendees", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		e := spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		e["internalAttendees"] = []any{map[string]any{"type": "REQUIRED", "user": map[string]any{"id": fx.Bob.String()}}}
		e["externalAttendees"] = []any{map[string]any{"type": "OPTIONAL", "email": "guest@example.com"}}
		e["createOnlineMeeting"] = false // true needs an online-meeting server: TestAPIOnlineMeeting
		e["sipAddress"] = "sip:goya@acme.test"
		created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{e}), 1)
		tb.wantRows(t, "booking_attendees", 2)

		// Only the resource and dates are required; importance and bodyType have defaults.
		minimal := map[string]any{
			"resource":  map[string]any{"id": fx.RoomVelazquez.String()},
			"startDate": fx.At(1, 10, 0).UnixMilli(), "endDate": fx.At(1, 11, 0).UnixMilli(),
		}
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{minimal}), 1)[0]
		wantValue(t, "importance", b["importance"], "LOW")
		wantValue(t, "body.bodyType", b["body"].(map[string]any)["bodyType"], "TEXT")
	})

}

// TestCreateSpaceBookingsOnBehalf checks the organizer and creator of a booking made for oneself or for
// someone else.
func TestCreateSpaceBookingsOnBehalf(t *testing.T) {
	t.Parallel()

	t.Run("OwnUserID", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath(fx.Alice.String()),
			[]any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))}), 1)[0]
		wantUser(t, "creator", b["creator"], fx.Alice, "alice", "Archer")
		wantUser(t, "organizer", b["organizer"], fx.Alice, "alice", "Archer")
	})

	t.Run("ReceptionistForAlice", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Rita, http.MethodPost, bookingsPath(fx.Alice.String()),
			[]any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))}), 1)[0]
		wantUser(t, "organizer", b["organizer"], fx.Alice, "alice", "Archer")
		wantUser(t, "creator", b["creator"], fx.Rita, "rita", "Reyes")
		var organizer, creator uuid.UUID
		if err := tb.Pool.QueryRow(t.Context(), "SELECT organizer_id, creator_id FROM bookings").Scan(&organizer, &creator); err != nil {
			t.Fatalf("read booking: %v", err)
		}
		if organizer != fx.Alice || creator != fx.Rita {
			t.Errorf("stored organizer, creator = %s, %s, want Alice %s, Rita %s", organizer, creator, fx.Alice, fx.Rita)
		}
	})

	t.Run("AdminForBob", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		b := created(t, tb.call(t, fx.Adam, http.MethodPost, bookingsPath(fx.Bob.String()),
			[]any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))}), 1)[0]
		wantUser(t, "organizer", b["organizer"], fx.Bob, "bob", "Baker")
		wantUser(t, "creator", b["creator"], fx.Adam, "adam", "Adler")
	})

}

// TestCreateSpaceBookingsExtraInput checks headers and fields that do not change the booking.
func TestCreateSpaceBookingsExtraInput(t *testing.T) {
	t.Parallel()

	t.Run("AppVersionHeaderAccepted", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		created(t, tb.callWith(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))},
			http.Header{"App-Version": {"ios/3.14.0"}}), 1)
	})

	// Apps may send fields that the interface does not list, such as isSupervisedBooking or a newer app's
	// reminderMinutes. They are ignored, and the booking is made as if they were absent.
	t.Run("FieldsNotShownAreIgnored", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		e := spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		e["isSupervisedBooking"], e["reminderMinutes"] = false, 15
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{e}), 1)[0]
		wantValue(t, "status", b["status"], "PENDING")
		wantValue(t, "subject", b["subject"], "Team sync")
		tb.wantRows(t, "bookings", 1)
	})
}

func TestCreateSpaceBookingsRefused(t *testing.T) {
	t.Parallel()
	ok := func() map[string]any { return spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0)) }
	set := func(e map[string]any, kv ...any) map[string]any {
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i].(string)] = kv[i+1]
		}
		return e
	}
	without := func(e map[string]any, key string) map[string]any { delete(e, key); return e }
	for _, tc := range []struct {
		name   string
		as     uuid.UUID
		user   string // "" means "me"
		body   any
		before func(t *testing.T, tb *testBundle) // makes bookings before the call
		status int
		code   booking.Code
		index  int
		detail []string
	}{
		// Who may book for whom.
		{name: "EmployeeForOther", as: fx.Alice, user: fx.Bob.String(), body: []any{ok()},
			status: http.StatusForbidden, code: booking.CodeForbidden, index: noIndex},
		{name: "ReceptionistForUnknown", as: fx.Rita, user: uuid.NewString(), body: []any{ok()},
			status: http.StatusNotFound, code: booking.CodeUserNotFound, index: noIndex},
		{name: "ReceptionistForOtherOrganization", as: fx.Rita, user: fx.Boris.String(), body: []any{ok()},
			status: http.StatusNotFound, code: booking.CodeUserNotFound, index: noIndex},
		{name: "UserIDNotAUUID", as: fx.Alice, user: "alice", body: []any{ok()},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"userId"}},
		{name: "NoToken", body: []any{ok()},
			status: http.StatusUnauthorized, code: booking.CodeUnauthorized, index: noIndex},

		// Malformed requests.
		{name: "MalformedJSON", as: fx.Alice, body: `[{"resource": {"id": "x"}`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"JSON"}},
		{name: "NotJSON", as: fx.Alice, body: `resource=1`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"JSON"}},
		{name: "EmptyBody", as: fx.Alice, body: ``,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"body"}},
		{name: "TrailingData", as: fx.Alice, body: `[{"startDate": 1}]]`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"after the JSON value"}},
		{name: "EmptyArray", as: fx.Alice, body: `[]`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"empty"}},
		{name: "Null", as: fx.Alice, body: `null`,
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"array"}},
		{name: "ObjectInsteadOfArray", as: fx.Alice, body: ok(),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"array"}},
		{name: "ElementNotAnObject", as: fx.Alice, body: []any{ok(), "goya"},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 1, detail: []string{"[1]", "object"}},
		{name: "StartDateNotANumber", as: fx.Alice, body: []any{set(ok(), "startDate", "tomorrow")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"startDate", "integer"}},
		{name: "StartDateFractional", as: fx.Alice, body: []any{set(ok(), "startDate", 1.5)},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"startDate"}},
		{name: "ResourceIDNotAUUID", as: fx.Alice, body: []any{set(ok(), "resource", map[string]any{"id": "goya"})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"resource.id", "goya"}},
		{name: "ResourceIDNotAString", as: fx.Alice, body: []any{set(ok(), "resource", map[string]any{"id": 7})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"resource.id", "string"}},
		{name: "ResourceNotAnObject", as: fx.Alice, body: []any{set(ok(), "resource", fx.RoomGoya.String())},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"resource", "object"}},
		{name: "MissingResource", as: fx.Alice, body: []any{without(ok(), "resource")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"resource.id"}},
		{name: "MissingStartDate", as: fx.Alice, body: []any{without(ok(), "startDate")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"startDate"}},
		{name: "MissingEndDate", as: fx.Alice, body: []any{ok(), without(ok(), "endDate")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 1, detail: []string{"[1].endDate"}},
		{name: "EndBeforeStart", as: fx.Alice, body: []any{set(ok(), "endDate", fx.At(1, 9, 0).UnixMilli())},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"endDate"}},
		{name: "EndEqualsStart", as: fx.Alice, body: []any{set(ok(), "endDate", fx.At(1, 10, 0).UnixMilli())},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"endDate"}},
		{name: "UnknownImportance", as: fx.Alice, body: []any{set(ok(), "importance", "URGENT")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"importance"}},
		{name: "UnknownBodyType", as: fx.Alice, body: []any{set(ok(), "body", map[string]any{"content": "x", "bodyType": "RTF"})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"bodyType"}},
		{name: "AttendeesNotAnArray", as: fx.Alice, body: []any{set(ok(), "internalAttendees", map[string]any{})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"internalAttendees", "array"}},
		{name: "AttendeeUserIDNotAUUID", as: fx.Alice, body: []any{set(ok(), "internalAttendees", []any{map[string]any{"type": "REQUIRED", "user": map[string]any{"id": "bob"}}})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"internalAttendees[0].user.id"}},
		{name: "BadExternalEmail", as: fx.Alice, body: []any{set(ok(), "externalAttendees", []any{map[string]any{"type": "OPTIONAL", "email": "not-an-email"}})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"externalAttendees[0].email"}},
		{name: "CreateOnlineMeetingNotABoolean", as: fx.Alice, body: []any{set(ok(), "createOnlineMeeting", "yes")},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: 0, detail: []string{"createOnlineMeeting", "boolean"}},
		{name: "TooLarge", as: fx.Alice, body: []any{set(ok(), "subject", "x", "body", map[string]any{"content": strings.Repeat("x", 1<<20)})},
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"larger than"}},
		{name: "TooMany", as: fx.Alice, body: slices.Repeat([]any{ok()}, booking.MaxBookingsPerRequest+1),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, index: noIndex, detail: []string{"at most"}},

		// Refused by the domain: the first failing element decides the error, and the error gives its index.
		{name: "UnknownResource", as: fx.Alice, body: []any{ok(), spaceBooking(uuid.New(), fx.At(1, 10, 0), fx.At(1, 11, 0))},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound, index: 1},
		{name: "HiddenResource", as: fx.Alice, body: []any{spaceBooking(fx.RoomHidden, fx.At(1, 10, 0), fx.At(1, 11, 0))},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound, index: 0},
		{name: "ResourceOnHiddenFloor", as: fx.Alice, body: []any{spaceBooking(fx.RoomOnHidden, fx.At(1, 10, 0), fx.At(1, 11, 0))},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound, index: 0},
		{name: "OtherOrganizationsResource", as: fx.Boris, body: []any{ok()},
			status: http.StatusNotFound, code: booking.CodeResourceNotFound, index: 0},
		{name: "UnknownAttendee", as: fx.Alice, body: []any{ok(), set(spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)),
			"internalAttendees", []any{map[string]any{"type": "REQUIRED", "user": map[string]any{"id": fx.Boris.String()}}})},
			status: http.StatusNotFound, code: booking.CodeUserNotFound, index: 1},
		{name: "OverlapsExisting", as: fx.Alice, body: []any{spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)), spaceBooking(fx.RoomGoya, fx.At(1, 10, 30), fx.At(1, 11, 30))},
			before: func(t *testing.T, tb *testBundle) { tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 11, 0), fx.At(1, 12, 0)) },
			status: http.StatusConflict, code: booking.CodeResourceNotAvailable, index: 1},
		{name: "OverlapsEarlierElement", as: fx.Alice, body: []any{ok(), spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)), spaceBooking(fx.RoomGoya, fx.At(1, 10, 59), fx.At(1, 12, 0))},
			status: http.StatusConflict, code: booking.CodeResourceNotAvailable, index: 2},
		{name: "InThePast", as: fx.Alice, body: []any{spaceBooking(fx.RoomGoya, fx.At(0, 8, 0), fx.At(0, 9, 30))},
			status: http.StatusConflict, code: booking.CodeDateInThePast, index: 0},
		{name: "OutsideResourceHours", as: fx.Alice, body: []any{spaceBooking(fx.RoomGoya, fx.At(1, 19, 0), fx.At(1, 21, 0))},
			status: http.StatusConflict, code: booking.CodeDateOutsideResourceHours, index: 0},
		{name: "LongerThanMaximum", as: fx.Alice, body: []any{spaceBooking(fx.RoomGoya, fx.At(1, 9, 0), fx.At(1, 13, 1))},
			status: http.StatusConflict, code: booking.CodeDurationExceedsMaximum, index: 0},
		{name: "BeyondMaximumAdvance", as: fx.Alice, body: []any{ok(), spaceBooking(fx.RoomGoya, fx.At(31, 10, 0), fx.At(31, 11, 0))},
			status: http.StatusConflict, code: booking.CodeDateExceedsMaximumAdvance, index: 1},
		{name: "Workstation", as: fx.Alice, body: []any{spaceBooking(fx.DeskOne, fx.At(1, 10, 0), fx.At(1, 11, 0))},
			status: http.StatusConflict, code: booking.CodeResourceNotASpace, index: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			before := 0
			if tc.before != nil {
				tc.before(t, tb)
				before = tb.count(t, "bookings")
			}
			user := tc.user
			if user == "" {
				user = "me"
			}
			r := tb.call(t, tc.as, http.MethodPost, bookingsPath(user), tc.body)
			p := wantProblem(t, r, tc.status, tc.code, tc.index)
			wantDetail(t, p, tc.detail...)
			tb.wantRows(t, "bookings", before)
			tb.wantRows(t, "booking_attendees", 0)
		})
	}
}

// TestCreateSpaceBookingsEdges checks that a booking may start a few minutes in the past (a walk-up), and
// that one booking may end exactly when the next one starts.
func TestCreateSpaceBookingsEdges(t *testing.T) {
	t.Parallel()

	t.Run("WalkUp", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		start := fx.Now.Add(-4 * time.Minute)
		b := created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"),
			[]any{spaceBooking(fx.RoomGoya, start, fx.At(0, 10, 0))}), 1)[0]
		wantInt(t, "startDate", b["startDate"], start.UnixMilli())
	})

	t.Run("TouchingBookings", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{
			spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0)),
			spaceBooking(fx.RoomGoya, fx.At(1, 11, 0), fx.At(1, 12, 0)),
		}), 2)
		tb.wantRows(t, "bookings", 2)
	})
}

// TestCreateBookingsRaceOverHTTP sends 24 requests at once for the same room and slot. Exactly one gets
// 201, every other one gets 409 with code 4001, and only one booking exists.
func TestCreateBookingsRaceOverHTTP(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	const clients = 24
	reqs := make([]*http.Request, clients)
	for i := range reqs {
		as := []uuid.UUID{fx.Alice, fx.Bob, fx.Rita, fx.Adam}[i%4]
		reqs[i] = tb.request(t, as, http.MethodPost, bookingsPath("me"),
			[]any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))})
	}
	type outcome struct {
		status int
		code   float64
		err    error
	}
	results := make(chan outcome, clients)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, req := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res, err := tb.srv.Client().Do(req)
			if err != nil {
				results <- outcome{err: err}
				return
			}
			defer res.Body.Close()
			var body struct {
				Code float64 `json:"code"`
			}
			err = json.NewDecoder(res.Body).Decode(&body)
			results <- outcome{status: res.StatusCode, code: body.Code, err: err}
		}()
	}
	close(start)
	wg.Wait()
	close(results)
	created, conflicts := 0, 0
	for o := range results {
		switch {
		case o.err != nil:
			t.Errorf("request failed: %v", o.err)
		case o.status == http.StatusCreated:
			created++
		case o.status == http.StatusConflict && o.code == float64(booking.CodeResourceNotAvailable):
			conflicts++
		default:
			t.Errorf("status %d code %v, want 201, or 409 with 4001", o.status, o.code)
		}
	}
	if created != 1 || conflicts != clients-1 {
		t.Errorf("created %d and refused %d with 4001, want 1 and %d", created, conflicts, clients-1)
	}
	tb.wantRows(t, "bookings", 1)
}

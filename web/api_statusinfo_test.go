package web_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// statusResourceKeys are the keys of the resource in a status lookup (spec 4.1). The floor carries only
// its ID; the subcategory and rule are complete, except for the rule's all-day fields.
var statusResourceKeys = []string{
	"id", "name", "posterCode", "image", "phone", "mapCoordinates", "approachable", "floor", "subcategory",
	"resourceRule", "visible",
}

var (
	mapKeys         = []string{"topLeftX", "topLeftY", "bottomRightX", "bottomRightY"}
	subcategoryKeys = []string{"id", "name", "category", "organization", "deleteHistorial", "hideBookings", "canBeSearched", "shifts"}
	ruleKeys        = []string{
		"id", "advanceCheckIn", "expirationMargin", "startTime", "endTime", "maximumDuration", "maximumAdvance",
		"accessControlType", "requiresApproval",
	}
	ruleKeysAllDay = append(append([]string{}, ruleKeys...), "allDayBookings", "allDayBookingsCheckInMS")
)

const (
	hourMs   = int64(time.Hour / time.Millisecond)
	minuteMs = int64(time.Minute / time.Millisecond)
)

// TestStatusInfo checks the status lookup by poster code: the resource, whether it is free, and until
// when.
func TestStatusInfo(t *testing.T) {
	t.Parallel()

	t.Run("ShapeAndValues", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil)
		wantStatus(t, r, http.StatusOK)
		if got, want := r.header.Get("Content-Type"), "application/json"; got != want {
			t.Errorf("Content-Type = %q, want %q", got, want)
		}
		body := wantKeys(t, "body", r.object(t), "resource", "isFree", "freeUntil")
		for path, keys := range map[string][]string{
			"resource":                statusResourceKeys,
			"resource.mapCoordinates": mapKeys,
			"resource.subcategory":    subcategoryKeys,
			"resource.resourceRule":   ruleKeys,
		} {
			wantKeys(t, path, field(body, path), keys...)
		}
		wantFields(t, "body", body, map[string]any{
			"resource.id": fx.RoomGoya.String(), "resource.name": "Goya", "resource.posterCode": "MAD-R1",
			"resource.image": "", "resource.phone": "+34 910 000 001", "resource.approachable": true,
			"resource.visible": true,
			"resource.mapCoordinates": map[string]any{
				"topLeftX": num(10), "topLeftY": num(20), "bottomRightX": num(110), "bottomRightY": num(80),
			},
			"resource.floor":                          idObject(fx.FloorMadrid.String()),
			"resource.subcategory.id":                 fx.SubRoom.String(),
			"resource.subcategory.name":               "Meeting room",
			"resource.subcategory.category":           "SPACE",
			"resource.subcategory.organization":       idObject(fx.OrgA.String()),
			"resource.subcategory.shifts":             false,
			"resource.subcategory.canBeSearched":      true,
			"resource.resourceRule.id":                fx.RuleRoom.String(),
			"resource.resourceRule.startTime":         num(8 * hourMs),
			"resource.resourceRule.endTime":           num(20 * hourMs),
			"resource.resourceRule.maximumDuration":   num(4 * hourMs),
			"resource.resourceRule.maximumAdvance":    num(30 * 24 * hourMs),
			"resource.resourceRule.advanceCheckIn":    num(10 * minuteMs),
			"resource.resourceRule.expirationMargin":  num(15 * minuteMs),
			"resource.resourceRule.accessControlType": "ANY",
			"resource.resourceRule.requiresApproval":  false,
			"isFree":                                  true,
			// Free until today's closing time, 20:00 in Madrid.
			"freeUntil": num(fx.At(0, 20, 0).UnixMilli()),
		})
	})

	t.Run("FreeUntilNextBooking", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.book(t, fx.Bob, fx.RoomGoya, fx.At(0, 11, 0), fx.At(0, 12, 0))
		body := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil).object(t)
		wantValue(t, "isFree", body["isFree"], true)
		wantInt(t, "freeUntil", body["freeUntil"], fx.At(0, 11, 0).UnixMilli())
	})

	t.Run("WholeDayWindowFreeUntilMidnight", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		body := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-D1"), nil).object(t)
		wantValue(t, "isFree", body["isFree"], true)
		wantInt(t, "freeUntil", body["freeUntil"], fx.At(1, 0, 0).UnixMilli())
	})

	t.Run("BusyHasNoFreeUntil", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.book(t, fx.Bob, fx.RoomGoya, fx.At(0, 9, 0), fx.At(0, 10, 0))
		r := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil)
		wantStatus(t, r, http.StatusOK)
		body := wantKeys(t, "body", r.object(t), "resource", "isFree")
		wantValue(t, "isFree", body["isFree"], false)
		wantKeys(t, "resource", body["resource"], statusResourceKeys...)
	})

	t.Run("HiddenResourceIsNotFree", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-RH"), nil)
		wantStatus(t, r, http.StatusOK)
		body := wantKeys(t, "body", r.object(t), "resource", "isFree")
		wantValue(t, "isFree", body["isFree"], false)
		res := wantKeys(t, "resource", body["resource"], statusResourceKeys...)
		wantValue(t, "resource.visible", res["visible"], false)
	})

	t.Run("OutsideWindowIsNotFree", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.Clock.Set(fx.At(0, 21, 0))
		body := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil).object(t)
		wantKeys(t, "body", body, "resource", "isFree")
		wantValue(t, "isFree", body["isFree"], false)
	})

	t.Run("OwnUserID", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, statusPath(fx.Alice.String(), "MAD-R1"), nil)
		wantStatus(t, r, http.StatusOK)
		wantValue(t, "resource.id", r.object(t)["resource"].(map[string]any)["id"], fx.RoomGoya.String())
	})

	t.Run("OtherOrganizationSeesOnlyItsOwn", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		// Globex's room has the same poster code as Acme's Goya.
		r := tb.call(t, fx.Boris, http.MethodGet, statusPath("me", "MAD-R1"), nil)
		wantStatus(t, r, http.StatusOK)
		res := wantKeys(t, "resource", r.object(t)["resource"], statusResourceKeys...)
		wantValue(t, "resource.id", res["id"], fx.RoomB.String())
		wantValue(t, "resource.name", res["name"], "Globex room")
		wantID(t, "resource.floor", res["floor"], fx.FloorB)
		sub := wantKeys(t, "resource.subcategory", res["subcategory"], subcategoryKeys...)
		wantID(t, "subcategory.organization", sub["organization"], fx.OrgB)

		// A poster code that only Acme has is not found for Globex.
		r = tb.call(t, fx.Boris, http.MethodGet, statusPath("me", "MAD-R2"), nil)
		wantProblem(t, r, http.StatusNotFound, booking.CodeResourceNotFound, noIndex)
	})

	t.Run("AppVersionHeaderAccepted", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.callWith(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil, http.Header{"App-Version": {"ios/3.14.0"}}), http.StatusOK)
	})
}

// TestStatusInfoRefused checks refused lookups: for another person, for an unknown code, and malformed
// ones.
func TestStatusInfoRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		as     uuid.UUID
		path   string
		status int
		code   booking.Code
		detail []string
	}{
		{"EmployeeForOtherUserIs1001", fx.Alice, statusPath(fx.Bob.String(), "MAD-R1"), http.StatusForbidden, booking.CodeForbidden, nil},
		{"ReceptionistForUnknownUserIs1003", fx.Rita, statusPath(uuid.NewString(), "MAD-R1"), http.StatusNotFound, booking.CodeUserNotFound, nil},
		{"ReceptionistForOtherOrganizationsUserIs1003", fx.Rita, statusPath(fx.Boris.String(), "MAD-R1"), http.StatusNotFound, booking.CodeUserNotFound, nil},
		{"NonUUIDUserIDIs2000", fx.Alice, statusPath("alice", "MAD-R1"), http.StatusBadRequest, booking.CodeInvalidRequest, []string{"userId"}},
		{"UnknownPosterCodeIs1002", fx.Alice, statusPath("me", "NOPE-1"), http.StatusNotFound, booking.CodeResourceNotFound, []string{"NOPE-1"}},
		{"MissingPosterCodeIs2000", fx.Alice, api + "/users/me/resources/statusinfo", http.StatusBadRequest, booking.CodeInvalidRequest, []string{"postercode"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			r := tb.call(t, tc.as, http.MethodGet, tc.path, nil)
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
		})
	}
}

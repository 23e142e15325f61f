package web_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The resource of the status lookup (4.1): floor with only its id, full subcategory and rule (without the
// all-day fields), visible.
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
		res := wantKeys(t, "resource", body["resource"], statusResourceKeys...)
		wantValue(t, "resource.id", res["id"], fx.RoomGoya.String())
		wantValue(t, "resource.name", res["name"], "Goya")
		wantValue(t, "resource.posterCode", res["posterCode"], "MAD-R1")
		wantValue(t, "resource.image", res["image"], "")
		wantValue(t, "resource.phone", res["phone"], "+34 910 000 001")
		wantValue(t, "resource.approachable", res["approachable"], true)
		wantValue(t, "resource.visible", res["visible"], true)
		m := wantKeys(t, "resource.mapCoordinates", res["mapCoordinates"], mapKeys...)
		wantInt(t, "mapCoordinates.topLeftX", m["topLeftX"], 10)
		wantInt(t, "mapCoordinates.topLeftY", m["topLeftY"], 20)
		wantInt(t, "mapCoordinates.bottomRightX", m["bottomRightX"], 110)
		wantInt(t, "mapCoordinates.bottomRightY", m["bottomRightY"], 80)
		wantID(t, "resource.floor", res["floor"], fx.FloorMadrid)
		sub := wantKeys(t, "resource.subcategory", res["subcategory"], subcategoryKeys...)
		wantValue(t, "subcategory.id", sub["id"], fx.SubRoom.String())
		wantValue(t, "subcategory.name", sub["name"], "Meeting room")
		wantValue(t, "subcategory.category", sub["category"], "SPACE")
		wantID(t, "subcategory.organization", sub["organization"], fx.OrgA)
		wantValue(t, "subcategory.shifts", sub["shifts"], false)
		wantValue(t, "subcategory.canBeSearched", sub["canBeSearched"], true)
		rule := wantKeys(t, "resource.resourceRule", res["resourceRule"], ruleKeys...)
		wantValue(t, "resourceRule.id", rule["id"], fx.RuleRoom.String())
		wantInt(t, "resourceRule.startTime", rule["startTime"], 8*hourMs)
		wantInt(t, "resourceRule.endTime", rule["endTime"], 20*hourMs)
		wantInt(t, "resourceRule.maximumDuration", rule["maximumDuration"], 4*hourMs)
		wantInt(t, "resourceRule.maximumAdvance", rule["maximumAdvance"], 30*24*hourMs)
		wantInt(t, "resourceRule.advanceCheckIn", rule["advanceCheckIn"], 10*minuteMs)
		wantInt(t, "resourceRule.expirationMargin", rule["expirationMargin"], 15*minuteMs)
		wantValue(t, "resourceRule.accessControlType", rule["accessControlType"], "ANY")
		wantValue(t, "resourceRule.requiresApproval", rule["requiresApproval"], false)
		wantValue(t, "isFree", body["isFree"], true)
		// Free until the end of today's window, 20:00 in Madrid.
		wantInt(t, "freeUntil", body["freeUntil"], fx.At(0, 20, 0).UnixMilli())
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

	t.Run("EmployeeForOtherUserIs1001", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, statusPath(fx.Bob.String(), "MAD-R1"), nil)
		wantProblem(t, r, http.StatusForbidden, booking.CodeForbidden, noIndex)
	})

	t.Run("ReceptionistForOtherUser", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Rita, http.MethodGet, statusPath(fx.Alice.String(), "MAD-R1"), nil)
		wantStatus(t, r, http.StatusOK)
		wantKeys(t, "body", r.object(t), "resource", "isFree", "freeUntil")
	})

	t.Run("ReceptionistForUnknownUserIs1003", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Rita, http.MethodGet, statusPath(uuid.NewString(), "MAD-R1"), nil)
		wantProblem(t, r, http.StatusNotFound, booking.CodeUserNotFound, noIndex)
	})

	t.Run("ReceptionistForOtherOrganizationsUserIs1003", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Rita, http.MethodGet, statusPath(fx.Boris.String(), "MAD-R1"), nil)
		wantProblem(t, r, http.StatusNotFound, booking.CodeUserNotFound, noIndex)
	})

	t.Run("NonUUIDUserIDIs2000", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, statusPath("alice", "MAD-R1"), nil)
		wantDetail(t, wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex), "userId")
	})

	t.Run("UnknownPosterCodeIs1002", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "NOPE-1"), nil)
		wantDetail(t, wantProblem(t, r, http.StatusNotFound, booking.CodeResourceNotFound, noIndex), "NOPE-1")
	})

	t.Run("MissingPosterCodeIs2000", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, api+"/users/me/resources/statusinfo", nil)
		wantDetail(t, wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex), "postercode")
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

		// And a poster code only Acme has is not found for Globex.
		r = tb.call(t, fx.Boris, http.MethodGet, statusPath("me", "MAD-R2"), nil)
		wantProblem(t, r, http.StatusNotFound, booking.CodeResourceNotFound, noIndex)
	})

	t.Run("AppVersionHeaderAccepted", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.callWith(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil, http.Header{"App-Version": {"ios/3.14.0"}}), http.StatusOK)
	})
}

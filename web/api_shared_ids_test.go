package web_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestBookingIDsSharedByTwoOrganizations checks bookings whose ID exists in two organizations. Keys are
// (organization, id), so the database allows it, though imports and the admin API now refuse such an id
// (data written before, or by hand, may still hold one). Acting on the booking in one organization must
// never read or change the other's.
func TestBookingIDsSharedByTwoOrganizations(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	start, end := fx.At(1, 10, 0), fx.At(1, 11, 0)
	// Two of Alice's bookings with Bob invited. Each has a twin with the same ID in Globex, booked by Boris.
	changed := tb.bookWith(t, fx.Alice, fx.RoomGoya, start, end, "internalAttendees", invite(fx.Bob))
	checked := tb.bookWith(t, fx.Alice, fx.RoomVelazquez, start, end, "internalAttendees", invite(fx.Bob))
	var twins []layout.LayoutBooking
	for range []string{changed, checked} {
		twins = append(twins, layout.LayoutBooking{
			ID: uuid.NewString(), OrganizationID: fx.OrgB.String(), ResourceID: fx.RoomB.String(), CreatorID: fx.Boris.String(),
			OrganizerID: fx.Boris.String(), StartDate: start.UnixMilli(), EndDate: end.UnixMilli(), Status: "PENDING",
			Subject: "Globex secret",
		})
		start, end = end, end.Add(time.Hour) // so the twins do not overlap on Globex's room
	}
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Bookings: twins}); err != nil {
		t.Fatalf("import the twins: %v", err)
	}
	// Give each twin the id of Alice's booking, by hand: the import refuses an id another object holds.
	for i, id := range []string{changed, checked} {
		tb.exec(t, `UPDATE bookings SET id = $1 WHERE organization_id = $2 AND id = $3`, uuid.MustParse(id), fx.OrgB, uuid.MustParse(twins[i].ID))
		twins[i].ID = id
	}
	// wantTwinUntouched checks that Globex's booking with the ID is still as it was imported.
	wantTwinUntouched := func(t *testing.T, i int) {
		t.Helper()
		var n int
		err := tb.Pool.QueryRow(t.Context(), `SELECT count(*) FROM bookings WHERE organization_id = $1 AND id = $2
			AND status = 'PENDING' AND subject = 'Globex secret' AND resource_id = $3 AND start_date = $4 AND end_date = $5`,
			fx.OrgB, uuid.MustParse(twins[i].ID), fx.RoomB, time.UnixMilli(twins[i].StartDate), time.UnixMilli(twins[i].EndDate)).Scan(&n)
		if err != nil || n != 1 {
			t.Errorf("Globex's booking %s changed (%v)", twins[i].ID, err)
		}
	}
	wantOurs := func(t *testing.T, b map[string]any, resource uuid.UUID) {
		t.Helper()
		wantValue(t, "subject", b["subject"], "Team sync")
		wantValue(t, "resource.id", b["resource"].(map[string]any)["id"], resource.String())
		wantValue(t, "organizer.id", b["organizer"].(map[string]any)["id"], fx.Alice.String())
	}

	t.Run("GetAsOrganizerAndAttendee", func(t *testing.T) {
		wantOurs(t, tb.get(t, fx.Alice, changed), fx.RoomGoya)
		wantOurs(t, tb.get(t, fx.Bob, changed), fx.RoomGoya)
		theirs := tb.get(t, fx.Boris, changed)
		wantValue(t, "Boris's subject", theirs["subject"], "Globex secret")
	})
	t.Run("AttendeeCannotAct", func(t *testing.T) {
		for _, r := range []reply{
			tb.call(t, fx.Bob, http.MethodDelete, bookingPath(changed), nil),
			tb.call(t, fx.Bob, http.MethodPost, bookingPath(checked, "checkin"), nil),
		} {
			wantProblem(t, r, http.StatusNotFound, booking.CodeBookingNotFound, noIndex)
		}
		wantTwinUntouched(t, 0)
		wantTwinUntouched(t, 1)
	})
	t.Run("Change", func(t *testing.T) {
		b := detail(t, tb.call(t, fx.Alice, http.MethodPatch, bookingPath(changed), map[string]any{"endDate": fx.At(1, 11, 30).UnixMilli()}), http.StatusOK)
		wantOurs(t, b, fx.RoomGoya)
		wantInt(t, "endDate", b["endDate"], fx.At(1, 11, 30).UnixMilli())
		wantTwinUntouched(t, 0)
	})
	t.Run("Cancel", func(t *testing.T) {
		b := detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(changed), nil), http.StatusOK)
		wantOurs(t, b, fx.RoomGoya)
		wantValue(t, "status", b["status"], "CANCELLED")
		wantTwinUntouched(t, 0)
	})
	t.Run("CheckIn", func(t *testing.T) {
		tb.Clock.Set(fx.At(1, 9, 55))
		b := detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(checked, "checkin"), nil), http.StatusOK)
		wantOurs(t, b, fx.RoomVelazquez)
		wantValue(t, "status", b["status"], "ACTIVE")
		wantTwinUntouched(t, 1)
		b = detail(t, tb.call(t, fx.Alice, http.MethodPost, bookingPath(checked, "checkout"), nil), http.StatusOK)
		wantValue(t, "status", b["status"], "CANCELLED") // released before its start
		wantTwinUntouched(t, 1)
	})
}

// TestAdminAPIRefusesAnyUsedID creates objects with ids that other objects hold, of another collection
// or organization: each is 404 1013, as an unknown object, and nothing is created.
func TestAdminAPIRefusesAnyUsedID(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	building := map[string]any{"name": "Annex", "timezone": "Europe/Madrid"}
	for _, tc := range []struct {
		name       string
		collection string
		id         uuid.UUID
		body       map[string]any
	}{
		{"BuildingWithUserOfAnotherOrganization", "buildings", fx.Boris, building},
		{"BuildingWithResourceOfOurs", "buildings", fx.RoomGoya, building},
		{"BuildingWithOurOrganization", "buildings", fx.OrgA, building},
		{"FeatureWithFloorOfAnotherOrganization", "features", fx.FloorB, map[string]any{"name": "Lamp"}},
		{"UserWithBuildingOfOurs", "users", fx.BuildingMadrid, map[string]any{"name": "Nora", "email": "nora@acme.test"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := snapshot(t, tb.Bundle, fx.OrgA)
			r := tb.call(t, fx.Adam, http.MethodPut, adminPath(tc.collection, tc.id), tc.body)
			wantProblem(t, r, http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
			if changed := changedTables(before, snapshot(t, tb.Bundle, fx.OrgA)); len(changed) > 0 {
				t.Errorf("changed %v", changed)
			}
			if n := fx.RowCount(t, tb.Bundle, "SELECT count(*) FROM "+tc.collection+" WHERE id = $1", tc.id); n != 0 {
				t.Errorf("%s holds %d objects with the id, want none", tc.collection, n)
			}
		})
	}
}

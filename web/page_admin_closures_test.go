package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The closures page of the office settings: close a building on given days, or a floor or a resource for
// a while; the bookings inside are shown and the admin cancels or keeps them.

// closureValues is the closure form for a floor or a resource, from–until.
func closureValues(target, from, until, reason string) url.Values {
	return url.Values{"id": {uuid.NewString()}, "target": {target}, "from": {from}, "until": {until}, "reason": {reason}}
}

func closureCount(t *testing.T, pb *pageBundle) int {
	t.Helper()
	return fx.TableCount(t, pb.Bundle, "closures")
}

func TestPageAdminClosures(t *testing.T) {
	t.Parallel()

	t.Run("OthersAre403", func(t *testing.T) {
		pb := setupPages(t)
		for _, who := range []uuid.UUID{fx.Alice, fx.Rita} {
			b := pb.signedIn(t, who)
			p := b.get("/admin/closures")
			p.wantStatus(t, http.StatusForbidden)
			p.wantText(t, "main", "Only an admin of the organization can change its settings.")
			b.post("/admin/closures", closureValues("resource:"+fx.RoomGoya.String(), "2026-11-24T09:00", "2026-11-24T12:00", "Mine")).
				wantStatus(t, http.StatusForbidden)
		}
		if n := closureCount(t, pb); n != 0 {
			t.Errorf("closures = %d, want none", n)
		}
	})

	t.Run("AnotherOrganizationsBuildingIsRefused", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		if b.get("/admin/closures").count(`option[value="building:`+fx.BuildingB.String()+`"]`) != 0 {
			t.Errorf("the form offers another organization's building")
		}
		form := url.Values{"target": {"building:" + fx.BuildingB.String()}, "fromDate": {"2026-11-30"}, "toDate": {"2026-11-30"}, "reason": {"Mine"}}
		p := b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".add-closure [role=alert]", "Please check the form", "What: choose a building, a floor, a desk or a room from the list.")
		if n := closureCount(t, pb); n != 0 {
			t.Errorf("closures = %d, want none", n)
		}
		b.post("/admin/closures/"+uuid.NewString()+"/delete", url.Values{}).wantStatus(t, http.StatusNotFound)
	})

	t.Run("BuildingClosedOnDaysIsListedAndDeleted", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		form := url.Values{"id": {uuid.NewString()}, "target": {"building:" + fx.BuildingMadrid.String()},
			"fromDate": {"2026-11-30"}, "toDate": {"2026-12-01"}, "reason": {"Holiday"}}
		p := b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Saved: Building Madrid HQ is closed from Mon 30 Nov to Tue 1 Dec: Holiday.")
		row := "#closure-" + form.Get("id")
		p.wantText(t, row, "Building Madrid HQ", "Closed from Mon 30 Nov to Tue 1 Dec: Holiday")
		// Whole days in Madrid: from midnight of the first to midnight after the last.
		if n := fx.RowCount(t, pb.Bundle, "SELECT count(*) FROM closures WHERE id = $1 AND start_date = $2 AND end_date = $3",
			form.Get("id"), fx.At(7, 0, 0), fx.At(9, 0, 0)); n != 1 {
			t.Errorf("the closure is not stored as 30 Nov 00:00 to 2 Dec 00:00 Madrid time")
		}
		p = b.post("/admin/closures/"+form.Get("id")+"/delete", url.Values{"etag": {p.attr(row+" input[name=etag]", "value")}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Deleted the closure: Holiday.")
		if p.count(row) != 0 || closureCount(t, pb) != 0 {
			t.Errorf("the closure is still there")
		}
		p.wantText(t, "main", "Nothing is closed now or later.")
	})

	t.Run("RefusedInWords", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		goya := "resource:" + fx.RoomGoya.String()
		tests := []struct {
			name string
			form url.Values
			want string
		}{
			{"NoReason", closureValues(goya, "2026-11-24T09:00", "2026-11-24T12:00", " "), "Reason: say why it is closed; everyone who searches sees it."},
			{"UntilBeforeFrom", closureValues(goya, "2026-11-24T12:00", "2026-11-24T09:00", "Leak"), "Until must be later than From."},
			{"NoTimes", closureValues(goya, "", "", "Leak"), "From and Until: choose the date and time it goes out of service and the date and time it is back."},
			{"TooLong", closureValues(goya, "2026-11-24T12:00", "2028-11-24T09:00", "Leak"), "Until: a closure lasts at most 400 days."},
			{"LastDayFirst", url.Values{"target": {"building:" + fx.BuildingMadrid.String()}, "fromDate": {"2026-12-02"}, "toDate": {"2026-12-01"}, "reason": {"X"}},
				"Days: the last day must be the first day or later."},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				p := b.post("/admin/closures", tc.form)
				p.wantStatus(t, http.StatusBadRequest)
				p.wantText(t, ".add-closure [role=alert]", tc.want)
				if got := p.attr("#closure-reason", "value"); got != tc.form.Get("reason") && tc.name != "NoReason" {
					t.Errorf("reason after the refusal = %q, want what was typed", got)
				}
			})
		}
		if n := closureCount(t, pb); n != 0 {
			t.Errorf("closures = %d, want none", n)
		}
	})

	t.Run("BookingsInsideAreShownThenCancelled", func(t *testing.T) {
		pb := setupPages(t)
		booked := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Adam)
		form := closureValues("resource:"+fx.RoomGoya.String(), "2026-11-24T09:00", "2026-11-24T12:00", "Leak")
		p := b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".closure-bookings", "1 booking falls inside this closure.",
			"Goya for alice Archer, from 10:00 to 11:00 Madrid time on Tue 24 Nov")
		p.wantText(t, ".closure-bookings button[value=CANCEL]", "Cancel these bookings")
		p.wantText(t, ".closure-bookings button[value=KEEP]", "Keep them (the closure will not cover them)")
		if got := p.attr("input[name=id]", "value"); got != form.Get("id") {
			t.Errorf("id in the form = %q, want the one sent, %q", got, form.Get("id"))
		}
		if n := closureCount(t, pb); n != 0 {
			t.Fatalf("closures = %d before the admin chose; want none", n)
		}
		wantBookingStatus(t, pb, booked.ID, booking.StatusPending)

		form.Set("overlapping", "CANCEL")
		p = b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Saved: Goya (Madrid HQ, ", "is closed from 09:00 to 12:00 Madrid time on Tue 24 Nov: Leak.",
			"The bookings inside it were cancelled.")
		p.wantText(t, "#closure-"+form.Get("id"), "Goya", "Closed from 09:00 to 12:00 Madrid time on Tue 24 Nov: Leak")
		wantBookingStatus(t, pb, booked.ID, booking.StatusCancelled)
	})

	t.Run("BookingsInsideAreKept", func(t *testing.T) {
		pb := setupPages(t)
		booked := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		b := pb.signedIn(t, fx.Adam)
		form := closureValues("floor:"+fx.FloorMadrid.String(), "2026-11-24T08:00", "2026-11-24T20:00", "Carpets")
		b.post("/admin/closures", form).wantText(t, ".closure-bookings", "1 booking falls inside this closure.")
		form.Set("overlapping", "KEEP")
		p := b.post("/admin/closures", form)
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "The bookings inside it were kept.")
		p.wantText(t, "#closure-"+form.Get("id"), "Closed from 08:00 to 20:00 Madrid time on Tue 24 Nov: Carpets", "Keeps 1 booking made before it was saved.")
		wantBookingStatus(t, pb, booked.ID, booking.StatusPending)
		// Nobody else can book the floor meanwhile.
		_, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: pb.mbUser(t, fx.Bob), Organizer: pb.mbUser(t, fx.Bob),
			Category: booking.CategorySpace, Bookings: []booking.NewBooking{{ResourceID: fx.RoomVelazquez, Start: fx.At(1, 14, 0), End: fx.At(1, 15, 0)}}})
		fx.WantCode(t, err, booking.CodeResourceClosed)
	})
}

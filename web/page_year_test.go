package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// A date of another year than now's (the service's clock, in the building's zone) shows its year:
// "Tue 5 Jan 2027"; a date of this year does not.
func TestPageDatesOfAnotherYear(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	thisYear := fx.Now.Format("2006")
	nextJan := func(day, hh int) time.Time { return time.Date(fx.Now.Year()+1, 1, day, hh, 0, 0, 0, fx.Madrid) }
	later := pb.mbCreate(t, fx.Alice, fx.DeskOne, nextJan(5, 9), nextJan(5, 18))
	soon := pb.mbCreate(t, fx.Alice, fx.DeskTwo, fx.At(1, 9, 0), fx.At(1, 18, 0))
	nextYear := later.Start.Format("2006")

	t.Run("Bookings", func(t *testing.T) {
		p := pb.signedIn(t, fx.Alice).get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, card(later.ID)+" .booking-when", "Tue 5 Jan "+nextYear)
		p.wantText(t, card(soon.ID)+" .booking-when", "Tue 24 Nov")
		if got := p.text(card(soon.ID) + " .booking-when"); strings.Contains(got, thisYear) {
			t.Errorf("a booking of this year reads %q, with its year", got)
		}
	})

	t.Run("Find", func(t *testing.T) {
		p := pb.signedIn(t, fx.Alice).get(findPath("kind", "desk", "date", later.Start.Format(time.DateOnly), "from", "09:00", "to", "10:00"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "Tue 5 Jan "+nextYear)
	})

	t.Run("Closures", func(t *testing.T) {
		b := pb.signedIn(t, fx.Adam)
		for _, form := range []url.Values{
			{"target": {"building:" + fx.BuildingNewYork.String()}, "fromDate": {nextJan(4, 0).Format(time.DateOnly)},
				"toDate": {nextJan(8, 0).Format(time.DateOnly)}, "reason": {"Winter break"}},
			closureValues("resource:"+fx.RoomHudson.String(), "2026-11-30T09:00", "2026-11-30T12:00", "Carpets"),
		} {
			b.post("/admin/closures", form).wantStatus(t, http.StatusOK)
		}
		p := b.get("/admin/closures")
		p.wantText(t, "main", "from Mon 4 Jan "+nextYear+" to Fri 8 Jan "+nextYear, "from 09:00 to 12:00 New York time on Mon 30 Nov")
		if strings.Contains(p.text("main"), "30 Nov "+thisYear) {
			t.Errorf("a closure of this year shows its year: %s", p.text("main"))
		}
	})
}

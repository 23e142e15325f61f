package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/PuerkitoBio/goquery"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// A time zone is named as people say it, "Madrid time", never by its IANA name: zoneID matches the
// names a person must not read (Europe/Madrid, America/New_York, America/Argentina/Buenos_Aires).
var zoneID = regexp.MustCompile(`\b(Africa|America|Antarctica|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)/[A-Za-z_]+`)

func TestPageZonesInWords(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)

	t.Run("OutsideTheHours", func(t *testing.T) {
		bk := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		p := pb.signedIn(t, fx.Alice).post("/bookings/"+bk.ID.String()+"/change",
			url.Values{"date": {"2026-11-24"}, "start": {"20:00"}, "end": {"21:00"}, "back": {"/bookings"}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, card(bk.ID)+" [role=alert]", "The resource can be booked from 08:00 to 20:00 Madrid time on that day")
		if m := zoneID.FindString(p.text("main")); m != "" {
			t.Errorf("the page names the zone %q: %s", m, p.text(card(bk.ID)+" [role=alert]"))
		}
	})

	t.Run("BuildingZoneChoices", func(t *testing.T) {
		b := pb.signedIn(t, fx.Adam)
		p := b.get("/admin/buildings/" + fx.BuildingNewYork.String())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#timezone option[selected]", "New York time")
		if got := p.attr("#timezone option[selected]", "value"); got != "America/New_York" {
			t.Errorf("the chosen zone's value = %q, want America/New_York", got)
		}
		p.doc.Find("#timezone option").EachWithBreak(func(_ int, o *goquery.Selection) bool {
			if m := zoneID.FindString(o.Text()); m != "" {
				t.Errorf("an option reads %q", o.Text())
				return false
			}
			return true
		})
		p.wantText(t, `#timezone option[value="America/Argentina/Buenos_Aires"]`, "Buenos Aires time")

		refused := b.post("/admin/buildings", url.Values{"name": {"Annex"}, "timezone": {""}, "status": {"ACTIVATED"}})
		refused.wantStatus(t, http.StatusBadRequest)
		if m := zoneID.FindString(refused.text("main")); m != "" {
			t.Errorf("the refusal names the zone %q: %s", m, refused.text("form .notice.error"))
		}
	})
}

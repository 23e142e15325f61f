package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// These tests cover recurring bookings in the pages: the "Repeat" part of the booking form, the series
// as one item of My bookings, and the series' own page. The clock starts at Monday 2026-11-23 09:00 in
// Madrid.

// repeatForm is the booking form of Desk 1 on Tue 1 Dec 2026, 09:00–18:00, repeated on Tuesdays and
// Wednesdays until Wed 9 Dec (four days: 1, 2, 8 and 9 Dec), in mode ("ALL" or "FREE").
func repeatForm(mode string) url.Values {
	return url.Values{
		"resource": {fx.DeskOne.String()}, "date": {"2026-12-01"}, "from": {"09:00"}, "to": {"18:00"},
		"repeat": {"1"}, "repeatDay": {"TUESDAY", "WEDNESDAY"}, "repeatEvery": {"1"}, "repeatUntil": {"2026-12-09"},
		"repeatMode": {mode},
	}
}

// takeDeskWednesday books Desk 1 for Bob on Wed 2 Dec, 09:00–10:00.
func (pb *pageBundle) takeDeskWednesday(t *testing.T) booking.Booking {
	t.Helper()
	return pb.mbCreate(t, fx.Bob, fx.DeskOne, fx.At(9, 9, 0), fx.At(9, 10, 0))
}

// seriesOfAlice makes Alice's series of repeatForm through the domain, and returns it.
func (pb *pageBundle) seriesOfAlice(t *testing.T, mode booking.SeriesMode) booking.Series {
	t.Helper()
	alice := pb.mbUser(t, fx.Alice)
	sr, err := pb.Service.CreateSeries(t.Context(), booking.SeriesRequest{
		Creator: alice, Organizer: alice, ResourceID: fx.DeskOne, Mode: mode,
		Rule: booking.SeriesRule{
			Weekdays: []time.Weekday{time.Tuesday, time.Wednesday}, EveryWeeks: 1, First: booking.Date{Year: 2026, Month: 12, Day: 1},
			Until: booking.Date{Year: 2026, Month: 12, Day: 9}, Start: 9 * 60, End: 18 * 60,
		},
	})
	if err != nil {
		t.Fatalf("create series: %v", err)
	}
	return sr
}

func TestPageSeriesForm(t *testing.T) {
	t.Parallel()

	t.Run("RepeatIsClosedWithTheChosenWeekday", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.get(findPath("kind", "desk", "date", "2026-11-24", "from", "09:00", "to", "18:00", "resource", fx.DeskOne.String()))
		p.wantStatus(t, http.StatusOK)
		if p.count("form.booking-form details.repeat") != 1 || p.count("form.booking-form details.repeat[open]") != 0 {
			t.Errorf("want one closed Repeat in the booking form")
		}
		// 24 Nov 2026 is a Tuesday: that day is ticked, and no other.
		var ticked []string
		p.doc.Find("details.repeat input[name=repeatDay][checked]").Each(func(_ int, s *goquery.Selection) { ticked = append(ticked, s.AttrOr("value", "")) })
		if got := strings.Join(ticked, ","); got != "TUESDAY" {
			t.Errorf("ticked weekdays = %s, want TUESDAY", got)
		}
		p.wantText(t, "details.repeat", "Repeat", "Mon", "Sun", "Every week", "Every 4 weeks", "Until",
			"Only if every day is free", "Book the free days and tell me which are not")
		if got := p.attr("#b-repeat-until", "max"); got != "2027-05-24" {
			t.Errorf("until max = %q, want 2027-05-24", got)
		}
	})

	t.Run("FreeNamesTheRefusedDayInMyBookings", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		pb.takeDeskWednesday(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.post("/bookings", repeatForm("FREE"))
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/bookings" || p.url.Query().Get("series") == "" {
			t.Fatalf("after booking: at %s, want /bookings?series=ID", p.url)
		}
		p.wantText(t, ".series-made", "Repeated booking made: 3 of 4 days booked.", "This day was not booked:",
			"Wed 2 Dec: it is already booked at that time")
		if got := p.text(".series-made .refused-days li"); got != "Wed 2 Dec: it is already booked at that time" {
			t.Errorf("refused days = %q", got)
		}
		// The series is one item, not three cards.
		if n := p.count(".series-card"); n != 1 {
			t.Fatalf("%d series items, want 1", n)
		}
		p.wantText(t, ".series-card .series-line", "Every Tue, Wed until Wed 9 Dec · 09:00–18:00 · Desk 1")
		p.wantText(t, ".series-card .series-next", "Next: Tue 1 Dec")
		if n := p.count("#booking-list .booking-card"); n != 0 {
			t.Errorf("%d occurrences listed as cards, want none", n)
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 3 {
			t.Errorf("%d bookings made, want 3", n)
		}
	})

	t.Run("AllRefusesBesideTheForm", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		pb.takeDeskWednesday(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.hxPost("/bookings", repeatForm("ALL"))
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, ".booking-error", "Nothing was booked", "Wed 2 Dec, 09:00–18:00")
		if p.count("details.repeat[open]") != 1 || p.attr("#b-repeat-until", "value") != "2026-12-09" {
			t.Errorf("the Repeat part is not shown again as sent")
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
			t.Errorf("%d bookings made, want none", n)
		}
	})

	t.Run("Refusals", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		for _, tc := range []struct {
			name   string
			edit   func(url.Values)
			status int
			want   string
		}{
			{"TwoSpaces", func(v url.Values) { v.Add("resource", fx.DeskTwo.String()) }, 400, "A repeated booking is for one space: choose only one."},
			{"TwoDays", func(v url.Values) { v.Add("date", "2026-12-02") }, 400, "A repeated booking starts on one day: choose only its first day."},
			{"NoUntil", func(v url.Values) { v.Del("repeatUntil") }, 400, "Choose until which day to repeat."},
			{"UntilNotTicked", func(v url.Values) { v.Del("repeat") }, 400, "did not tick “Repeat this booking”"},
			{"TooLong", func(v url.Values) { v.Set("repeatUntil", "2027-06-02") }, 400, "a series lasts at most 6 months"},
			{"NoWeekday", func(v url.Values) { v.Del("repeatDay") }, 400, "choose at least one day of the week"},
			{"EveryFiveWeeks", func(v url.Values) { v.Set("repeatEvery", "5") }, 400, "repeat every 1 to 4 weeks"},
			{"BadWeekday", func(v url.Values) { v.Add("repeatDay", "FUNDAY") }, 400, `"FUNDAY" is not a day of the week.`},
			{"Guests", func(v url.Values) { v.Set("guests", "ann@example.com") }, 400, "cannot invite people"},
		} {
			form := repeatForm("FREE")
			tc.edit(form)
			p := b.hxPost("/bookings", form)
			if p.status != tc.status {
				t.Errorf("%s: status %d, want %d (%s)", tc.name, p.status, tc.status, p.text(".booking-error"))
				continue
			}
			p.wantText(t, ".booking-error", tc.want)
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
			t.Errorf("%d bookings made, want none", n)
		}
	})
}

func TestPageSeries(t *testing.T) {
	t.Parallel()

	t.Run("ListsItsDays", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		pb.takeDeskWednesday(t)
		sr := pb.seriesOfAlice(t, booking.SeriesFree)
		b := pb.signedIn(t, fx.Alice)
		p := b.get("/bookings/series/" + sr.ID.String())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Every Tue, Wed until Wed 9 Dec")
		var days []string
		p.doc.Find("li.occurrence").Each(func(_ int, s *goquery.Selection) { days = append(days, strings.Join(strings.Fields(s.Text()), " ")) })
		want := "Tue 1 Dec 09:00–18:00 Pending check-in|Wed 2 Dec Not booked: it is already booked at that time|" +
			"Tue 8 Dec 09:00–18:00 Pending check-in|Wed 9 Dec 09:00–18:00 Pending check-in"
		if got := strings.Join(days, "|"); got != want {
			t.Errorf("days:\n got %s\nwant %s", got, want)
		}
		// Each booked day opens its own booking's page, which links back to the series.
		first := p.attr("li.occurrence a", "href")
		occ := b.get(first)
		occ.wantStatus(t, http.StatusOK)
		if got := occ.attr(".booking-series a", "href"); got != "/bookings/series/"+sr.ID.String() {
			t.Errorf("the occurrence's page links to %q, want its series", got)
		}
	})

	t.Run("CancelOneDayFromADateAndWhole", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		sr := pb.seriesOfAlice(t, booking.SeriesAll)
		b := pb.signedIn(t, fx.Alice)
		path := "/bookings/series/" + sr.ID.String()
		// One day, on its own page: the series says it was cancelled on its own.
		b.post("/bookings/"+sr.Occurrences[0].Booking.ID.String()+"/cancel", url.Values{}).wantStatus(t, http.StatusOK)
		p := b.get(path)
		p.wantText(t, "li.occurrence.skipped", "Tue 1 Dec", "Cancelled on its own")
		// From Tue 8 Dec on.
		p = b.post(path+"/cancel", url.Values{"from": {"2026-12-08"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "The days from Tuesday 8 December 2026 on are cancelled.")
		p.wantText(t, "h1", "Every Tue, Wed until Mon 7 Dec")
		pb.mbWantStatus(t, fx.Alice, sr.Occurrences[1].Booking.ID, booking.StatusPending)
		pb.mbWantStatus(t, fx.Alice, sr.Occurrences[2].Booking.ID, booking.StatusCancelled)
		// The whole series.
		p = b.post(path+"/cancel", url.Values{"whole": {"1"}})
		p.wantText(t, ".notice.ok", "The repeated booking is cancelled.")
		p.wantText(t, "main", "This repeated booking is cancelled.")
		if p.count("form[action$='/cancel']") != 0 {
			t.Errorf("a cancelled series still offers to cancel it")
		}
		pb.mbWantStatus(t, fx.Alice, sr.Occurrences[1].Booking.ID, booking.StatusCancelled)
	})

	t.Run("ChangeTimesFromADate", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		sr := pb.seriesOfAlice(t, booking.SeriesAll)
		b := pb.signedIn(t, fx.Alice)
		path := "/bookings/series/" + sr.ID.String()
		p := b.post(path+"/times", url.Values{"from": {"2026-12-08"}, "start": {"10:00"}, "end": {"12:00"}, "mode": {"ALL"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "From Tuesday 8 December 2026 on, the times are 10:00–12:00.")
		p.wantText(t, "li.occurrence", "Tue 1 Dec 09:00–18:00", "Tue 8 Dec 10:00–12:00", "Wed 9 Dec 10:00–12:00")
		// Bad times are refused beside the form, as typed.
		p = b.post(path+"/times", url.Values{"from": {"2026-12-08"}, "start": {"9am"}, "end": {"12:00"}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".notice.error", "Give the start and end times")
		if got := p.attr("#s-start", "value"); got != "9am" {
			t.Errorf("start shown again = %q, want 9am", got)
		}
	})

	t.Run("OtherPeopleAndOrganizationsGet404", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		sr := pb.seriesOfAlice(t, booking.SeriesAll)
		path := "/bookings/series/" + sr.ID.String()
		for _, who := range []uuid.UUID{fx.Bob, fx.Boris} {
			b := pb.signedIn(t, who)
			if got := b.get(path).status; got != http.StatusNotFound {
				t.Errorf("%s GET another's series: %d, want 404", who, got)
			}
			if got := b.post(path+"/cancel", url.Values{"whole": {"1"}}).status; got != http.StatusNotFound {
				t.Errorf("%s cancels another's series: %d, want 404", who, got)
			}
			if got := b.post(path+"/times", url.Values{"from": {"2026-12-01"}, "start": {"10:00"}, "end": {"11:00"}}).status; got != http.StatusNotFound {
				t.Errorf("%s changes another's series: %d, want 404", who, got)
			}
			// Another's series id in My bookings' address says nothing of it.
			if p := b.get("/bookings?series=" + sr.ID.String()); p.count(".series-made") != 0 {
				t.Errorf("%s sees another's series in My bookings", who)
			}
		}
		if got := pb.signedIn(t, fx.Alice).get("/bookings/series/not-an-id").status; got != http.StatusNotFound {
			t.Errorf("GET a series with a bad id: %d, want 404", got)
		}
		pb.mbWantStatus(t, fx.Alice, sr.Occurrences[0].Booking.ID, booking.StatusPending)
	})
}

package booking_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// searchBook books a resource for user, and fails the test if the booking is refused.
func searchBook(t *testing.T, b *fx.Bundle, user, resource uuid.UUID, category booking.Category, start, end time.Time, attendees ...uuid.UUID) booking.Booking {
	t.Helper()
	u := b.User(t, fx.OrgA, user)
	nb := booking.NewBooking{ResourceID: resource, Start: start, End: end}
	for _, a := range attendees {
		nb.InternalAttendees = append(nb.InternalAttendees, booking.InternalAttendee{Type: booking.AttendeeRequired, UserID: a})
	}
	bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: u, Organizer: u, Category: category, Bookings: []booking.NewBooking{nb}})
	if err != nil {
		t.Fatalf("book: %v", err)
	}
	return bs[0]
}

// date returns a calendar date in the form a search takes.
func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestSearch(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	alice := b.User(t, fx.OrgA, fx.Alice)
	// Tuesday: Bob holds Goya 10:00–11:00 and Velázquez from 12:00; Alice attends Bob's Boardroom meeting.
	searchBook(t, b, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	searchBook(t, b, fx.Bob, fx.RoomVelazquez, booking.CategorySpace, fx.At(1, 12, 0), fx.At(1, 13, 0))
	searchBook(t, b, fx.Bob, fx.RoomBoard, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0), fx.Alice)
	// Wednesday: a cancelled booking, which holds nothing.
	gone := searchBook(t, b, fx.Bob, fx.RoomVelazquez, booking.CategorySpace, fx.At(2, 10, 0), fx.At(2, 11, 0))
	if _, err := b.Service.Cancel(t.Context(), b.User(t, fx.OrgA, fx.Bob), gone.ID); err != nil {
		t.Fatal(err)
	}
	space := booking.CategorySpace

	byName := func(f booking.Found) map[string]booking.SearchResult {
		out := map[string]booking.SearchResult{}
		for _, r := range f.Results {
			out[r.Resource.Name] = r
		}
		return out
	}
	t.Run("OneDay", func(t *testing.T) {
		f, err := b.Service.Search(t.Context(), alice, booking.SearchQuery{
			BuildingID: fx.BuildingMadrid, Category: &space, Days: []time.Time{date(2026, 11, 24)},
			From: 10 * time.Hour, To: 11 * time.Hour,
		})
		if err != nil {
			t.Fatal(err)
		}
		rs := byName(f)
		if len(rs) != 3 {
			t.Fatalf("results = %v, want the three visible rooms", rs)
		}
		if got := rs["Goya"].State; got != booking.SpotBusy {
			t.Errorf("Goya = %s, want busy", got)
		}
		if got := rs["Boardroom"].State; got != booking.SpotMine {
			t.Errorf("Boardroom = %s, want mine (Alice attends)", got)
		}
		v := rs["Velázquez"]
		if v.State != booking.SpotFree || !v.Days[0].FreeUntil.Equal(fx.At(1, 12, 0)) {
			t.Errorf("Velázquez = %s until %s, want free until its next booking at 12:00", v.State, v.Days[0].FreeUntil)
		}
		if got := v.Days[0].FreeUntil.Location().String(); got != "Europe/Madrid" {
			t.Errorf("times in %s, want the building's zone", got)
		}
		if got := rs["Goya"].Resource.Rule.EndTime; got != 20*time.Hour {
			t.Errorf("results carry no rule (end %s)", got)
		}
		if got := len(rs["Goya"].Resource.Features); got != 2 {
			t.Errorf("Goya has %d features, want 2", got)
		}
	})
	t.Run("SeveralDaysTakeTheWorst", func(t *testing.T) {
		f, err := b.Service.Search(t.Context(), alice, booking.SearchQuery{
			BuildingID: fx.BuildingMadrid, Category: &space,
			Days: []time.Time{date(2026, 11, 25), date(2026, 11, 24), date(2026, 11, 25)},
			From: 12 * time.Hour, To: 13 * time.Hour,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Days) != 2 || !f.Days[0].Equal(fx.At(1, 0, 0)) || !f.Days[1].Equal(fx.At(2, 0, 0)) {
			t.Errorf("days = %v, want Tuesday and Wednesday once each, in order", f.Days)
		}
		rs := byName(f)
		if got := rs["Velázquez"]; got.State != booking.SpotBusy || got.Days[0].State != booking.SpotBusy || got.Days[1].State != booking.SpotFree {
			t.Errorf("Velázquez = %s (%s, %s), want busy (busy on Tuesday, free on Wednesday: the cancelled booking holds nothing)",
				got.State, got.Days[0].State, got.Days[1].State)
		}
		if got := rs["Goya"].State; got != booking.SpotFree {
			t.Errorf("Goya = %s, want free at 12:00 on both days", got)
		}
	})
	t.Run("RuleRefusesTheHours", func(t *testing.T) {
		for _, tc := range []struct {
			name     string
			day      time.Time
			from, to time.Duration
			want     string
		}{
			{"TooLong", date(2026, 11, 25), 9 * time.Hour, 14 * time.Hour, "the booking lasts 5h, longer than the maximum of 4h"},
			{"OutsideWindow", date(2026, 11, 25), 20 * time.Hour, 21 * time.Hour, "the resource can be booked from 08:00 to 20:00 Madrid time on that day"},
			{"TooFarAhead", date(2027, 1, 5), 10 * time.Hour, 11 * time.Hour, "bookings of this resource may start at most 30 days ahead"},
			{"Begun", date(2026, 11, 23), 8 * time.Hour, 10 * time.Hour, "that time has already begun"},
			{"Over", date(2026, 11, 23), 7 * time.Hour, 8 * time.Hour, "that time is over"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				id := fx.RoomGoya
				f, err := b.Service.Search(t.Context(), alice, booking.SearchQuery{
					ResourceID: &id, Days: []time.Time{tc.day}, From: tc.from, To: tc.to,
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(f.Results) != 1 {
					t.Fatalf("%d results, want Goya alone", len(f.Results))
				}
				d := f.Results[0].Days[0]
				if f.Results[0].State != booking.SpotUnavailable || d.Refusal != tc.want {
					t.Errorf("Goya = %s (%q), want unavailable (%q)", f.Results[0].State, d.Refusal, tc.want)
				}
			})
		}
	})
	t.Run("HoursAreTimesOfDay", func(t *testing.T) {
		// 29 March 2026 is 23 hours long in Madrid, but 10:00 is still 10:00.
		id := fx.DeskOne
		f, err := b.Service.Search(t.Context(), alice, booking.SearchQuery{
			ResourceID: &id, Days: []time.Time{date(2026, 3, 29)}, From: 10 * time.Hour, To: 24 * time.Hour,
		})
		if err != nil {
			t.Fatal(err)
		}
		h := f.Results[0].Days[0].Hours
		if got := h.Start.Format("2006-01-02 15:04 MST"); got != "2026-03-29 10:00 CEST" {
			t.Errorf("start = %s", got)
		}
		if got := h.End.Format("2006-01-02 15:04"); got != "2026-03-30 00:00" {
			t.Errorf("end = %s, want the next midnight", got)
		}
	})
}

func TestSearchRefused(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	alice := b.User(t, fx.OrgA, fx.Alice)
	day := []time.Time{date(2026, 11, 24)}
	many := make([]time.Time, booking.MaxSearchDays+1)
	for i := range many {
		many[i] = date(2026, 11, 24+i)
	}
	hidden, other, nobody := fx.RoomHidden, fx.RoomB, uuid.New()
	hiddenFloor := fx.FloorHidden
	for _, tc := range []struct {
		name string
		q    booking.SearchQuery
		want booking.Code
	}{
		{"NoDays", booking.SearchQuery{BuildingID: fx.BuildingMadrid, From: 10 * time.Hour, To: 11 * time.Hour}, booking.CodeInvalidRequest},
		{"TooManyDays", booking.SearchQuery{BuildingID: fx.BuildingMadrid, Days: many, From: 10 * time.Hour, To: 11 * time.Hour}, booking.CodeInvalidRequest},
		{"EndBeforeStart", booking.SearchQuery{BuildingID: fx.BuildingMadrid, Days: day, From: 11 * time.Hour, To: 10 * time.Hour}, booking.CodeInvalidRequest},
		{"PastMidnight", booking.SearchQuery{BuildingID: fx.BuildingMadrid, Days: day, From: 23 * time.Hour, To: 25 * time.Hour}, booking.CodeInvalidRequest},
		{"HiddenResource", booking.SearchQuery{ResourceID: &hidden, Days: day, From: 10 * time.Hour, To: 11 * time.Hour}, booking.CodeResourceNotFound},
		{"OtherOrganization", booking.SearchQuery{ResourceID: &other, Days: day, From: 10 * time.Hour, To: 11 * time.Hour}, booking.CodeResourceNotFound},
		{"UnknownResource", booking.SearchQuery{ResourceID: &nobody, Days: day, From: 10 * time.Hour, To: 11 * time.Hour}, booking.CodeResourceNotFound},
		{"OtherBuilding", booking.SearchQuery{BuildingID: fx.BuildingB, Days: day, From: 10 * time.Hour, To: 11 * time.Hour}, booking.CodeBuildingNotFound},
		{"HiddenFloor", booking.SearchQuery{BuildingID: fx.BuildingMadrid, FloorID: &hiddenFloor, Days: day, From: 10 * time.Hour, To: 11 * time.Hour}, booking.CodeFloorNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := b.Service.Search(t.Context(), alice, tc.q)
			fx.WantCode(t, err, tc.want)
		})
	}
	// A month of days is one search.
	t.Run("MaxSearchDays", func(t *testing.T) {
		f, err := b.Service.Search(t.Context(), alice, booking.SearchQuery{
			BuildingID: fx.BuildingMadrid, Days: many[:booking.MaxSearchDays], From: 10 * time.Hour, To: 11 * time.Hour,
		})
		if err != nil {
			t.Fatalf("search of %d days: %v", booking.MaxSearchDays, err)
		}
		if got, want := len(f.Days), 31; got != want {
			t.Errorf("days searched = %d, want %d", got, want)
		}
	})
}

func TestSearchDefaults(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	alice := b.User(t, fx.OrgA, fx.Alice)
	desk, room := booking.CategoryWorkstation, booking.CategorySpace
	for _, tc := range []struct {
		name     string
		now      time.Time
		building uuid.UUID
		category *booking.Category
		want     string
	}{
		{"Rooms", fx.Now, fx.BuildingMadrid, &room, "2026-11-23 09:00–13:00"},             // 08:00–20:00, up to 4 h
		{"Desks", fx.Now, fx.BuildingMadrid, &desk, "2026-11-23 09:00–24:00"},             // all day, no limit
		{"Any", fx.Now, fx.BuildingMadrid, nil, "2026-11-23 09:00–24:00"},                 // the widest window, no limit
		{"RoundedUp", fx.At(0, 9, 7), fx.BuildingMadrid, &room, "2026-11-23 09:15–13:15"}, // to the quarter hour
		{"Early", fx.At(0, 6, 0), fx.BuildingMadrid, &room, "2026-11-23 08:00–12:00"},
		{"Late", fx.At(0, 19, 50), fx.BuildingMadrid, &room, "2026-11-24 08:00–12:00"},
		{"NoResourcesOfTheKind", fx.Now, fx.BuildingNewYork, &desk, "2026-11-23 08:00–18:00"}, // 03:00 in New York
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.Clock.Set(tc.now)
			defer b.Clock.Set(fx.Now)
			s, err := b.Service.SearchDefaults(t.Context(), alice, tc.building, tc.category)
			if err != nil {
				t.Fatal(err)
			}
			hm := func(d time.Duration) string { return time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(d).Format("15:04") }
			to := hm(s.To)
			if s.To == 24*time.Hour {
				to = "24:00"
			}
			if got := s.Day.Format(time.DateOnly) + " " + hm(s.From) + "–" + to; got != tc.want {
				t.Errorf("defaults = %s, want %s", got, tc.want)
			}
		})
	}
	t.Run("Refused", func(t *testing.T) {
		_, err := b.Service.SearchDefaults(t.Context(), alice, fx.BuildingB, nil)
		fx.WantCode(t, err, booking.CodeBuildingNotFound)
		bad := booking.Category("SOFA")
		_, err = b.Service.SearchDefaults(t.Context(), alice, fx.BuildingMadrid, &bad)
		fx.WantCode(t, err, booking.CodeInvalidRequest)
	})
}

func TestResourcesByIDs(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	alice := b.User(t, fx.OrgA, fx.Alice)
	rs, err := b.Service.ResourcesByIDs(t.Context(), alice, []uuid.UUID{fx.RoomVelazquez, fx.RoomHidden, fx.RoomB, fx.DeskOne, fx.RoomVelazquez, uuid.New()})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rs {
		names = append(names, r.Name+"/"+string(r.Subcategory.Category)+"/"+r.Floor.Building.Timezone)
	}
	if got, want := len(names), 2; got != want || names[0] != "Velázquez/SPACE/Europe/Madrid" || names[1] != "Desk 1/WORKSTATION/Europe/Madrid" {
		t.Errorf("resources = %v, want Velázquez then Desk 1, complete, without the hidden, foreign and unknown ones", names)
	}
}

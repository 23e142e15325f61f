package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/chromedp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/oauth2-proxy/mockoidc"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// The fixture's Madrid floor "madrid-1" has three rooms, bookable 08:00–20:00 for up to 4 hours: Goya
// (8 seats, screen and whiteboard), Velázquez (4 seats, screen) and Boardroom (16 seats, needs approval).
// It also has two desks bookable all day: Desk 1 (screen) and Desk 2. The clock starts at Monday
// 23 November 2026, 09:00.

// findBook books a resource for user by calling the domain directly, as if from another browser or
// the app.
func findBook(t *testing.T, pb *pageBundle, user, resource uuid.UUID, category booking.Category, start, end time.Time) {
	t.Helper()
	u := pb.User(t, fx.OrgA, user)
	if _, err := pb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: u, Organizer: u, Category: category, Bookings: []booking.NewBooking{
		{ResourceID: resource, Start: start, End: end},
	}}); err != nil {
		t.Fatalf("book %s: %v", resource, err)
	}
}

// findOwnBookings returns the blocking bookings that user organizes or attends.
func findOwnBookings(t *testing.T, pb *pageBundle, user uuid.UUID) []booking.Booking {
	t.Helper()
	page, err := pb.Service.UserBookings(t.Context(), pb.User(t, fx.OrgA, user), booking.BookingFilter{})
	if err != nil {
		t.Fatalf("user bookings: %v", err)
	}
	return page.Bookings
}

// findResult returns the result for the named resource in a results list.
func findResult(p htmlPage, name string) *goquery.Selection {
	return p.doc.Find("li.result").FilterFunction(func(_ int, s *goquery.Selection) bool {
		return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.Find(".result-name").Text()), "Choose")) == name
	})
}

func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

// findPath returns the URL of a search in the Madrid building, with params as key/value pairs.
func findPath(params ...string) string {
	v := url.Values{"building": {fx.BuildingMadrid.String()}}
	for i := 0; i+1 < len(params); i += 2 {
		v.Add(params[i], params[i+1])
	}
	return "/find?" + v.Encode()
}

// resultNames returns the names of the free results and the names of the others.
func resultNames(p htmlPage) (free, other []string) {
	p.doc.Find("li.result").Each(func(_ int, s *goquery.Selection) {
		name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.Find(".result-name").Text()), "Choose"))
		if s.HasClass("free") {
			free = append(free, name)
		} else {
			other = append(other, name)
		}
	})
	return free, other
}

func TestFindSpace(t *testing.T) {
	t.Parallel()

	t.Run("ListsFreeRoomsWithWhereAndUntil", func(t *testing.T) {
		pb := setupPages(t)
		findBook(t, pb, fx.Bob, fx.RoomVelazquez, booking.CategorySpace, fx.At(1, 12, 0), fx.At(1, 13, 0))
		b := pb.signedIn(t, fx.Alice)
		p := b.get(findPath("kind", "room", "date", "2026-11-24", "from", "10:00", "to", "11:00"))
		p.wantStatus(t, http.StatusOK)
		free, other := resultNames(p)
		if got, want := strings.Join(free, ","), "Boardroom,Goya,Velázquez"; got != want {
			t.Errorf("free rooms = %s, want %s", got, want)
		}
		if len(other) != 0 {
			t.Errorf("rooms not free = %v, want none", other)
		}
		velazquez := findResult(p, "Velázquez")
		if got, want := squash(velazquez.Find(".where").Text()), "madrid-1 · Madrid HQ"; got != want {
			t.Errorf("where = %q, want %q", got, want)
		}
		if got, want := squash(velazquez.Find(".until").Text()), "Free until 12:00 Madrid time"; got != want {
			t.Errorf("Velázquez: %q, want %q (its next booking starts at 12:00)", got, want)
		}
		if got, want := squash(findResult(p, "Goya").Find(".until").Text()), "Free until 20:00 Madrid time"; got != want {
			t.Errorf("Goya: %q, want %q (the end of its window)", got, want)
		}
		p.wantText(t, "#results-h", "3 free rooms")
		p.wantText(t, ".results-head .meta", "Madrid HQ · Tue 24 Nov, 10:00–11:00 Madrid time")
		if got, want := p.attr(".floor-head a.plan-link", "href"), "/find/plan?"; !strings.HasPrefix(got, want) || !strings.Contains(got, "floor="+fx.FloorMadrid.String()) {
			t.Errorf("floor plan link = %q, want /find/plan?…floor=%s", got, fx.FloorMadrid)
		}
	})
}

func TestFindSpaceFilters(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	hours := []string{"date", "2026-11-24", "from", "10:00", "to", "11:00"}
	for _, tc := range []struct {
		name   string
		params []string
		want   string
	}{
		{"Rooms", []string{"kind", "room"}, "Boardroom,Goya,Velázquez"},
		{"Desks", []string{"kind", "desk"}, "Desk 1,Desk 2"},
		{"DesksByDefault", nil, "Desk 1,Desk 2"},
		{"Capacity", []string{"kind", "room", "capacity", "5"}, "Boardroom,Goya"},
		{"CapacityOverAll", []string{"kind", "room", "capacity", "10"}, "Boardroom"},
		{"Feature", []string{"kind", "room", "features", fx.FeatureWhiteboard.String()}, "Goya"},
		{"EveryFeature", []string{"kind", "room", "features", fx.FeatureScreen.String(), "features", fx.FeatureWhiteboard.String()}, "Goya"},
		{"DeskFeature", []string{"kind", "desk", "features", fx.FeatureScreen.String()}, "Desk 1"},
		{"Nothing", []string{"kind", "room", "capacity", "100"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.get(findPath(append(tc.params, hours...)...))
			p.wantStatus(t, http.StatusOK)
			free, other := resultNames(p)
			if got := strings.Join(free, ","); got != tc.want {
				t.Errorf("free = %q, want %q", got, tc.want)
			}
			if len(other) != 0 {
				t.Errorf("not free = %v, want none", other)
			}
			if tc.want == "" {
				p.wantText(t, "#results", "No rooms match these filters in Madrid HQ.")
			}
		})
	}
}

func TestFindSpaceSeveralDays(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(2, 10, 30), fx.At(2, 11, 30))
	b := pb.signedIn(t, fx.Alice)

	oneDay := b.get(findPath("kind", "room", "date", "2026-11-24", "from", "10:00", "to", "11:00"))
	if free, _ := resultNames(oneDay); strings.Join(free, ",") != "Boardroom,Goya,Velázquez" {
		t.Fatalf("on Tuesday alone, free = %v, want all three rooms", free)
	}
	p := b.get(findPath("kind", "room", "date", "2026-11-24", "date", "2026-11-25", "from", "10:00", "to", "11:00"))
	p.wantStatus(t, http.StatusOK)
	free, other := resultNames(p)
	if got, want := strings.Join(free, ","), "Boardroom,Velázquez"; got != want {
		t.Errorf("free on both days = %s, want %s: Goya is busy on Wednesday", got, want)
	}
	if got, want := strings.Join(other, ","), "Goya"; got != want {
		t.Errorf("not free = %s, want %s", got, want)
	}
	if got, want := squash(findResult(p, "Goya").Find(".until").Text()), "Busy Wed 25 Nov: busy 10:30–11:30 Madrid time"; got != want {
		t.Errorf("Goya: %q, want %q", got, want)
	}
	p.wantText(t, ".results-head .meta", "Tue 24 Nov and Wed 25 Nov, 10:00–11:00 Madrid time")
	// Goya was chosen for Tuesday only. Once Wednesday is added, Goya is taken out of the booking form,
	// and a notice says so.
	chosen := b.hxGet(findPath("kind", "room", "date", "2026-11-24", "date", "2026-11-25", "from", "10:00", "to", "11:00",
		"resource", fx.RoomGoya.String(), "resource", fx.RoomVelazquez.String()))
	chosen.wantText(t, "aside#booking .notice.warn", "Taken out: Goya is not free for these hours on every chosen day.")
	if got := chosen.count(`aside#booking input[name=resource]`); got != 1 || chosen.attr(`aside#booking input[name=resource]`, "value") != fx.RoomVelazquez.String() {
		t.Errorf("the booking form holds %d resources, want Velázquez alone", got)
	}
	// The second day shows as a ticked check box, and another day can be added.
	if got := p.count(`#f-days input[type=checkbox][name=date][value="2026-11-25"][checked]`); got != 1 {
		t.Errorf("Wednesday's check box: %d, want 1", got)
	}
	added := b.hxGet(findPath("kind", "room", "date", "2026-11-24", "from", "10:00", "to", "11:00", "add", "day", "add_date", "2026-11-25"))
	added.wantStatus(t, http.StatusOK)
	if free, _ := resultNames(added); strings.Join(free, ",") != "Boardroom,Velázquez" {
		t.Errorf("after adding Wednesday, free = %v, want Boardroom and Velázquez", free)
	}
	if got := added.count(`fieldset#f-days[hx-swap-oob] input[name=date][value="2026-11-25"]`); got != 1 {
		t.Errorf("the days redrawn with Wednesday: %d, want 1", got)
	}
	if got, want := added.header.Get("HX-Push-Url"), "date=2026-11-25"; !strings.Contains(got, want) || strings.Contains(got, "add_date") {
		t.Errorf("HX-Push-Url = %q, want the search with %s and without add_date", got, want)
	}
}

func TestFindSpaceHTMX(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	path := findPath("kind", "room", "date", "2026-11-24", "from", "10:00", "to", "11:00", "resource", fx.RoomGoya.String())

	full := b.get(path)
	full.wantStatus(t, http.StatusOK)
	if full.count("html header.top") != 1 || full.count("form#search #results") != 1 || full.count("h1") != 1 {
		t.Fatalf("the whole page has no layout, search form or results")
	}
	part := b.hxGet(path)
	part.wantStatus(t, http.StatusOK)
	if got := part.count("header.top, h1, form#search, #f-building"); got != 0 {
		t.Errorf("the htmx answer holds %d parts of the whole page, want the results only", got)
	}
	if free, _ := resultNames(part); strings.Join(free, ",") != "Boardroom,Goya,Velázquez" {
		t.Errorf("partial results = %v", free)
	}
	if got := part.count(`#results-status[hx-swap-oob]`); got != 1 {
		t.Errorf("status line out of band: %d, want 1", got)
	}
	part.wantText(t, "#results-status", "3 free rooms, Tue 24 Nov, 10:00–11:00 Madrid time")
	// The chosen room is ticked, and its booking form is sent too, as an out-of-band swap.
	if got := part.count(`li.result input[name=resource][value="` + fx.RoomGoya.String() + `"][checked]`); got != 1 {
		t.Errorf("Goya ticked: %d, want 1", got)
	}
	if got := part.count(`aside#booking[hx-swap-oob] form[hx-post="/bookings"] input[name=resource][value="` + fx.RoomGoya.String() + `"]`); got != 1 {
		t.Errorf("booking form for Goya out of band: %d, want 1", got)
	}
	part.wantText(t, "aside#booking button[type=submit]", "Book Goya")
	if got := part.header.Get("HX-Push-Url"); !strings.HasPrefix(got, "/find?") || !strings.Contains(got, "resource="+fx.RoomGoya.String()) || !strings.Contains(got, "from=10%3A00") {
		t.Errorf("HX-Push-Url = %q, want the search's URL with the chosen room", got)
	}
	// The search form updates the results whenever it changes, and pushes the new URL.
	if got := full.attr("form#search", "hx-get"); got != "/find" {
		t.Errorf("search form hx-get = %q", got)
	}
	if got := full.attr("form#search", "hx-target"); got != "#results" {
		t.Errorf("search form hx-target = %q", got)
	}
	if got := full.attr("form#search", "hx-push-url"); got != "true" {
		t.Errorf("search form hx-push-url = %q", got)
	}
}

func TestFindSpaceBuildingRemembered(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	first := b.get("/find?kind=room&date=2026-11-24&from=10:00&to=11:00")
	first.wantStatus(t, http.StatusOK)
	if got := first.attr("#f-building option[selected]", "value"); got != fx.BuildingMadrid.String() {
		t.Errorf("first visit: building %s, want Madrid HQ (the first)", got)
	}
	ny := b.get("/find?building=" + fx.BuildingNewYork.String() + "&kind=room&date=2026-11-24&from=10:00&to=11:00")
	ny.wantStatus(t, http.StatusOK)
	again := b.get("/find?kind=room&date=2026-11-24&from=10:00&to=11:00")
	again.wantStatus(t, http.StatusOK)
	if got := again.attr("#f-building option[selected]", "value"); got != fx.BuildingNewYork.String() {
		t.Errorf("next visit: building %s, want New York (remembered)", got)
	}
	free, _ := resultNames(again)
	if got, want := strings.Join(free, ","), "Hudson"; got != want {
		t.Errorf("free = %s, want %s", got, want)
	}
	// Times are in the building's time zone: New York's rooms are free until 20:00 New York time.
	if got, want := squash(findResult(again, "Hudson").Find(".until").Text()), "Free until 20:00 New York time"; got != want {
		t.Errorf("Hudson: %q, want %q", got, want)
	}
	again.wantText(t, "#f-zone", "Times are New York time")
	// Another person's browser has nothing remembered and starts from the first building.
	other := pb.signedIn(t, fx.Bob).get("/find?kind=room")
	if got := other.attr("#f-building option[selected]", "value"); got != fx.BuildingMadrid.String() {
		t.Errorf("Bob's first visit: building %s, want Madrid HQ", got)
	}
}

func TestFindSpaceDefaults(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	for _, tc := range []struct {
		name, path, date, from, to string
	}{
		// Rooms are bookable 08:00–20:00 for up to 4 hours, and it is 09:00.
		{"Rooms", "/find?kind=room", "2026-11-23", "09:00", "13:00"},
		// Desks are bookable all day without a limit; an end of 00:00 means midnight.
		{"Desks", "/find", "2026-11-23", "09:00", "00:00"},
		{"ChosenDay", "/find?kind=room&date=2026-11-30", "2026-11-30", "09:00", "13:00"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.get(tc.path)
			p.wantStatus(t, http.StatusOK)
			if got := p.attr("#f-start", "value"); got != tc.date {
				t.Errorf("date = %s, want %s", got, tc.date)
			}
			if got := p.attr("#f-from", "value"); got != tc.from {
				t.Errorf("from = %s, want %s", got, tc.from)
			}
			if got := p.attr("#f-to", "value"); got != tc.to {
				t.Errorf("to = %s, want %s", got, tc.to)
			}
		})
	}
	t.Run("HoursFollowTheKindUntilChanged", func(t *testing.T) {
		// started reads the hours the search started with, as the form sends them back.
		started := func(p htmlPage, hours string) string {
			return url.Values{
				"auto_building": {p.attr(hours+" input[name=auto_building]", "value")},
				"auto_kind":     {p.attr(hours+" input[name=auto_kind]", "value")},
				"auto_from":     {p.attr(hours+" input[name=auto_from]", "value")},
				"auto_to":       {p.attr(hours+" input[name=auto_to]", "value")},
			}.Encode()
		}
		desk := b.get("/find?date=2026-11-24")
		auto := started(desk, "#f-hours")
		if want := "auto_building=" + fx.BuildingMadrid.String() + "&auto_from=09%3A00&auto_kind=desk&auto_to=00%3A00"; auto != want {
			t.Fatalf("auto = %q, want %q", auto, want)
		}
		base := "/find?building=" + fx.BuildingMadrid.String() + "&date=2026-11-24&kind=room&" + auto
		room := b.hxGet(base + "&from=09:00&to=00:00")
		room.wantStatus(t, http.StatusOK)
		room.wantText(t, ".results-head .meta", "09:00–13:00 Madrid time")
		if got := room.attr("#f-hours[hx-swap-oob] #f-to", "value"); got != "13:00" {
			t.Errorf("hours redrawn to %q, want 13:00", got)
		}
		if got, want := started(room, "#f-hours[hx-swap-oob]"), "auto_building="+fx.BuildingMadrid.String()+"&auto_from=09%3A00&auto_kind=room&auto_to=13%3A00"; got != want {
			t.Errorf("auto = %q, want %q", got, want)
		}
		// Addresses made before the four fields carry the same hours in one: auto.
		old := b.hxGet("/find?building=" + fx.BuildingMadrid.String() + "&date=2026-11-24&kind=room&from=09:00&to=00:00&auto=" +
			url.QueryEscape(fx.BuildingMadrid.String()+" desk 09:00 00:00"))
		old.wantText(t, ".results-head .meta", "09:00–13:00 Madrid time")
		kept := b.hxGet(base + "&from=10:00&to=00:00")
		kept.wantStatus(t, http.StatusOK)
		kept.wantText(t, ".results-head .meta", "10:00–24:00 Madrid time")
		if kept.count("#f-hours") != 0 {
			t.Errorf("hours someone changed were redrawn")
		}
	})
	t.Run("SwitchingBuildingStartsItsOwnDay", func(t *testing.T) {
		// At 21:30 in Madrid its rooms are closed until tomorrow, while in New York it is 15:30 today.
		pb.Clock.Set(fx.At(0, 21, 30))
		defer pb.Clock.Set(fx.Now)
		b := pb.signedIn(t, fx.Alice) // its own session, which remembers New York
		madrid := b.get("/find?kind=room&building=" + fx.BuildingMadrid.String())
		form := url.Values{"building": {fx.BuildingNewYork.String()}, "kind": {"room"}}
		for _, name := range []string{"auto_building", "auto_kind", "auto_day", "auto_from", "auto_to"} {
			form.Set(name, madrid.attr("#f-hours input[name="+name+"]", "value"))
		}
		form.Set("date", madrid.attr("#f-start", "value"))
		form.Set("from", madrid.attr("#f-from", "value"))
		form.Set("to", madrid.attr("#f-to", "value"))
		if got, want := form.Get("auto_day")+" "+form.Get("date"), "2026-11-24 2026-11-24"; got != want {
			t.Fatalf("Madrid's search started on %s, want tomorrow both as the day and as its start", got)
		}
		switched := b.hxGet("/find?" + form.Encode())
		switched.wantStatus(t, http.StatusOK)
		fresh := b.get("/find?kind=room&building=" + fx.BuildingNewYork.String())
		want := fresh.attr("#f-start", "value") + " " + fresh.attr("#f-from", "value") + "–" + fresh.attr("#f-to", "value")
		got := switched.attr("#f-days[hx-swap-oob] #f-start", "value") + " " +
			switched.attr("#f-hours[hx-swap-oob] #f-from", "value") + "–" + switched.attr("#f-hours[hx-swap-oob] #f-to", "value")
		if got != want || !strings.HasPrefix(want, "2026-11-23 ") {
			t.Errorf("after switching to New York: %q, want what a fresh New York search starts with, today: %q", got, want)
		}
		// A day someone chose stays when the building changes.
		form.Set("date", "2026-11-30")
		chosen := b.hxGet("/find?" + form.Encode())
		if chosen.count("#f-days[hx-swap-oob]") != 0 {
			t.Error("a day someone chose was started again")
		}
	})
	t.Run("LateInTheDay", func(t *testing.T) {
		pb.Clock.Set(fx.At(0, 19, 50))
		defer pb.Clock.Set(fx.Now)
		p := b.get("/find?kind=room")
		if got, want := p.attr("#f-start", "value")+" "+p.attr("#f-from", "value")+"–"+p.attr("#f-to", "value"), "2026-11-24 08:00–12:00"; got != want {
			t.Errorf("after today's window: %s, want %s", got, want)
		}
	})
}

func TestFindSpaceBadSearch(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)
	for _, tc := range []struct {
		name, path string
		status     int
		want       string
	}{
		{"Date", "/find?date=2026-13-01", http.StatusBadRequest, `Day: “2026-13-01” is not a date: write it as YYYY-MM-DD`},
		{"From", "/find?from=9am&to=10:00", http.StatusBadRequest, `From: “9am” is not a time: write it as HH:MM`},
		{"EndBeforeStart", "/find?from=11:00&to=10:00", http.StatusBadRequest, "The end (10:00) must be after the start (11:00)."},
		{"Kind", "/find?kind=sofa", http.StatusBadRequest, `Choose a desk or a meeting room.`},
		{"Capacity", "/find?capacity=lots", http.StatusBadRequest, `People: write how many people, e.g. 4.`},
		{"Building", "/find?building=" + fx.BuildingB.String(), http.StatusNotFound, "The building in this address is not one you can book in"},
		{"TooManyDays", "/find?from=10:00&to=11:00" + manyDays(32), http.StatusBadRequest, "at most 31 days"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.get(tc.path)
			p.wantStatus(t, tc.status)
			p.wantText(t, "main", tc.want)
		})
	}
}

// manyDays returns n date query parameters, starting on 24 November 2026.
func manyDays(n int) string {
	var sb strings.Builder
	for i := range n {
		sb.WriteString("&date=" + fx.At(1+i, 0, 0).Format(time.DateOnly))
	}
	return sb.String()
}

// planPath returns the URL of the Madrid floor's plan on Tuesday 24 November, with params as
// key/value pairs.
func planPath(params ...string) string {
	v := url.Values{"building": {fx.BuildingMadrid.String()}, "floor": {fx.FloorMadrid.String()}, "date": {"2026-11-24"}}
	for i := 0; i+1 < len(params); i += 2 {
		v.Set(params[i], params[i+1])
	}
	return "/find/plan?" + v.Encode()
}

func TestFloorPlan(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	findBook(t, pb, fx.Alice, fx.RoomVelazquez, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
	b := pb.signedIn(t, fx.Alice)

	// 09:00–14:00 is longer than the 4-hour limit for rooms, so even a room nobody has booked shows as
	// unavailable.
	p := b.get(planPath("from", "09:00", "to", "14:00"))
	p.wantStatus(t, http.StatusOK)
	want := map[string]struct{ state, label string }{
		fx.RoomGoya.String():      {"busy", "Goya, busy 10:00–11:00 Madrid time"},
		fx.RoomVelazquez.String(): {"mine", "Velázquez, yours 10:00–11:00 Madrid time"},
		fx.RoomBoard.String():     {"unavailable", "Boardroom, unavailable then: the booking lasts 5h, longer than the maximum of 4h"},
		fx.DeskOne.String():       {"free", "Desk 1, free until 24:00 Madrid time"},
		fx.DeskTwo.String():       {"free", "Desk 2, free until 24:00 Madrid time"},
	}
	spots := p.doc.Find("svg.plan a.spot")
	if spots.Length() != len(want) {
		t.Fatalf("%d resources drawn, want %d (every bookable resource of the floor, whatever its kind)", spots.Length(), len(want))
	}
	spots.Each(func(_ int, s *goquery.Selection) {
		href, _ := s.Attr("href")
		u, err := url.Parse(href)
		if err != nil {
			t.Fatalf("href %q: %v", href, err)
		}
		id := u.Query().Get("resource")
		w, ok := want[id]
		if !ok {
			t.Errorf("unexpected resource %s drawn", id)
			return
		}
		if !s.HasClass(w.state) {
			t.Errorf("%s: class %q, want state %s", w.label, s.AttrOr("class", ""), w.state)
		}
		if got := s.AttrOr("aria-label", ""); got != w.label {
			t.Errorf("aria-label = %q, want %q", got, w.label)
		}
		if got, want := s.Find("rect.area").AttrOr("fill", ""), "url(#pat-"+w.state+")"; got != want {
			t.Errorf("%s: fill %q, want the pattern %q", w.label, got, want)
		}
		if got := squash(s.Find("text.mark").Text()); got == "" {
			t.Errorf("%s: no symbol, only colour", w.label)
		}
		r := s.Find("rect.area")
		if got := r.AttrOr("x", "") + "," + r.AttrOr("y", "") + "," + r.AttrOr("width", "") + "," + r.AttrOr("height", ""); got != "10,20,100,60" {
			t.Errorf("%s: drawn at %s, want its map coordinates 10,20 to 110,80", w.label, got)
		}
		if got := s.AttrOr("hx-get", ""); !strings.HasPrefix(got, "/find/resources/"+id+"?") || s.AttrOr("hx-target", "") != "#panel" {
			t.Errorf("%s: hx-get %q into %q, want its panel beside the plan", w.label, got, s.AttrOr("hx-target", ""))
		}
	})
	for _, id := range []string{"pat-free", "pat-busy", "pat-mine", "pat-unavailable"} {
		if p.count("svg.plan defs pattern#"+id) != 1 {
			t.Errorf("pattern %s not defined", id)
		}
	}
	if got := p.text("ul.legend"); got != "✓ Free ✕ Busy (hatched) ★ Yours (dotted) ⊘ Unavailable then (crossed)" {
		t.Errorf("legend = %q", got)
	}
	if got := p.attr("svg.plan image", "href"); got != "/static/floors/madrid-1.svg" {
		t.Errorf("floor image = %q", got)
	}
	if got := p.attr("svg.plan", "viewBox"); got != "0 0 1200 800" {
		t.Errorf("viewBox = %q, want the image's", got)
	}
	p.wantText(t, "#plan-h", "madrid-1 · Madrid HQ")
	p.wantText(t, ".plan-head .meta", "Tue 24 Nov, 09:00–14:00 Madrid time", "2 free, 1 busy, 1 yours, 1 unavailable")
	if got := p.count(`.floor-tabs input[name=floor][checked][value="` + fx.FloorMadrid.String() + `"]`); got != 1 {
		t.Errorf("the floor's tab is not chosen")
	}
	p.wantText(t, "#panel", "Choose a desk or room on the plan")

	t.Run("TimeChangeRedrawsThePlanOnly", func(t *testing.T) {
		part := b.hxGet(planPath("from", "12:00", "to", "13:00"))
		part.wantStatus(t, http.StatusOK)
		if got := part.count("header.top, h1, form#plan-form"); got != 0 {
			t.Errorf("the htmx answer holds %d parts of the whole page, want the plan only", got)
		}
		if got := part.count("svg.plan a.spot.free"); got != 5 {
			t.Errorf("free at 12:00–13:00: %d, want all 5", got)
		}
		if got := part.header.Get("HX-Push-Url"); !strings.HasPrefix(got, "/find/plan?") || !strings.Contains(got, "from=12%3A00") {
			t.Errorf("HX-Push-Url = %q", got)
		}
	})
	t.Run("WithPanel", func(t *testing.T) {
		full := b.get(planPath("from", "10:00", "to", "11:00", "resource", fx.RoomGoya.String()))
		full.wantStatus(t, http.StatusOK)
		full.wantText(t, "#panel #res-h", "Goya")
		if got := full.attr("#plan-resource", "value"); got != fx.RoomGoya.String() {
			t.Errorf("plan form's resource = %q, want Goya", got)
		}
		if !full.doc.Find(`a.spot[aria-label^="Goya"]`).HasClass("selected") {
			t.Errorf("Goya is not marked as chosen on the plan")
		}
		part := b.hxGet(planPath("from", "12:00", "to", "13:00", "resource", fx.RoomGoya.String()))
		part.wantStatus(t, http.StatusOK)
		part.wantText(t, `aside#panel[hx-swap-oob] .resource-panel .until`, "Free until 20:00 Madrid time")
	})
	t.Run("UnknownFloor", func(t *testing.T) {
		b.get(planPath("floor", fx.FloorHidden.String())).wantStatus(t, http.StatusNotFound)
		b.get(planPath("floor", "upstairs")).wantStatus(t, http.StatusBadRequest)
	})
	t.Run("ImageOfUnknownSize", func(t *testing.T) {
		// Globex's floor image is not one of the static plans, so its size is unknown. The drawing covers
		// the resources' positions plus a margin.
		p := pb.signedIn(t, fx.Boris).get("/find/plan?date=2026-11-24&from=10:00&to=11:00")
		p.wantStatus(t, http.StatusOK)
		if got := p.attr("svg.plan", "viewBox"); got != "0 0 130 100" {
			t.Errorf("viewBox = %q, want 0 0 130 100", got)
		}
		if got := p.count("svg.plan a.spot.free"); got != 1 {
			t.Errorf("Globex room drawn free: %d, want 1", got)
		}
	})
	t.Run("FirstFloorByDefault", func(t *testing.T) {
		p := b.get("/find/plan?building=" + fx.BuildingNewYork.String())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#plan-h", "new-york-1 · New York Office")
		p.wantText(t, ".plan-head .meta", "New York time")
	})
}

func TestResourcePanel(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	findBook(t, pb, fx.Bob, fx.RoomBoard, booking.CategorySpace, fx.At(1, 14, 0), fx.At(1, 15, 0))
	findBook(t, pb, fx.Alice, fx.RoomBoard, booking.CategorySpace, fx.At(1, 16, 0), fx.At(1, 17, 0))
	b := pb.signedIn(t, fx.Alice)
	path := "/find/resources/" + fx.RoomBoard.String() + "?date=2026-11-24&from=10:00&to=11:00&kind=room"

	p := b.get(path)
	p.wantStatus(t, http.StatusOK)
	if p.count("header.top") != 1 {
		t.Errorf("not a whole page")
	}
	p.wantText(t, "#res-h", "Boardroom")
	p.wantText(t, ".resource-panel .where", "Meeting room · madrid-1 · Madrid HQ")
	p.wantText(t, ".resource-panel .until", "Free until 14:00 Madrid time")
	facts := map[string]string{}
	p.doc.Find(".resource-facts dt").Each(func(_ int, dt *goquery.Selection) { facts[squash(dt.Text())] = squash(dt.Next().Text()) })
	for k, v := range map[string]string{
		"Capacity": "16 people",
		"Features": "None listed",
		"Rules":    "Bookable 08:00–20:00 Madrid time, up to 4 h, up to 30 days ahead, needs approval",
		"Check-in": "Check in from 10 min before the start to 15 min after the start, or the booking is released",
	} {
		if facts[k] != v {
			t.Errorf("%s = %q, want %q", k, facts[k], v)
		}
	}
	p.wantText(t, ".day-list", "Tuesday 24 November 2026: 14:00–15:00, 16:00–17:00 (yours) Madrid time")
	if got := p.count(`#booking-box form[action="/bookings"] input[name=resource][checked][value="` + fx.RoomBoard.String() + `"]`); got != 1 {
		t.Errorf("booking form for the Boardroom: %d, want 1", got)
	}
	if got := p.attr("#b-from", "value") + "–" + p.attr("#b-to", "value"); got != "10:00–11:00" {
		t.Errorf("booking form hours = %s", got)
	}
	p.wantText(t, "#b-zone", "Times are Madrid time.")
	if got := p.count("#attendee-q, #b-subject, #b-guests"); got != 3 {
		t.Errorf("a room's form has %d of subject, attendees and guests, want 3", got)
	}
	// Without ONLINE_MEETING_URL there is no online meeting to offer (TestPageOnlineMeeting has one).
	if got := p.count("input[name=online]"); got != 0 {
		t.Errorf("the form offers an online meeting though no server is set")
	}

	part := b.hxGet(path)
	part.wantStatus(t, http.StatusOK)
	if part.count("header.top, h1") != 0 || part.count(".resource-panel") != 1 {
		t.Errorf("htmx answer is not the panel alone")
	}
	if part.count("#plan-resource") != 0 {
		t.Errorf("the panel updates a plan form that is not there")
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, pb.srv.URL+path, nil)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-Target", "panel")
	beside := b.send(req)
	if got := beside.attr(`input#plan-resource[hx-swap-oob]`, "value"); got != fx.RoomBoard.String() {
		t.Errorf("beside the plan, the plan form's resource = %q, want the Boardroom", got)
	}

	desk := b.get("/find/resources/" + fx.DeskOne.String() + "?date=2026-11-24")
	desk.wantStatus(t, http.StatusOK)
	desk.wantText(t, ".resource-facts", "Bookable at any time of day (Madrid time), all-day bookings allowed")
	if got := desk.count("#b-subject, #attendee-q"); got != 0 {
		t.Errorf("a desk's form asks for a subject or attendees")
	}
	if got := desk.count("input[name=allday]"); got != 1 {
		t.Errorf("a desk that allows all-day bookings offers no all-day choice")
	}

	b.get("/find/resources/"+fx.RoomHidden.String()).wantStatus(t, http.StatusNotFound)
	b.get("/find/resources/"+fx.RoomB.String()).wantStatus(t, http.StatusNotFound)
	b.get("/find/resources/nope").wantStatus(t, http.StatusBadRequest)
}

// bookForm returns the booking form's fields for the resources on the days, 10:00–11:00.
func bookForm(resources []uuid.UUID, days ...string) url.Values {
	v := url.Values{"from": {"10:00"}, "to": {"11:00"}, "date": days}
	for _, r := range resources {
		v.Add("resource", r.String())
	}
	return v
}

// madeBooking holds the fields of a created booking that the booking form's tests compare.
type madeBooking struct {
	Resource           uuid.UUID
	Start, End         time.Time
	AllDay             bool
	Subject            string
	Online             bool
	Organizer, Creator uuid.UUID
}

func madeBookings(bs []booking.Booking) []madeBooking {
	out := make([]madeBooking, len(bs))
	for i, b := range bs {
		out[i] = madeBooking{
			Resource: b.Resource.ID, Start: b.Start, End: b.End, AllDay: b.AllDay, Subject: b.Subject,
			Online: b.CreateOnlineMeeting, Organizer: b.Organizer.ID, Creator: b.Creator.ID,
		}
	}
	return out
}

// TestBookFromTheForm checks bookings made with the booking form.
func TestBookFromTheForm(t *testing.T) {
	t.Parallel()

	t.Run("OneRoomForTwoDays", func(t *testing.T) {
		t.Parallel()
		pb := setupPagesMeetings(t)
		b := pb.signedIn(t, fx.Alice)
		form := bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-25", "2026-11-24")
		form.Set("subject", "Planning")
		form.Add("attendee", fx.Bob.String())
		form.Set("guests", "ann@example.com,\n carl@example.org")
		form.Set("online", "1")
		p := b.post("/bookings", form)
		if p.url.Path != "/bookings" || p.url.Query().Get("booked") != "2" {
			t.Fatalf("after booking: at %s, want /bookings?booked=2", p.url)
		}
		want := []madeBooking{ // newest first
			{Resource: fx.RoomGoya, Start: fx.At(2, 10, 0), End: fx.At(2, 11, 0), Subject: "Planning", Online: true, Organizer: fx.Alice, Creator: fx.Alice},
			{Resource: fx.RoomGoya, Start: fx.At(1, 10, 0), End: fx.At(1, 11, 0), Subject: "Planning", Online: true, Organizer: fx.Alice, Creator: fx.Alice},
		}
		if diff := cmp.Diff(want, madeBookings(findOwnBookings(t, pb, fx.Alice))); diff != "" {
			t.Errorf("bookings made (-want +got):\n%s", diff)
		}
		// Bob is invited to both.
		if n := len(findOwnBookings(t, pb, fx.Bob)); n != 2 {
			t.Errorf("Bob attends %d bookings, want 2", n)
		}
	})
	t.Run("SeveralRoomsWithHTMX", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.hxPost("/bookings", bookForm([]uuid.UUID{fx.RoomGoya, fx.RoomVelazquez}, "2026-11-24"))
		p.wantStatus(t, http.StatusOK)
		if got := p.header.Get("HX-Redirect"); got != "/bookings?booked=2" {
			t.Errorf("HX-Redirect = %q, want /bookings?booked=2", got)
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 2 {
			t.Errorf("%d bookings, want 2", n)
		}
	})
	t.Run("DeskAllDay", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.hxPost("/bookings", url.Values{"resource": {fx.DeskOne.String()}, "date": {"2026-11-24"}, "allday": {"1"}})
		p.wantStatus(t, http.StatusOK)
		want := []madeBooking{{Resource: fx.DeskOne, Start: fx.At(1, 0, 0), End: fx.At(2, 0, 0), AllDay: true, Organizer: fx.Alice, Creator: fx.Alice}}
		if diff := cmp.Diff(want, madeBookings(findOwnBookings(t, pb, fx.Alice))); diff != "" {
			t.Errorf("bookings made (-want +got):\n%s", diff)
		}
	})
}

// TestBookFromTheFormRefused checks refusals of the booking form: nothing is booked, and the form comes
// back with the reason.
func TestBookFromTheFormRefused(t *testing.T) {
	t.Parallel()

	t.Run("ConflictOnDayTwo", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(2, 10, 30), fx.At(2, 11, 30))
		b := pb.signedIn(t, fx.Alice)
		form := bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24", "2026-11-25")
		form.Set("subject", "Planning")
		form.Add("attendee", fx.Bob.String())
		form.Set("guests", "ann@example.com")
		p := b.hxPost("/bookings", form)
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, ".booking-error", "Nothing was booked.")
		if got, want := p.text(".booking-error p:last-child"), "Goya on Wednesday 25 November 2026: Goya is already booked during part of that time."; got != want {
			t.Errorf("refusal = %q, want %q", got, want)
		}
		if p.attr(".booking-error", "role") != "alert" || p.count(".booking-error[data-focus]") != 1 {
			t.Errorf("the refusal is not announced and focused")
		}
		// The response is the form alone, filled in as it was sent, for htmx to swap into its box.
		if p.count("header.top, #booking-box") != 0 || p.count(`form[hx-target="#booking-box"]`) != 1 {
			t.Errorf("the refusal is not the form alone")
		}
		for _, sel := range []string{
			`input[name=resource][checked][value="` + fx.RoomGoya.String() + `"]`,
			`input[name=date][checked][value="2026-11-24"]`, `input[name=date][checked][value="2026-11-25"]`,
			`#b-from[value="10:00"]`, `#b-to[value="11:00"]`, `#b-subject[value="Planning"]`,
			`input[name=attendee][checked][value="` + fx.Bob.String() + `"]`,
		} {
			if p.count(sel) != 1 {
				t.Errorf("the form lost %s", sel)
			}
		}
		p.wantText(t, "#b-guests", "ann@example.com")
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
			t.Errorf("%d bookings made, want none (all or none)", n)
		}
		// Without JavaScript, the refusal is a full page containing the form.
		full := b.post("/bookings", form)
		full.wantStatus(t, http.StatusConflict)
		full.wantText(t, "main h1", "Book")
		full.wantText(t, "main #booking-box .booking-error", "Goya on Wednesday 25 November 2026")
	})
	t.Run("BadInput", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		goya := []uuid.UUID{fx.RoomGoya}
		with := func(v url.Values, k, val string) url.Values { v.Set(k, val); return v }
		for _, tc := range []struct {
			name string
			form url.Values
			want string
		}{
			{"NoResource", bookForm(nil, "2026-11-24"), "Choose at least one desk or room to book."},
			{"NoDay", bookForm(goya), "Choose at least one day."},
			{"Date", bookForm(goya, "24/11/2026"), `"24/11/2026" is not a date: write it as YYYY-MM-DD`},
			{"From", with(bookForm(goya, "2026-11-24"), "from", "ten"), `From: "ten" is not a time: write it as HH:MM`},
			{"NoEnd", with(bookForm(goya, "2026-11-24"), "to", ""), "To: choose a time (HH:MM)."},
			{"EndBeforeStart", with(bookForm(goya, "2026-11-24"), "to", "09:00"), "The end (09:00) must be after the start (10:00)."},
			{"Guest", with(bookForm(goya, "2026-11-24"), "guests", "ann@"), `"ann@" is not an e-mail address`},
			{"Attendee", with(bookForm(goya, "2026-11-24"), "attendee", "bob"), `One of the invited colleagues ("bob")`},
			{"Resource", with(bookForm(nil, "2026-11-24"), "resource", "goya"), `One of the chosen spaces ("goya")`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				p := b.hxPost("/bookings", tc.form)
				p.wantStatus(t, http.StatusBadRequest)
				p.wantText(t, ".booking-error", tc.want)
			})
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
			t.Errorf("%d bookings made, want none", n)
		}
	})
	// Each refusal returns the form alone with its reason, and books nothing.
	tooMany := bookForm([]uuid.UUID{fx.RoomGoya, fx.RoomVelazquez, fx.RoomBoard})
	for i := range 34 {
		tooMany.Add("date", fx.At(1+i, 0, 0).Format(time.DateOnly))
	}
	fiveHours := bookForm([]uuid.UUID{fx.RoomGoya, fx.RoomVelazquez}, "2026-11-24")
	fiveHours.Set("from", "09:00")
	fiveHours.Set("to", "14:00")
	for _, tc := range []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"SecondRoomRefused", fiveHours, http.StatusConflict,
			"Goya on Tuesday 24 November 2026: the booking lasts 5h, longer than the maximum of 4h."},
		{"DesksAndRoomsApart", bookForm([]uuid.UUID{fx.RoomGoya, fx.DeskOne}, "2026-11-24"), http.StatusBadRequest,
			"Desk 1 is a desk and Goya is a meeting room: desks and rooms cannot be booked together."},
		{"AllDayRoom", url.Values{"resource": {fx.RoomGoya.String()}, "date": {"2026-11-24"}, "allday": {"1"}}, http.StatusConflict,
			"Goya on Tuesday 24 November 2026: this resource cannot be booked for the whole day."},
		{"TooMany", tooMany, http.StatusBadRequest,
			"3 spaces on 34 days make 102 bookings, and at most 100 can be made at once."},
		{"UnknownResource", bookForm([]uuid.UUID{fx.RoomB}, "2026-11-24"), http.StatusNotFound,
			"The chosen space on Tuesday 24 November 2026: no bookable resource " + fx.RoomB.String() + "."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			pb := setupPages(t)
			p := pb.signedIn(t, fx.Alice).hxPost("/bookings", tc.form)
			p.wantStatus(t, tc.status)
			p.wantText(t, ".booking-error", tc.want)
			if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
				t.Errorf("%d bookings made, want none", n)
			}
		})
	}

}

// TestBrowserFindAndBook uses the search, the floor plan and the booking form in Chromium, on the demo
// office. It checks that htmx updates the results and the plan's colours in place, that a room chosen
// with the keyboard opens beside the plan, and that booking it for two days shows in My bookings.
// axe-core must find no serious accessibility problem.
func TestBrowserFindAndBook(t *testing.T) {
	t.Parallel()
	m := runProvider(t)
	pb := setupPagesOIDC(t, m)
	if _, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now); err != nil {
		t.Fatalf("demo: %v", err)
	}
	people, err := pb.Identity().DevelopmentUsers(t.Context())
	if err != nil {
		t.Fatalf("people: %v", err)
	}
	var lucia booking.User
	for _, u := range people {
		if u.Email == "lucia.fernandez@acme.example" {
			lucia = u
		}
	}
	// Lucía signs in at the identity provider (authorization code, PKCE, state, nonce) and comes back. The
	// demo's organization has proved its domain, as a real one must before its people are found by e-mail.
	fx.VerifyDomain(t, pb.Service, lucia.OrganizationID, "acme.example")
	m.QueueUser(&mockoidc.MockUser{Subject: "idp|lucia", Email: lucia.Email, EmailVerified: true})
	b := newTab(t, pb.srv.URL)
	b.open("/find")
	b.waitText(".whoami", "Lucía Fernández")
	// Lucía reads the search, the floor plan and the booking form in Spanish.
	b.waitText("h1", "Buscar un espacio")
	b.waitText("#results-h", "puestos libres")
	b.check("find")

	room := browserChooseRoom(t, b)

	// On a phone, the panel is below the plan.
	b.do(chromedp.EmulateViewport(390, 844), chromedp.Reload(), chromedp.WaitReady(chromedp.CSS("#panel .resource-panel")))
	b.check("floor-plan-phone")
	b.do(chromedp.EmulateViewport(1280, 900))

	// Find a colleague by name. Enter looks the name up and does not submit the booking form.
	b.do(chromedp.SendKeys(chromedp.CSS("#attendee-q"), "rosa"), pressEnter())
	b.waitText("#attendee-choices", "Rosa Delgado")
	if loc := b.location(); !strings.Contains(loc, "/find/plan?") {
		t.Fatalf("Enter in the colleague search left the page for %s", loc)
	}
	b.do(chromedp.Click(chromedp.CSS(`#attendee-choices input[name=attendee]`)))

	// Book the room for the two days.
	b.do(chromedp.SetValue(chromedp.CSS("#b-subject"), "Planning"),
		chromedp.Click(chromedp.CSS("#booking-box button[type=submit]")))
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(b.location(), "/bookings?booked=2") {
		if time.Now().After(deadline) {
			t.Fatalf("after booking: at %s, want /bookings?booked=2", b.location())
		}
		time.Sleep(100 * time.Millisecond)
	}
	page, err := pb.Service.UserBookings(t.Context(), lucia, booking.BookingFilter{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, bk := range page.Bookings {
		if bk.Resource.Name == room && bk.Subject == "Planning" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d bookings of %s, want 2", n, room)
	}
	if as, err := pb.Service.Attendees(t.Context(), page.Bookings[0]); err != nil || len(as) != 1 || as[0].Name != "Rosa Delgado" {
		t.Errorf("attendees = %+v, %v; want Rosa Delgado", as, err)
	}

	// My bookings shows both bookings. Order coffee for the first one, then cancel it.
	var first booking.Booking
	for _, bk := range page.Bookings {
		if bk.Resource.Name == room && (first.ID == uuid.Nil || bk.Start.Before(first.Start)) {
			first = bk
		}
	}
	browserOrderCoffeeAndCancel(t, b, pb, lucia, room, first.ID)
}

// browserChooseRoom searches for rooms on two days and chooses the first free one. It then opens the floor
// plan, moves the hours to the evening and, with the keyboard, opens Alcalá, which is free then. It
// returns the name of the room opened on the plan.
func browserChooseRoom(t *testing.T, b *tab) string {
	t.Helper()
	// Changing a filter updates the results in place and updates the URL.
	b.do(chromedp.Click(chromedp.CSS(`input[name=kind][value=room]`)))
	b.waitText("#results-h", "salas libres")
	b.waitText("#results-status", "salas libres")
	if loc := b.location(); !strings.Contains(loc, "kind=room") {
		t.Errorf("URL %s does not follow the search", loc)
	}
	// Tick a second day on the week strip; the search covers both days.
	b.do(chromedp.Click(chromedp.CSS("#f-day-2026-11-24")))
	b.waitText(".results-head .meta", "lun 23 nov y mar 24 nov")
	picked := strings.TrimPrefix(b.text(`li.result.free .result-name`), "Elegir ")
	b.do(chromedp.Click(chromedp.CSS(`li.result.free input.pick`)))
	b.waitText("#booking-box", picked, "lunes, 23 de noviembre de 2026", "martes, 24 de noviembre de 2026")
	b.check("find-chosen")

	// On the floor plan, a free room chosen with the keyboard opens beside the plan.
	b.do(chromedp.Click(chromedp.CSS(".floor-head a.plan-link")))
	b.waitText("#plan-h", "Madrid HQ")
	b.check("floor-plan")
	// In the demo, the 1st floor has a free room at this hour.
	b.do(chromedp.Click(chromedp.CSS(`.floor-tabs label:nth-of-type(2)`)))
	b.waitText("#plan-h", "1st floor")
	// Changing the hours re-colours the plan without reloading the page.
	if label := b.attrOf(`a.spot[aria-label^="Alcalá"]`, "aria-label"); !strings.Contains(label, "ocupada") {
		t.Errorf("Alcalá in the morning: %q, want ocupada (busy)", label)
	}
	marker, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`window.findMarker = true`))
	if err != nil || !marker {
		t.Fatalf("mark the page: %v", err)
	}
	b.do(chromedp.SetValue(chromedp.CSS("#p-from"), "19:00"), chromedp.SetValue(chromedp.CSS("#p-to"), "20:00"),
		chromedp.Click(chromedp.CSS("#plan-form .filter-actions button")))
	b.waitText(".plan-head .meta", "19:00–20:00")
	if still, _ := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`window.findMarker === true`)); !still {
		t.Errorf("the page reloaded")
	}
	// Alcalá is busy in the morning and free in the evening.
	if label := b.attrOf(`a.spot[aria-label^="Alcalá"]`, "aria-label"); !strings.Contains(label, "libre") {
		t.Errorf("Alcalá in the evening: %q, want libre (free)", label)
	}
	room, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => {
		const a = [...document.querySelectorAll("a.spot.free")].find(a => a.getAttribute("aria-label").startsWith("Alcalá"));
		if (!a) return "";
		a.focus();
		return a.getAttribute("aria-label").split(",")[0];
	})()`))
	if err != nil || room == "" {
		t.Fatalf("focus a free room: %q, %v", room, err)
	}
	b.do(chromedp.KeyEvent("\r"))
	b.waitText("#panel", room, "Reservar "+room)
	if loc := b.location(); !strings.Contains(loc, "/find/plan?") || !strings.Contains(loc, "resource=") {
		t.Errorf("URL %s, want the plan with the room open", loc)
	}
	b.waitText("#panel .resource-panel .until", "Libre hasta las 20:00 hora de Madrid")
	b.check("floor-plan-panel")
	return room
}

// browserOrderCoffeeAndCancel checks that My bookings lists the room's two bookings, then opens the
// first one, orders coffee for 6 and cancels the booking.
func browserOrderCoffeeAndCancel(t *testing.T, b *tab, pb *pageBundle, lucia booking.User, room string, first uuid.UUID) {
	t.Helper()
	// Lucía reads My bookings and her booking's page in Spanish.
	b.waitText("main", "2 reservas hechas.")
	b.waitText("main", room, "lun 23 nov, 19:00–20:00 hora de Madrid", "mar 24 nov, 19:00–20:00 hora de Madrid")
	b.do(chromedp.Click(chromedp.CSS(`a[href="/bookings/` + first.String() + `"]`)))
	b.waitText("h1", room)
	coffee, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => {
		const set = [...document.querySelectorAll("#services fieldset.service")].find(f => f.querySelector("legend").innerText.startsWith("Coffee"));
		if (!set) return "";
		set.querySelector("input[type=checkbox]").click();
		const q = set.querySelector("input[type=number]");
		if (q) { q.value = "6"; }
		return set.querySelector("input[type=checkbox]").value;
	})()`))
	if err != nil || coffee == "" {
		t.Fatalf("tick coffee: %q, %v", coffee, err)
	}
	b.do(chromedp.Click(chromedp.CSS(`#services button[type=submit]`)))
	b.waitText("#services", "Servicios guardados.", "Coffee")
	b.check("booking-with-coffee")
	got, err := pb.Service.Booking(t.Context(), lucia, first)
	if err != nil || len(got.Reservables) != 1 || got.Reservables[0].Quantity != 6 {
		t.Fatalf("after ordering: %+v, %v; want coffee for 6", got.Reservables, err)
	}

	b.do(chromedp.Click(chromedp.CSS("details.cancel > summary")))
	b.waitText("details.cancel", "¿Cancelar esta reserva?")
	b.do(chromedp.Click(chromedp.CSS("details.cancel button")))
	b.waitText("main", "Reserva cancelada.", "Cancelada")
	if got, err := pb.Service.Booking(t.Context(), lucia, first); err != nil || got.Status != booking.StatusCancelled {
		t.Errorf("after cancelling: status %s, %v; want CANCELLED", got.Status, err)
	}
}

// TestBrowserResourceAndBookPages runs axe-core in Chromium on the two standalone pages of the search:
// a resource's page with its booking form, and the full booking page that a refusal shows when the form
// is posted without htmx.
func TestBrowserResourceAndBookPages(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, fx.Alice, "/find/resources/"+fx.RoomGoya.String()+"?date=2026-11-24&from=10:00&to=11:00&kind=room")
	b.waitText("#res-h", "Goya")
	b.waitText(".resource-panel .until", "Free until 20:00 Madrid time")
	b.check("resource")
	// Bob books the room while the page is open.
	findBook(t, pb, fx.Bob, fx.RoomGoya, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))

	// form.submit() posts without firing the submit event that htmx listens for, as a browser without
	// JavaScript would.
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => {
		document.querySelector("#booking-box form").submit();
		return true;
	})()`)); err != nil {
		t.Fatalf("post the booking form: %v", err)
	}
	b.waitText("main .booking-error", "Goya on Tuesday 24 November 2026: Goya is already booked during part of that time.")
	b.waitText("main h1", "Book")
	if got := b.attrOf(`nav a[href="/find"]`, "aria-current"); got != "page" {
		t.Errorf("the refused booking form is not marked as part of Find a space (aria-current %q)", got)
	}
	b.check("book-refused")
}

// TestPeopleSearchSkipsUnsearchablePeople checks that the colleague picker never offers a person whose
// "can be searched" setting is off, whatever the query.
func TestPeopleSearchSkipsUnsearchablePeople(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	no := false
	if _, err := layout.New(pb.Pool, pb.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{{
		ID: fx.Bob.String(), OrganizationID: fx.OrgA.String(), Name: "bob", Email: "bob@acme.test", CanBeSearched: &no,
	}}}); err != nil {
		t.Fatalf("Import: %v", err)
	}
	b := pb.signedIn(t, fx.Alice)
	for _, q := range []url.Values{
		{"field": {"attendee"}, "multi": {"1"}, "q": {"bob"}},
		{"field": {"attendee"}, "multi": {"1"}, "q": {"acme.test"}},
		{"field": {"user"}, "q": {"Baker"}},
		{"field": {"attendee"}, "multi": {"1"}, "attendee": {fx.Bob.String()}},                 // as if already chosen
		{"field": {"user"}, "user": {fx.Bob.String()}, "q": {"b"}},                             // the kiosk's picker
		{"field": {"attendee"}, "multi": {"1"}, "attendee": {fx.Bob.String()}, "q": {"alice"}}, // already chosen, plus a search
	} {
		p := b.hxGet("/people?" + q.Encode())
		p.wantStatus(t, http.StatusOK)
		if strings.Contains(p.text("body"), "bob@acme.test") || p.count(`input[value="`+fx.Bob.String()+`"]`) != 0 {
			t.Errorf("/people?%s offers Bob: %s", q.Encode(), p.text("body"))
		}
	}
	// Other people are still offered.
	if p := b.hxGet("/people?field=attendee&multi=1&q=rita"); p.count(`input[value="`+fx.Rita.String()+`"]`) != 1 {
		t.Errorf("Rita is not offered: %s", p.text("body"))
	}
}

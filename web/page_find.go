package web

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/static"
	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
)

// The "Find a space" pages: the search (a list by floor), the floor plan, a resource's panel, and the
// booking form they share. They read the search from the query: building (remembered in the session),
// date (repeated, YYYY-MM-DD), from and to (HH:MM in the building's time zone; 00:00 or 24:00 as the end
// is midnight), kind (desk or room), capacity, features (repeated ids) and resource (the resources chosen
// to book; on the plan, the one whose panel is open). What is missing starts where
// booking.Service.SearchDefaults says.

// pageFind is GET /find: the search. htmx requests get the results only (with the booking form of the
// chosen resources and the status line, out of band).
func (s *Server) pageFind(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	in, ok, err := s.readFindSearch(c, nil)
	if err != nil {
		return err
	}
	if !ok {
		return s.render(c, http.StatusOK, views.NoBuildings(s.chrome(c, "Find a space")))
	}
	category := views.KindCategory(in.Kind)
	// Only what fits the kind applies: the number of people is for rooms, and a feature no resource of
	// the kind has was chosen for the other kind.
	if in.Features, err = s.bookings.FeaturesOf(ctx, actor, in.Building.ID, category); err != nil {
		return err
	}
	in.FeatureIDs = slices.DeleteFunc(in.FeatureIDs, func(id uuid.UUID) bool {
		return !slices.ContainsFunc(in.Features, func(f booking.Feature) bool { return f.ID == id })
	})
	capacity := findCapacity(in.Capacity)
	if in.Kind != views.KindRoom {
		in.Capacity, capacity = "", nil
	}
	var found booking.Found
	if in.Problem == "" {
		found, err = s.bookings.Search(ctx, actor, booking.SearchQuery{
			BuildingID: in.Building.ID, Category: &category, FeatureIDs: in.FeatureIDs, MinCapacity: capacity,
			Days: in.Days, From: in.From, To: in.To,
		})
		if de, _ := domainRefusal(err); de != nil && de.Code == booking.CodeInvalidRequest {
			in.Problem, err = toSentence(de.Message), nil
		}
		if err != nil {
			return err
		}
	}
	if in.Problem != "" {
		// No results stand under a search that could not be run, and the filters keep what was asked.
		status := http.StatusBadRequest
		if in.ProblemNotFound {
			status = http.StatusNotFound
		}
		return s.renderFind(c, status, views.FindResults{Search: in, Booking: in.BookingForm(nil)})
	}
	in.Days = found.Days
	// The chosen resources that are no longer free for the search's hours are taken out, and named.
	var chosen []booking.Resource
	var chosenIDs []uuid.UUID
	var dropped []string
	for _, r := range found.Results {
		switch {
		case !slices.Contains(in.Chosen, r.Resource.ID):
		case r.State == booking.SpotFree:
			chosen, chosenIDs = append(chosen, r.Resource), append(chosenIDs, r.Resource.ID)
		default:
			dropped = append(dropped, r.Resource.Name)
		}
	}
	in.Chosen = chosenIDs
	groups, free := views.GroupByFloor(found.Results)
	res := views.FindResults{Search: in, Floors: groups, Free: free, Dropped: dropped, Booking: in.BookingForm(chosen), Held: found.Held}
	return s.renderFind(c, http.StatusOK, res)
}

// renderFind answers a search: for htmx the results (and what goes with them), otherwise the whole page.
func (s *Server) renderFind(c echo.Context, status int, res views.FindResults) error {
	if isHTMX(c) {
		if status == http.StatusOK {
			c.Response().Header().Set("HX-Push-Url", res.Search.ListURL())
		} else {
			c.Response().Header().Set("HX-Push-Url", "false") // a search with a problem is not a place to go back to
		}
		return s.render(c, status, views.FindResultsPartial(res, c.QueryParam("add") != ""))
	}
	return s.render(c, status, views.FindPage(s.chrome(c, "Find a space"), res))
}

// pageFloorPlan is GET /find/plan?floor=…: every resource of the floor drawn at its map coordinates,
// coloured by how it fares during the search's hours, with the panel of the resource chosen on it. htmx
// requests get the plan only (and the panel, out of band).
func (s *Server) pageFloorPlan(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	in, ok, err := s.readFindSearch(c, nil)
	if err != nil {
		return err
	}
	if !ok {
		return s.render(c, http.StatusOK, views.NoBuildings(s.chrome(c, "Floor plan")))
	}
	if in.ProblemNotFound {
		return booking.Errorf(booking.CodeBuildingNotFound, "%s", in.Problem)
	}
	if in.Problem != "" {
		return invalid("%s", in.Problem)
	}
	floors, err := s.bookings.Floors(ctx, actor, in.Building.ID)
	if err != nil {
		return err
	}
	if len(floors) == 0 {
		return booking.Errorf(booking.CodeFloorNotFound, "%s has no floors to show yet", in.Building.Name)
	}
	floor := floors[0]
	if v := c.QueryParam("floor"); v != "" {
		id, err := parseUUID("floor", v)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(floors, func(f booking.Floor) bool { return f.ID == id })
		if i < 0 {
			return booking.Errorf(booking.CodeFloorNotFound, "no floor %s in %s", id, in.Building.Name)
		}
		floor = floors[i]
	}
	// The plan draws every resource of the floor, whatever the kind, capacity and features asked for.
	found, err := s.bookings.Search(ctx, actor, booking.SearchQuery{
		BuildingID: in.Building.ID, FloorID: &floor.ID, Days: in.Days, From: in.From, To: in.To,
	})
	if err != nil {
		return err
	}
	chosen := in.Chosen
	in.Days, in.Chosen = found.Days, nil
	w, h := planSize(floor.Image, found.Results)
	plan := views.FloorPlan{Search: in, Floors: floors, Floor: floor, Width: w, Height: h, Spots: found.Results}
	// The panel of the chosen resource is its result on the plan; one that is not drawn (gone since the
	// link was made, or on another floor) opens no panel.
	var panel *views.ResourcePanel
	if len(chosen) > 0 {
		if i := slices.IndexFunc(found.Results, func(r booking.SearchResult) bool { return r.Resource.ID == chosen[0] }); i >= 0 {
			p := resourcePanelOf(in, found.Results[i])
			panel, plan.Selected = &p, chosen[0]
		}
	}
	if isHTMX(c) {
		if panel != nil {
			c.Response().Header().Set("HX-Push-Url", in.PlanResourceURL(floor.ID, plan.Selected))
		} else {
			c.Response().Header().Set("HX-Push-Url", in.PlanURL(floor.ID))
		}
		return s.render(c, http.StatusOK, views.FloorPlanPartial(plan, panel, c.QueryParam("add") != ""))
	}
	return s.render(c, http.StatusOK, views.FloorPlanPage(s.chrome(c, "Floor plan · "+floor.Name), plan, panel))
}

// pageResource is GET /find/resources/:resourceId: a resource's details, its bookings on the search's days
// and the booking form. htmx requests get the panel only.
func (s *Server) pageResource(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	id, err := parseUUID("resourceId", c.Param("resourceId"))
	if err != nil {
		return err
	}
	rs, err := s.bookings.ResourcesByIDs(ctx, actor, []uuid.UUID{id})
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return booking.Errorf(booking.CodeResourceNotFound, "no bookable desk or room %s", id)
	}
	building := rs[0].Floor.Building.ID
	in, _, err := s.readFindSearch(c, &building)
	if err != nil {
		return err
	}
	if in.Problem != "" {
		return invalid("%s", in.Problem)
	}
	in.Chosen = nil
	p, err := s.resourcePanel(c, in, id)
	if err != nil {
		return err
	}
	if isHTMX(c) {
		p.PlanInput = c.Request().Header.Get("HX-Target") == "panel"
		return s.render(c, http.StatusOK, views.ResourcePanelView(p))
	}
	return s.render(c, http.StatusOK, views.ResourcePage(s.chrome(c, p.Result.Resource.Name), p))
}

// resourcePanel is the panel of one resource for the search's days and hours.
func (s *Server) resourcePanel(c echo.Context, in views.FindSearch, id uuid.UUID) (views.ResourcePanel, error) {
	found, err := s.bookings.Search(c.Request().Context(), actorFrom(c), booking.SearchQuery{
		ResourceID: &id, Days: in.Days, From: in.From, To: in.To,
	})
	if err != nil {
		return views.ResourcePanel{}, err
	}
	if len(found.Results) == 0 {
		return views.ResourcePanel{}, booking.Errorf(booking.CodeResourceNotFound, "no bookable desk or room %s", id)
	}
	in.Building, in.Days = found.Building, found.Days
	return resourcePanelOf(in, found.Results[0]), nil
}

// resourcePanelOf is the panel of a result of the search in.
func resourcePanelOf(in views.FindSearch, r booking.SearchResult) views.ResourcePanel {
	return views.ResourcePanel{Search: in, Result: r, Form: in.BookingForm([]booking.Resource{r.Resource})}
}

// pageCreateBookings is POST /bookings: books every chosen resource on every chosen day, all or none, for
// the signed-in person. A refusal answers the form again, with what was sent and which day or space
// failed and why, with the status of the error's code (400 for bad input).
func (s *Server) pageCreateBookings(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	form, err := c.FormParams()
	if err != nil {
		return invalid("form: %v", err)
	}
	f := views.BookingForm{
		From: strings.TrimSpace(form.Get("from")), To: strings.TrimSpace(form.Get("to")), Subject: form.Get("subject"),
		Guests: form.Get("guests"), AllDay: form.Get("allday") != "", Online: form.Get("online") != "",
	}
	refuse := func(status int, format string, args ...any) error {
		f.Error = fmt.Sprintf(format, args...)
		if isHTMX(c) {
			return s.render(c, status, views.BookingFormView(f))
		}
		ch := s.chrome(c, "Book")
		ch.Path = "/find" // posted to /bookings, but a step of finding a space
		return s.render(c, status, views.BookPage(ch, f, "/find"))
	}

	var ids []uuid.UUID
	for _, v := range form["resource"] {
		id, err := parseUUID("resource", strings.TrimSpace(v))
		if err != nil {
			return refuse(http.StatusBadRequest, "One of the chosen spaces (%q) is not one this service knows. Choose again from the search.", v)
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	days, bad := readDates(form["date"])
	if bad != "" {
		return refuse(http.StatusBadRequest, "%q is not a date: write it as YYYY-MM-DD, e.g. 2026-11-24.", bad)
	}
	f.Days = days
	// Each space on each day is a booking: counted before anything is looked up or built.
	if n := len(ids) * len(days); n > booking.MaxBookingsPerRequest {
		return refuse(http.StatusBadRequest, "%d spaces on %d days make %d bookings, and at most %d can be made at once. Choose fewer days or spaces.",
			len(ids), len(days), n, booking.MaxBookingsPerRequest)
	}
	if f.Resources, err = s.bookings.ResourcesByIDs(ctx, actor, ids); err != nil {
		return err
	}
	if len(f.Resources) > 0 {
		f.Zone = views.ZoneLabel(f.Resources[0].Floor.Building.Timezone)
	}
	// The people invited are counted here, once, before any of them is looked up.
	if n := len(form["attendee"]) + len(guestFields(f.Guests)); n > booking.MaxAttendees {
		return refuse(http.StatusBadRequest, "%d people are invited, colleagues and guests together, and at most %d can be invited to a booking.",
			n, booking.MaxAttendees)
	}
	var attendees []uuid.UUID
	for _, v := range form["attendee"] {
		id, err := parseUUID("attendee", v)
		if err != nil {
			return refuse(http.StatusBadRequest, "One of the invited colleagues (%q) is not a person this service knows.", v)
		}
		attendees = append(attendees, id)
	}
	if f.Attendees, err = s.bookings.PeopleByIDs(ctx, actor, attendees); err != nil {
		return err
	}

	if len(ids) == 0 {
		return refuse(http.StatusBadRequest, "Choose at least one desk or room to book.")
	}
	if len(days) == 0 {
		return refuse(http.StatusBadRequest, "Choose at least one day.")
	}
	var from, to time.Duration
	if !f.AllDay {
		if from, err = parseHours("From", f.From, false); err != nil {
			return refuse(http.StatusBadRequest, "%s", sentence(err))
		}
		if to, err = parseHours("To", f.To, true); err != nil {
			return refuse(http.StatusBadRequest, "%s", sentence(err))
		}
		if to <= from {
			return refuse(http.StatusBadRequest, "The end (%s) must be after the start (%s).", f.To, f.From)
		}
	}
	guests, err := parseGuests(f.Guests)
	if err != nil {
		return refuse(http.StatusBadRequest, "%s", sentence(err))
	}
	category, err := bookingCategory(f.Resources)
	if err != nil {
		return refuse(http.StatusBadRequest, "%s", sentence(err))
	}

	byID := make(map[uuid.UUID]booking.Resource, len(f.Resources))
	for _, r := range f.Resources {
		byID[r.ID] = r
	}
	reqs := make([]booking.NewBooking, 0, len(ids)*len(days))
	for _, id := range ids {
		loc := time.UTC
		if r, ok := byID[id]; ok {
			if loc, err = booking.Location(r.Floor.Building.Timezone); err != nil {
				return err
			}
		}
		for _, d := range days {
			y, m, dd := d.Date()
			nb := booking.NewBooking{
				ResourceID: id, Subject: strings.TrimSpace(f.Subject), CreateOnlineMeeting: f.Online,
				Start: time.Date(y, m, dd, 0, 0, 0, int(from), loc), End: time.Date(y, m, dd, 0, 0, 0, int(to), loc),
			}
			if f.AllDay {
				nb.AllDay, nb.Start = true, time.Date(y, m, dd, 12, 0, 0, 0, loc)
			}
			for _, a := range attendees {
				nb.InternalAttendees = append(nb.InternalAttendees, booking.InternalAttendee{Type: booking.AttendeeRequired, UserID: a})
			}
			for _, g := range guests {
				nb.ExternalAttendees = append(nb.ExternalAttendees, booking.ExternalAttendee{Type: booking.AttendeeRequired, Email: g})
			}
			reqs = append(reqs, nb)
		}
	}
	made, err := s.bookings.CreateBookings(ctx, booking.CreateRequest{Creator: actor, Organizer: actor, Category: category, Bookings: reqs})
	if de, status := domainRefusal(err); de != nil {
		return refuse(status, "%s", refusalText(de, ids, byID, days))
	}
	if err != nil {
		return err
	}
	s.putJustBooked(c, made)
	next := "/bookings?booked=" + strconv.Itoa(len(made))
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", next)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// sessionJustBooked keeps the ids of the bookings the form just made, for My bookings to mark them once.
const sessionJustBooked = "just_booked"

// putJustBooked keeps the bookings just made for the next My bookings page to mark.
func (s *Server) putJustBooked(c echo.Context, made []booking.Booking) {
	ids := make([]string, len(made))
	for i, b := range made {
		ids[i] = b.ID.String()
	}
	s.sessions.Put(c.Request().Context(), sessionJustBooked, strings.Join(ids, " "))
}

// refusalText says which element of a booking request failed and why: "Goya on Tuesday 24 November 2026:
// Goya is already booked during part of that time." Elements are the resources in order, each on every day.
func refusalText(e *booking.Error, ids []uuid.UUID, byID map[uuid.UUID]booking.Resource, days []time.Time) string {
	if e.Index == nil || len(days) == 0 || *e.Index < 0 || *e.Index >= len(ids)*len(days) {
		return toSentence(e.Message)
	}
	id, day := ids[*e.Index/len(days)], days[*e.Index%len(days)]
	name := "The chosen space"
	if r, ok := byID[id]; ok {
		name = r.Name
	}
	return name + " on " + views.DayLong(day) + ": " + strings.TrimSuffix(e.Message, ".") + "."
}

// sentence is an error's message as a sentence: "From: \"9am\" is not a time…".
func sentence(err error) string {
	var e *booking.Error
	if errors.As(err, &e) {
		return toSentence(e.Message)
	}
	return toSentence(err.Error())
}

// bookingCategory is the category of the chosen resources: they must all be desks or all rooms.
func bookingCategory(rs []booking.Resource) (booking.Category, error) {
	if len(rs) == 0 {
		return booking.CategorySpace, nil // the domain names the unknown resource
	}
	first := rs[0]
	for _, r := range rs[1:] {
		if r.Subcategory.Category != first.Subcategory.Category {
			desk, room := first, r
			if desk.Subcategory.Category != booking.CategoryWorkstation {
				desk, room = r, first
			}
			return "", invalid("%s is a desk and %s is a meeting room: desks and rooms cannot be booked together. Untick one kind and book it separately", desk.Name, room.Name)
		}
	}
	return first.Subcategory.Category, nil
}

// parseGuests reads guests' e-mail addresses, separated by commas, semicolons or new lines.
func parseGuests(v string) ([]string, error) {
	var out []string
	for _, g := range guestFields(v) {
		addr, err := mail.ParseAddress(g)
		if err != nil {
			return nil, invalid("%q is not an e-mail address: write guests as name@example.com, separated by commas or new lines", g)
		}
		out = append(out, addr.Address)
	}
	return out, nil
}

// guestFields splits the guests field into its entries, separated by commas, semicolons or new lines,
// without blanks.
func guestFields(v string) []string {
	var out []string
	for _, g := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '\r' }) {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

// parseHours reads a time of day, HH:MM, as an offset from midnight. As an end, 00:00 and 24:00 are the
// midnight that ends the day.
func parseHours(field, v string, end bool) (time.Duration, error) {
	if v == "" {
		return 0, invalid("%s: choose a time (HH:MM)", field)
	}
	if end && (v == "24:00" || v == "00:00") {
		return 24 * time.Hour, nil
	}
	t, err := time.Parse("15:04", v)
	if err != nil {
		return 0, invalid("%s: %q is not a time: write it as HH:MM, e.g. 09:30", field, v)
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}

// readFindSearch reads the search of the request; building, when given, is the resource's building and
// wins over the query and the session. ok is false when the organization has no building to search. A
// value it cannot use is replaced by where the search starts, and the search's Problem says what was wrong
// with it, in words; the filters keep everything else.
func (s *Server) readFindSearch(c echo.Context, building *uuid.UUID) (views.FindSearch, bool, error) {
	ctx, actor := c.Request().Context(), actorFrom(c)
	q := c.QueryParams()
	var in views.FindSearch
	buildings, err := s.bookings.Buildings(ctx, actor)
	if err != nil || len(buildings) == 0 {
		return in, false, err
	}
	problem := func(format string, args ...any) {
		if in.Problem == "" {
			in.Problem = fmt.Sprintf(format, args...)
		}
	}
	in.Buildings = buildings
	in.Building = buildings[0]
	if id, err := uuid.Parse(s.sessions.GetString(ctx, sessionBuilding)); err == nil {
		if i := slices.IndexFunc(buildings, func(b booking.Building) bool { return b.ID == id }); i >= 0 {
			in.Building = buildings[i]
		}
	}
	switch v := q.Get("building"); {
	case building != nil:
		i := slices.IndexFunc(buildings, func(b booking.Building) bool { return b.ID == *building })
		if i < 0 {
			return in, false, booking.Errorf(booking.CodeBuildingNotFound, "no building %s in your organization", *building)
		}
		in.Building = buildings[i]
	case v != "":
		id, err := uuid.Parse(v)
		i := slices.IndexFunc(buildings, func(b booking.Building) bool { return b.ID == id })
		if err != nil || i < 0 {
			problem("The building in this address is not one you can book in: choose one from the list.")
			in.ProblemNotFound = in.Problem != "" && err == nil
			break
		}
		in.Building = buildings[i]
		s.sessions.Put(ctx, sessionBuilding, id.String())
	}

	switch in.Kind = q.Get("kind"); in.Kind {
	case "":
		in.Kind = views.KindDesk
	case views.KindDesk, views.KindRoom:
	default:
		in.Kind = views.KindDesk
		problem("Choose a desk or a meeting room.")
	}
	shown := q.Get("shown_kind")
	in.KindChanged = shown != "" && shown != in.Kind
	if in.Capacity = strings.TrimSpace(q.Get("capacity")); in.Capacity != "" {
		if n, err := strconv.Atoi(in.Capacity); err != nil || n < 1 {
			problem("People: write how many people, e.g. 4.")
		}
	}
	if in.FeatureIDs, err = uuidList(q, "features"); err != nil {
		problem("One of the features in this address is not one this service knows: choose them again.")
	}
	if in.Chosen, err = uuidList(q, "resource"); err != nil {
		problem("One of the chosen spaces in this address is not one this service knows: tick them again.")
	}

	dates := q["date"]
	if q.Get("add") != "" {
		dates = append(slices.Clip(dates), q.Get("add_date"))
	}
	var bad string
	if in.Days, bad = readDates(dates); bad != "" {
		problem("Day: “%s” is not a date: write it as YYYY-MM-DD, e.g. 2026-11-24.", bad)
	}
	fromV, toV := strings.TrimSpace(q.Get("from")), strings.TrimSpace(q.Get("to"))
	// Hours nobody changed start again for another building or kind: a desk's day is not a room's.
	if a := strings.Fields(q.Get("auto")); len(a) == 4 && a[2] == fromV && a[3] == toV &&
		(a[0] != in.Building.ID.String() || a[1] != in.Kind) {
		fromV, toV, in.HoursChanged = "", "", true
	}
	if fromV != "" {
		if in.From, err = parseHours("from", fromV, false); err != nil {
			problem("From: “%s” is not a time: write it as HH:MM, e.g. 09:30.", fromV)
			fromV = ""
		}
	}
	if toV != "" {
		if in.To, err = parseHours("to", toV, true); err != nil {
			problem("To: “%s” is not a time: write it as HH:MM, e.g. 18:00.", toV)
			toV = ""
		}
	}
	if len(in.Days) == 0 || fromV == "" || toV == "" {
		category := views.KindCategory(in.Kind)
		start, err := s.bookings.SearchDefaults(ctx, actor, in.Building.ID, &category)
		if err != nil {
			return in, false, err
		}
		if len(in.Days) == 0 {
			in.Days = []time.Time{start.Day}
		}
		switch {
		case fromV == "" && toV == "":
			in.From, in.To = start.From, start.To
			in.Auto = strings.Join([]string{in.Building.ID.String(), in.Kind, views.HoursValue(in.From), views.HoursValue(in.To)}, " ")
		case fromV == "":
			in.From = min(start.From, max(in.To-time.Hour, 0))
		case toV == "":
			in.To = start.To
			if in.To <= in.From {
				in.To = min(in.From+time.Hour, 24*time.Hour)
			}
		}
	}
	if in.Auto == "" && !in.HoursChanged {
		in.Auto = q.Get("auto") // still describes the hours the page shows, unless they were changed
	}
	if in.To <= in.From {
		problem("The end (%s) must be after the start (%s). As the end, 00:00 means midnight.", views.HoursValue(in.To), views.HoursValue(in.From))
	}
	return in, true, nil
}

// readDates reads dates as typed (YYYY-MM-DD), skipping empty ones, in order and without repeats; bad is
// the first value that is not a date.
func readDates(vs []string) (days []time.Time, bad string) {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		d, err := time.Parse(time.DateOnly, v)
		if err != nil {
			return nil, v
		}
		days = append(days, d)
	}
	slices.SortFunc(days, time.Time.Compare)
	return slices.CompactFunc(days, time.Time.Equal), ""
}

// uuidList reads a repeated query parameter of ids, skipping empty values.
func uuidList(q url.Values, name string) ([]uuid.UUID, error) {
	var out []uuid.UUID
	for _, v := range q[name] {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		id, err := parseUUID(name, v)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// findCapacity is the minimum capacity of a search, nil for any.
func findCapacity(v string) *int32 {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return nil
	}
	c := int32(n)
	return &c
}

var (
	planSizes   sync.Map // static floor image → [2]int32{width, height}
	viewBoxExpr = regexp.MustCompile(`<svg[^>]*\sviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"`)
)

// planSize is the coordinate system of a floor's drawing: the viewBox of its image when it is one of the
// static SVG plans, else the bounding box of its resources' map coordinates, with a margin.
func planSize(image string, results []booking.SearchResult) (int32, int32) {
	if name, ok := strings.CutPrefix(image, "/static/"); ok && strings.HasSuffix(name, ".svg") {
		if v, ok := planSizes.Load(name); ok {
			wh := v.([2]int32)
			return wh[0], wh[1]
		}
		if data, err := fs.ReadFile(static.Files, name); err == nil {
			if m := viewBoxExpr.FindSubmatch(data); m != nil {
				w, errW := strconv.ParseFloat(string(m[1]), 64)
				h, errH := strconv.ParseFloat(string(m[2]), 64)
				if errW == nil && errH == nil && w >= 1 && h >= 1 {
					wh := [2]int32{int32(w), int32(h)}
					planSizes.Store(name, wh)
					return wh[0], wh[1]
				}
			}
		}
	}
	w, h := int32(0), int32(0)
	for _, r := range results {
		w, h = max(w, r.Resource.Map.BottomRightX), max(h, r.Resource.Map.BottomRightY)
	}
	if w == 0 || h == 0 {
		return 1200, 800
	}
	return w + 20, h + 20
}

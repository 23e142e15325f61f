package pages

import (
	"net/http"
	"slices"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The "Find a space" pages: the search (a list by floor), the floor plan, and a resource's panel, each
// with the booking form (page_book.go). They read the search from the query (page_find_search.go):
// building (remembered in the session), the days (start and until, date repeated, YYYY-MM-DD; see
// page_find_days.go), from and to (HH:MM in the
// building's time zone; as the end, 00:00 or 24:00 is midnight), kind (desk or room), capacity, features
// (repeated ids), resource (the resources chosen to book; on the plan, the one whose panel is open), and
// auto_building, auto_kind, auto_from and auto_to (the hours the search started with). Days and hours
// that are missing start where booking.Service.SearchDefaults says.

// Find is GET /find: the search. htmx requests get the results only (with the booking form of the
// chosen resources and the status line, out of band).
func (s *Handlers) Find(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	in, ok, err := s.readFindSearch(c, nil)
	if err != nil {
		return err
	}
	if !ok {
		return kit.Render(c, http.StatusOK, views.NoBuildings(s.Chrome(c, lang.T(ctx, "find.title"))))
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
		if de, _ := kit.Refusal(err); de != nil && de.Code == booking.CodeInvalidRequest {
			in.Problem, err = kit.ToSentence(de.In(ctx)), nil
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
	if err := s.readOfferedServices(ctx, actor, &res.Booking); err != nil {
		return err
	}
	return s.renderFind(c, http.StatusOK, res)
}

// renderFind answers a search: for htmx the results (and what goes with them), otherwise the whole page.
func (s *Handlers) renderFind(c echo.Context, status int, res views.FindResults) error {
	if kit.IsHTMX(c) {
		if status == http.StatusOK {
			c.Response().Header().Set("HX-Push-Url", res.Search.ListURL())
		} else {
			c.Response().Header().Set("HX-Push-Url", "false") // a search with a problem is not a place to go back to
		}
		return kit.Render(c, status, views.FindResultsPartial(res, c.QueryParam("add") != "" || res.Search.DaysChanged))
	}
	return kit.Render(c, status, views.FindPage(s.Chrome(c, lang.T(kit.Ctx(c), "find.title")), res))
}

// FloorPlan is GET /find/plan?floor=…: every resource of the floor drawn at its map coordinates,
// coloured by how it fares during the search's hours, with the panel of the resource chosen on it. htmx
// requests get the plan only (and the panel, out of band).
func (s *Handlers) FloorPlan(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	in, ok, err := s.readFindSearch(c, nil)
	if err != nil {
		return err
	}
	if !ok {
		return kit.Render(c, http.StatusOK, views.NoBuildings(s.Chrome(c, lang.T(ctx, "plan.title"))))
	}
	if in.ProblemNotFound {
		return booking.Errorf(booking.CodeBuildingNotFound, "%s", in.Problem)
	}
	if in.Problem != "" {
		return kit.Refused(in.Problem)
	}
	floors, err := s.bookings.Floors(ctx, actor, in.Building.ID)
	if err != nil {
		return err
	}
	if len(floors) == 0 {
		return booking.Refuse(booking.CodeFloorNotFound, "plan.noFloors", map[string]any{"Building": in.Building.Name})
	}
	floor := floors[0]
	if v := c.QueryParam("floor"); v != "" {
		id, err := kit.ParseUUID("floor", v)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(floors, func(f booking.Floor) bool { return f.ID == id })
		if i < 0 {
			return booking.Refuse(booking.CodeFloorNotFound, "plan.noSuchFloor", map[string]any{"Floor": id.String(), "Building": in.Building.Name})
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
	places := make([]booking.MapCoordinates, 0, len(found.Results))
	for _, r := range found.Results {
		places = append(places, r.Resource.Map)
	}
	w, h, _, err := s.bookings.PlanDrawingSize(ctx, actor, floor.Image, places)
	if err != nil {
		return err
	}
	zones, err := s.bookings.FloorNeighbourhoods(ctx, actor, floor.ID)
	if err != nil {
		return err
	}
	plan := views.FloorPlan{Search: in, Floors: floors, Floor: floor, Width: w, Height: h, Spots: found.Results, Zones: zones}
	// The panel of the chosen resource is its result on the plan; one that is not drawn (gone since the
	// link was made, or on another floor) opens no panel.
	var panel *views.ResourcePanel
	if len(chosen) > 0 {
		if i := slices.IndexFunc(found.Results, func(r booking.SearchResult) bool { return r.Resource.ID == chosen[0] }); i >= 0 {
			p := resourcePanelOf(in, found.Results[i])
			if err := s.readOfferedServices(ctx, actor, &p.Form); err != nil {
				return err
			}
			panel, plan.Selected = &p, chosen[0]
		}
	}
	if kit.IsHTMX(c) {
		if panel != nil {
			c.Response().Header().Set("HX-Push-Url", in.PlanResourceURL(floor.ID, plan.Selected))
		} else {
			c.Response().Header().Set("HX-Push-Url", in.PlanURL(floor.ID))
		}
		return kit.Render(c, http.StatusOK, views.FloorPlanPartial(plan, panel, c.QueryParam("add") != ""))
	}
	return kit.Render(c, http.StatusOK, views.FloorPlanPage(s.Chrome(c, lang.T(ctx, "plan.title")+" · "+floor.Name), plan, panel))
}

// Resource is GET /find/resources/:resourceId: a resource's details, its bookings on the search's days
// and the booking form. htmx requests get the panel only.
func (s *Handlers) Resource(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	id, err := kit.ParseUUID("resourceId", c.Param("resourceId"))
	if err != nil {
		return err
	}
	rs, err := s.bookings.ResourcesByIDs(ctx, actor, []uuid.UUID{id})
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return booking.Refuse(booking.CodeResourceNotFound, "find.noSuchResource", map[string]any{"ID": id.String()})
	}
	building := rs[0].Floor.Building.ID
	in, _, err := s.readFindSearch(c, &building)
	if err != nil {
		return err
	}
	if in.Problem != "" {
		return kit.Refused(in.Problem)
	}
	in.Chosen = nil
	p, err := s.resourcePanel(c, in, id)
	if err != nil {
		return err
	}
	if kit.IsHTMX(c) {
		p.PlanInput = c.Request().Header.Get("HX-Target") == "panel"
		return kit.Render(c, http.StatusOK, views.ResourcePanelView(p))
	}
	return kit.Render(c, http.StatusOK, views.ResourcePage(s.Chrome(c, p.Result.Resource.Name), p))
}

// resourcePanel reads the panel of the resource id for the search's days and hours. It refuses a
// resource the person cannot book with 1002.
func (s *Handlers) resourcePanel(c echo.Context, in views.FindSearch, id uuid.UUID) (views.ResourcePanel, error) {
	found, err := s.bookings.Search(kit.Ctx(c), kit.Actor(c), booking.SearchQuery{
		ResourceID: &id, Days: in.Days, From: in.From, To: in.To,
	})
	if err != nil {
		return views.ResourcePanel{}, err
	}
	if len(found.Results) == 0 {
		return views.ResourcePanel{}, booking.Refuse(booking.CodeResourceNotFound, "find.noSuchResource", map[string]any{"ID": id.String()})
	}
	in.Building, in.Days = found.Building, found.Days
	p := resourcePanelOf(in, found.Results[0])
	f, err := s.bookings.FavouritesOf(kit.Ctx(c), kit.Actor(c))
	if err != nil {
		return views.ResourcePanel{}, err
	}
	p.Starred = slices.Contains(f.Resources, id)
	return p, s.readOfferedServices(kit.Ctx(c), kit.Actor(c), &p.Form)
}

// resourcePanelOf builds the panel of r, a result of the search in.
func resourcePanelOf(in views.FindSearch, r booking.SearchResult) views.ResourcePanel {
	return views.ResourcePanel{Search: in, Result: r, Form: in.BookingForm([]booking.Resource{r.Resource})}
}

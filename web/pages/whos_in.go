package pages

import (
	"context"
	"net/http"
	"strconv"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// flashStar is the flash title of starring and unstarring.
const flashStar = "star"

// WhosIn is GET /whos-in: the colleagues the person may see in a building on a day, by floor, as a list
// and on each floor's plan.
func (s *Handlers) WhosIn(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	buildings, building, err := s.pageBuilding(c)
	if err != nil || len(buildings) == 0 {
		if err == nil {
			return kit.Render(c, http.StatusOK, views.NoBuildings(s.Chrome(c, lang.T(ctx, "whosIn.title"))))
		}
		return err
	}
	day, err := s.bookings.LocalDay(ctx, actor, building.ID, c.QueryParam("date"))
	if err != nil {
		return err
	}
	seen, err := s.bookings.WhoIsIn(ctx, actor, booking.PresenceQuery{BuildingID: &building.ID, From: day, Until: day.AddDate(0, 0, 1)})
	if err != nil {
		return err
	}
	p := views.WhosInPage{Chrome: s.Chrome(c, lang.T(ctx, "whosIn.title")), Buildings: buildings, Building: building,
		Day: day, Now: s.bookings.Now(), Starred: map[string]bool{}}
	if p.Floors, err = s.whosInFloors(c, building, seen); err != nil {
		return err
	}
	f, err := s.bookings.FavouritesOf(ctx, actor)
	if err != nil {
		return err
	}
	for _, id := range f.People {
		p.Starred[id.String()] = true
	}
	if title, words := s.PopFlash(c); title == flashStar {
		p.Notice = words
	}
	return kit.Render(c, http.StatusOK, views.WhosInPageView(p))
}

// whosInFloors groups the people seen by floor, in the building's order of floors, with each floor's
// drawing size.
func (s *Handlers) whosInFloors(c echo.Context, building booking.Building, seen []booking.Presence) ([]views.WhosInFloor, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	floors, err := s.bookings.Floors(ctx, actor, building.ID)
	if err != nil {
		return nil, err
	}
	var out []views.WhosInFloor
	for _, f := range floors {
		wf := views.WhosInFloor{Floor: f}
		var places []booking.MapCoordinates
		for _, p := range seen {
			if p.FloorID == f.ID {
				wf.People = append(wf.People, p)
				places = append(places, booking.MapCoordinates{BottomRightX: p.Centre[0] + 60, BottomRightY: p.Centre[1] + 40})
			}
		}
		if len(wf.People) == 0 {
			continue
		}
		if wf.Width, wf.Height, _, err = s.bookings.PlanDrawingSize(ctx, actor, f.Image, places); err != nil {
			return nil, err
		}
		out = append(out, wf)
	}
	return out, nil
}

// StarPerson is POST /favourites/people/:personId: on=true stars the colleague, on=false unstars them;
// back to next.
func (s *Handlers) StarPerson(c echo.Context) error {
	return s.star(c, "personId", s.bookings.StarPerson)
}

// StarResource is POST /favourites/resources/:resourceId, as StarPerson for a desk or room.
func (s *Handlers) StarResource(c echo.Context) error {
	return s.star(c, "resourceId", s.bookings.StarResource)
}

// star reads the id in the path parameter param and on from the form, and stars or unstars.
func (s *Handlers) star(c echo.Context, param string, do func(ctx context.Context, u booking.User, id uuid.UUID, on bool) error) error {
	ctx := kit.Ctx(c)
	id, err := kit.ParseUUID(param, c.Param(param))
	if err != nil {
		return err
	}
	on, err := onValue(c)
	if err != nil {
		return err
	}
	if err := do(ctx, kit.Actor(c), id, on); err != nil {
		return err
	}
	words := lang.T(ctx, "favourites.removed")
	if on {
		words = lang.T(ctx, "favourites.added")
	}
	s.PutFlash(c, flashStar, words)
	return c.Redirect(http.StatusSeeOther, kit.BackTo(c.Request(), c.FormValue("next")))
}

// onValue reads the form's on: true or false.
func onValue(c echo.Context) (bool, error) {
	on, err := strconv.ParseBool(c.FormValue("on"))
	if err != nil {
		return false, kit.FieldRefuse("on", "refusal.request.notBool", map[string]any{"Value": strconv.Quote(kit.ClipText(c.FormValue("on")))})
	}
	return on, nil
}

package pages

import (
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The start page (My week), its one tap, and "Who's in". Both pages read the building from the query
// (building), else the one remembered in the session, else the first; "Who's in" reads the day (date,
// YYYY-MM-DD in the building's time zone) too, today when it is missing.

// flashWeek and flashWeekRefused are the flash titles of the week page's one tap.
const (
	flashWeek        = "week"
	flashWeekRefused = "week-refused"
)

// Week is GET /: the person's next two weeks in a building.
func (s *Handlers) Week(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	buildings, building, err := s.pageBuilding(c)
	if err != nil || len(buildings) == 0 {
		if err == nil {
			return kit.Render(c, http.StatusOK, views.NoBuildings(s.Chrome(c, lang.T(ctx, "week.title"))))
		}
		return err
	}
	w, err := s.bookings.Week(ctx, actor, building.ID)
	if err != nil {
		return err
	}
	p := views.WeekPage{Chrome: s.Chrome(c, lang.T(ctx, "week.title")), Buildings: buildings, Week: w, Now: s.bookings.Now()}
	switch title, words := s.PopFlash(c); title {
	case flashWeek:
		p.Notice = words
	case flashWeekRefused:
		p.Notice, p.Refused = words, true
	}
	return kit.Render(c, http.StatusOK, views.WeekPageView(p))
}

// WeekBook is POST /week/book: the one tap, which books a desk (resource) for a day (date) and comes back
// to the week page, saying what it did or why it could not.
func (s *Handlers) WeekBook(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	desk, err := kit.ParseUUID("resource", c.FormValue("resource"))
	if err != nil {
		return err
	}
	day, err := time.Parse(time.DateOnly, c.FormValue("date"))
	if err != nil {
		return kit.FieldRefuse("date", "week.badDate")
	}
	back := "/?" + url.Values{"building": {c.FormValue("building")}}.Encode()
	b, err := s.bookings.BookDay(ctx, actor, desk, day)
	if de, _ := kit.Refusal(err); de != nil && de.Code != booking.CodeResourceNotFound {
		s.PutFlash(c, flashWeekRefused, kit.ToSentence(de.In(ctx)))
		return c.Redirect(http.StatusSeeOther, back)
	}
	if err != nil {
		return err
	}
	loc, err := booking.Location(b.Resource.Floor.Building.Timezone)
	if err != nil {
		loc = time.UTC
	}
	s.PutFlash(c, flashWeek, lang.T(ctx, "week.booked", map[string]any{
		"Desk": b.Resource.Name, "Day": lang.DayOf{T: b.Start.In(loc), Now: s.bookings.Now()}}))
	return c.Redirect(http.StatusSeeOther, back)
}

// pageBuilding returns the buildings the person may book in and the one the page is about: the query's
// (remembered for next time), else the session's, else the first. A query naming no such building is
// refused with 1004.
func (s *Handlers) pageBuilding(c echo.Context) ([]booking.Building, booking.Building, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	buildings, err := s.bookings.Buildings(ctx, actor)
	if err != nil || len(buildings) == 0 {
		return nil, booking.Building{}, err
	}
	index := func(id uuid.UUID) int {
		return slices.IndexFunc(buildings, func(b booking.Building) bool { return b.ID == id })
	}
	chosen := buildings[0]
	if id, err := uuid.Parse(s.Sessions.GetString(ctx, sessionBuilding)); err == nil && index(id) >= 0 {
		chosen = buildings[index(id)]
	}
	named, err := kit.UUIDQuery(c, "building")
	if err != nil {
		return nil, booking.Building{}, err
	}
	if named != nil {
		i := index(*named)
		if i < 0 {
			return nil, booking.Building{}, booking.Refuse(booking.CodeBuildingNotFound, "find.noSuchBuilding", map[string]any{"ID": named.String()})
		}
		chosen = buildings[i]
		s.Sessions.Put(ctx, sessionBuilding, named.String())
	}
	return buildings, chosen, nil
}

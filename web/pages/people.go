package pages

import (
	"context"
	"net/http"
	"slices"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// People is the colleague picker (of the booking and kiosk forms, and of a team's members in the
// console): the people already chosen in the form's field (sent along by htmx), then the people matching q. field names the form field; multi chooses several (check boxes)
// rather than one (radio buttons).
func (s *Handlers) People(c echo.Context) error {
	field := c.QueryParam("field")
	if field != "attendee" && field != "user" && field != "member" {
		return kit.FieldRefuse("field", "people.badField")
	}
	params, err := c.FormParams()
	if err != nil {
		return kit.Refuse("people.queryUnreadable", map[string]any{"Error": err})
	}
	p, err := s.peoplePicker(c.Request().Context(), kit.Actor(c), field, params[field], c.QueryParam("q"))
	if err != nil {
		return err
	}
	p.Multi = c.QueryParam("multi") == "1"
	return kit.Render(c, http.StatusOK, views.PeopleChoices(p))
}

// peoplePicker builds the colleague picker of the form field: first the people already chosen (ids,
// skipping malformed ids and people who cannot be searched), then the others that query finds.
func (s *Handlers) peoplePicker(ctx context.Context, actor booking.User, field string, ids []string, query string) (views.PeoplePicker, error) {
	var chosenIDs []uuid.UUID
	for _, v := range ids {
		if id, err := uuid.Parse(v); err == nil {
			chosenIDs = append(chosenIDs, id)
		}
	}
	chosen, err := s.bookings.PeopleByIDs(ctx, actor, chosenIDs)
	if err != nil {
		return views.PeoplePicker{}, err
	}
	// Only people who can be searched can have been chosen here: an id of anyone else is not shown.
	chosen = slices.DeleteFunc(chosen, func(u booking.User) bool { return !u.CanBeSearched })
	found, err := s.bookings.SearchPeople(ctx, actor, query)
	if err != nil {
		return views.PeoplePicker{}, err
	}
	found = slices.DeleteFunc(found, func(u booking.User) bool {
		return slices.ContainsFunc(chosen, func(ch booking.User) bool { return ch.ID == u.ID })
	})
	return views.PeoplePicker{Field: field, Query: query, Chosen: chosen, Found: found}, nil
}

package web

import (
	"net/http"
	"slices"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
)

// pagePeople is the colleague picker: the people already chosen in the form's field (sent along by
// htmx), then the people matching q. field names the form field; multi chooses several (check boxes)
// rather than one (radio buttons).
func (s *Server) pagePeople(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	field := c.QueryParam("field")
	if field != "attendee" && field != "user" {
		return invalid("field: must be attendee or user")
	}
	params, err := c.FormParams()
	if err != nil {
		return invalid("query: %v", err)
	}
	var ids []uuid.UUID
	for _, v := range params[field] {
		if id, err := uuid.Parse(v); err == nil {
			ids = append(ids, id)
		}
	}
	chosen, err := s.bookings.PeopleByIDs(ctx, actor, ids)
	if err != nil {
		return err
	}
	found, err := s.bookings.SearchPeople(ctx, actor, c.QueryParam("q"))
	if err != nil {
		return err
	}
	found = slices.DeleteFunc(found, func(u booking.User) bool {
		return slices.ContainsFunc(chosen, func(ch booking.User) bool { return ch.ID == u.ID })
	})
	return s.render(c, http.StatusOK, views.PeopleChoices(views.PeoplePicker{
		Field: field, Multi: c.QueryParam("multi") == "1", Query: c.QueryParam("q"), Chosen: chosen, Found: found,
	}))
}

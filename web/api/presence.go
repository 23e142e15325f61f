package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// Who is in, favourites and who sees one's bookings: each person's own, never another's, so {userId}
// is "me" or the caller's own id; receptionists and admins get no wider view here than anyone.

type presenceResponse struct {
	From     int64             `json:"from"`
	To       int64             `json:"to"`
	Bookings []presenceBooking `json:"bookings"`
}

type presenceBooking struct {
	BookingID string       `json:"bookingId"`
	User      presenceUser `json:"user"`
	Resource  presenceRef  `json:"resource"`
	Floor     presenceRef  `json:"floor"`
	StartDate int64        `json:"startDate"`
	EndDate   int64        `json:"endDate"`
	Status    string       `json:"status"`
	Team      bool         `json:"team"`
	Favourite bool         `json:"favourite"`
}

type presenceUser struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Surname string `json:"surname"`
}

type presenceRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type favouritesDTO struct {
	Resources []string `json:"resources"`
	People    []string `json:"people"`
}

type visibilityDTO struct {
	BookingsVisibleTo   *string `json:"bookingsVisibleTo"`
	OrganizationDefault string  `json:"organizationDefault,omitempty"`
}

// self returns the caller when {userId} names them ("me" or their own id); anyone else is refused with
// 403 1001, whatever the caller's role.
func self(c echo.Context) (booking.User, error) {
	actor := kit.Actor(c)
	if v := c.Param("userId"); v != "me" {
		id, err := kit.ParseUUID("userId", v)
		if err != nil {
			return booking.User{}, err
		}
		if id != actor.ID {
			return booking.User{}, booking.Refuse(booking.CodeForbidden, "refusal.presence.ownOnly")
		}
	}
	return actor, nil
}

// Presence is GET /api/v1/users/{me}/buildings/{buildingId}/presence?date=YYYY-MM-DD&days=N: the
// bookings of the caller and of the colleagues who let them see theirs, in the building, for N days (1
// by default, at most 14) from date (today by default) in the building's time zone.
func (s *Handlers) Presence(c echo.Context) error {
	actor, err := self(c)
	if err != nil {
		return err
	}
	building, err := kit.ParseUUID("buildingId", c.Param("buildingId"))
	if err != nil {
		return err
	}
	days, err := intQuery(c, "days", 1, booking.MaxPresenceDays)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	from, err := s.bookings.LocalDay(ctx, actor, building, c.QueryParam("date"))
	if err != nil {
		return err
	}
	to := from.AddDate(0, 0, days)
	seen, err := s.bookings.WhoIsIn(ctx, actor, booking.PresenceQuery{BuildingID: &building, From: from, Until: to})
	if err != nil {
		return err
	}
	res := presenceResponse{From: millis(from), To: millis(to), Bookings: make([]presenceBooking, len(seen))}
	for i, p := range seen {
		res.Bookings[i] = presenceBooking{
			BookingID: p.BookingID.String(),
			User:      presenceUser{ID: p.Person.ID.String(), Name: p.Person.Name, Surname: p.Person.Surname},
			Resource:  presenceRef{ID: p.ResourceID.String(), Name: p.ResourceName},
			Floor:     presenceRef{ID: p.FloorID.String(), Name: p.FloorName},
			StartDate: millis(p.Interval.Start), EndDate: millis(p.Interval.End),
			Status: string(p.Status), Team: p.Team, Favourite: p.Favourite,
		}
	}
	return c.JSON(http.StatusOK, res)
}

// Favourites is GET /api/v1/users/{me}/favourites: the resources and colleagues the caller starred.
func (s *Handlers) Favourites(c echo.Context) error {
	actor, err := self(c)
	if err != nil {
		return err
	}
	f, err := s.bookings.FavouritesOf(c.Request().Context(), actor)
	if err != nil {
		return err
	}
	out := favouritesDTO{Resources: ids(f.Resources), People: ids(f.People)}
	return c.JSON(http.StatusOK, out)
}

// StarResource is PUT (star) and DELETE (unstar) /api/v1/users/{me}/favourites/resources/{resourceId}.
func (s *Handlers) StarResource(c echo.Context) error {
	return s.star(c, "resourceId", s.bookings.StarResource)
}

// StarPerson is PUT (star) and DELETE (unstar) /api/v1/users/{me}/favourites/people/{personId}.
func (s *Handlers) StarPerson(c echo.Context) error {
	return s.star(c, "personId", s.bookings.StarPerson)
}

func (s *Handlers) star(c echo.Context, param string, do func(ctx context.Context, u booking.User, id uuid.UUID, on bool) error) error {
	actor, err := self(c)
	if err != nil {
		return err
	}
	id, err := kit.ParseUUID(param, c.Param(param))
	if err != nil {
		return err
	}
	if err := do(c.Request().Context(), actor, id, c.Request().Method == http.MethodPut); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// Visibility is GET /api/v1/users/{me}/visibility: who may see the caller's bookings (null: the
// organization's default, which is given too).
func (s *Handlers) Visibility(c echo.Context) error {
	actor, err := self(c)
	if err != nil {
		return err
	}
	own, def, err := s.bookings.BookingsVisibleTo(c.Request().Context(), actor)
	if err != nil {
		return err
	}
	out := visibilityDTO{OrganizationDefault: string(def)}
	if own != nil {
		v := string(*own)
		out.BookingsVisibleTo = &v
	}
	return c.JSON(http.StatusOK, out)
}

// PutVisibility is PUT /api/v1/users/{me}/visibility {"bookingsVisibleTo": "NOBODY"|"TEAM"|"ORGANIZATION"|null}.
func (s *Handlers) PutVisibility(c echo.Context) error {
	actor, err := self(c)
	if err != nil {
		return err
	}
	var body visibilityDTO
	if err := decodeObject(c, &body, "bookingsVisibleTo"); err != nil {
		return err
	}
	var v *booking.Visibility
	if body.BookingsVisibleTo != nil {
		x, err := booking.ParseVisibility("bookingsVisibleTo", *body.BookingsVisibleTo)
		if err != nil {
			return err
		}
		v = &x
	}
	if err := s.bookings.SetBookingsVisibleTo(c.Request().Context(), actor, v); err != nil {
		return err
	}
	return s.Visibility(c)
}

// intQuery reads an optional whole number from 1 to maximum; def when it is absent.
func intQuery(c echo.Context, name string, def, maximum int) (int, error) {
	v := c.QueryParam(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maximum {
		return 0, kit.FieldRefuse(name, "refusal.request.limitRange", map[string]any{"Value": strconv.Quote(kit.ClipText(v)), "Max": maximum})
	}
	return n, nil
}

// ids writes ids as strings, an empty list rather than null.
func ids(in []uuid.UUID) []string {
	out := make([]string, len(in))
	for i, id := range in {
		out[i] = id.String()
	}
	return out
}

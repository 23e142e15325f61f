package web

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
)

// apiUserBookings is GET /api/v1/users/{me|userId}/bookings?from=&to=&status=&limit=&cursor=: the user's
// bookings as organizer or attendee, newest first, a page at a time.
func (s *Server) apiUserBookings(c echo.Context) error {
	_, user, err := s.actingFor(c)
	if err != nil {
		return err
	}
	var f booking.BookingFilter
	if f.From, err = msQuery(c, "from"); err != nil {
		return err
	}
	if f.To, err = msQuery(c, "to"); err != nil {
		return err
	}
	for _, v := range c.QueryParams()["status"] {
		for _, st := range strings.Split(v, ",") {
			if st = strings.TrimSpace(st); st != "" {
				f.Statuses = append(f.Statuses, booking.Status(st))
			}
		}
	}
	if f.Page, err = pageQuery(c); err != nil {
		return err
	}
	p, err := s.bookings.UserBookings(c.Request().Context(), user, f)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBookingPage(p))
}

// apiApprovals is GET /api/v1/approvals?limit=&cursor=: the bookings of the organization that wait for an
// admin's decision, earliest first.
func (s *Server) apiApprovals(c echo.Context) error {
	pg, err := pageQuery(c)
	if err != nil {
		return err
	}
	p, err := s.bookings.WaitingApproval(c.Request().Context(), actorFrom(c), pg)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBookingPage(p))
}

// msQuery reads an optional query parameter holding ms since the epoch.
func msQuery(c echo.Context, name string) (*time.Time, error) {
	v := c.QueryParam(name)
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, invalid("%s: %q is not a time in ms since the epoch", name, v)
	}
	t := time.UnixMilli(n)
	return &t, nil
}

// pageQuery reads limit and cursor.
func pageQuery(c echo.Context) (booking.Page, error) {
	p := booking.Page{Cursor: c.QueryParam("cursor")}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > booking.MaxPageSize {
			return p, invalid("limit: %q is not a whole number between 1 and %d", v, booking.MaxPageSize)
		}
		p.Limit = n
	}
	return p, nil
}

package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// UserBookings is GET /api/v1/users/{me|userId}/bookings?from=&to=&status=&limit=&cursor=: the user's
// bookings as organizer or attendee, newest first, a page at a time.
func (s *Handlers) UserBookings(c echo.Context) error {
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
	for _, st := range listQuery(c, "status") {
		f.Statuses = append(f.Statuses, booking.Status(st))
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

// Approvals is GET /api/v1/approvals?limit=&cursor=: the bookings of the organization that wait for an
// admin's decision, earliest first.
func (s *Handlers) Approvals(c echo.Context) error {
	pg, err := pageQuery(c)
	if err != nil {
		return err
	}
	p, err := s.bookings.WaitingApproval(c.Request().Context(), kit.Actor(c), pg)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBookingPage(p))
}

package api

import (
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// bookingIDParam reads the {bookingId} path segment.
func bookingIDParam(c echo.Context) (uuid.UUID, error) {
	return kit.ParseUUID("bookingId", c.Param("bookingId"))
}

// GetBooking is GET /api/v1/bookings/{bookingId}: one booking with its contracted reservables.
func (s *Handlers) GetBooking(c echo.Context) error {
	return s.lifecycle(c, func(actor booking.User, id uuid.UUID) (booking.Booking, error) {
		return s.bookings.Booking(c.Request().Context(), actor, id)
	})
}

// lifecycle runs do on the booking named by the {bookingId} path segment, as the caller, and answers
// the booking as do returns it. It refuses a malformed id with 2000, and returns do's errors unchanged.
func (s *Handlers) lifecycle(c echo.Context, do func(actor booking.User, id uuid.UUID) (booking.Booking, error)) error {
	id, err := bookingIDParam(c)
	if err != nil {
		return err
	}
	b, err := do(kit.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBookingDetail(b))
}

// CheckIn is POST /api/v1/bookings/{bookingId}/checkin: PENDING → ACTIVE inside the check-in window.
func (s *Handlers) CheckIn(c echo.Context) error {
	return s.lifecycle(c, func(actor booking.User, id uuid.UUID) (booking.Booking, error) {
		return s.bookings.CheckIn(c.Request().Context(), actor, id)
	})
}

// CheckOut is POST /api/v1/bookings/{bookingId}/checkout: ACTIVE → FINISHED, ending now.
func (s *Handlers) CheckOut(c echo.Context) error {
	return s.lifecycle(c, func(actor booking.User, id uuid.UUID) (booking.Booking, error) {
		return s.bookings.CheckOut(c.Request().Context(), actor, id)
	})
}

// CancelBooking is DELETE /api/v1/bookings/{bookingId}: → CANCELLED, kept for history.
func (s *Handlers) CancelBooking(c echo.Context) error {
	return s.lifecycle(c, func(actor booking.User, id uuid.UUID) (booking.Booking, error) {
		return s.bookings.Cancel(c.Request().Context(), actor, id)
	})
}

// CheckInByPosterCode is POST /api/v1/users/{me|userId}/resources/checkin?postercode=: the scan at the
// door checks the user in to their booking of that resource whose check-in is open now.
func (s *Handlers) CheckInByPosterCode(c echo.Context) error {
	actor, user, err := s.actingFor(c)
	if err != nil {
		return err
	}
	code, err := posterCodeQuery(c)
	if err != nil {
		return err
	}
	b, err := s.bookings.CheckInByPosterCode(c.Request().Context(), actor, user, code)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toBookingDetail(b))
}

// DecideApproval is POST /api/v1/bookings/{bookingId}/approval {"approved": true|false}, by an admin.
func (s *Handlers) DecideApproval(c echo.Context) error {
	var req *struct {
		Approved *bool `json:"approved"`
	}
	if err := decodeObject(c, &req, "approved"); err != nil {
		return err
	}
	if req.Approved == nil {
		return kit.FieldRefuse("approved", "refusal.request.requiredBool")
	}
	return s.lifecycle(c, func(actor booking.User, id uuid.UUID) (booking.Booking, error) {
		return s.bookings.Decide(c.Request().Context(), actor, id, *req.Approved)
	})
}

// ChangeBooking is PATCH /api/v1/bookings/{bookingId} {"startDate", "endDate", "resource": {"id"}},
// any of them: moves a booking that waits for check-in or approval, atomically.
func (s *Handlers) ChangeBooking(c echo.Context) error {
	var req *struct {
		StartDate *int64 `json:"startDate"`
		EndDate   *int64 `json:"endDate"`
		Resource  *struct {
			ID *string `json:"id"`
		} `json:"resource"`
	}
	if err := decodeObject(c, &req, "startDate", "endDate", "resource"); err != nil {
		return err
	}
	var change booking.BookingChange
	if req.StartDate != nil {
		t := time.UnixMilli(*req.StartDate)
		change.Start = &t
	}
	if req.EndDate != nil {
		t := time.UnixMilli(*req.EndDate)
		change.End = &t
	}
	if req.Resource != nil {
		if req.Resource.ID == nil {
			return kit.FieldRefuse("resource.id", "refusal.request.required")
		}
		id, err := kit.ParseUUID("resource.id", *req.Resource.ID)
		if err != nil {
			return err
		}
		change.ResourceID = &id
	}
	if change == (booking.BookingChange{}) {
		return kit.Refuse("refusal.request.changeNothing")
	}
	return s.lifecycle(c, func(actor booking.User, id uuid.UUID) (booking.Booking, error) {
		return s.bookings.Change(c.Request().Context(), actor, id, change)
	})
}

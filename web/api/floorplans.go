package api

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/layout"
)

// PutFloorPlan is PUT /api/v1/admin/floors/{id}/plan: the body is the image, its Content-Type says
// which kind. It answers the floor with the address of its new plan.
func (s *Handlers) PutFloorPlan(c echo.Context) error {
	id, err := kit.ParseUUID("id", c.Param("id"))
	if err != nil {
		return err
	}
	// Refuse anyone but an admin, and a floor the organization does not have, before reading the image.
	if err := s.layout.CheckWrite(c.Request().Context(), kit.Actor(c), layout.Floors, id, true); err != nil {
		return err
	}
	data, err := readPlan(c)
	if err != nil {
		return err
	}
	f, err := s.bookings.SetFloorPlan(c.Request().Context(), kit.Actor(c), id, c.Request().Header.Get(echo.HeaderContentType), data)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toFloor(f))
}

// readPlan reads an uploaded plan of at most booking.MaxPlanBytes. A larger one is refused with 4130 as
// soon as its declared length, or the first byte past the limit, shows it: the rest is never read.
func readPlan(c echo.Context) ([]byte, error) {
	req := c.Request()
	if req.ContentLength > booking.MaxPlanBytes {
		return nil, booking.PlanTooLarge()
	}
	data, err := io.ReadAll(http.MaxBytesReader(c.Response(), req.Body, booking.MaxPlanBytes))
	var over *http.MaxBytesError
	if errors.As(err, &over) {
		return nil, booking.PlanTooLarge()
	}
	if err != nil {
		return nil, fmt.Errorf("read plan: %w", err)
	}
	return data, nil
}

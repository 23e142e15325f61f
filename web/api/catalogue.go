package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/workspacebooking/booking/web/kit"
)

// The catalogue the apps build their screens from, scoped to the caller's organization.

// Buildings is GET /api/v1/buildings.
func (s *Handlers) Buildings(c echo.Context) error {
	bs, err := s.bookings.Buildings(c.Request().Context(), kit.Actor(c))
	if err != nil {
		return err
	}
	out := struct {
		Buildings []buildingDTO `json:"buildings"`
	}{toDTOs(bs, toBuilding)}
	return c.JSON(http.StatusOK, out)
}

// Floors is GET /api/v1/buildings/{buildingId}/floors: each floor with its plan image.
func (s *Handlers) Floors(c echo.Context) error {
	id, err := kit.ParseUUID("buildingId", c.Param("buildingId"))
	if err != nil {
		return err
	}
	fs, err := s.bookings.Floors(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	out := struct {
		Floors []floorDTO `json:"floors"`
	}{toDTOs(fs, toFloor)}
	return c.JSON(http.StatusOK, out)
}

// Subcategories is GET /api/v1/subcategories?category=.
func (s *Handlers) Subcategories(c echo.Context) error {
	ss, err := s.bookings.Subcategories(c.Request().Context(), kit.Actor(c), categoryQuery(c))
	if err != nil {
		return err
	}
	out := struct {
		Subcategories []subcategoryDTO `json:"subcategories"`
	}{toDTOs(ss, toSubcategory)}
	return c.JSON(http.StatusOK, out)
}

// Features is GET /api/v1/features.
func (s *Handlers) Features(c echo.Context) error {
	fs, err := s.bookings.Features(c.Request().Context(), kit.Actor(c))
	if err != nil {
		return err
	}
	out := struct {
		Features []featureDTO `json:"features"`
	}{toDTOs(fs, toFeature)}
	return c.JSON(http.StatusOK, out)
}

// offeredReservableDTO is a reservable as offered for a resource: with its cancellation and delivery times.
type offeredReservableDTO struct {
	reservableDTO
	MinimumCancellationMs  int64 `json:"minimumCancellationMs"`
	StandardDeliveryTimeMs int64 `json:"standardDeliveryTimeMs"`
}

// ResourceReservables is GET /api/v1/resources/{resourceId}/reservables: what can be contracted on
// bookings of the resource.
func (s *Handlers) ResourceReservables(c echo.Context) error {
	id, err := kit.ParseUUID("resourceId", c.Param("resourceId"))
	if err != nil {
		return err
	}
	rs, err := s.bookings.ResourceReservables(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	out := struct {
		Reservables []offeredReservableDTO `json:"reservables"`
	}{make([]offeredReservableDTO, len(rs))}
	for i, r := range rs {
		out.Reservables[i] = offeredReservableDTO{
			reservableDTO: toReservable(r), MinimumCancellationMs: r.MinimumCancellation.Milliseconds(),
			StandardDeliveryTimeMs: r.StandardDeliveryTime.Milliseconds(),
		}
	}
	return c.JSON(http.StatusOK, out)
}

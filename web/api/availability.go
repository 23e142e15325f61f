package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// Availability is GET /api/v1/users/{me|userId}/buildings/{buildingId}/availability?from=&to=&floorId=
// &subcategoryId=&category=&features=&capacity=, the successor of the deprecated free listings.
func (s *Handlers) Availability(c echo.Context) error {
	actor, _, err := s.actingFor(c)
	if err != nil {
		return err
	}
	var q booking.AvailabilityQuery
	if q.BuildingID, err = kit.ParseUUID("buildingId", c.Param("buildingId")); err != nil {
		return err
	}
	from, err := msQuery(c, "from")
	if err != nil {
		return err
	}
	to, err := msQuery(c, "to")
	if err != nil {
		return err
	}
	if from == nil || to == nil {
		return kit.Refuse("refusal.request.fromToRequired")
	}
	q.From, q.To = *from, *to
	if q.FloorID, err = kit.UUIDQuery(c, "floorId"); err != nil {
		return err
	}
	if q.SubcategoryID, err = kit.UUIDQuery(c, "subcategoryId"); err != nil {
		return err
	}
	q.Category = categoryQuery(c)
	if q.FeatureIDs, err = featuresQuery(c); err != nil {
		return err
	}
	if q.MinCapacity, err = capacityQuery(c); err != nil {
		return err
	}
	rs, err := s.bookings.Availability(c.Request().Context(), actor, q)
	if err != nil {
		return err
	}
	return writeJSON(c, http.StatusOK, func(b []byte) []byte { return appendAvailability(b, q, rs) })
}

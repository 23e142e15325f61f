package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/workspacebooking/booking/static"
)

// routes lists every route of the service.
func (s *Server) routes() {
	e := s.echo
	e.Use(middleware.RequestID(), s.logRequests, middleware.Recover())

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.StaticFS("/static", echo.MustSubFS(static.Files, ""))

	api := e.Group("/api/v1", s.requireBearer)
	// 4.1 Retrieve the status of a resource ("me" or a user id).
	api.GET("/users/:userId/resources/statusinfo", s.apiStatusInfo)
	// 4.2 Free workstations and spaces (deprecated).
	api.GET("/users/:userId/buildings/:buildingId/workstations/subcategories/:subcategoryId/free", s.apiFreeWorkstations)
	api.GET("/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free", s.apiFreeSpaces)
	// 4.4 Create standard bookings of spaces, all or none.
	api.POST("/users/:userId/bookings/spaces/standard", s.apiCreateSpaceBookings)
	// 4.3 Contract reservables for a booking.
	api.PUT("/bookings/:bookingId/reservables/all", s.apiContractReservables)

	e.RouteNotFound("/*", func(c echo.Context) error {
		return echo.NewHTTPError(http.StatusNotFound, "no route for "+c.Request().Method+" "+c.Request().URL.Path)
	})
}

package web

import (
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

	// Every /api/v1 route needs a bearer token. The middleware is given per route, not to the group, so
	// that a wrong method still answers 405 rather than the group's catch-all 404.
	api, auth := e.Group("/api/v1"), s.requireBearer
	// 4.1 Retrieve the status of a resource ("me" or a user id).
	api.GET("/users/:userId/resources/statusinfo", s.apiStatusInfo, auth)
	// 4.2 Free workstations and spaces (deprecated).
	api.GET("/users/:userId/buildings/:buildingId/workstations/subcategories/:subcategoryId/free", s.apiFreeWorkstations, auth)
	api.GET("/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free", s.apiFreeSpaces, auth)
	// 4.4 Create standard bookings of spaces, all or none.
	api.POST("/users/:userId/bookings/spaces/standard", s.apiCreateSpaceBookings, auth)
	// 4.3 Contract reservables for a booking.
	api.PUT("/bookings/:bookingId/reservables/all", s.apiContractReservables, auth)
}

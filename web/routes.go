package web

import (
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/workspacebooking/booking/static"
)

// apiPrefix is the path every JSON operation starts with.
const apiPrefix = "/api/v1"

// routes lists every route of the service.
func (s *Server) routes() {
	e := s.echo
	e.Use(middleware.RequestID(), s.logRequests, middleware.Recover())

	e.GET("/healthz", s.healthz)
	e.GET("/readyz", s.readyz)
	e.StaticFS("/static", echo.MustSubFS(static.Files, ""))

	// Every /api/v1 route needs a bearer token. The middleware is given per route, not to the group, so
	// that a wrong method still answers 405 rather than the group's catch-all 404.
	api, auth := e.Group(apiPrefix), s.requireBearer
	// 4.1 Retrieve the status of a resource ("me" or a user id).
	api.GET("/users/:userId/resources/statusinfo", s.apiStatusInfo, auth)
	// 4.2 Free workstations and spaces (deprecated).
	api.GET("/users/:userId/buildings/:buildingId/workstations/subcategories/:subcategoryId/free", s.apiFreeWorkstations, auth)
	api.GET("/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free", s.apiFreeSpaces, auth)
	// 4.4 Create standard bookings of spaces, all or none.
	api.POST("/users/:userId/bookings/spaces/standard", s.apiCreateSpaceBookings, auth)
	// 4.3 Contract reservables for a booking.
	api.PUT("/bookings/:bookingId/reservables/all", s.apiContractReservables, auth)

	// The lifecycle of bookings, beyond the published operations.
	api.POST("/users/:userId/bookings/workstations/standard", s.apiCreateWorkstationBookings, auth)
	api.GET("/users/:userId/bookings", s.apiUserBookings, auth)
	api.POST("/users/:userId/resources/checkin", s.apiCheckInByPosterCode, auth)
	api.GET("/bookings/:bookingId", s.apiGetBooking, auth)
	api.PATCH("/bookings/:bookingId", s.apiChangeBooking, auth)
	api.DELETE("/bookings/:bookingId", s.apiCancelBooking, auth)
	api.POST("/bookings/:bookingId/checkin", s.apiCheckIn, auth)
	api.POST("/bookings/:bookingId/checkout", s.apiCheckOut, auth)
	api.POST("/bookings/:bookingId/approval", s.apiDecideApproval, auth)
	api.GET("/approvals", s.apiApprovals, auth)

	// Availability, the successor of the deprecated free listings, and the catalogue.
	api.GET("/users/:userId/buildings/:buildingId/availability", s.apiAvailability, auth)
	api.GET("/buildings", s.apiBuildings, auth)
	api.GET("/buildings/:buildingId/floors", s.apiFloors, auth)
	api.GET("/subcategories", s.apiSubcategories, auth)
	api.GET("/features", s.apiFeatures, auth)
	api.GET("/resources/:resourceId/reservables", s.apiResourceReservables, auth)

	// The OpenAPI 3.1 document of everything under /api/v1; public.
	api.GET("/openapi.json", s.apiOpenAPI)
}

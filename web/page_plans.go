package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
)

// planCSP is the Content-Security-Policy of a served floor plan: an SVG opened on its own runs no
// script, loads nothing and is sandboxed, should anything have passed the sanitizer.
const planCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"

// planCacheControl lets the browser keep a plan for a year: a new plan has a new address.
const planCacheControl = "private, max-age=31536000, immutable"

// pagePlan is GET /plans/{floorId}/{hash}.{ext}: a floor's current plan, for anyone of its organization.
// An old hash, or another organization's floor, is 404.
func (s *Server) pagePlan(c echo.Context) error {
	id, err := parseUUID("floorId", c.Param("floorId"))
	if err != nil {
		return err
	}
	hash, _, _ := strings.Cut(c.Param("file"), ".")
	p, err := s.bookings.FloorPlan(c.Request().Context(), actorFrom(c), id, hash)
	if err != nil {
		return err
	}
	if booking.PlanPath(id, p.Hash, p.ContentType) != c.Request().URL.Path {
		return booking.Errorf(booking.CodeObjectNotFound, "floor %s has no plan %q", id, c.Param("file"))
	}
	h := c.Response().Header()
	h.Set("Cache-Control", planCacheControl)
	h.Set("Content-Security-Policy", planCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, p.ContentType, p.Data)
}

// requireUserOrBearer lets through someone signed in to the pages, or an app with a bearer token, with
// their user as the actor of the request; it refuses everybody else as requireUser and requireBearer do.
func (s *Server) requireUserOrBearer(next echo.HandlerFunc) echo.HandlerFunc {
	bearer, page := s.requireBearer(next), s.requireUser(s.limitUsers(next))
	return func(c echo.Context) error {
		if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
			return bearer(c)
		}
		return page(c)
	}
}

package pages

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// planCSP is the Content-Security-Policy of a served floor plan: an SVG opened on its own runs no
// script, loads nothing and is sandboxed, should anything have passed the sanitizer.
const planCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox"

// planCacheControl keeps a plan out of shared caches and makes the browser ask again before each use
// (a 304 while it is unchanged), so that a kiosk's browser shows nobody a plan after its user signs out.
const planCacheControl = "private, no-cache"

// Plan is GET /plans/{floorId}/{hash}.{ext}: a floor's current plan, for anyone of its organization.
// An old hash, or another organization's floor, is 404.
func (s *Handlers) Plan(c echo.Context) error {
	id, err := kit.ParseUUID("floorId", c.Param("floorId"))
	if err != nil {
		return err
	}
	hash, _, _ := strings.Cut(c.Param("file"), ".")
	p, err := s.bookings.FloorPlan(c.Request().Context(), kit.Actor(c), id, hash)
	if err != nil {
		return err
	}
	if booking.PlanPath(id, p.Hash, p.ContentType) != c.Request().URL.Path {
		return booking.Refuse(booking.CodeObjectNotFound, "plan.noSuchPlan", map[string]any{"Floor": id.String(), "File": strconv.Quote(c.Param("file"))})
	}
	h := c.Response().Header()
	h.Set("Cache-Control", planCacheControl)
	h.Set("Content-Security-Policy", planCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	etag := `"` + p.Hash + `"` // the hash of the bytes: a strong entity tag
	h.Set("ETag", etag)
	if matchesETag(c.Request().Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, p.ContentType, p.Data)
}

// matchesETag reports whether an If-None-Match header names etag: "*", the tag, or a list holding it.
// Tags compare weakly, by their value with or without W/, as RFC 9110 (13.1.2) says for If-None-Match.
// A header longer than 4096 bytes names nothing.
func matchesETag(header, etag string) bool {
	if len(header) > 4096 {
		return false
	}
	etag = strings.TrimPrefix(etag, "W/")
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == "*" || tag == etag {
			return true
		}
	}
	return false
}

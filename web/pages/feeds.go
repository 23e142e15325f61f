package pages

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/notify"
)

// The calendar feeds (iCalendar): a person's own, at the secret address of their settings, which
// calendar apps fetch without a session; and a room's, for the signed-in people of its organization.

// feedCacheControl lets a calendar app, and nothing shared, keep a feed five minutes.
const feedCacheControl = "private, max-age=300"

// PersonalFeed is GET /ical/{secret}.ics: the bookings of the person whose feed secret it is. The secret
// is the credential; one that names nobody (never made, rotated since, or its person deactivated) is not
// found.
func (s *Handlers) PersonalFeed(c echo.Context) error {
	secret, ok := strings.CutSuffix(c.Param("file"), ".ics")
	if !ok {
		return echo.ErrNotFound
	}
	body, err := s.notify.PersonalFeed(c.Request().Context(), secret)
	if errors.Is(err, notify.ErrUnknownLink) {
		return echo.ErrNotFound
	}
	if err != nil {
		return err
	}
	return serveCalendar(c, body)
}

// RoomFeed is GET /ical/rooms/{resourceId}.ics: a room's bookings, each called "Booked". A room of
// another organization, a desk or a hidden room is not found.
func (s *Handlers) RoomFeed(c echo.Context) error {
	raw, ok := strings.CutSuffix(c.Param("file"), ".ics")
	id, err := uuid.Parse(raw)
	if !ok || err != nil {
		return echo.ErrNotFound
	}
	body, err := s.notify.RoomFeed(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	return serveCalendar(c, body)
}

// serveCalendar answers a feed with its ETag (a hash of the body), or 304 when the client holds it
// already. The ETag is weak, since gzip may change the bytes sent but not the calendar.
func serveCalendar(c echo.Context, body []byte) error {
	sum := sha256.Sum256(body)
	etag := `W/"` + hex.EncodeToString(sum[:16]) + `"`
	h := c.Response().Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", feedCacheControl) // in place of the pages' no-store
	if matchesETag(c.Request().Header.Get("If-None-Match"), etag) {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, "text/calendar; charset=utf-8", body)
}

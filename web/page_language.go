package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// pageLanguage keeps the language chosen with the switch of every page: in the session, and for a
// signed-in person also as their userLanguage, so that their next sign-in and their e-mails speak it.
// It then sends the browser back to the page it came from, with that page's query. A language the service does not speak is
// refused with 400 and changes nothing.
func (s *Server) pageLanguage(c echo.Context) error {
	code := c.FormValue("lang")
	if !slices.Contains(lang.Codes(), code) {
		return kit.FieldRefuse("lang", "layout.languageUnknown", map[string]any{
			"Code": strconv.Quote(kit.ClipText(code)), "Codes": strings.Join(lang.Codes(), ", "),
		})
	}
	ctx := c.Request().Context()
	if org, id, ok := s.sessionPerson(ctx); ok {
		// A person no longer known or deactivated keeps the choice in the session only.
		if err := s.bookings.SetUserLanguage(ctx, org, id, code); err != nil && !errors.Is(err, booking.ErrUnknownUser) {
			return err
		}
	}
	s.Sessions.Put(ctx, sessionLanguage, code)
	return c.Redirect(http.StatusSeeOther, kit.BackTo(c.Request(), c.FormValue("next")))
}

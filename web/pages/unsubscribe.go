package pages

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/notify"
)

// One-click unsubscribe (RFC 8058) from the optional e-mails. The link's secret is the credential: no
// session and no sign-in. Opening the link only asks, since mail scanners open links; a POST with
// List-Unsubscribe=One-Click, from the mail client or the page's button, turns the kind of e-mail off.

// Unsubscribe is GET /mail/unsubscribe/{secret}/{kind}: the page with the button that unsubscribes.
func (s *Handlers) Unsubscribe(c echo.Context) error {
	secret, kind := c.Param("secret"), c.Param("kind")
	p := views.UnsubscribePage{Chrome: s.Chrome(c, lang.T(kit.Ctx(c), "settings.unsubscribe")), Kind: kind, Action: notify.UnsubscribePath(secret, kind)}
	_, err := s.notify.UnsubscribeLink(c.Request().Context(), secret, kind)
	return s.renderUnsubscribe(c, p, err)
}

// UnsubscribeOneClick is POST /mail/unsubscribe/{secret}/{kind} with the body List-Unsubscribe=One-Click:
// the person of the secret no longer gets that kind of e-mail. Doing it twice changes nothing more.
func (s *Handlers) UnsubscribeOneClick(c echo.Context) error {
	secret, kind := c.Param("secret"), c.Param("kind")
	p := views.UnsubscribePage{Chrome: s.Chrome(c, lang.T(kit.Ctx(c), "settings.unsubscribe")), Kind: kind, Action: notify.UnsubscribePath(secret, kind)}
	if c.FormValue("List-Unsubscribe") != "One-Click" {
		p.Problem = lang.T(kit.Ctx(c), "settings.unsubscribeNotOneClick")
		return kit.Render(c, http.StatusBadRequest, views.UnsubscribePageView(p))
	}
	_, err := s.notify.Unsubscribe(c.Request().Context(), secret, kind)
	p.Done = err == nil
	return s.renderUnsubscribe(c, p, err)
}

// renderUnsubscribe answers the unsubscribe page, saying why the link does nothing when err says so.
func (s *Handlers) renderUnsubscribe(c echo.Context, p views.UnsubscribePage, err error) error {
	switch {
	case errors.Is(err, notify.ErrUnknownKind):
		p.Problem = lang.T(kit.Ctx(c), "settings.unsubscribeUnknownKind")
	case errors.Is(err, notify.ErrUnknownLink):
		p.Problem = lang.T(kit.Ctx(c), "settings.unsubscribeUnknownLink")
	case err != nil:
		return err
	}
	status := http.StatusOK
	if p.Problem != "" {
		status = http.StatusNotFound
	}
	return kit.Render(c, status, views.UnsubscribePageView(p))
}

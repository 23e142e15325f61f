package kit

import (
	"github.com/a-h/templ"
	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
)

// Env is what every page handler needs beside the domain: the sessions (for the flash), development
// mode and the service's own address.
type Env struct {
	Sessions *scs.SessionManager
	Dev      bool   // development mode: shown on every page
	BaseURL  string // BASE_URL without its trailing slash; "" when not set
}

// Render writes a templ component as an HTML response with the status.
func Render(c echo.Context, status int, t templ.Component) error {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := t.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// IsHTMX reports whether htmx made the request to swap part of a page. It is false for a request that
// wants the whole page: a first visit, a reload, or the back button restoring history.
func IsHTMX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// Chrome is what every page shows around its content: the title, who is signed in, development mode.
func (e *Env) Chrome(c echo.Context, title string) views.Chrome {
	ch := views.Chrome{Title: title, Dev: e.Dev, Path: c.Request().URL.Path, BaseURL: e.BaseURL}
	if u, ok := SignedIn(c); ok {
		ch.User = &u
	}
	return ch
}

// The session keys of the flash: what a form posted without htmx did. It is kept across the redirect
// that follows the form, and the next page shows it once.
const (
	sessionFlashTitle = "flash_title"
	sessionFlash      = "flash"
)

// PutFlash keeps what a form did for the page the browser is sent to next: a title (may be empty) and a
// message.
func (e *Env) PutFlash(c echo.Context, title, message string) {
	ctx := c.Request().Context()
	e.Sessions.Put(ctx, sessionFlashTitle, title)
	e.Sessions.Put(ctx, sessionFlash, message)
}

// PopFlash returns and forgets what the previous form left for this page. The message is empty when it
// left nothing.
func (e *Env) PopFlash(c echo.Context) (title, message string) {
	ctx := c.Request().Context()
	return e.Sessions.PopString(ctx, sessionFlashTitle), e.Sessions.PopString(ctx, sessionFlash)
}

// PublicBase is the service's public address: BASE_URL, or else the request's own scheme and host.
func (e *Env) PublicBase(c echo.Context) string {
	if e.BaseURL != "" {
		return e.BaseURL
	}
	return c.Scheme() + "://" + c.Request().Host
}

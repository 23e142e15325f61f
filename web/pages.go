package web

import (
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
)

// contentSecurityPolicy allows nothing inline and nothing from elsewhere: scripts, styles and images come
// from /static, and no other site may frame the pages. The kiosk's camera stream is a blob/mediastream.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"media-src 'self' blob: mediastream:; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// pageHeaders sets the security headers of every page.
func (s *Server) pageHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		setSecurityHeaders(h)
		h.Set("Cache-Control", "no-store")
		h.Add("Vary", "HX-Request")
		return next(c)
	}
}

// canonicalHost sends a page request that reached the service under another host name than BASE_URL's
// to the same path under BASE_URL, before any session or sign-in starts: a sign-in started under one
// name would come back under BASE_URL and find no session there. It does nothing when BASE_URL is not
// set. Behind a proxy that changes the Host header, the proxy's X-Forwarded-Host is read instead.
func (s *Server) canonicalHost(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if s.baseHost == "" || sameHost(requestHost(r), s.baseHost, s.https) {
			return next(c)
		}
		return c.Redirect(http.StatusTemporaryRedirect, s.baseURL+r.URL.RequestURI())
	}
}

// requestHost is the host a client asked for: the first X-Forwarded-Host when a proxy set one, else Host.
func requestHost(r *http.Request) string {
	if fwd := r.Header.Get("X-Forwarded-Host"); fwd != "" {
		first, _, _ := strings.Cut(fwd, ",")
		return strings.TrimSpace(first)
	}
	return r.Host
}

// sameHost reports whether two host[:port] name the same place, whatever their case, the default port of
// the scheme written or not.
func sameHost(a, b string, https bool) bool {
	port := ":80"
	if https {
		port = ":443"
	}
	return strings.EqualFold(strings.TrimSuffix(a, port), strings.TrimSuffix(b, port))
}

// setSecurityHeaders sets the headers that keep a page from running foreign code, being framed or sniffed.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(self), microphone=(), geolocation=()")
}

// crossOrigin refuses state-changing page requests that come from another site (CSRF), using the
// browser's Sec-Fetch-Site and Origin headers.
func (s *Server) crossOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	cop := http.NewCrossOriginProtection()
	return func(c echo.Context) error {
		if err := cop.Check(c.Request()); err != nil {
			return booking.Errorf(booking.CodeForbidden, "this form was sent from another site; reload the page and try again")
		}
		return next(c)
	}
}

// render writes a templ component as an HTML response with the status.
func (s *Server) render(c echo.Context, status int, t templ.Component) error {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := t.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// isHTMX reports whether htmx made the request to swap part of a page. It is false for a request that
// wants the whole page: a first visit, a reload, or the back button restoring history.
func isHTMX(c echo.Context) bool {
	h := c.Request().Header
	return h.Get("HX-Request") == "true" && h.Get("HX-History-Restore-Request") != "true"
}

// chrome is what every page shows around its content: the title, who is signed in, development mode.
func (s *Server) chrome(c echo.Context, title string) views.Chrome {
	ch := views.Chrome{Title: title, Dev: s.dev, Path: c.Request().URL.Path, BaseURL: s.baseURL}
	if u, ok := c.Get(actorKey).(booking.User); ok {
		ch.User = &u
	}
	return ch
}

// isPage reports whether the request is for a page rather than for the API (of any version) or SCIM.
func isPage(c echo.Context) bool {
	p := c.Request().URL.Path
	return p != "/api" && !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, scimPrefix+"/")
}

// renderPageError answers a failed page request: the whole error page, or, for htmx, a notice swapped into
// the page's alert region.
func (s *Server) renderPageError(c echo.Context, p problem) {
	// An address no route matches (404, 405) never passed through pageHeaders.
	setSecurityHeaders(c.Response().Header())
	if isHTMX(c) {
		c.Response().Header().Set("HX-Retarget", "#notice")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		c.Response().Header().Set("HX-Push-Url", "false") // a refusal is not a place to go back to
		_ = s.render(c, p.Status, views.Notice(pageErrorTitle(p), pageErrorMessage(p)))
		return
	}
	_ = s.render(c, p.Status, views.ErrorPage(s.chrome(c, pageErrorTitle(p)), p.Status, pageErrorMessage(p)))
}

// pageErrorTitle names what went wrong in words, never with a code: pages are read by people.
func pageErrorTitle(p problem) string {
	switch {
	case p.Status == http.StatusBadRequest:
		return "Please check what was asked"
	case p.Status == http.StatusUnauthorized:
		return "Please sign in"
	case p.Status == http.StatusForbidden:
		return "Not allowed"
	case p.Status == http.StatusNotFound && p.Code == 0:
		return "Page not found"
	case p.Status == http.StatusNotFound:
		return "Not found"
	case p.Status == http.StatusMethodNotAllowed:
		return "Not possible here"
	case p.Status == http.StatusTooManyRequests:
		return "Too many requests at once"
	case p.Status >= 500:
		return "Something went wrong"
	}
	return "Not possible"
}

// pageErrorMessage is what a person reads when a page fails: the domain's message as a sentence, with
// the few technical ones said in plain words.
func pageErrorMessage(p problem) string {
	switch {
	case p.Status == http.StatusNotFound && p.Code == 0:
		return "There is no page at this address."
	case p.Status == http.StatusMethodNotAllowed:
		return "This address cannot be used that way. Go back and try again from the page."
	case p.Status >= 500:
		return "Something went wrong on our side, and nothing was changed. Please try again in a moment."
	case strings.HasSuffix(p.Detail, "is not a UUID"):
		return "This address is incomplete or was changed, so it names nothing this service knows. Go back and follow the link again."
	case p.Detail != "":
		return toSentence(p.Detail)
	}
	return "That could not be done."
}

// toSentence makes a domain message ("check-in closed at 09:15") a sentence for a page: a capital first
// letter and one full stop at the end.
func toSentence(msg string) string {
	msg = strings.TrimSuffix(strings.TrimSpace(msg), ".")
	if msg == "" {
		return msg
	}
	r, n := utf8.DecodeRuneInString(msg) // the first letter, whatever its script
	return string(unicode.ToUpper(r)) + msg[n:] + "."
}

// pageHome sends people to the search.
func (s *Server) pageHome(c echo.Context) error {
	return c.Redirect(http.StatusSeeOther, "/find")
}

// signInURL returns the address of the sign-in page that sends the browser back to path afterwards.
func signInURL(path string) string { return signInPath + "?next=" + url.QueryEscape(path) }

// The session keys of the flash: what a form posted without htmx did. It is kept across the redirect
// that follows the form, and the next page shows it once.
const (
	sessionFlashTitle = "flash_title"
	sessionFlash      = "flash"
)

// putFlash keeps what a form did for the page the browser is sent to next: a title (may be empty) and a
// message.
func (s *Server) putFlash(c echo.Context, title, message string) {
	ctx := c.Request().Context()
	s.sessions.Put(ctx, sessionFlashTitle, title)
	s.sessions.Put(ctx, sessionFlash, message)
}

// popFlash returns and forgets what the previous form left for this page. The message is empty when it
// left nothing.
func (s *Server) popFlash(c echo.Context) (title, message string) {
	ctx := c.Request().Context()
	return s.sessions.PopString(ctx, sessionFlashTitle), s.sessions.PopString(ctx, sessionFlash)
}

package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
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
		return c.Redirect(http.StatusTemporaryRedirect, s.BaseURL+r.URL.RequestURI())
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
			return booking.Refuse(booking.CodeForbidden, "refusal.request.crossSite")
		}
		return next(c)
	}
}

// isPage reports whether the request is for a page rather than for the API (of any version) or SCIM.
func isPage(c echo.Context) bool {
	p := c.Request().URL.Path
	return p != "/api" && !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, kit.SCIMPrefix+"/")
}

// renderPageError answers a failed page request: the whole error page, or, for htmx, a notice swapped into
// the page's alert region.
func (s *Server) renderPageError(c echo.Context, p kit.Problem) {
	// An address no route matches (404, 405) never passed through pageHeaders.
	setSecurityHeaders(c.Response().Header())
	if kit.IsHTMX(c) {
		c.Response().Header().Set("HX-Retarget", "#notice")
		c.Response().Header().Set("HX-Reswap", "innerHTML")
		c.Response().Header().Set("HX-Push-Url", "false") // a refusal is not a place to go back to
		_ = kit.Render(c, p.Status, views.Notice(kit.PageErrorTitle(kit.Ctx(c), p), kit.PageErrorMessage(kit.Ctx(c), p)))
		return
	}
	_ = kit.Render(c, p.Status, views.ErrorPage(s.Chrome(c, kit.PageErrorTitle(kit.Ctx(c), p)), p.Status, kit.PageErrorMessage(kit.Ctx(c), p)))
}

// signInURL returns the address of the sign-in page that sends the browser back to path afterwards.
func signInURL(path string) string { return signInPath + "?next=" + url.QueryEscape(path) }

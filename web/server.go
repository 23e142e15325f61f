// Package web serves the JSON API under /api/v1 and the htmx pages on one Echo server. Handlers
// decode, call the domain in web/booking, and render; every route is listed in routes.go.
package web

import (
	"context"
	"crypto/rand"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/static"
	"github.com/workspacebooking/booking/web/api"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/console"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/notify"
	"github.com/workspacebooking/booking/web/pages"
	"github.com/workspacebooking/booking/web/report"
	"github.com/workspacebooking/booking/web/scim"
)

// Deps are what the server needs.
type Deps struct {
	Bookings *booking.Service
	// Admin runs the Admin API; nil: one built on Bookings.
	Admin *layout.Service
	// Identity signs people in and runs SCIM; nil: one built on Bookings.
	Identity *identity.Service
	// Notify keeps people's notice settings and feeds and the webhook endpoints; nil: one built on
	// Bookings that works no jobs. The caller starts its workers (serve does).
	Notify *notify.Service
	Tokens *Tokens
	Logger *slog.Logger
	// Sessions stores the browser sessions (pgxstore in production).
	Sessions scs.Store
	// Provider signs people in, and its tokens are accepted by the API; nil when none is configured.
	Provider *Provider
	// Dev offers the development sign-in when there is no identity provider.
	Dev bool
	// BaseURL is where people reach the service (the posters' QR codes point there); empty: the request's
	// own scheme and host. Cookies are Secure when it is https.
	BaseURL string
	// Limits bound the requests of each API user and each client address; zero: none.
	Limits Limits
}

// Server is the HTTP surface of the service.
type Server struct {
	*kit.Env // sessions, development mode and BASE_URL, shared with the page handlers
	echo     *echo.Echo
	bookings *booking.Service
	layout   *layout.Service
	people   *identity.Service
	notify   *notify.Service
	tokens   *Tokens
	log      *slog.Logger
	idp      *Provider
	baseHost string // BASE_URL's host[:port]; "" when BASE_URL is not set
	https    bool   // BASE_URL is https: cookies are Secure and answers carry HSTS

	perUser    *limiter[uuid.UUID] // signed-in users (API and pages), by id
	perAddress *limiter[string]    // client addresses (the TCP peer)
	metrics    *metrics

	api     *api.Handlers
	pages   *pages.Handlers
	console *console.Handlers
	scim    *scim.Handler
}

// NewServer returns the server with every route registered.
func NewServer(d Deps) *Server {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	https := strings.HasPrefix(d.BaseURL, "https://")
	s := &Server{
		echo: e, bookings: d.Bookings, tokens: d.Tokens, log: d.Logger, https: https,
		Env: &kit.Env{
			Sessions: newSessions(d.Sessions, https),
			Dev:      d.Dev && d.Provider == nil,
			BaseURL:  strings.TrimSuffix(d.BaseURL, "/"),
		},
		idp:     d.Provider,
		perUser: newLimiter[uuid.UUID](d.Limits.PerUser), perAddress: newLimiter[string](d.Limits.PerAddress),
		metrics: newMetrics(d.Bookings),
	}
	if u, err := url.Parse(s.BaseURL); err == nil {
		s.baseHost = u.Host
	}
	if s.layout = d.Admin; s.layout == nil {
		s.layout = layout.New(d.Bookings.Pool(), d.Bookings)
	}
	if s.people = d.Identity; s.people == nil {
		s.people = identity.New(d.Bookings.Pool(), d.Bookings)
	}
	if s.notify = d.Notify; s.notify == nil && d.Bookings != nil {
		n, err := notify.New(d.Bookings.Pool(), d.Bookings, notify.Config{Dev: d.Dev, BaseURL: s.BaseURL, Log: d.Logger})
		if err != nil {
			panic(err) // only a bad SMTP_URL fails, and this configuration has none
		}
		s.notify = n
	}
	if s.notify != nil {
		s.metrics.registry.MustRegister(outboxCollector{tell: s.notify})
	}
	s.api = api.New(s.bookings, s.layout, s.people, s.notify)
	s.pages = pages.New(s.Env, s.bookings, s.notify, s.log)
	var scopes []string
	if s.idp != nil {
		scopes = s.idp.Scopes()
	}
	s.console = console.New(s.Env, s.bookings, s.layout, s.people, s.notify, report.New(d.Bookings.Pool(), report.WithClock(d.Bookings.Now)), s.log, scopes)
	s.scim = scim.New(s.people, s.log, s.Env)
	e.HTTPErrorHandler = s.handleError
	s.Sessions.ErrorFunc = s.sessionError
	s.routes()
	return s
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.echo.ServeHTTP(w, r) }

// Routes lists every route registered, so that tests can hold the OpenAPI document to them.
func (s *Server) Routes() []*echo.Route { return s.echo.Routes() }

// logRequests logs one structured line per request, with its id, the client's app-version and, for the
// API, the user who called; and counts it in the metrics.
func (s *Server) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err)
		}
		req, res := c.Request(), c.Response()
		took := time.Since(start)
		s.metrics.observe(c.Path(), req.Method, res.Status, took)
		level := slog.LevelInfo
		if res.Status >= 500 {
			level = slog.LevelError
		}
		s.log.LogAttrs(req.Context(), level, "request",
			slog.String("id", res.Header().Get(echo.HeaderXRequestID)),
			slog.String("method", req.Method),
			slog.String("route", c.Path()),
			slog.String("path", req.URL.Path),
			slog.Int("status", res.Status),
			slog.Duration("duration", took),
			slog.String("app_version", req.Header.Get("app-version")),
			slog.String("user", userOf(c)),
		)
		return nil
	}
}

// maxRequestID is the longest X-Request-Id of a client the service uses.
const maxRequestID = 64

// requestID gives every request an id, in the X-Request-Id of its answer and its log lines: the client's
// own when it is at most maxRequestID letters, digits, '.', '_' or '-', and a new one otherwise, so that
// nobody can write what they like into the logs.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !plainRequestID(id) {
			id = rand.Text()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)
		return next(c)
	}
}

// plainRequestID reports whether id is 1 to maxRequestID characters of [A-Za-z0-9._-].
func plainRequestID(id string) bool {
	if id == "" || len(id) > maxRequestID {
		return false
	}
	for _, r := range id {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// baseHeaders sets what every answer carries: Strict-Transport-Security when the service is reached over
// https (BASE_URL), and on the API's answers Cache-Control: no-store and X-Content-Type-Options: nosniff,
// so that no cache keeps a person's bookings and no browser reads JSON as something else.
func (s *Server) baseHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		if s.https {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if p := c.Request().URL.Path; p == api.Prefix || strings.HasPrefix(p, api.Prefix+"/") || strings.HasPrefix(p, kit.SCIMPrefix+"/") {
			h.Set("Cache-Control", "no-store")
			h.Set("X-Content-Type-Options", "nosniff")
		}
		return next(c)
	}
}

// RequestTimeout bounds the time a request may spend, waiting for the database included; past it the
// request answers 503 5030. It is shorter than the server's write timeout, so the answer still gets out.
const RequestTimeout = 10 * time.Second

// withDeadline gives every request RequestTimeout.
func withDeadline(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		ctx, cancel := context.WithTimeout(req.Context(), RequestTimeout)
		defer cancel()
		c.SetRequest(req.WithContext(ctx))
		err := next(c)
		// An error is answered after this returns: with the request's own context, not the spent one.
		c.SetRequest(req)
		return err
	}
}

// userOf is the id of the API caller, "" when there is none (yet).
func userOf(c echo.Context) string {
	if u, ok := c.Get(kit.ActorKey).(booking.User); ok {
		return u.ID.String()
	}
	return ""
}

// healthz answers while the process is up.
func (s *Server) healthz(c echo.Context) error { return c.String(http.StatusOK, "ok\n") }

// readyTimeout is how long /readyz waits for the database before calling it unavailable.
const readyTimeout = 2 * time.Second

// readyz answers 200 while the database answers, 503 otherwise. A second line says when sign-in through
// the identity provider is not ready yet; it does not make the service unready, since the service's own
// tokens and the sessions of people already signed in work without the provider.
func (s *Server) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), readyTimeout)
	defer cancel()
	status, text := http.StatusOK, "ready\n"
	if err := s.bookings.Ping(ctx); err != nil {
		status, text = http.StatusServiceUnavailable, "database unavailable\n"
	}
	if s.idp != nil && !s.idp.Ready() {
		text += "sign-in not ready: the identity provider has not answered yet\n"
	}
	return c.String(status, text)
}

// staticFiles serves the embedded static files; browsers may keep them an hour (htmx, whose name carries
// its version, a year). A folder is not found: its contents are never listed.
func (s *Server) staticFiles(c echo.Context) error {
	name := strings.TrimSuffix(c.Param("*"), "/")
	if st, err := fs.Stat(static.Files, name); err != nil || st.IsDir() || strings.HasSuffix(c.Param("*"), "/") {
		return echo.ErrNotFound
	}
	h := c.Response().Header()
	h.Set("X-Content-Type-Options", "nosniff")
	if strings.HasPrefix(c.Param("*"), "js/htmx-") {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, max-age=3600")
	}
	http.StripPrefix("/static/", http.FileServerFS(static.Files)).ServeHTTP(c.Response(), c.Request())
	return nil
}

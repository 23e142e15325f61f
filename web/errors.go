package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// statusClientClosed is the status logged for a request whose client went away before it was answered
// (nginx's 499). The client never sees it.
const statusClientClosed = 499

// handleError answers every error a handler returns. A refusal (a *booking.Error) gets the status of its
// code; Echo's own errors (unknown route, wrong method) keep theirs; anything else is logged and answered
// as a 500 that reveals nothing. API calls get a problem+json body, pages an error page.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var p kit.Problem
	var he *echo.HTTPError
	de, status := kit.Refusal(err)
	switch {
	case de != nil:
		if de.Code == booking.CodeUnavailable && !errors.As(err, new(*booking.Error)) {
			// A database that is away or too slow: its own reason (refused, down, timed out) goes to
			// the log for the operator, not to the client.
			s.log.WarnContext(c.Request().Context(), "database unavailable",
				slog.String("id", c.Response().Header().Get(echo.HeaderXRequestID)), slog.String("path", c.Request().URL.Path),
				slog.Any("error", err))
		}
		p = kit.Problem{
			Status: status, Code: int(de.Code), Name: de.Code.Name(), Title: de.Code.String(),
			Detail: de.In(s.refusalLanguage(c, de)), Index: de.Index, Field: de.Field,
		}
	case errors.As(err, &he):
		p = kit.Problem{Status: he.Code, Title: http.StatusText(he.Code), Detail: fmt.Sprint(he.Message)}
		switch req := c.Request(); he.Code {
		case http.StatusNotFound:
			p.Detail = fmt.Sprintf("no route for %s %s", req.Method, req.URL.Path)
		case http.StatusMethodNotAllowed:
			p.Detail = fmt.Sprintf("%s is not allowed on %s", req.Method, req.URL.Path)
		}
	case errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil:
		// The client went away: there is nobody to answer, and nothing failed on our side.
		c.Response().Status = statusClientClosed
		return
	default:
		s.log.ErrorContext(c.Request().Context(), "request failed",
			slog.String("id", c.Response().Header().Get(echo.HeaderXRequestID)), slog.String("method", c.Request().Method),
			slog.String("route", c.Path()), slog.String("path", c.Request().URL.Path), slog.String("user", userOf(c)),
			slog.Any("error", err))
		p = kit.Problem{
			Status: http.StatusInternalServerError, Code: int(booking.CodeInternal), Name: booking.CodeInternal.Name(),
			Title: booking.CodeInternal.String(), Detail: "something went wrong on our side; nothing was changed",
		}
	}
	if p.Status == http.StatusUnauthorized {
		// Every 401, a page's too, says how to authenticate (RFC 9110, section 15.5.2).
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="workspace-booking"`)
	}
	if isPage(c) {
		s.renderPageError(c, p)
		return
	}
	c.Response().Header().Set(echo.HeaderContentType, "application/problem+json")
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(p.Status)
		return
	}
	_ = c.JSON(p.Status, p)
}

// refusalLanguage returns the context a refusal's words are written in. A page's are in the page's
// language. The API's detail follows the client's Accept-Language when the refusal has words in it,
// and is English otherwise; Content-Language says which. Its code and name are always the same.
func (s *Server) refusalLanguage(c echo.Context, de *booking.Error) context.Context {
	if isPage(c) {
		return kit.Ctx(c)
	}
	tag := lang.English
	if de.MessageID != "" {
		tag = lang.Choose("", c.Request().Header.Get("Accept-Language"))
	}
	c.Response().Header().Set("Content-Language", lang.Code(tag))
	return lang.With(c.Request().Context(), tag)
}

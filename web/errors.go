package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
)

// codeStatus maps every domain code to its HTTP status, once. A test makes sure no code is missing.
var codeStatus = map[booking.Code]int{
	booking.CodeUnauthorized:                http.StatusUnauthorized,
	booking.CodeForbidden:                   http.StatusForbidden,
	booking.CodeResourceNotFound:            http.StatusNotFound,
	booking.CodeUserNotFound:                http.StatusNotFound,
	booking.CodeBuildingNotFound:            http.StatusNotFound,
	booking.CodeSubcategoryNotFound:         http.StatusNotFound,
	booking.CodeFloorNotFound:               http.StatusNotFound,
	booking.CodeBookingNotFound:             http.StatusNotFound,
	booking.CodeNoBookingToCheckIn:          http.StatusNotFound,
	booking.CodeResourceReservableNotFound:  http.StatusNotFound,
	booking.CodeInvalidRequest:              http.StatusBadRequest,
	booking.CodeResourceNotAvailable:        http.StatusConflict,
	booking.CodeDateInThePast:               http.StatusConflict,
	booking.CodeDateOutsideResourceHours:    http.StatusConflict,
	booking.CodeDurationExceedsMaximum:      http.StatusConflict,
	booking.CodeDateExceedsMaximumAdvance:   http.StatusConflict,
	booking.CodeResourceNotASpace:           http.StatusConflict,
	booking.CodeBookingNotModifiable:        http.StatusConflict,
	booking.CodeCheckInNotOpenYet:           http.StatusConflict,
	booking.CodeCheckInClosed:               http.StatusConflict,
	booking.CodeAllDayNotAllowed:            http.StatusConflict,
	booking.CodeUserAlreadyHasWorkstation:   http.StatusConflict,
	booking.CodeMinCancellationOfReservable: http.StatusConflict,
	booking.CodeReservableDeliveryTime:      http.StatusConflict,
	booking.CodeReservableQuantity:          http.StatusConflict,
	booking.CodeAdditionalServicesInactive:  http.StatusConflict,
	booking.CodeIdempotencyKeyReused:        http.StatusUnprocessableEntity,
	booking.CodeTooManyRequests:             http.StatusTooManyRequests,
	booking.CodeInternal:                    http.StatusInternalServerError,
	booking.CodeUnavailable:                 http.StatusServiceUnavailable,
}

// statusClientClosed is logged for a request whose client went away before its answer (nginx's 499).
const statusClientClosed = 499

// problem is the error body (RFC 9457 shape) of every failed call.
type problem struct {
	Status int    `json:"status"`
	Code   int    `json:"code,omitempty"`
	Name   string `json:"name,omitempty"`
	Title  string `json:"title"`
	Detail string `json:"detail,omitempty"`
	Index  *int   `json:"index,omitempty"`
}

// handleError answers every error a handler returns: domain errors with their code's status, Echo's own
// (unknown route, wrong method) with theirs, and anything else as a logged 500 that reveals nothing.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var p problem
	var he *echo.HTTPError
	de, status := domainRefusal(err)
	switch {
	case de != nil:
		if de.Code == booking.CodeUnavailable && !errors.As(err, new(*booking.Error)) {
			// The database's own reason (refused, away, too slow) is for the operator, not the client.
			s.log.WarnContext(c.Request().Context(), "database unavailable",
				slog.String("id", c.Response().Header().Get(echo.HeaderXRequestID)), slog.String("path", c.Request().URL.Path),
				slog.Any("error", err))
		}
		p = problem{
			Status: status, Code: int(de.Code), Name: de.Code.Name(), Title: de.Code.String(),
			Detail: de.Message, Index: de.Index,
		}
	case errors.As(err, &he):
		p = problem{Status: he.Code, Title: http.StatusText(he.Code), Detail: fmt.Sprint(he.Message)}
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
		p = problem{
			Status: http.StatusInternalServerError, Code: int(booking.CodeInternal), Name: booking.CodeInternal.Name(),
			Title: booking.CodeInternal.String(), Detail: "something went wrong on our side; nothing was changed",
		}
	}
	if isPage(c) {
		s.renderPageError(c, p)
		return
	}
	if p.Status == http.StatusUnauthorized {
		c.Response().Header().Set("WWW-Authenticate", `Bearer realm="workspace-booking"`)
	}
	c.Response().Header().Set(echo.HeaderContentType, "application/problem+json")
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(p.Status)
		return
	}
	_ = c.JSON(p.Status, p)
}

// domainRefusal is err as the domain's error, with its code's HTTP status; nil for an error that is not
// the domain's (a failure).
func domainRefusal(err error) (*booking.Error, int) {
	var de *booking.Error
	if !errors.As(booking.Interpret(err), &de) {
		return nil, 0
	}
	status := codeStatus[de.Code]
	if status == 0 {
		status = http.StatusInternalServerError
	}
	return de, status
}

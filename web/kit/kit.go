// Package kit is what the service's surfaces share: the API (web/api), the employees' pages
// (web/pages), the admin console (web/console) and SCIM (web/scim). It gives the actor of a request,
// one way to render a page, one flash, and one way to read a refusal. Package web builds the surfaces
// and lists their routes; the surfaces import kit and never one another.
package kit

import (
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
)

// ActorKey is where the authentication middleware keeps the signed-in user of a request.
const ActorKey = "actor"

// Actor returns the authenticated user of the request. Only routes behind the sign-in or bearer
// middleware may call it.
func Actor(c echo.Context) booking.User { return c.Get(ActorKey).(booking.User) }

// SignedIn returns the user of the request, and false when nobody has signed in (yet).
func SignedIn(c echo.Context) (booking.User, bool) {
	u, ok := c.Get(ActorKey).(booking.User)
	return u, ok
}

// SCIMPrefix is where the SCIM 2.0 service answers identity providers (web/scim).
const SCIMPrefix = "/scim/v2"

// ClipText bounds text from a request before it is logged or repeated in a message.
func ClipText(s string) string {
	if len(s) > 200 {
		return s[:200]
	}
	return s
}

// IdempotencyKeyHeader lets a client retry a POST of the API safely (web's idempotency middleware).
const IdempotencyKeyHeader = "Idempotency-Key"

// Refused refuses a request with a 2000 (invalid request) whose words are already in the reader's
// language: a page made them with lang.T for this request (a choice the form did not make, a label and
// a number). They are shown as they are, in every language, since they have no message id to be said
// again with; a refusal with one is Refuse.
func Refused(words string) error {
	return &booking.Error{Code: booking.CodeInvalidRequest, Message: words}
}

// Refuse refuses a request with a 2000 (invalid request) whose message is the message id of web/lang,
// filled with data (booking.Refuse): its Message is English, and In says it in the reader's language.
func Refuse(id string, data ...map[string]any) error {
	return booking.Refuse(booking.CodeInvalidRequest, id, data...)
}

// FieldRefuse is Refuse for a refusal that names the field it refuses (a JSON path or a form field),
// as booking.FieldRefuse: the message is the field, a colon and the words.
func FieldRefuse(field, id string, data ...map[string]any) error {
	return booking.FieldRefuse(booking.CodeInvalidRequest, field, id, data...)
}

// Problem is the body of every failed API call, in the shape of RFC 9457. Code and Name are empty for an
// unknown route or method; Index is set only for a request that carries several bookings; Field names the
// one field refused, as a JSON path, when there is one. Pages show the same problem in words
// (PageErrorTitle, PageErrorMessage).
type Problem struct {
	Status int    `json:"status"`
	Code   int    `json:"code,omitempty"`
	Name   string `json:"name,omitempty"`
	Title  string `json:"title"`
	Detail string `json:"detail,omitempty"`
	Index  *int   `json:"index,omitempty"`
	Field  string `json:"field,omitempty"`
}

// Refusal returns err as a refusal with the HTTP status of its code, or nil when err is not a refusal
// but a failure. Database errors that are refusals (text it cannot store, a database away or too slow)
// are turned into one first, by booking.Interpret.
func Refusal(err error) (*booking.Error, int) {
	var de *booking.Error
	if !errors.As(booking.Interpret(err), &de) {
		return nil, 0
	}
	return de, HTTPStatus(de.Code)
}

// HTTPStatus returns the HTTP status of answers with the code, as booking's code table gives it, or 500
// for a number that is not a code.
func HTTPStatus(code booking.Code) int {
	if status := code.HTTPStatus(); status != 0 {
		return status
	}
	return http.StatusInternalServerError
}

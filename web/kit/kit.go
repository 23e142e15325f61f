// Package kit is what the service's surfaces share: the API (web/api), the employees' pages
// (web/pages), the admin console (web/console) and SCIM (web/scim). It gives the actor of a request,
// one way to render a page, one flash, and one way to read a refusal. Package web builds the surfaces
// and lists their routes; the surfaces import kit and never one another.
package kit

import (
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

package web

import (
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// Internal names that the external tests (package web_test) need.

// StatusOf returns the HTTP status of an error response with code c.
func StatusOf(c booking.Code) int { return kit.HTTPStatus(c) }

package web

import "github.com/workspacebooking/booking/web/booking"

// What the external tests (package web_test) need of the package's insides.

// StatusOf is the HTTP status of the code's problem answers.
func StatusOf(c booking.Code) int { return httpStatus(c) }

// CreateBodies are create requests for the resource: valid, near-valid and broken.
var CreateBodies = createBodies

// Package api is the JSON API under /api/v1, for the mobile apps and other clients: the published
// operations, the lifecycle of bookings, availability, the catalogue and the Admin API. Its shapes are
// described in openapi.yaml. Package web lists the routes and authenticates the caller first.
package api

import (
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/notify"
)

// Prefix is the path every JSON operation starts with.
const Prefix = "/api/v1"

// Handlers answers the API's operations with the domain's services.
type Handlers struct {
	bookings *booking.Service
	layout   *layout.Service
	people   *identity.Service
	notify   *notify.Service
}

// New returns the API's handlers.
func New(bookings *booking.Service, offices *layout.Service, people *identity.Service, tell *notify.Service) *Handlers {
	return &Handlers{bookings: bookings, layout: offices, people: people, notify: tell}
}

// Package console is the admin console: the office's buildings, floors and plans, resources, rules,
// catalogue, people, closures, audit log and sign-in settings. Package web lists the routes and lets
// only an organization's admins in.
package console

import (
	"log/slog"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/notify"
	"github.com/workspacebooking/booking/web/report"
)

// Handlers answers the console's pages with the domain's services.
type Handlers struct {
	*kit.Env
	bookings *booking.Service
	layout   *layout.Service
	people   *identity.Service
	notify   *notify.Service
	reports  *report.Service
	log      *slog.Logger
	scopes   []string // the scopes sign-in asks the identity provider for; none without one
}

// New returns the console's handlers.
func New(env *kit.Env, bookings *booking.Service, offices *layout.Service, people *identity.Service, tell *notify.Service, reports *report.Service, log *slog.Logger, scopes []string) *Handlers {
	return &Handlers{Env: env, bookings: bookings, layout: offices, people: people, notify: tell, reports: reports, log: log, scopes: scopes}
}

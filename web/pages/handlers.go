// Package pages is the employees' side of the web app: finding a space on a list or a floor plan,
// booking it with services, looking after one's bookings, approvals, and the kiosk and poster pages that
// receptionists' tablets and phones open. Package web lists the routes and signs people in first.
package pages

import (
	"log/slog"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/notify"
)

// Handlers answers the pages with the booking domain.
type Handlers struct {
	*kit.Env
	bookings *booking.Service
	notify   *notify.Service
	log      *slog.Logger
}

// New returns the pages' handlers.
func New(env *kit.Env, bookings *booking.Service, tell *notify.Service, log *slog.Logger) *Handlers {
	return &Handlers{Env: env, bookings: bookings, notify: tell, log: log}
}

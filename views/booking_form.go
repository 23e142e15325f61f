package views

import (
	"context"
	"slices"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// BookingForm is the form that books the chosen resources on the chosen days, all or none.
type BookingForm struct {
	Resources []booking.Resource // chosen, complete
	Days      []time.Time        // local midnights
	From, To  string             // "15:04" as typed
	AllDay    bool
	Subject   string
	Attendees []booking.User
	Guests    string
	Online    bool
	Timezone  string // the IANA time zone of the chosen resources' building
	Error     string // why the last attempt was refused, in words
	// People is the search's number of people, "" when not given; the form sends it back so that the
	// services' quantities can start at it.
	People string
	// Services are the services the chosen rooms offer, with what the form holds for each. Until
	// ServicesRead is set they have not been read: htmx reads them when the form loads.
	Services     []ServiceLine
	ServicesRead bool
	// OnlineOffered says that the service makes online meetings: only then does the form offer one.
	OnlineOffered bool
	// Repeat is the "Repeat" part of the form, which makes a recurring booking of one space.
	Repeat RepeatForm
}

// ServiceLine is one service in the booking form: what is ticked and typed, and what the form says of it.
type ServiceLine struct {
	Reservable booking.Reservable
	// Only names the chosen rooms that offer the service when not all of them do: "Goya".
	Only     string
	Ticked   bool
	Quantity string // as typed, or the number of people
	Delivery string // HH:MM in the building's zone, as typed or the usual time
	Comment  string
	// Moved says that the usual delivery time falls after the end and the start is used instead.
	Moved string
	// TooLate says why the service cannot be ordered for the first chosen day; the line cannot be ticked.
	TooLate string
	// Start and End bound the delivery time: the meeting's hours, HH:MM.
	Start, End string
}

// ServicesField names a field of a service in the booking form: "quantity-<id>".
func ServicesField(name string, rv booking.Reservable) string { return name + "-" + rv.ID.String() }

// servicesTrigger is when htmx reads the services again: on load when they are not read yet, and on the
// "services" event, which app.js sends when the rooms, days, hours or people invited change.
func (f BookingForm) servicesTrigger() string {
	if !f.ServicesRead {
		return "load, services"
	}
	return "services"
}

// spaces tells whether the chosen resources are spaces (meeting rooms), which take a subject and attendees.
func (f BookingForm) spaces() bool {
	for _, r := range f.Resources {
		if r.Subcategory.Category != booking.CategorySpace {
			return false
		}
	}
	return len(f.Resources) > 0
}

// allDayAllowed tells whether every chosen resource may be booked for the whole day.
func (f BookingForm) allDayAllowed() bool {
	for _, r := range f.Resources {
		if !r.Rule.AllDayBookings {
			return false
		}
	}
	return len(f.Resources) > 0
}

// zone names the time zone of the form's hours: "Madrid time" ("hora de Madrid").
func (f BookingForm) zone(ctx context.Context) string { return lang.Zone(ctx, f.Timezone) }

// submitLabel says what the button books: "Book Goya", "Book 2 rooms for 3 days".
func (f BookingForm) submitLabel(ctx context.Context) string {
	what := lang.T(ctx, "find.submitChosenSpaces")
	switch n := len(f.Resources); {
	case n == 1:
		what = f.Resources[0].Name
	case n > 1 && f.spaces():
		what = lang.N(ctx, "find.submitRooms", n)
	case n > 1 && !slices.ContainsFunc(f.Resources, func(r booking.Resource) bool { return r.Subcategory.Category != booking.CategoryWorkstation }):
		what = lang.N(ctx, "find.submitDesks", n)
	case n > 1:
		what = lang.N(ctx, "find.submitSpaces", n)
	}
	if len(f.Days) > 1 {
		return lang.N(ctx, "find.submitForDays", len(f.Days), map[string]any{"What": what})
	}
	return lang.T(ctx, "find.submit", map[string]any{"What": what})
}

package views

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// The tabs of My bookings.
const (
	WhenUpcoming = "upcoming"
	WhenPast     = "past"
)

// MyBookings is the page listing the signed-in person's bookings, upcoming or past.
type MyBookings struct {
	Chrome Chrome
	When   string // WhenUpcoming or WhenPast
	Notice string // what was just done, e.g. "2 bookings made."
	Cards  []BookingCard
	More   string // the next page's address ("Show more"); empty on the last page
	// Series are the person's recurring bookings, each one item; their occurrences are not in Cards.
	Series []SeriesItem
	// SeriesMade says that the booking form just made a series, and SeriesRefused names each day it did
	// not book, with the reason.
	SeriesMade    string
	SeriesRefused []string
}

// BookingCard is one booking as a card shows it, with what can be done to it now.
type BookingCard struct {
	Booking    booking.Booking
	Viewer     booking.User // who looks at it: the actions shown are theirs
	Now        time.Time
	Detail     bool   // the card is the booking's own page: its heading is the page's
	Autofocus  bool   // the first card of a page loaded with "Show more" takes the focus
	JustBooked bool   // the booking form has just made it: the list marks it
	From       string // the page the card is on; its forms come back there
	// InUpcoming tells that the card is in the Upcoming list; its forms say so, and once an action ends
	// the booking the card leaves the list.
	InUpcoming bool
	Done       string // what was just done to it
	Error      string // a refusal, in words
	// Change holds what was typed into the change-time form, shown again after a refusal; nil: the
	// booking's own times.
	Change *ChangeForm
}

// ChangeForm is what the change-time form holds: a local date and times of day.
type ChangeForm struct {
	Date, From, To string
}

// BookingPage is one booking in full: its card, the people, and the services form.
type BookingPage struct {
	Chrome    Chrome
	Notice    string
	Card      BookingCard
	Attendees []booking.Attendee
	Services  ServicesForm
}

// ServicesForm is the services (reservables) of a booking: what is contracted, and the form that
// replaces it.
type ServicesForm struct {
	Booking booking.Booking
	Viewer  booking.User
	Now     time.Time
	Active  bool                 // the organization has the additional-services module
	Offered []booking.Reservable // what the booked resource offers
	From    string
	Done    string
	Error   string
	// Typed holds what was sent, by reservable id, shown again after a refusal; nil: what is contracted.
	Typed map[string]TypedService
	// OOB marks the section to be swapped in by id, beside another partial (htmx out-of-band swap).
	OOB bool
}

// TypedService is what the services form sent for one reservable.
type TypedService struct {
	Ordered                     bool
	Quantity, Delivery, Comment string
}

// Approvals is the admins' page of bookings waiting for approval.
type Approvals struct {
	Chrome Chrome
	Notice string // what was just decided
	Error  string // a refusal of the last decision
	Rows   []ApprovalRow
	More   string
}

// ApprovalRow is one booking waiting for approval, or the outcome of a decision on it.
type ApprovalRow struct {
	Booking booking.Booking
	Now     time.Time // what the dates are read against: a date of another year shows it
	Outcome string    // set once decided: "Approved — now pending check-in", "Rejected"
	Error   string
}

// bookingLocation is the time zone of the booking's building (UTC in the unlikely case that it cannot be
// loaded: the import checks every building's).
func bookingLocation(b booking.Booking) *time.Location {
	loc, err := booking.Location(b.Resource.Floor.Building.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// BookingLocal is a moment as the booking's building reads it.
func BookingLocal(b booking.Booking, t time.Time) time.Time { return t.In(bookingLocation(b)) }

// bookingZoneLabel names the booking's time zone: "Madrid time" ("hora de Madrid").
func bookingZoneLabel(ctx context.Context, b booking.Booking) string {
	return lang.Zone(ctx, b.Resource.Floor.Building.Timezone)
}

// BookingWhen is when a booking takes place, in its building's zone, labelled: "Tue 24 Nov, 10:00–11:00
// Madrid time"; "Tue 5 Jan 2027, …" in another year than now's.
func BookingWhen(ctx context.Context, b booking.Booking, now time.Time) string {
	d := map[string]any{
		"Span": lang.Span(ctx, BookingLocal(b, b.Start), BookingLocal(b, b.End), now), "Zone": bookingZoneLabel(ctx, b),
	}
	if b.AllDay {
		return lang.T(ctx, "bookings.whenAllDay", d)
	}
	return lang.T(ctx, "bookings.when", d)
}

// bookingMoment is a moment of a booking in its building's zone, with the day when it is not the day the
// booking starts: "09:50 Madrid time", or "Mon 23 Nov, 20:00 Madrid time". In Spanish it comes with its
// article ("las 09:50 hora de Madrid", "el lun 23 nov a las 20:00 hora de Madrid"), and the sentences
// that hold it are written so that it follows "hasta" or "desde".
func bookingMoment(ctx context.Context, b booking.Booking, t, now time.Time) string {
	lt := BookingLocal(b, t)
	d := map[string]any{"Clock": lang.Clock(lt), "Zone": bookingZoneLabel(ctx, b)}
	if sameDate(lt, BookingLocal(b, b.Start)) {
		return lang.T(ctx, "bookings.momentTime", d)
	}
	d["Day"] = lang.Day(ctx, lt, now)
	return lang.T(ctx, "bookings.momentDayTime", d)
}

// BookingStatusWord is a booking status in words.
func BookingStatusWord(ctx context.Context, s booking.Status) string {
	switch s {
	case booking.StatusWaitingApproval:
		return lang.T(ctx, "bookings.statusWaitingApproval")
	case booking.StatusPending:
		return lang.T(ctx, "bookings.statusPending")
	case booking.StatusActive:
		return lang.T(ctx, "bookings.statusActive")
	case booking.StatusFinished:
		return lang.T(ctx, "bookings.statusFinished")
	case booking.StatusExpired:
		return lang.T(ctx, "bookings.statusExpired")
	case booking.StatusCancelled:
		return lang.T(ctx, "bookings.statusCancelled")
	case booking.StatusRejected:
		return lang.T(ctx, "bookings.statusRejected")
	}
	return string(s)
}

// actions is what the viewer can do to the booking now.
func (c BookingCard) actions() booking.BookingActions { return actionsOf(c.Booking, c.Viewer, c.Now) }

// actionsOf is what viewer can do to b at now: nothing when they are only invited.
func actionsOf(b booking.Booking, viewer booking.User, now time.Time) booking.BookingActions {
	if !b.ActableBy(viewer) {
		return booking.BookingActions{}
	}
	return b.ActionsAt(now)
}

// servicesLink tells whether the card links to the booking's services form.
func (c BookingCard) servicesLink() bool {
	return !c.Detail && offersServices(c.Booking) && c.actions().Services
}

// hasActions tells whether the card offers anything to do.
func (c BookingCard) hasActions() bool {
	a := c.actions()
	return a.CheckIn || a.Release || a.Change || a.Cancel || c.servicesLink() || a.CancelLockedBy != nil
}

// invited tells whether the viewer only attends the booking someone else organized.
func (c BookingCard) invited() bool { return !c.Booking.ActableBy(c.Viewer) }

func (c BookingCard) id() string { return "booking-" + c.Booking.ID.String() }

// path is the booking's page, followed by the action when given.
func (c BookingCard) path(action string) string {
	p := "/bookings/" + c.Booking.ID.String()
	if action != "" {
		p += "/" + action
	}
	return p
}

// checkInNote says when check-in opens or closes, when that is what the person needs to know.
func (c BookingCard) checkInNote(ctx context.Context) string {
	b, a := c.Booking, c.actions()
	switch {
	case a.CheckIn:
		return lang.T(ctx, "bookings.checkInOpenUntil", map[string]any{"Moment": bookingMoment(ctx, b, b.CheckIn.End, c.Now)})
	case a.CheckInLater:
		opens := BookingLocal(b, b.CheckIn.Start)
		d := map[string]any{"Clock": lang.Clock(opens), "Zone": bookingZoneLabel(ctx, b)}
		if sameDate(opens, BookingLocal(b, c.Now)) {
			return lang.T(ctx, "bookings.checkInOpensAt", d)
		}
		d["Day"] = lang.Day(ctx, opens, c.Now)
		return lang.T(ctx, "bookings.checkInOpensOn", d)
	case a.CheckInClosed:
		return lang.T(ctx, "bookings.checkInClosed", map[string]any{"Moment": bookingMoment(ctx, b, b.CheckIn.End, c.Now)})
	case b.Status == booking.StatusWaitingApproval:
		return lang.T(ctx, "bookings.checkInAfterApproval")
	case b.Status == booking.StatusActive && b.CheckedInAt != nil:
		return lang.T(ctx, "bookings.checkedInAt", map[string]any{"Moment": bookingMoment(ctx, b, *b.CheckedInAt, c.Now)})
	}
	return ""
}

// cancelLockedNote explains that a contracted service's deadline has passed, and so the booking can no
// longer be cancelled (or, when checked in early, released before it starts). It is "" when no service
// stands in the way.
func (c BookingCard) cancelLockedNote(ctx context.Context) string {
	rv := c.actions().CancelLockedBy
	if rv == nil {
		return ""
	}
	d := map[string]any{"Service": rv.Name, "Moment": bookingMoment(ctx, c.Booking, booking.ReservableDeadline(c.Booking, *rv), c.Now)}
	if c.Booking.Status == booking.StatusActive {
		return lang.T(ctx, "bookings.releaseLocked", d)
	}
	return lang.T(ctx, "bookings.cancelLocked", d)
}

// changeForm is what the change-time form shows.
func (c BookingCard) changeForm() ChangeForm {
	if c.Change != nil {
		return *c.Change
	}
	s, e := BookingLocal(c.Booking, c.Booking.Start), BookingLocal(c.Booking, c.Booking.End)
	return ChangeForm{Date: s.Format("2006-01-02"), From: lang.Clock(s), To: lang.Clock(e)}
}

// servicesSummary lists the contracted services in a line: "Coffee × 3, AV setup".
func servicesSummary(brs []booking.BookingReservable) string {
	s := ""
	for i, br := range brs {
		if i > 0 {
			s += ", "
		}
		s += br.Reservable.Name
		if br.Quantity != 1 {
			s += fmt.Sprintf(" × %d", br.Quantity)
		}
	}
	return s
}

// offersServices tells whether the booking is one services are ordered for: a meeting room's.
func offersServices(b booking.Booking) bool { return b.ResourceType == booking.CategorySpace }

// HasServicesSection tells whether the booking's page has a services section: a meeting room's, or any
// booking with services contracted on it.
func HasServicesSection(b booking.Booking) bool { return offersServices(b) || len(b.Reservables) > 0 }

// contracted is the contract of the reservable on the booking, if any.
func (f ServicesForm) contracted(id string) (booking.BookingReservable, bool) {
	for _, br := range f.Booking.Reservables {
		if br.Reservable.ID.String() == id {
			return br, true
		}
	}
	return booking.BookingReservable{}, false
}

// changeable tells whether the viewer can order services on the booking at all now.
func (f ServicesForm) changeable() bool { return actionsOf(f.Booking, f.Viewer, f.Now).Services }

// showsForm tells whether the section shows the form, as ServicesSection decides.
func (f ServicesForm) showsForm() bool {
	return f.Active && len(f.Offered) > 0 && f.Booking.ActableBy(f.Viewer) && f.changeable()
}

// open tells whether the reservable can still be ordered, changed or cancelled on the booking.
func (f ServicesForm) open(rv booking.Reservable) bool {
	return f.changeable() && !f.Now.After(booking.ReservableDeadline(f.Booking, rv))
}

// typed is what was sent for the reservable, when the form is shown again after a refusal.
func (f ServicesForm) typed(rv booking.Reservable) (TypedService, bool) {
	if f.Typed == nil || !f.open(rv) {
		return TypedService{}, false
	}
	return f.Typed[rv.ID.String()], true
}

// ordered tells whether the reservable's box is ticked.
func (f ServicesForm) ordered(rv booking.Reservable) bool {
	if t, ok := f.typed(rv); ok {
		return t.Ordered
	}
	_, ok := f.contracted(rv.ID.String())
	return ok
}

// anyOpen tells whether the form can change anything.
func (f ServicesForm) anyOpen() bool {
	for _, rv := range f.Offered {
		if f.open(rv) {
			return true
		}
	}
	return false
}

// deadlineNote says until when the reservable can be ordered, changed or cancelled on the booking, and
// whether that time has passed.
func (f ServicesForm) deadlineNote(ctx context.Context, rv booking.Reservable) string {
	d := map[string]any{"Moment": bookingMoment(ctx, f.Booking, booking.ReservableDeadline(f.Booking, rv), f.Now)}
	if f.open(rv) || !f.changeable() {
		return lang.T(ctx, "bookings.serviceOpenUntil", d)
	}
	return lang.T(ctx, "bookings.serviceWasOpenUntil", d)
}

// fixedNote says that the reservable's deadline has passed: "Fixed: changes closed 2 hours before the
// start (08:00 Madrid time).", or for one not ordered "Not ordered: orders closed …".
func (f ServicesForm) fixedNote(ctx context.Context, rv booking.Reservable) string {
	d := map[string]any{
		"Length": lengthWords(ctx, rv.MinimumCancellation),
		"Moment": bookingMoment(ctx, f.Booking, booking.ReservableDeadline(f.Booking, rv), f.Now),
	}
	if _, ok := f.contracted(rv.ID.String()); ok {
		return lang.T(ctx, "bookings.serviceFixed", d)
	}
	return lang.T(ctx, "bookings.serviceNotOrdered", d)
}

// orderedWords says what is contracted, as a sentence: "Ordered: 3, delivered at 10:30 Madrid time, “oat
// milk”."
func orderedWords(ctx context.Context, b booking.Booking, br booking.BookingReservable) string {
	d := map[string]any{
		"Quantity": strconv.Itoa(int(br.Quantity)), "Clock": lang.Clock(BookingLocal(b, b.Start.Add(br.DeliveryTime))),
		"Zone": bookingZoneLabel(ctx, b), "Comment": br.Comment,
	}
	if br.Comment != "" {
		return lang.T(ctx, "bookings.orderedWithComment", d)
	}
	return lang.T(ctx, "bookings.ordered", d)
}

// lengthWords says a length of time in words: "24 hours", "1 hour", "90 minutes".
func lengthWords(ctx context.Context, d time.Duration) string {
	if d >= time.Hour && d%time.Hour == 0 {
		return lang.N(ctx, "bookings.hours", int(d/time.Hour))
	}
	return lang.N(ctx, "bookings.minutes", int(d/time.Minute))
}

// deliveryAt returns the local time of day the reservable is delivered: as typed into the form, else as
// contracted, else the reservable's standard delivery time.
func (f ServicesForm) deliveryAt(rv booking.Reservable) string {
	if t, ok := f.typed(rv); ok && t.Delivery != "" {
		return t.Delivery
	}
	d := rv.StandardDeliveryTime
	if br, ok := f.contracted(rv.ID.String()); ok {
		d = br.DeliveryTime
	}
	return lang.Clock(BookingLocal(f.Booking, f.Booking.Start.Add(d)))
}

// quantity is the contracted quantity, or 1.
func (f ServicesForm) quantity(rv booking.Reservable) string {
	if t, ok := f.typed(rv); ok && t.Quantity != "" {
		return t.Quantity
	}
	if br, ok := f.contracted(rv.ID.String()); ok {
		return strconv.Itoa(int(br.Quantity))
	}
	return "1"
}

func (f ServicesForm) comment(rv booking.Reservable) string {
	if t, ok := f.typed(rv); ok {
		return t.Comment
	}
	br, _ := f.contracted(rv.ID.String())
	return br.Comment
}

// sameDay tells whether the booking starts and ends on one local day, so that a time of day names one
// moment of it.
func (f ServicesForm) sameDay() bool {
	return sameDate(BookingLocal(f.Booking, f.Booking.Start), BookingLocal(f.Booking, f.Booking.End.Add(-time.Nanosecond)))
}

func (f ServicesForm) startClock() string {
	return lang.Clock(BookingLocal(f.Booking, f.Booking.Start))
}
func (f ServicesForm) endClock() string { return lang.Clock(BookingLocal(f.Booking, f.Booking.End)) }

// fieldID names a field of a reservable in the services form.
func fieldID(name string, rv booking.Reservable) string { return name + "-" + rv.ID.String() }

func (r ApprovalRow) id() string { return "approval-" + r.Booking.ID.String() }

// ApprovalOutcome is the outcome of a decision on a booking, in words.
func ApprovalOutcome(ctx context.Context, b booking.Booking) string {
	switch b.Status {
	case booking.StatusPending:
		return lang.T(ctx, "approvals.approved")
	case booking.StatusRejected:
		return lang.T(ctx, "approvals.rejected")
	}
	return BookingStatusWord(ctx, b.Status)
}

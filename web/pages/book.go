package pages

import (
	"context"
	"errors"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The booking form of "Find a space": POST /bookings books every chosen resource on every chosen day.

// CreateBookings is POST /bookings. It books every chosen resource on every chosen day for the
// signed-in person, all or none, and sends them to My bookings. A refusal shows the form again, as it was
// sent, with which space on which day failed and why, and the status of the error's code (400 for input
// the form cannot use).
func (s *Handlers) CreateBookings(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("find.formUnreadable", map[string]any{"Error": err})
	}
	var f bookingForm
	var made []booking.Booking
	err = s.readBookingForm(c, form, &f)
	f.view.Repeat = readRepeat(form)
	if err == nil {
		err = s.readFormServices(c, form, &f)
	}
	repeat := false
	if err == nil {
		repeat, err = repeatAsked(kit.Ctx(c), form, f.view.Repeat)
	}
	switch {
	case err == nil && repeat:
		err = s.createSeriesFromForm(c, f)
		if err == nil {
			return nil
		}
	case err == nil:
		made, err = s.createFromForm(c, f)
	}
	var refusal *kit.FormRefusal
	if errors.As(err, &refusal) {
		return s.renderBookingRefusal(c, f.view, refusal)
	}
	if err != nil {
		return err
	}
	s.putJustBooked(c, made)
	next := "/bookings?booked=" + strconv.Itoa(len(made))
	if kit.IsHTMX(c) {
		c.Response().Header().Set("HX-Redirect", next)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// bookingForm is the booking form as read from the request.
type bookingForm struct {
	view      views.BookingForm // the form as it is shown again after a refusal
	resources []uuid.UUID       // the chosen resources, in the order sent, without repeats
	attendees []uuid.UUID       // the colleagues invited
	guests    []string          // the guests' e-mail addresses
	from, to  time.Duration     // the hours of every day from local midnight; unused when all day
	category  booking.Category  // the category every chosen resource belongs to
	services  []tickedService   // the services ticked, ordered on every booking of a room that offers them
}

// readBookingForm reads the posted form into f and looks up the chosen resources and colleagues. What the
// form cannot use is returned as a *kit.FormRefusal, in the request's language; f.view then holds what
// had been read until then.
func (s *Handlers) readBookingForm(c echo.Context, form url.Values, f *bookingForm) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	f.view = views.BookingForm{
		From: strings.TrimSpace(form.Get("from")), To: strings.TrimSpace(form.Get("to")), Subject: form.Get("subject"),
		Guests: form.Get("guests"), AllDay: form.Get("allday") != "", Online: form.Get("online") != "",
		OnlineOffered: s.bookings.OnlineMeetings(),
	}
	if p, err := strconv.Atoi(form.Get("people")); err == nil && p > 0 && p <= booking.MaxOrderQuantity {
		f.view.People = strconv.Itoa(p)
	}
	var err error
	if f.resources, err = readResourceIDs(ctx, form["resource"]); err != nil {
		return err
	}
	days, bad := readDates(form["date"])
	if bad != "" {
		return refuse(lang.T(ctx, "find.bookNotADate", map[string]any{"Value": strconv.Quote(bad)}))
	}
	f.view.Days = days
	// Each space on each day is a booking: they are counted before anything is looked up.
	if n := len(f.resources) * len(days); n > booking.MaxBookingsPerRequest {
		return refuse(lang.T(ctx, "find.bookTooMany", map[string]any{
			"Spaces": len(f.resources), "Days": len(days), "Count": n, "Max": booking.MaxBookingsPerRequest,
		}))
	}
	if f.view.Resources, err = s.bookings.ResourcesByIDs(ctx, actor, f.resources); err != nil {
		return err
	}
	if len(f.view.Resources) > 0 {
		f.view.Timezone = f.view.Resources[0].Floor.Building.Timezone
	}
	// The people invited are counted once, before any of them is looked up.
	if n := len(form["attendee"]) + len(guestFields(f.view.Guests)); n > booking.MaxAttendees {
		return refuse(lang.T(ctx, "find.bookTooManyInvited", map[string]any{"Count": n, "Max": booking.MaxAttendees}))
	}
	if f.attendees, err = readAttendeeIDs(ctx, form["attendee"]); err != nil {
		return err
	}
	if f.view.Attendees, err = s.bookings.PeopleByIDs(ctx, actor, f.attendees); err != nil {
		return err
	}
	return f.check(ctx)
}

// refuse refuses the booking form, saying why in words.
func refuse(text string) error {
	return &kit.FormRefusal{Status: http.StatusBadRequest, Text: text}
}

// readResourceIDs reads the chosen resources' ids, dropping repeats. It refuses a value that is not an id.
func readResourceIDs(ctx context.Context, vs []string) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	for _, v := range vs {
		id, err := kit.ParseUUID("resource", strings.TrimSpace(v))
		if err != nil {
			return nil, refuse(lang.T(ctx, "find.bookUnknownSpace", map[string]any{"Value": strconv.Quote(v)}))
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// readAttendeeIDs reads the invited colleagues' ids. It refuses a value that is not an id.
func readAttendeeIDs(ctx context.Context, vs []string) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	for _, v := range vs {
		id, err := kit.ParseUUID("attendee", v)
		if err != nil {
			return nil, refuse(lang.T(ctx, "find.bookUnknownColleague", map[string]any{"Value": strconv.Quote(v)}))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// check refuses a form without a resource or a day, with hours that cannot be read or end before they
// start, with a guest that is not an e-mail address, or with desks and rooms together. It sets the hours,
// the guests and the category. Its refusals are in ctx's language.
func (f *bookingForm) check(ctx context.Context) error {
	if len(f.resources) == 0 {
		return refuse(lang.T(ctx, "find.bookChooseSpace"))
	}
	if len(f.view.Days) == 0 {
		return refuse(lang.T(ctx, "find.bookChooseDay"))
	}
	var err error
	if !f.view.AllDay {
		if f.from, err = parseHours("From", f.view.From, false); err != nil {
			return hoursRefusal(ctx, lang.T(ctx, "find.from"), f.view.From)
		}
		if f.to, err = parseHours("To", f.view.To, true); err != nil {
			return hoursRefusal(ctx, lang.T(ctx, "find.to"), f.view.To)
		}
		if f.to <= f.from {
			return refuse(lang.T(ctx, "find.bookEndBeforeStart", map[string]any{"To": f.view.To, "From": f.view.From}))
		}
	}
	var bad string
	if f.guests, bad = parseGuests(f.view.Guests); bad != "" {
		return refuse(lang.T(ctx, "find.bookBadGuest", map[string]any{"Value": strconv.Quote(bad)}))
	}
	var desk, room booking.Resource
	if f.category, desk, room = bookingCategory(f.view.Resources); f.category == "" {
		return refuse(lang.T(ctx, "find.bookMixedKinds", map[string]any{"Desk": desk.Name, "Room": room.Name}))
	}
	return nil
}

// hoursRefusal refuses a time of the form that parseHours could not read, naming its field: "From:
// choose a time (HH:MM).", "From: "9am" is not a time: write it as HH:MM, e.g. 09:30.".
func hoursRefusal(ctx context.Context, field, v string) error {
	if v == "" {
		return refuse(lang.T(ctx, "find.bookNoTime", map[string]any{"Field": field}))
	}
	return refuse(lang.T(ctx, "find.bookNotATime", map[string]any{"Field": field, "Value": strconv.Quote(v)}))
}

// readFormServices reads the services of a checked form into f: the lines the form shows again after a
// refusal, and the services ticked. It refuses what readServices refuses.
func (s *Handlers) readFormServices(c echo.Context, form url.Values, f *bookingForm) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	offers, err := s.offeredServices(ctx, actor, f.view.Resources)
	if err != nil {
		return err
	}
	m := meetingOf(f.view, s.bookings.Now())
	f.view.Services = serviceLines(ctx, offers, f.view.Resources, form, m, peopleCount(form), s.bookings.Now())
	f.view.ServicesRead = true
	f.services, err = readServices(ctx, form, offers, f.view.Services, m, lang.Zone(ctx, f.view.Timezone))
	return err
}

// createFromForm makes the bookings of a checked form, one for each resource on each day, all or none.
// A refusal of the domain is returned as a *kit.FormRefusal that names the space and the day that failed.
func (s *Handlers) createFromForm(c echo.Context, f bookingForm) ([]booking.Booking, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	reqs := make([]booking.NewBooking, 0, len(f.resources)*len(f.view.Days))
	for _, id := range f.resources {
		loc := time.UTC // a resource that was not found is named by the domain's refusal
		if i := slices.IndexFunc(f.view.Resources, func(r booking.Resource) bool { return r.ID == id }); i >= 0 {
			var err error
			if loc, err = booking.Location(f.view.Resources[i].Floor.Building.Timezone); err != nil {
				return nil, err
			}
		}
		for _, day := range f.view.Days {
			nb := f.newBooking(id, day, loc)
			start := nb.Start
			if nb.AllDay {
				// An all-day booking starts when the room's bookable window opens, or now when it is open.
				y, m, d := day.Date()
				start = allDayStart(time.Date(y, m, d, 0, 0, 0, int(ruleStart(f.view.Resources, id)), loc), s.bookings.Now())
			}
			nb.Reservables = ordersFor(f.services, id, start)
			reqs = append(reqs, nb)
		}
	}
	made, err := s.bookings.CreateBookings(ctx, booking.CreateRequest{Creator: actor, Organizer: actor, Category: f.category, Bookings: reqs})
	if de, status := kit.Refusal(err); de != nil {
		return nil, &kit.FormRefusal{Status: status, Text: refusalText(ctx, de, f)}
	}
	return made, err
}

// ruleStart is when the bookable window of the resource id opens, from local midnight.
func ruleStart(rs []booking.Resource, id uuid.UUID) time.Duration {
	if i := slices.IndexFunc(rs, func(r booking.Resource) bool { return r.ID == id }); i >= 0 {
		return rs[i].Rule.StartTime
	}
	return 0
}

// newBooking is the form's booking of the resource on the day, in loc, the resource's time zone.
func (f bookingForm) newBooking(resource uuid.UUID, day time.Time, loc *time.Location) booking.NewBooking {
	y, m, d := day.Date()
	nb := booking.NewBooking{
		ResourceID: resource, Subject: strings.TrimSpace(f.view.Subject), CreateOnlineMeeting: f.view.Online,
		Start: time.Date(y, m, d, 0, 0, 0, int(f.from), loc), End: time.Date(y, m, d, 0, 0, 0, int(f.to), loc),
	}
	if f.view.AllDay {
		// The domain sets an all-day booking's hours from the resource's rule; the start names the day.
		nb.AllDay, nb.Start = true, time.Date(y, m, d, 12, 0, 0, 0, loc)
	}
	for _, a := range f.attendees {
		nb.InternalAttendees = append(nb.InternalAttendees, booking.InternalAttendee{Type: booking.AttendeeRequired, UserID: a})
	}
	for _, g := range f.guests {
		nb.ExternalAttendees = append(nb.ExternalAttendees, booking.ExternalAttendee{Type: booking.AttendeeRequired, Email: g})
	}
	return nb
}

// renderBookingRefusal answers the booking form again with the refusal: for htmx the form alone,
// otherwise the booking page.
func (s *Handlers) renderBookingRefusal(c echo.Context, f views.BookingForm, r *kit.FormRefusal) error {
	f.Error = r.Text
	if kit.IsHTMX(c) {
		return kit.Render(c, r.Status, views.BookingFormView(f))
	}
	ch := s.Chrome(c, lang.T(kit.Ctx(c), "find.book"))
	ch.Path = "/find" // the form posts to /bookings, but it is a step of finding a space
	return kit.Render(c, r.Status, views.BookPage(ch, f, "/find"))
}

// sessionJustBooked is the session key under which the booking form leaves the ids of the bookings it
// just made, for My bookings to mark them once.
const sessionJustBooked = "just_booked"

// putJustBooked stores the ids of the bookings just made in the session, separated by spaces.
func (s *Handlers) putJustBooked(c echo.Context, made []booking.Booking) {
	ids := make([]string, len(made))
	for i, b := range made {
		ids[i] = b.ID.String()
	}
	s.Sessions.Put(c.Request().Context(), sessionJustBooked, strings.Join(ids, " "))
}

// refusalText words a refusal of the form's bookings. When the error names one booking of the request it
// starts with that booking's space and day: "Goya on Tuesday 24 November 2026: Goya is already booked
// during part of that time." The request holds each resource on every day, resource by resource. The
// whole of it is in ctx's language.
func refusalText(ctx context.Context, e *booking.Error, f bookingForm) string {
	days := f.view.Days
	if e.Index == nil || len(days) == 0 || *e.Index < 0 || *e.Index >= len(f.resources)*len(days) {
		return kit.ToSentence(e.In(ctx))
	}
	id, day := f.resources[*e.Index/len(days)], days[*e.Index%len(days)]
	name := lang.T(ctx, "find.bookChosenSpace")
	if i := slices.IndexFunc(f.view.Resources, func(r booking.Resource) bool { return r.ID == id }); i >= 0 {
		name = f.view.Resources[i].Name
	}
	return lang.T(ctx, "find.bookRefusedOn", map[string]any{
		"Name": name, "Day": lang.DayLong(ctx, day), "Refusal": strings.TrimSuffix(orderField.ReplaceAllString(e.In(ctx), ""), "."),
	})
}

// orderField is the field a refusal of a service names, which the form's words leave out:
// "reservables[0].quantity: ".
var orderField = regexp.MustCompile(`^reservables\[\d+\](?:\.\w+)?: `)

// bookingCategory returns the category of the chosen resources. Desks and rooms together have none (""):
// desk and room are then one of each.
func bookingCategory(rs []booking.Resource) (category booking.Category, desk, room booking.Resource) {
	if len(rs) == 0 {
		return booking.CategorySpace, desk, room // the domain names the unknown resource
	}
	first := rs[0]
	for _, r := range rs[1:] {
		if r.Subcategory.Category != first.Subcategory.Category {
			desk, room = first, r
			if desk.Subcategory.Category != booking.CategoryWorkstation {
				desk, room = r, first
			}
			return "", desk, room
		}
	}
	return first.Subcategory.Category, desk, room
}

// parseGuests reads the guests' e-mail addresses, separated by commas, semicolons or new lines. bad is
// the first entry that is not an address; the addresses are nil then.
func parseGuests(v string) (addrs []string, bad string) {
	for _, g := range guestFields(v) {
		addr, err := mail.ParseAddress(g)
		if err != nil {
			return nil, g
		}
		addrs = append(addrs, addr.Address)
	}
	return addrs, ""
}

// guestFields splits the guests field at commas, semicolons and new lines, dropping blank entries.
func guestFields(v string) []string {
	var out []string
	for _, g := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == '\n' || r == '\r' }) {
		if g = strings.TrimSpace(g); g != "" {
			out = append(out, g)
		}
	}
	return out
}

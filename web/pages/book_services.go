package pages

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The services of the booking form: each service the chosen rooms offer, ordered with the bookings, once
// for every day. With several rooms a service is ordered on the booking of each chosen room that offers
// it. The form sends, per ticked "reservable", its quantity-{id}, delivery-{id} (a local time of day
// inside the meeting) and comment-{id}, as the booking page's services form does.

// serviceOffer is a service some of the chosen rooms offer, and which of them do.
type serviceOffer struct {
	rv booking.Reservable
	by []uuid.UUID // the chosen rooms that offer it, in the order chosen
}

// offeredServices returns the services the chosen rooms offer, in the order of the first room's list
// and then the next's. It returns none for desks, or when the organization has no services.
func (s *Handlers) offeredServices(ctx context.Context, actor booking.User, rs []booking.Resource) ([]serviceOffer, error) {
	if len(rs) == 0 || slices.ContainsFunc(rs, func(r booking.Resource) bool { return r.Subcategory.Category != booking.CategorySpace }) {
		return nil, nil
	}
	active, err := s.bookings.AdditionalServicesActive(ctx, actor)
	if err != nil || !active {
		return nil, err
	}
	var out []serviceOffer
	for _, r := range rs {
		rvs, err := s.bookings.ResourceReservables(ctx, actor, r.ID)
		if booking.ErrorCode(err) == booking.CodeResourceNotFound {
			continue // named by the booking's refusal
		}
		if err != nil {
			return nil, err
		}
		for _, rv := range rvs {
			i := slices.IndexFunc(out, func(o serviceOffer) bool { return o.rv.ID == rv.ID })
			if i < 0 {
				out, i = append(out, serviceOffer{rv: rv}), len(out)
			}
			out[i].by = append(out[i].by, r.ID)
		}
	}
	return out, nil
}

// meeting is the hours of every booked day, as offsets from local midnight in the rooms' zone, and the
// first day's start, for the services' deadlines.
type meeting struct {
	from, to time.Duration
	ok       bool      // the hours could be read
	first    time.Time // the first day's start; zero without days
}

// meetingOf reads the form's meeting: its hours, or for an all-day booking the first room's bookable
// window. An all-day booking of today starts now, as the domain makes it, so on such a day the meeting
// starts at the current minute.
func meetingOf(f views.BookingForm, now time.Time) meeting {
	var m meeting
	switch {
	case f.AllDay && len(f.Resources) > 0:
		rule := f.Resources[0].Rule
		m.from, m.to, m.ok = rule.StartTime, rule.EndTime, true
	default:
		from, err1 := parseHours("From", strings.TrimSpace(f.From), false)
		to, err2 := parseHours("To", strings.TrimSpace(f.To), true)
		m.from, m.to, m.ok = from, to, err1 == nil && err2 == nil && to > from
	}
	if m.ok && len(f.Days) > 0 && len(f.Resources) > 0 {
		loc, err := booking.Location(f.Resources[0].Floor.Building.Timezone)
		if err == nil {
			y, mo, d := f.Days[0].Date()
			m.first = time.Date(y, mo, d, 0, 0, 0, int(m.from), loc)
			if f.AllDay {
				if start := allDayStart(m.first, now); start.After(m.first) && start.Before(time.Date(y, mo, d, 0, 0, 0, int(m.to), loc)) {
					m.from += start.Sub(m.first)
					m.first = start
				}
			}
		}
	}
	return m
}

// allDayStart is when an all-day booking whose window opens at opens starts: then, or the current
// minute when the window is already open.
func allDayStart(opens, now time.Time) time.Time {
	if start := now.Truncate(time.Minute); start.After(opens) {
		return start
	}
	return opens
}

// peopleCount is how many people the meeting is for: the search's number of people, or the people
// invited and the organizer, whichever is more.
func peopleCount(form url.Values) int {
	n := 1 + len(form["attendee"]) + len(guestFields(form.Get("guests")))
	if p, err := strconv.Atoi(strings.TrimSpace(form.Get("people"))); err == nil && p > n && p <= booking.MaxOrderQuantity {
		n = p
	}
	return min(n, booking.MaxOrderQuantity)
}

// serviceLines builds the form's services from the offers, keeping what was ticked and typed in form.
// A typed delivery time that no longer lies inside the meeting starts again at the usual time. What the
// lines say is in ctx's language.
func serviceLines(ctx context.Context, offers []serviceOffer, rs []booking.Resource, form url.Values, m meeting, people int, now time.Time) []views.ServiceLine {
	out := make([]views.ServiceLine, 0, len(offers))
	for _, o := range offers {
		rv, key := o.rv, o.rv.ID.String()
		l := views.ServiceLine{Reservable: rv, Quantity: strconv.Itoa(people), Start: views.HoursValue(m.from), End: views.HoursValue(m.to)}
		if !rv.ChooseQuantity {
			l.Quantity = "1"
		}
		if len(o.by) < len(rs) {
			var names []string
			for _, r := range rs {
				if slices.Contains(o.by, r.ID) {
					names = append(names, r.Name)
				}
			}
			l.Only = strings.Join(names, ", ")
		}
		if m.ok {
			usual := m.from + rv.StandardDeliveryTime
			l.Delivery = views.HoursValue(usual)
			if usual > m.to {
				l.Delivery = views.HoursValue(m.from)
				l.Moved = lang.T(ctx, "find.serviceMoved", map[string]any{
					"Name": rv.Name, "Start": views.HoursValue(m.from), "Usual": views.HoursValue(usual),
				})
			}
		}
		if !m.first.IsZero() && now.After(m.first.Add(-rv.MinimumCancellation)) {
			l.TooLate = tooLateWords(ctx, rv, lang.Day(ctx, m.first, now))
			out = append(out, l)
			continue
		}
		l.Ticked = slices.Contains(form["reservable"], key)
		if l.Ticked {
			if q := strings.TrimSpace(form.Get("quantity-" + key)); q != "" && rv.ChooseQuantity {
				l.Quantity = q
			}
			if d := strings.TrimSpace(form.Get("delivery-" + key)); d != "" && rv.ChooseDeliveryTime {
				if at, err := parseHours("delivery", d, false); err != nil || !m.ok || (at >= m.from && at <= m.to) {
					l.Delivery = d
				}
			}
		}
		l.Comment = form.Get("comment-" + key)
		out = append(out, l)
	}
	return out
}

// tooLateWords says that a service is too late to order for day, the notice it needs in whole hours when
// it is some, else in minutes: "Coffee needs 24 hours' notice: too late for Mon 30 Nov.", "Coffee needs 1
// hour's notice: …", "Coffee needs 30 minutes' notice: …".
func tooLateWords(ctx context.Context, rv booking.Reservable, day string) string {
	d, data := rv.MinimumCancellation, map[string]any{"Name": rv.Name, "Day": day}
	if d >= time.Hour && d%time.Hour == 0 {
		return lang.N(ctx, "find.serviceTooLateHours", int(d/time.Hour), data)
	}
	return lang.N(ctx, "find.serviceTooLateMinutes", int(d/time.Minute), data)
}

// FindServices is GET /find/services: the services fieldset of the booking form, for the rooms,
// days, hours and people the form holds (sent as the form's fields). The form reads it when it loads and
// when those change.
func (s *Handlers) FindServices(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	form := c.QueryParams()
	f := views.BookingForm{From: strings.TrimSpace(form.Get("from")), To: strings.TrimSpace(form.Get("to")),
		AllDay: form.Get("allday") != "", ServicesRead: true}
	if len(form["resource"]) > booking.MaxBookingsPerRequest {
		return kit.Render(c, http.StatusOK, views.BookingServices(f))
	}
	ids, err := readResourceIDs(ctx, form["resource"])
	if err != nil {
		return kit.Render(c, http.StatusOK, views.BookingServices(f)) // the booking's refusal says it
	}
	f.Days, _ = readDates(form["date"])
	if f.Resources, err = s.bookings.ResourcesByIDs(ctx, actor, ids); err != nil {
		return err
	}
	if len(f.Resources) > 0 {
		f.Timezone = f.Resources[0].Floor.Building.Timezone
	}
	offers, err := s.offeredServices(ctx, actor, f.Resources)
	if err != nil {
		return err
	}
	f.Services = serviceLines(ctx, offers, f.Resources, form, meetingOf(f, s.bookings.Now()), peopleCount(form), s.bookings.Now())
	return kit.Render(c, http.StatusOK, views.BookingServices(f))
}

// readOfferedServices puts into a new booking form the services its rooms offer, so that the page shows
// them without a script, in ctx's language. A form without rooms is left as it is.
func (s *Handlers) readOfferedServices(ctx context.Context, actor booking.User, f *views.BookingForm) error {
	if len(f.Resources) == 0 || f.Resources[0].Subcategory.Category != booking.CategorySpace {
		return nil
	}
	offers, err := s.offeredServices(ctx, actor, f.Resources)
	if err != nil {
		return err
	}
	now, form := s.bookings.Now(), url.Values{"people": {f.People}}
	f.Services = serviceLines(ctx, offers, f.Resources, form, meetingOf(*f, now), peopleCount(form), now)
	f.ServicesRead = true
	return nil
}

// tickedService is a service ticked in the booking form, as read: its delivery is a time of day.
type tickedService struct {
	offer    serviceOffer
	quantity *int32
	delivery *time.Duration // from local midnight; nil for the usual time
	comment  string
}

// readServices reads the ticked services of the booking form, and refuses, in words, what the form
// cannot use: too many, one that is not a service the chosen rooms offer, one too late to order, a
// quantity that is not a whole number from 1 to booking.MaxOrderQuantity, a delivery time that is not a
// time of the meeting, a comment too long. zone names the meeting's time zone in ctx's language.
func readServices(ctx context.Context, form url.Values, offers []serviceOffer, lines []views.ServiceLine, m meeting, zone string) ([]tickedService, error) {
	ticked := form["reservable"]
	if len(ticked) > booking.MaxOrdersPerBooking {
		return nil, refuse(lang.T(ctx, "find.servicesTooMany", map[string]any{"Count": len(ticked), "Max": booking.MaxOrdersPerBooking}))
	}
	var out []tickedService
	for _, v := range ticked {
		id, err := uuid.Parse(strings.TrimSpace(v))
		i := slices.IndexFunc(offers, func(o serviceOffer) bool { return o.rv.ID == id })
		if err != nil || i < 0 {
			return nil, &kit.FormRefusal{Status: http.StatusNotFound, Text: lang.T(ctx, "find.serviceNotOffered")}
		}
		if slices.ContainsFunc(out, func(t tickedService) bool { return t.offer.rv.ID == id }) {
			continue
		}
		o, key := offers[i], id.String()
		if j := slices.IndexFunc(lines, func(l views.ServiceLine) bool { return l.Reservable.ID == id }); j >= 0 && lines[j].TooLate != "" {
			return nil, &kit.FormRefusal{Status: http.StatusConflict, Text: lines[j].TooLate}
		}
		t := tickedService{offer: o, comment: strings.TrimSpace(form.Get("comment-" + key))}
		if o.rv.ChooseQuantity {
			q := strings.TrimSpace(form.Get("quantity-" + key))
			n, err := strconv.Atoi(q)
			if q == "" {
				n, err = 1, nil
			}
			if err != nil || n < 1 || n > booking.MaxOrderQuantity {
				return nil, refuse(lang.T(ctx, "find.serviceQuantity", map[string]any{"Name": o.rv.Name, "Max": booking.MaxOrderQuantity}))
			}
			n32 := int32(n)
			t.quantity = &n32
		}
		if d := strings.TrimSpace(form.Get("delivery-" + key)); d != "" && o.rv.ChooseDeliveryTime {
			at, err := parseHours("delivery", d, false)
			if err != nil {
				return nil, refuse(lang.T(ctx, "find.serviceDeliveryTime", map[string]any{"Name": o.rv.Name}))
			}
			if m.ok && (at < m.from || at > m.to) {
				return nil, refuse(lang.T(ctx, "find.serviceDeliveryBetween", map[string]any{
					"Name": o.rv.Name, "From": views.HoursValue(m.from), "To": views.HoursValue(m.to), "Zone": zone,
				}))
			}
			t.delivery = &at
		}
		if n := utf8.RuneCountInString(t.comment); n > booking.MaxOrderComment {
			return nil, refuse(lang.T(ctx, "find.serviceComment", map[string]any{"Name": o.rv.Name, "Count": n, "Max": booking.MaxOrderComment}))
		}
		out = append(out, t)
	}
	return out, nil
}

// ordersFor are the orders of the ticked services on a booking of the resource that starts at start
// (the day's start in the resource's zone): those the resource offers, with the delivery as an offset
// from the start.
func ordersFor(ticked []tickedService, resource uuid.UUID, start time.Time) []booking.ReservableOrder {
	var out []booking.ReservableOrder
	for _, t := range ticked {
		if !slices.Contains(t.offer.by, resource) {
			continue
		}
		o := booking.ReservableOrder{ReservableID: t.offer.rv.ID, Quantity: t.quantity, Comment: t.comment}
		if t.delivery != nil {
			y, m, d := start.Date()
			at := time.Date(y, m, d, 0, 0, 0, int(*t.delivery), start.Location()).Sub(start)
			o.DeliveryTime = &at
		}
		out = append(out, o)
	}
	return out
}

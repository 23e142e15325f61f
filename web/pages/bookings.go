package pages

import (
	"context"
	"errors"
	"net/http"
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

// My bookings: the signed-in person's bookings, upcoming and past, and one booking in full with its
// services. Every action calls the same domain method as the API; without JavaScript a form posts and is
// redirected back with a notice, with htmx the card (or the services section) is swapped in place, and a
// refusal is shown next to what was refused, in words, with the code's HTTP status.

// upcomingPages bounds how many pages of upcoming bookings My bookings reads to list them soonest first.
const upcomingPages = 5

// upcomingStatuses are the statuses of bookings that still hold their resource, listed on the Upcoming
// tab; pastStatuses are those of bookings that are over, listed on the Past tab.
var (
	upcomingStatuses = slices.DeleteFunc(booking.Statuses(), func(s booking.Status) bool { return !s.Blocking() })
	pastStatuses     = slices.DeleteFunc(booking.Statuses(), booking.Status.Blocking)
)

// MyBookings is GET /bookings?when=upcoming|past[&cursor=][&booked=N]: the person's bookings as
// cards. Upcoming ones are listed soonest first, past ones latest first, a page at a time ("Show more";
// with htmx only the next page's cards are answered); a recurring booking is one item above them.
// booked=N says that the booking form just made N bookings, series=ID that it made that series.
func (s *Handlers) MyBookings(c echo.Context) error {
	ctx, actor, now := c.Request().Context(), kit.Actor(c), s.bookings.Now()
	when := views.WhenUpcoming
	if c.QueryParam("when") == views.WhenPast {
		when = views.WhenPast
	}
	p := views.MyBookings{Chrome: s.Chrome(c, lang.T(kit.Ctx(c), "bookings.title")), When: when}
	var bs []booking.Booking
	if when == views.WhenPast {
		page, err := s.bookings.UserBookings(ctx, actor, booking.BookingFilter{
			Statuses: pastStatuses, Page: booking.Page{Cursor: c.QueryParam("cursor")},
		})
		if err != nil {
			return err
		}
		bs = page.Bookings
		if page.NextCursor != "" {
			p.More = "/bookings?when=past&cursor=" + url.QueryEscape(page.NextCursor)
		}
	} else {
		var err error
		if bs, err = s.upcomingBookings(ctx, actor, now); err != nil {
			return err
		}
		if p.Series, bs, err = s.seriesItems(ctx, actor, bs, now); err != nil {
			return err
		}
	}
	back := "/bookings?when=" + when
	more := kit.IsHTMX(c) && c.QueryParam("cursor") != ""
	for i, b := range bs {
		p.Cards = append(p.Cards, views.BookingCard{
			Booking: b, Viewer: actor, Now: now, From: back, Autofocus: more && i == 0, InUpcoming: when == views.WhenUpcoming,
		})
	}
	if more {
		return kit.Render(c, http.StatusOK, views.MyBookingsMore(p))
	}
	_, p.Notice = s.PopFlash(c)
	if just := strings.Fields(s.Sessions.PopString(ctx, sessionJustBooked)); len(just) > 0 {
		for i := range p.Cards {
			p.Cards[i].JustBooked = slices.Contains(just, p.Cards[i].Booking.ID.String())
		}
	}
	p.SeriesMade, p.SeriesRefused = s.seriesMadeNotice(c)
	if n, err := strconv.Atoi(c.QueryParam("booked")); err == nil && n > 0 && n <= booking.MaxBookingsPerRequest {
		p.Notice = strings.TrimSpace(lang.N(kit.Ctx(c), "bookings.made", n) + " " + p.Notice)
	}
	return kit.Render(c, http.StatusOK, views.MyBookingsPage(p))
}

// upcomingBookings returns the person's bookings that have not ended and still hold their resource,
// soonest first. The listing gives the latest first, so it reads every page; there are only a few,
// because bookings can only be made so far ahead.
func (s *Handlers) upcomingBookings(ctx context.Context, actor booking.User, now time.Time) ([]booking.Booking, error) {
	var out []booking.Booking
	f := booking.BookingFilter{From: &now, Statuses: upcomingStatuses, Page: booking.Page{Limit: booking.MaxPageSize}}
	for range upcomingPages {
		page, err := s.bookings.UserBookings(ctx, actor, f)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Bookings...)
		if page.NextCursor == "" {
			break
		}
		f.Page.Cursor = page.NextCursor
	}
	slices.SortStableFunc(out, func(a, b booking.Booking) int { return a.Start.Compare(b.Start) })
	return out, nil
}

// Booking is GET /bookings/{bookingId}: one booking in full, with its services form. A booking the
// person may not see is not found.
func (s *Handlers) Booking(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	b, err := s.pathBooking(c)
	if err != nil {
		return err
	}
	card := views.BookingCard{Booking: b, Viewer: actor, Now: s.bookings.Now(), Detail: true, From: bookingPath(b.ID)}
	f, err := s.servicesForm(ctx, actor, b)
	if err != nil {
		return err
	}
	return s.renderBookingPage(c, http.StatusOK, card, f)
}

// renderBookingPage renders a booking's page with the status.
func (s *Handlers) renderBookingPage(c echo.Context, status int, card views.BookingCard, f views.ServicesForm) error {
	attendees, err := s.bookings.Attendees(c.Request().Context(), card.Booking)
	if err != nil {
		return err
	}
	_, notice := s.PopFlash(c)
	return kit.Render(c, status, views.BookingDetailPage(views.BookingPage{
		Chrome: s.Chrome(c, card.Booking.Resource.Name), Notice: notice, Card: card,
		Attendees: attendees, Services: f,
	}))
}

// servicesForm builds the services section of the booking page: whether the organization uses
// services, and what the booked resource offers (nothing once the resource is deactivated or hidden).
func (s *Handlers) servicesForm(ctx context.Context, actor booking.User, b booking.Booking) (views.ServicesForm, error) {
	f := views.ServicesForm{Booking: b, Viewer: actor, Now: s.bookings.Now(), From: bookingPath(b.ID)}
	if !views.HasServicesSection(b) {
		return f, nil // not shown: nothing to read
	}
	active, err := s.bookings.AdditionalServicesActive(ctx, actor)
	if err != nil {
		return f, err
	}
	f.Active = active
	if !active {
		return f, nil
	}
	f.Offered, err = s.bookings.ResourceReservables(ctx, actor, b.Resource.ID)
	if booking.ErrorCode(err) == booking.CodeResourceNotFound {
		return f, nil
	}
	return f, err
}

// pageBookingID reads the {bookingId} of a page's path. A path with anything but an id there is a page
// that does not exist (404).
func pageBookingID(c echo.Context) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Param("bookingId"))
	if err != nil {
		return uuid.Nil, echo.ErrNotFound
	}
	return id, nil
}

// pathBooking returns the booking named by the page's path, as the signed-in person sees it. It refuses
// what pageBookingID and booking.Service.Booking refuse.
func (s *Handlers) pathBooking(c echo.Context) (booking.Booking, error) {
	id, err := pageBookingID(c)
	if err != nil {
		return booking.Booking{}, err
	}
	return s.bookings.Booking(c.Request().Context(), kit.Actor(c), id)
}

// bookingPath is a booking's page.
func bookingPath(id uuid.UUID) string { return "/bookings/" + id.String() }

// CheckIn is POST /bookings/{bookingId}/checkin: PENDING → ACTIVE while check-in is open.
func (s *Handlers) CheckIn(c echo.Context) error {
	return s.pageBookingAction(c, func(ctx context.Context, actor booking.User, b booking.Booking) (booking.Booking, string, error) {
		nb, err := s.bookings.CheckIn(ctx, actor, b.ID)
		return nb, lang.T(ctx, "bookings.checkedIn"), err
	})
}

// CheckOut is POST /bookings/{bookingId}/checkout: releases a checked-in booking early.
func (s *Handlers) CheckOut(c echo.Context) error {
	return s.pageBookingAction(c, func(ctx context.Context, actor booking.User, b booking.Booking) (booking.Booking, string, error) {
		nb, err := s.bookings.CheckOut(ctx, actor, b.ID)
		return nb, lang.T(ctx, "bookings.released", map[string]any{"Resource": b.Resource.Name}), err
	})
}

// Cancel is POST /bookings/{bookingId}/cancel: the confirmed cancellation.
func (s *Handlers) Cancel(c echo.Context) error {
	return s.pageBookingAction(c, func(ctx context.Context, actor booking.User, b booking.Booking) (booking.Booking, string, error) {
		nb, err := s.bookings.Cancel(ctx, actor, b.ID)
		return nb, lang.T(ctx, "bookings.cancelled"), err
	})
}

// ChangeBooking is POST /bookings/{bookingId}/change (date, start, end; local times of the building):
// moves the booking to another time of the same resource.
func (s *Handlers) ChangeBooking(c echo.Context) error {
	typed := views.ChangeForm{Date: c.FormValue("date"), From: c.FormValue("start"), To: c.FormValue("end")}
	return s.pageBookingAction(c, func(ctx context.Context, actor booking.User, b booking.Booking) (booking.Booking, string, error) {
		loc, err := booking.Location(b.Resource.Floor.Building.Timezone)
		if err != nil {
			return b, "", err
		}
		start, err1 := time.ParseInLocation("2006-01-02 15:04", typed.Date+" "+typed.From, loc)
		end, err2 := time.ParseInLocation("2006-01-02 15:04", typed.Date+" "+typed.To, loc)
		switch {
		case err1 != nil || err2 != nil:
			return b, "", kit.Refuse("bookings.changeInvalidTimes")
		case !end.After(start):
			return b, "", kit.Refuse("bookings.changeEndBeforeStart")
		}
		nb, err := s.bookings.Change(ctx, actor, b.ID, booking.BookingChange{Start: &start, End: &end})
		if err != nil {
			return nb, "", err
		}
		when := map[string]any{"When": views.BookingWhen(ctx, nb, s.bookings.Now())}
		if nb.Status == booking.StatusWaitingApproval && b.Status != booking.StatusWaitingApproval {
			return nb, lang.T(ctx, "bookings.movedWaitsApproval", when), nil
		}
		return nb, lang.T(ctx, "bookings.moved", when), nil
	}, typed)
}

// bookingAction does what a booking card's form asks to b, the booking as it was before. It returns the
// booking as it is afterwards and a sentence that says what was done, in ctx's language.
type bookingAction func(ctx context.Context, actor booking.User, b booking.Booking) (booking.Booking, string, error)

// pageBookingAction runs act on the booking named by the path and answers a booking card's form.
// Without htmx the browser goes back to the page the form's back field names, which shows what was done.
// With htmx the card is answered; on the booking's own page the services section comes with it. When the
// form's list field says the card is on the Upcoming tab and the action ends the booking, the card
// leaves the list. A refusal is shown on the card, in words, with its code's status; typed, when given,
// is the change-time form as sent, shown again.
func (s *Handlers) pageBookingAction(c echo.Context, act bookingAction, typed ...views.ChangeForm) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	b, err := s.pathBooking(c)
	if err != nil {
		return err
	}
	id := b.ID
	back := c.FormValue("back")
	if back == "" || kit.LocalPath(back) != back {
		back = bookingPath(id)
	}
	card := views.BookingCard{
		Viewer: actor, Detail: back == bookingPath(id), From: back, InUpcoming: c.FormValue("list") == views.WhenUpcoming,
	}
	nb, done, err := act(ctx, actor, b)
	status := http.StatusOK
	if err != nil {
		refusal, code := bookingRefusal(ctx, err)
		if refusal == "" {
			return err
		}
		if nb, err = s.bookings.Booking(ctx, actor, id); err != nil {
			return err
		}
		status, card.Error = code, refusal
		if len(typed) > 0 {
			card.Change = &typed[0]
		}
	} else if !kit.IsHTMX(c) {
		s.PutFlash(c, "", done)
		return c.Redirect(http.StatusSeeOther, back+"#booking-"+id.String())
	} else {
		card.Done = done
	}
	card.Booking, card.Now = nb, s.bookings.Now()
	f, err := s.servicesForm(ctx, actor, nb)
	if err != nil {
		return err
	}
	if kit.IsHTMX(c) {
		if card.Error == "" && card.InUpcoming && !card.Detail && !nb.Status.Blocking() {
			// No longer upcoming: the card leaves the list, saying where it went.
			return kit.Render(c, status, views.BookingLeftUpcoming(card))
		}
		f.OOB = true
		return kit.Render(c, status, views.BookingCardSwap(card, f))
	}
	card.Detail, card.From = true, bookingPath(id)
	return s.renderBookingPage(c, status, card, f)
}

// bookingRefusal returns the words, in ctx's language, and HTTP status of a refusal to show next to the
// form (400 or 409). For any other error, such as a booking not found or a failure, the words are empty:
// the page answers it as a whole.
func bookingRefusal(ctx context.Context, err error) (string, int) {
	de, status := kit.Refusal(err)
	if status != http.StatusBadRequest && status != http.StatusConflict {
		return "", 0
	}
	return kit.ToSentence(de.In(ctx)), status
}

// OrderServices is POST /bookings/{bookingId}/services: replaces the services contracted on the
// booking (4.3: the same as PUT /api/v1/bookings/{id}/reservables/all). The form sends, per reservable
// ticked in "reservable", its quantity-{id}, delivery-{id} (a local time of day) and comment-{id};
// "keep" names contracts past their deadline, which are kept as they are.
func (s *Handlers) OrderServices(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	b, err := s.pathBooking(c)
	if err != nil {
		return err
	}
	id := b.ID
	f, err := s.servicesForm(ctx, actor, b)
	if err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("bookings.formUnreadable", map[string]any{"Error": err})
	}
	loc, err := booking.Location(b.Resource.Floor.Building.Timezone)
	if err != nil {
		return err
	}
	orders, typed, err := serviceOrders(b, loc, f.Offered, form)
	var contracted []booking.BookingReservable
	if err == nil {
		contracted, err = s.bookings.ContractReservables(ctx, actor, id, orders)
	}
	status := http.StatusOK
	if err != nil {
		refusal, code := bookingRefusal(kit.Ctx(c), err)
		if refusal == "" {
			return err
		}
		status, f.Error, f.Typed = code, servicesRefusal(kit.Ctx(c), err, refusal, b, f.Offered, orders), typed
	} else {
		if !kit.IsHTMX(c) {
			s.PutFlash(c, "", lang.T(kit.Ctx(c), "bookings.servicesSaved"))
			return c.Redirect(http.StatusSeeOther, bookingPath(id)+"#services")
		}
		b.Reservables = contracted // the resulting set, as the booking now holds it
		f.Booking, f.Done = b, lang.T(kit.Ctx(c), "bookings.servicesSaved")
	}
	if kit.IsHTMX(c) {
		return kit.Render(c, status, views.ServicesSection(f))
	}
	card := views.BookingCard{Booking: b, Viewer: actor, Now: s.bookings.Now(), Detail: true, From: bookingPath(id)}
	return s.renderBookingPage(c, status, card, f)
}

// serviceOrders reads the services form into orders, and what was typed, by reservable id, to show again.
// Its refusals have message ids (kit.FieldRefuse): they are shown in the page's language.
func serviceOrders(b booking.Booking, loc *time.Location, offered []booking.Reservable, form url.Values) ([]booking.ReservableOrder, map[string]views.TypedService, error) {
	byID := make(map[string]booking.Reservable, len(offered))
	for _, rv := range offered {
		byID[rv.ID.String()] = rv
	}
	typed := make(map[string]views.TypedService, len(offered))
	for _, rv := range offered {
		key := rv.ID.String()
		typed[key] = views.TypedService{
			Ordered: slices.Contains(form["reservable"], key), Quantity: form.Get("quantity-" + key),
			Delivery: form.Get("delivery-" + key), Comment: form.Get("comment-" + key),
		}
	}
	var orders []booking.ReservableOrder
	for _, v := range form["reservable"] {
		rid, err := uuid.Parse(v)
		if err != nil {
			return nil, typed, kit.FieldRefuse("reservable", "bookings.notAService", map[string]any{"Value": strconv.Quote(v)})
		}
		o := booking.ReservableOrder{ReservableID: rid, Comment: strings.TrimSpace(form.Get("comment-" + v))}
		name := v
		if rv, ok := byID[rid.String()]; ok {
			name = rv.Name
		}
		if q := strings.TrimSpace(form.Get("quantity-" + v)); q != "" {
			n, err := strconv.ParseInt(q, 10, 32)
			if err != nil {
				return nil, typed, kit.FieldRefuse(name, "bookings.quantityWhole")
			}
			n32 := int32(n)
			o.Quantity = &n32
		}
		if d := strings.TrimSpace(form.Get("delivery-" + v)); d != "" {
			at, err := deliveryOffset(b, loc, d)
			if err != nil {
				return nil, typed, kit.FieldRefuse(name, "bookings.deliveryTimeOfDay")
			}
			o.DeliveryTime = &at
		}
		orders = append(orders, o)
	}
	// Contracts past their deadline cannot be sent (their fields are disabled): they stay as they are.
	for _, v := range form["keep"] {
		if slices.Contains(form["reservable"], v) {
			continue
		}
		for _, br := range b.Reservables {
			if br.Reservable.ID.String() == v {
				d, q := br.DeliveryTime, br.Quantity
				orders = append(orders, booking.ReservableOrder{ReservableID: br.Reservable.ID, DeliveryTime: &d, Quantity: &q, Comment: br.Comment})
			}
		}
	}
	return orders, typed, nil
}

// deliveryOffset reads a time of day of the booking, in loc (its building's zone), as an offset from its
// start: on the start's day, or, for a booking across midnight, the end's.
func deliveryOffset(b booking.Booking, loc *time.Location, hhmm string) (time.Duration, error) {
	offset, err := parseHours("delivery", hhmm, false)
	if err != nil {
		return 0, err
	}
	at := func(t time.Time) time.Time {
		y, m, d := t.In(loc).Date()
		return time.Date(y, m, d, 0, 0, 0, int(offset), loc)
	}
	t := at(b.Start)
	if t.Before(b.Start) {
		t = at(b.End)
	}
	return t.Sub(b.Start), nil
}

// reservableField finds the reservable a services refusal is about: "reservableBookingList[1].quantity: …".
var reservableField = regexp.MustCompile(`^reservableBookingList\[(\d+)\](?:\.(\w+))?: (.*)$`)

// servicesRefusal words a refusal of the services form by the services' names rather than the API's
// field names, in ctx's language (the domain's words too, where they have a message id: booking.Error.In).
func servicesRefusal(ctx context.Context, err error, words string, b booking.Booking, offered []booking.Reservable, orders []booking.ReservableOrder) string {
	var de *booking.Error
	if !errors.As(err, &de) {
		return words
	}
	m := reservableField.FindStringSubmatch(de.In(ctx))
	if m == nil {
		return words
	}
	i, _ := strconv.Atoi(m[1])
	name := lang.T(ctx, "bookings.thisService")
	if i < len(orders) {
		for _, rv := range offered {
			if rv.ID == orders[i].ReservableID {
				name = rv.Name
			}
		}
	}
	if m[2] == "deliveryTimeMs" {
		return lang.T(ctx, "bookings.deliveryOutside", map[string]any{
			"Service": name, "From": lang.Clock(views.BookingLocal(b, b.Start)), "To": lang.Clock(views.BookingLocal(b, b.End)),
			"Zone": lang.Zone(ctx, b.Resource.Floor.Building.Timezone),
		})
	}
	if strings.HasPrefix(m[3], name) {
		return kit.ToSentence(m[3])
	}
	return name + ": " + strings.TrimSuffix(m[3], ".") + "."
}

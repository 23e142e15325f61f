package pages

import (
	"context"
	"net/http"
	"net/url"
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

// The "Repeat" part of the booking form: a recurring booking of one space, made by the same domain
// method as the API's POST /users/{userId}/series, all or none or the free days.

// readRepeat reads the "Repeat" fields of the form as they were typed, for the form to show them again.
func readRepeat(form url.Values) views.RepeatForm {
	r := views.RepeatForm{
		On: form.Get("repeat") != "", EveryWeeks: strings.TrimSpace(form.Get("repeatEvery")),
		Until: strings.TrimSpace(form.Get("repeatUntil")), Mode: form.Get("repeatMode"),
		Weekdays: []time.Weekday{},
	}
	for _, v := range form["repeatDay"] {
		if d, ok := booking.ParseWeekday(v); ok {
			r.Weekdays = append(r.Weekdays, d)
		}
	}
	return r
}

// repeatAsked reports whether the form asks for a series. An until date without "Repeat this booking"
// ticked is refused rather than read as a booking of one day.
func repeatAsked(ctx context.Context, form url.Values, r views.RepeatForm) (bool, error) {
	if !r.On {
		if r.Until != "" {
			return false, refuse(lang.T(ctx, "find.repeatNotTicked"))
		}
		return false, nil
	}
	for _, v := range form["repeatDay"] {
		if _, ok := booking.ParseWeekday(v); !ok {
			return false, refuse(lang.T(ctx, "find.repeatBadWeekday", map[string]any{"Value": strconv.Quote(v)}))
		}
	}
	return true, nil
}

// seriesRequest turns a checked booking form that asks to repeat into the domain's request. It refuses,
// in words, what a series cannot be: several spaces or days, all day, or invitations and services.
func (f bookingForm) seriesRequest(ctx context.Context, actor booking.User) (booking.SeriesRequest, error) {
	r := f.view.Repeat
	switch {
	case len(f.resources) != 1:
		return booking.SeriesRequest{}, refuse(lang.T(ctx, "find.repeatOneSpace"))
	case len(f.view.Days) != 1:
		return booking.SeriesRequest{}, refuse(lang.T(ctx, "find.repeatOneDay"))
	case f.view.AllDay:
		return booking.SeriesRequest{}, refuse(lang.T(ctx, "find.repeatNoAllDay"))
	case len(f.attendees) > 0 || len(f.guests) > 0 || len(f.services) > 0 || f.view.Online:
		return booking.SeriesRequest{}, refuse(lang.T(ctx, "find.repeatNoExtras"))
	case r.Until == "":
		return booking.SeriesRequest{}, refuse(lang.T(ctx, "find.repeatNoUntil"))
	}
	until, err := booking.ParseDate(r.Until)
	if err != nil {
		return booking.SeriesRequest{}, refuse(lang.T(ctx, "find.repeatBadUntil", map[string]any{"Value": strconv.Quote(r.Until)}))
	}
	every, err := strconv.Atoi(r.EveryWeeks)
	if err != nil {
		every = 0 // the domain refuses it, naming the bounds
	}
	mode := booking.SeriesAll
	if r.Mode == string(booking.SeriesFree) {
		mode = booking.SeriesFree
	}
	return booking.SeriesRequest{
		Creator: actor, Organizer: actor, ResourceID: f.resources[0], Mode: mode, Subject: strings.TrimSpace(f.view.Subject),
		Rule: booking.SeriesRule{
			Weekdays: r.Weekdays, EveryWeeks: every, First: booking.DateOf(f.view.Days[0]), Until: until,
			Start: int(f.from / time.Minute), End: int(f.to / time.Minute),
		},
	}, nil
}

// createSeriesFromForm makes the series a checked booking form asks for and sends the person to My
// bookings, which names the days that were not booked. A refusal is returned as a *kit.FormRefusal.
func (s *Handlers) createSeriesFromForm(c echo.Context, f bookingForm) error {
	ctx := kit.Ctx(c)
	req, err := f.seriesRequest(ctx, kit.Actor(c))
	if err != nil {
		return err
	}
	sr, err := s.bookings.CreateSeries(ctx, req)
	if de, status := kit.Refusal(err); de != nil {
		return &kit.FormRefusal{Status: status, Text: kit.ToSentence(de.In(ctx))}
	}
	if err != nil {
		return err
	}
	next := "/bookings?series=" + sr.ID.String()
	if kit.IsHTMX(c) {
		c.Response().Header().Set("HX-Redirect", next)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, next)
}

// seriesMadeNotice returns what My bookings says after the form made the series ?series= names: how many
// days were booked, and each day that was not with its reason. Nothing when the series is not the
// person's to see.
func (s *Handlers) seriesMadeNotice(c echo.Context) (string, []string) {
	id, err := uuid.Parse(c.QueryParam("series"))
	if err != nil {
		return "", nil
	}
	ctx := kit.Ctx(c)
	sr, err := s.bookings.Series(ctx, kit.Actor(c), id)
	if err != nil {
		return "", nil
	}
	booked, total := 0, len(sr.Occurrences)
	var refused []string
	for _, o := range sr.Occurrences {
		if o.Booking != nil {
			booked++
		}
		if o.Refused != nil && o.Booking == nil {
			refused = append(refused, views.RefusedDay(ctx, sr, o, s.bookings.Now()))
		}
	}
	return lang.N(ctx, "bookings.seriesMade", booked, map[string]any{"Total": total}), refused
}

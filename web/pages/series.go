package pages

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// A recurring booking's pages: one item in My bookings, and a page of its own that lists its days and
// cancels it (whole or from a date) or changes its times from a date, through the same domain methods
// as the API. One day is cancelled on its booking's own page, as any booking.

// seriesItems returns the person's active series as items of My bookings, each with its next day, and
// bs without the occurrences of those series.
func (s *Handlers) seriesItems(ctx context.Context, actor booking.User, bs []booking.Booking, now time.Time) ([]views.SeriesItem, []booking.Booking, error) {
	list, err := s.bookings.UserSeries(ctx, actor)
	if err != nil {
		return nil, nil, err
	}
	var items []views.SeriesItem
	shown := map[uuid.UUID]int{}
	for _, sr := range list {
		if sr.Status != booking.SeriesActive {
			continue
		}
		shown[sr.ID] = len(items)
		items = append(items, views.SeriesItem{Series: sr, Now: now})
	}
	rest := bs[:0:0]
	for i, b := range bs {
		at, ok := -1, false
		if b.SeriesID != nil {
			at, ok = shown[*b.SeriesID]
		}
		switch {
		case !ok:
			rest = append(rest, b)
		case items[at].Next == nil:
			items[at].Next = &bs[i] // bs is soonest first
		}
	}
	return items, rest, nil
}

// pageSeriesID reads the {seriesId} of a page's path: anything but an id is a page that does not exist.
func pageSeriesID(c echo.Context) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Param("seriesId"))
	if err != nil {
		return uuid.Nil, echo.ErrNotFound
	}
	return id, nil
}

// Series is GET /bookings/series/{seriesId}: a recurring booking's days and actions. A series the person
// may not act on, or of another organization, is not found.
func (s *Handlers) Series(c echo.Context) error {
	id, err := pageSeriesID(c)
	if err != nil {
		return err
	}
	sr, err := s.bookings.Series(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	_, notice := s.PopFlash(c)
	return s.renderSeries(c, http.StatusOK, views.SeriesPage{Series: sr, Notice: notice})
}

// renderSeries renders a series' page with the status.
func (s *Handlers) renderSeries(c echo.Context, status int, p views.SeriesPage) error {
	p.Chrome, p.Now = s.Chrome(c, lang.T(kit.Ctx(c), "series.title")), s.bookings.Now()
	p.Chrome.Path = "/bookings"
	return kit.Render(c, status, views.SeriesDetailPage(p))
}

// seriesAction does what a form of a series' page asks and returns the sentence that says it was done.
type seriesAction func(ctx context.Context, actor booking.User, id uuid.UUID) (booking.Series, string, error)

// onSeriesPage runs act on the series of the path. Done, it goes back to the series' page, which says
// so; a refusal shows the page again with the refusal in words, the form as typed, and the status of
// its code.
func (s *Handlers) onSeriesPage(c echo.Context, typed views.SeriesPage, act seriesAction) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	id, err := pageSeriesID(c)
	if err != nil {
		return err
	}
	sr, done, err := act(ctx, actor, id)
	if err != nil {
		refusal, status := bookingRefusal(ctx, err)
		if refusal == "" {
			return err
		}
		if typed.Series, err = s.bookings.Series(ctx, actor, id); err != nil {
			return err
		}
		typed.Error = refusal
		return s.renderSeries(c, status, typed)
	}
	var kept []string
	for _, o := range sr.Occurrences {
		if o.Booking != nil && o.Refused != nil {
			kept = append(kept, views.RefusedDay(ctx, sr, o, s.bookings.Now()))
		}
	}
	if len(kept) > 0 {
		// The days that kept their old times are said on the page itself, not in a flash.
		return s.renderSeries(c, http.StatusOK, views.SeriesPage{Series: sr, Notice: done, Moved: kept})
	}
	s.PutFlash(c, "", done)
	return c.Redirect(http.StatusSeeOther, views.SeriesPath(sr))
}

// CancelSeries is POST /bookings/series/{seriesId}/cancel: whole=1 cancels the series, otherwise its
// days from the date "from" on.
func (s *Handlers) CancelSeries(c echo.Context) error {
	whole, v := c.FormValue("whole") != "", c.FormValue("from")
	return s.onSeriesPage(c, views.SeriesPage{From: v}, func(ctx context.Context, actor booking.User, id uuid.UUID) (booking.Series, string, error) {
		if whole {
			sr, err := s.bookings.CancelSeries(ctx, actor, id, nil)
			return sr, lang.T(ctx, "series.cancelledAll"), err
		}
		from, err := booking.ParseDate(v)
		if err != nil {
			return booking.Series{}, "", kit.Refuse("series.chooseDate")
		}
		sr, err := s.bookings.CancelSeries(ctx, actor, id, &from)
		return sr, lang.T(ctx, "series.cancelledFrom", map[string]any{"Day": lang.DayLong(ctx, localMidnight(from))}), err
	})
}

// ChangeSeriesTimes is POST /bookings/series/{seriesId}/times (from, start, end, mode): new times of day
// from a date on, all or none (ALL) or the days that can move (FREE).
func (s *Handlers) ChangeSeriesTimes(c echo.Context) error {
	typed := views.SeriesPage{From: c.FormValue("from"), Start: c.FormValue("start"), End: c.FormValue("end"), Mode: c.FormValue("mode")}
	return s.onSeriesPage(c, typed, func(ctx context.Context, actor booking.User, id uuid.UUID) (booking.Series, string, error) {
		from, err := booking.ParseDate(typed.From)
		if err != nil {
			return booking.Series{}, "", kit.Refuse("series.chooseDate")
		}
		start, err1 := booking.ParseClock(typed.Start)
		end, err2 := booking.ParseClock(typed.End)
		if err1 != nil || err2 != nil {
			return booking.Series{}, "", kit.Refuse("series.invalidTimes")
		}
		mode := booking.SeriesAll
		if typed.Mode == string(booking.SeriesFree) {
			mode = booking.SeriesFree
		}
		sr, err := s.bookings.ChangeSeries(ctx, actor, id, booking.SeriesChange{From: from, Start: start, End: end, Mode: mode})
		return sr, lang.T(ctx, "series.changed", map[string]any{
			"Day": lang.DayLong(ctx, localMidnight(from)), "Times": booking.ClockOf(start) + "–" + booking.ClockOf(end),
		}), err
	})
}

// localMidnight is the date d as a time for lang's day words, which read only its date.
func localMidnight(d booking.Date) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC)
}

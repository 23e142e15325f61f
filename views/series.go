package views

import (
	"context"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// SeriesItem is a recurring booking as My bookings lists it: one item, with its next day.
type SeriesItem struct {
	Series booking.Series
	Next   *booking.Booking // the next occurrence that holds its space, nil when none is left
	Now    time.Time
}

// SeriesPage is a recurring booking's own page: its rule, every day it names, and what can be done.
type SeriesPage struct {
	Chrome Chrome
	Series booking.Series
	Now    time.Time
	Notice string // what was just done
	Error  string // a refusal, in words
	// Moved lists, after a change of times that moved the free days, the days that kept their times.
	Moved []string
	// From, Start, End and Mode are the change and cancel forms as typed, shown again after a refusal.
	From, Start, End, Mode string
}

// seriesLocation is the zone of the series' building, UTC when it cannot be read.
func seriesLocation(sr booking.Series) *time.Location {
	loc, err := booking.Location(sr.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// SeriesPath is a series' page.
func SeriesPath(sr booking.Series) string { return "/bookings/series/" + sr.ID.String() }

// localDay is the date d at midnight in the series' zone.
func localDay(sr booking.Series, d booking.Date) time.Time {
	return booking.LocalTime(d, 0, seriesLocation(sr))
}

// SeriesRule says a series' days in words: "Every Mon, Wed until Thu 31 Dec", "Every 2 weeks on Tue
// until Tue 30 Mar 2027".
func SeriesRule(ctx context.Context, sr booking.Series, now time.Time) string {
	days := make([]string, len(sr.Rule.Weekdays))
	for i, d := range sr.Rule.Weekdays {
		days[i] = lang.Weekday(ctx, d)
	}
	until := lang.Day(ctx, localDay(sr, sr.Rule.Until), now)
	return lang.N(ctx, "series.rule", sr.Rule.EveryWeeks, map[string]any{"Days": strings.Join(days, ", "), "Until": until})
}

// SeriesTimes says a series' times of day: "09:00–18:00".
func SeriesTimes(sr booking.Series) string {
	return booking.ClockOf(sr.Rule.Start) + "–" + booking.ClockOf(sr.Rule.End)
}

// SeriesLine is the one line of a series in My bookings: "Every Mon, Wed until Thu 31 Dec · 09:00–18:00 ·
// Desk 1".
func SeriesLine(ctx context.Context, sr booking.Series, now time.Time) string {
	return lang.T(ctx, "series.line", map[string]any{"Rule": SeriesRule(ctx, sr, now), "Times": SeriesTimes(sr), "Resource": sr.Resource.Name})
}

// RefusedReason words why a day of a series has no booking, in ctx's language. A reason kept in the
// database (said in English when the day was refused) is worded again from its code.
func RefusedReason(ctx context.Context, e *booking.Error) string {
	if e.MessageID != "" {
		return strings.TrimSuffix(e.In(ctx), ".")
	}
	switch e.Code {
	case booking.CodeResourceNotAvailable:
		return lang.T(ctx, "series.reasonTaken")
	case booking.CodeDateInThePast:
		return lang.T(ctx, "series.reasonPast")
	case booking.CodeDateOutsideResourceHours:
		return lang.T(ctx, "series.reasonHours")
	case booking.CodeDurationExceedsMaximum:
		return lang.T(ctx, "series.reasonTooLong")
	case booking.CodeDateExceedsMaximumAdvance:
		return lang.T(ctx, "series.reasonTooFar")
	case booking.CodeUserAlreadyHasWorkstation:
		return lang.T(ctx, "series.reasonHasDesk")
	case booking.CodeResourceClosed:
		return lang.T(ctx, "series.reasonClosed")
	}
	return lang.T(ctx, "series.reasonOther", map[string]any{"Code": e.Code.String()})
}

// RefusedDay words a day of a series that was not booked: "Wed 2 Dec: someone else has booked it".
func RefusedDay(ctx context.Context, sr booking.Series, o booking.SeriesOccurrence, now time.Time) string {
	return lang.T(ctx, "series.refusedDay", map[string]any{"Day": lang.Day(ctx, localDay(sr, o.Date), now), "Reason": RefusedReason(ctx, o.Refused)})
}

// nextLine says a series' next day: "Next: Wed 25 Nov", or that none is left.
func (i SeriesItem) nextLine(ctx context.Context) string {
	if i.Next == nil {
		return lang.T(ctx, "series.noNext")
	}
	return lang.T(ctx, "series.next", map[string]any{"Day": lang.Day(ctx, BookingLocal(*i.Next, i.Next.Start), i.Now)})
}

// occurrenceDay writes an occurrence's day: "Wed 25 Nov".
func (p SeriesPage) occurrenceDay(ctx context.Context, o booking.SeriesOccurrence) string {
	return lang.Day(ctx, localDay(p.Series, o.Date), p.Now)
}

// occurrenceState says what became of a day of the series.
func (p SeriesPage) occurrenceState(ctx context.Context, o booking.SeriesOccurrence) string {
	switch {
	case o.Skipped:
		return lang.T(ctx, "series.skipped")
	case o.Booking != nil:
		return BookingStatusWord(ctx, o.Booking.Status)
	case o.Refused != nil:
		return lang.T(ctx, "series.notBooked", map[string]any{"Reason": RefusedReason(ctx, o.Refused)})
	}
	return ""
}

// occurrenceTimes writes a booked day's times, "09:00–18:00", in the building's zone.
func (p SeriesPage) occurrenceTimes(o booking.SeriesOccurrence) string {
	if o.Booking == nil {
		return ""
	}
	return lang.Clock(BookingLocal(*o.Booking, o.Booking.Start)) + "–" + lang.Clock(BookingLocal(*o.Booking, o.Booking.End))
}

// active tells whether the series can still be changed or cancelled.
func (p SeriesPage) active() bool { return p.Series.Status == booking.SeriesActive }

// today is the date input's value for "from": today in the building's zone.
func (p SeriesPage) today() string { return DateValue(p.Now.In(seriesLocation(p.Series))) }

// fromValue is the "from" date the forms show: as typed, or today.
func (p SeriesPage) fromValue() string {
	if p.From != "" {
		return p.From
	}
	return p.today()
}

// startValue and endValue are the times the change form shows: as typed, or the series' own.
func (p SeriesPage) startValue() string {
	if p.Start != "" {
		return p.Start
	}
	return booking.ClockOf(p.Series.Rule.Start)
}

func (p SeriesPage) endValue() string {
	if p.End != "" {
		return p.End
	}
	return booking.ClockOf(p.Series.Rule.End)
}

// zone names the series' time zone: "Madrid time".
func (p SeriesPage) zone(ctx context.Context) string { return lang.Zone(ctx, p.Series.Timezone) }

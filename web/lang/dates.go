package lang

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Dates and times are written here and nowhere else, in the words of ctx's language. Each function
// writes t in t's own location: callers pass times already in the building's time zone. Times of day
// are on the 24-hour clock in every language the service speaks.

// Clock writes a time of day: "09:30".
func Clock(t time.Time) string { return t.Format("15:04") }

// Day writes a date as people read it: "Tue 24 Nov" ("mar 24 nov"), with its year when that is not
// now's year in t's location: "Tue 5 Jan 2027".
func Day(ctx context.Context, t, now time.Time) string {
	d := dateData(ctx, t, false)
	if t.Year() != now.In(t.Location()).Year() {
		return T(ctx, "date.dayYear", d)
	}
	return T(ctx, "date.day", d)
}

// DayLong writes a date in full with its year: "Tuesday 24 November 2026" ("martes, 24 de noviembre de
// 2026").
func DayLong(ctx context.Context, t time.Time) string {
	return T(ctx, "date.long", dateData(ctx, t, true))
}

// Weekday names a day of the week in short: "Mon" ("lun").
func Weekday(ctx context.Context, d time.Weekday) string {
	return word(T(ctx, "date.weekdaysShort"), int(d))
}

// Span writes an interval: "Tue 24 Nov, 09:00–10:00" when it lies within one day (or ends at the
// midnight that closes it), with both days otherwise; a day of another year than now's shows its year.
func Span(ctx context.Context, start, end, now time.Time) string {
	endsAtMidnight := end.Sub(start) <= 24*time.Hour && end.Hour() == 0 && end.Minute() == 0
	if sameDate(start, end) || endsAtMidnight {
		return Day(ctx, start, now) + ", " + Clock(start) + "–" + Clock(end)
	}
	return Day(ctx, start, now) + " " + Clock(start) + " – " + Day(ctx, end, now) + " " + Clock(end)
}

// Interval writes an interval as people say it, in start's location: "from 09:00 to 18:00 Madrid time on
// Mon 23 Nov" ("de 09:00 a 18:00 hora de Madrid el lun 23 nov"). An interval that ends at the midnight
// closing its day ends at "24:00"; one that runs into another day names both days. A day of another year
// than now's shows its year.
func Interval(ctx context.Context, start, end, now time.Time) string {
	zone := Zone(ctx, start.Location().String())
	if sameDate(start, end.Add(-time.Nanosecond)) {
		until := Clock(end)
		if !sameDate(start, end) {
			until = "24:00" // the midnight that closes the day
		}
		return T(ctx, "date.interval", map[string]any{
			"Start": Clock(start), "End": until, "Zone": zone, "Day": Day(ctx, start, now)})
	}
	return T(ctx, "date.intervalDays", map[string]any{"StartDay": Day(ctx, start, now), "Start": Clock(start),
		"EndDay": Day(ctx, end, now), "End": Clock(end), "Zone": zone})
}

// Period writes when something closed is closed, in start's location: whole days by their dates ("on Mon
// 23 Dec", "from Mon 23 Dec to Fri 27 Dec"), other times as Interval does.
func Period(ctx context.Context, start, end, now time.Time) string {
	if !atMidnight(start) || !atMidnight(end) {
		return Interval(ctx, start, end, now)
	}
	y, m, d := end.Add(-time.Nanosecond).Date()
	last := time.Date(y, m, d, 0, 0, 0, 0, end.Location())
	if sameDate(start, last) {
		return T(ctx, "date.onDay", map[string]any{"Day": Day(ctx, start, now)})
	}
	return T(ctx, "date.fromDayToDay", map[string]any{"First": Day(ctx, start, now), "Last": Day(ctx, last, now)})
}

// Zone names a time zone by its IANA name's city, as people say it: "Madrid time" ("hora de Madrid")
// for Europe/Madrid; "UTC" stays "UTC".
func Zone(ctx context.Context, tz string) string {
	if tz == "UTC" || tz == "" {
		return "UTC"
	}
	city := strings.ReplaceAll(tz[strings.LastIndex(tz, "/")+1:], "_", " ")
	return T(ctx, "date.zone", map[string]any{"City": city})
}

// Moment writes an instant in the time zone named tz: "09:50 Madrid time" on now's date there,
// "Tue 24 Nov 09:50 Madrid time" on another.
func Moment(ctx context.Context, t time.Time, tz string, now time.Time) string {
	loc, err := time.LoadLocation(tz)
	if err != nil || tz == "" {
		loc, tz = time.UTC, "UTC"
	}
	t, now = t.In(loc), now.In(loc)
	if sameDate(t, now) {
		return Clock(t) + " " + Zone(ctx, tz)
	}
	return Day(ctx, t, now) + " " + Clock(t) + " " + Zone(ctx, tz)
}

// dateData holds t's parts for a date message, the weekday and month named in full or in short.
func dateData(ctx context.Context, t time.Time, long bool) map[string]any {
	weekdays, months := T(ctx, "date.weekdaysShort"), T(ctx, "date.monthsShort")
	if long {
		weekdays, months = T(ctx, "date.weekdays"), T(ctx, "date.months")
	}
	return map[string]any{
		"Weekday": word(weekdays, int(t.Weekday())), "Day": t.Day(),
		"Month": word(months, int(t.Month())-1), "Year": strconv.Itoa(t.Year()),
	}
}

// word returns the i-th of the space-separated words of list.
func word(list string, i int) string {
	words := strings.Fields(list)
	if i < 0 || i >= len(words) {
		return "?"
	}
	return words[i]
}

// atMidnight tells whether t is the start of its day, in its own location.
func atMidnight(t time.Time) bool {
	return t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0
}

// sameDate tells whether two times fall on the same date, each read in its own location.
func sameDate(a, b time.Time) bool {
	y1, m1, d1 := a.Date()
	y2, m2, d2 := b.Date()
	return y1 == y2 && m1 == m2 && d1 == d2
}

// DayOf is a date as a Phrase: Day(ctx, T, Now).
type DayOf struct{ T, Now time.Time }

func (d DayOf) In(ctx context.Context) string { return Day(ctx, d.T, d.Now) }

// DayLongOf is a date in full as a Phrase: DayLong(ctx, T).
type DayLongOf struct{ T time.Time }

func (d DayLongOf) In(ctx context.Context) string { return DayLong(ctx, d.T) }

// SpanOf is an interval as a Phrase: Span(ctx, Start, End, Now).
type SpanOf struct{ Start, End, Now time.Time }

func (s SpanOf) In(ctx context.Context) string { return Span(ctx, s.Start, s.End, s.Now) }

// IntervalOf is an interval as a Phrase: Interval(ctx, Start, End, Now).
type IntervalOf struct{ Start, End, Now time.Time }

func (i IntervalOf) In(ctx context.Context) string { return Interval(ctx, i.Start, i.End, i.Now) }

// PeriodOf is a closure's time as a Phrase: Period(ctx, Start, End, Now).
type PeriodOf struct{ Start, End, Now time.Time }

func (p PeriodOf) In(ctx context.Context) string { return Period(ctx, p.Start, p.End, p.Now) }

// MomentOf is an instant in a time zone as a Phrase: Moment(ctx, T, Zone, Now).
type MomentOf struct {
	T    time.Time
	Zone string
	Now  time.Time
}

func (m MomentOf) In(ctx context.Context) string { return Moment(ctx, m.T, m.Zone, m.Now) }

// ZoneOf is a time zone's name as a Phrase: Zone(ctx, string(z)).
type ZoneOf string

func (z ZoneOf) In(ctx context.Context) string { return Zone(ctx, string(z)) }

package booking

import (
	"fmt"
	"slices"
	"time"
)

// Bounds of a series' rule.
const (
	MaxSeriesEveryWeeks = 4   // a series repeats every 1 to 4 weeks
	MaxSeriesMonths     = 6   // its last day is at most 6 months after its first
	MaxSeriesDays       = 140 // days it names: every weekday for six months (at most 133) fits
)

// Date is a calendar day, without a time of day or a zone.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// DateOf returns the day of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate reads a date written as 2026-12-01. It refuses anything else.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("date %q: want YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// String writes the date as 2026-12-01.
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// noon is d at noon UTC: date arithmetic there never meets a change of offset.
func (d Date) noon() time.Time { return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC) }

// AddDays returns the day n days after d (before it when n is negative).
func (d Date) AddDays(n int) Date { return DateOf(d.noon().AddDate(0, 0, n)) }

// Weekday returns d's day of the week.
func (d Date) Weekday() time.Weekday { return d.noon().Weekday() }

// Before reports whether d is an earlier day than o.
func (d Date) Before(o Date) bool { return d.noon().Before(o.noon()) }

// After reports whether d is a later day than o.
func (d Date) After(o Date) bool { return o.Before(d) }

// daysUntil returns the number of days from d to o.
func (d Date) daysUntil(o Date) int { return int(o.noon().Sub(d.noon()).Hours() / 24) }

// LocalTime returns the instant at which the clocks of loc show minutes after midnight on day d; 1440 is
// the midnight that ends the day. It is built from the local date and time, not by adding hours to
// midnight, so 09:00 stays 09:00 on both sides of a change of offset.
//
// Twice a year a local time does not exist or happens twice. A time that does not exist (02:30 on the
// day clocks go forward from 02:00 to 03:00) is read with the offset in force before the change, so it
// becomes the time as late after the gap: 03:30. A time that happens twice (02:30 on the day clocks go
// back from 03:00 to 02:00) is the first of the two, before the clocks go back. time.Date leaves both
// choices open, so they are made here.
func LocalTime(d Date, minutes int, loc *time.Location) time.Time {
	if minutes >= 24*60 {
		d, minutes = d.AddDays(1), minutes-24*60
	}
	// wall is the local date and time written as if it were UTC; an instant with offset o is wall - o.
	wall := time.Date(d.Year, d.Month, d.Day, minutes/60, minutes%60, 0, 0, time.UTC)
	_, before := wall.Add(-12 * time.Hour).In(loc).Zone()
	_, after := wall.Add(12 * time.Hour).In(loc).Zone()
	var shown []time.Time
	for _, off := range []int{before, after} {
		t := wall.Add(-time.Duration(off) * time.Second).In(loc)
		if sameWall(t, wall) {
			shown = append(shown, t)
		}
	}
	if len(shown) == 0 {
		return wall.Add(-time.Duration(before) * time.Second).In(loc) // in the gap
	}
	return slices.MinFunc(shown, func(a, b time.Time) int { return a.Compare(b) })
}

// sameWall reports whether the clocks of t's location show wall's date and time (wall read as UTC).
func sameWall(t, wall time.Time) bool {
	y, m, d := t.Date()
	return y == wall.Year() && m == wall.Month() && d == wall.Day() && t.Hour() == wall.Hour() && t.Minute() == wall.Minute()
}

// SeriesRule says which days a series books and when: the days of Weekdays in every EveryWeeks-th
// week, counted from the week (Monday to Sunday) of First, from First until Until (both included),
// from Start to End minutes after local midnight in the building's time zone.
type SeriesRule struct {
	Weekdays   []time.Weekday
	EveryWeeks int
	First      Date
	Until      Date
	Start, End int // minutes after local midnight; End may be 1440, the midnight that ends the day
}

// EveryWeekday is the days of "every weekday": Monday to Friday.
var EveryWeekday = []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday}

// Occurrence is one day a series books: its date and its interval in the building's time zone.
type Occurrence struct {
	Date     Date
	Interval Interval
}

// Check refuses a rule that is out of bounds. Codes: 2000 no weekday, a weekday named twice, EveryWeeks
// outside 1–MaxSeriesEveryWeeks, a missing first or last day, a last day before the first or more than
// MaxSeriesMonths after it, a start or end time outside the day or an end not after the start, no day at all, or
// more than MaxSeriesDays days.
func (r SeriesRule) Check() error {
	if len(r.Weekdays) == 0 {
		return FieldRefuse(CodeInvalidRequest, "weekdays", "refusal.series.noWeekday")
	}
	seen := map[time.Weekday]bool{}
	for _, d := range r.Weekdays {
		if d < time.Sunday || d > time.Saturday || seen[d] {
			return FieldRefuse(CodeInvalidRequest, "weekdays", "refusal.series.weekdayTwice")
		}
		seen[d] = true
	}
	if r.EveryWeeks < 1 || r.EveryWeeks > MaxSeriesEveryWeeks {
		return FieldRefuse(CodeInvalidRequest, "everyWeeks", "refusal.series.everyWeeks", map[string]any{"Max": MaxSeriesEveryWeeks})
	}
	if r.First.IsZero() || r.Until.IsZero() {
		return Refuse(CodeInvalidRequest, "refusal.series.datesRequired")
	}
	if r.Until.Before(r.First) {
		return FieldRefuse(CodeInvalidRequest, "untilDate", "refusal.series.untilBeforeFirst")
	}
	if r.Until.After(DateOf(r.First.noon().AddDate(0, MaxSeriesMonths, 0))) {
		return FieldRefuse(CodeInvalidRequest, "untilDate", "refusal.series.tooLong", map[string]any{"Months": MaxSeriesMonths})
	}
	if err := checkTimesOfDay(r.Start, r.End); err != nil {
		return err
	}
	switch n := len(r.days()); {
	case n == 0:
		return Refuse(CodeInvalidRequest, "refusal.series.noDay")
	case n > MaxSeriesDays:
		return Refuse(CodeInvalidRequest, "refusal.series.tooManyDays", map[string]any{"N": n, "Max": MaxSeriesDays})
	}
	return nil
}

// checkTimesOfDay refuses a start or end outside the day, or an end not after the start. Codes: 2000.
func checkTimesOfDay(start, end int) error {
	if start < 0 || start >= 24*60 {
		return FieldRefuse(CodeInvalidRequest, "startTime", "refusal.series.timeOfDay")
	}
	if end <= start || end > 24*60 {
		return FieldRefuse(CodeInvalidRequest, "endTime", "refusal.series.endAfterStart")
	}
	return nil
}

// days returns the dates the rule names, in order. Check calls it only once the last day is known to be
// at most MaxSeriesMonths after the first, so the loop is short.
func (r SeriesRule) days() []Date {
	if r.EveryWeeks < 1 || r.First.IsZero() || r.Until.Before(r.First) {
		return nil
	}
	// Weeks run Monday to Sunday; week 0 is First's.
	monday := r.First.AddDays(-((int(r.First.Weekday()) + 6) % 7))
	var out []Date
	for d := r.First; !d.After(r.Until); d = d.AddDays(1) {
		if slices.Contains(r.Weekdays, d.Weekday()) && (monday.daysUntil(d)/7)%r.EveryWeeks == 0 {
			out = append(out, d)
		}
	}
	return out
}

// Expand returns the occurrences of the rule in loc, in order. Codes: those of Check.
func (r SeriesRule) Expand(loc *time.Location) ([]Occurrence, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	days := r.days()
	out := make([]Occurrence, len(days))
	for i, d := range days {
		out[i] = Occurrence{Date: d, Interval: Interval{Start: LocalTime(d, r.Start, loc), End: LocalTime(d, r.End, loc)}}
	}
	return out, nil
}

// ParseClock reads a time of day written as 09:00, or 24:00 for the midnight that ends the day, and
// returns it in minutes after midnight.
func ParseClock(s string) (int, error) {
	if s == "24:00" {
		return 24 * 60, nil
	}
	t, err := time.Parse("15:04", s)
	if err != nil || len(s) != 5 {
		return 0, fmt.Errorf("time of day %q: want HH:MM", s)
	}
	return t.Hour()*60 + t.Minute(), nil
}

// ClockOf writes minutes after midnight as a time of day: 09:00, or 24:00 for the end of the day.
func ClockOf(minutes int) string { return fmt.Sprintf("%02d:%02d", minutes/60, minutes%60) }

// weekdayNames are the names of the days of the week in the API, Sunday first as time.Weekday counts.
var weekdayNames = []string{"SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY"}

// ParseWeekday reads a day of the week as the API names it: MONDAY ... SUNDAY.
func ParseWeekday(s string) (time.Weekday, bool) {
	i := slices.Index(weekdayNames, s)
	return time.Weekday(i), i >= 0
}

// WeekdayName names a day of the week as the API does: MONDAY.
func WeekdayName(d time.Weekday) string { return weekdayNames[d] }

// weekdayMask packs days of the week into one bit each, Sunday the lowest.
func weekdayMask(days []time.Weekday) int16 {
	var m int16
	for _, d := range days {
		m |= 1 << d
	}
	return m
}

// weekdaysOf unpacks weekdayMask, Monday first.
func weekdaysOf(m int16) []time.Weekday {
	var out []time.Weekday
	for i := range 7 {
		d := time.Weekday((i + 1) % 7)
		if m&(1<<d) != 0 {
			out = append(out, d)
		}
	}
	return out
}

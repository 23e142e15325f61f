package calendar

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-ical"
)

// Repeat makes an event the first of a weekly series (RFC 5545 §3.3.10): the event's own Start and
// End are the first occurrence, and the series repeats on Weekdays every Interval weeks, weeks
// starting on Monday, until the occurrence that starts at Until. Except lists the starts of the
// occurrences the series leaves out (days refused or cancelled on their own): one EXDATE each, in the
// event's zone.
type Repeat struct {
	Weekdays []time.Weekday
	Interval int       // 1 or more
	Until    time.Time // the start of the last occurrence; RRULE's UNTIL, written in UTC
	Except   []time.Time
}

// byDay names the days of the week as RRULE's BYDAY does, Sunday first as time.Weekday counts.
var byDay = []string{"SU", "MO", "TU", "WE", "TH", "FR", "SA"}

// checkRepeat returns why r cannot repeat an event that starts at start, or nil.
func checkRepeat(r *Repeat, start time.Time) error {
	switch {
	case r == nil:
		return nil
	case len(r.Weekdays) == 0:
		return errors.New("a repeat without a day of the week")
	case r.Interval < 1:
		return errors.New("a repeat with an interval under 1")
	case r.Until.Before(start):
		return errors.New("a repeat that ends before it starts")
	}
	for _, d := range r.Weekdays {
		if d < time.Sunday || d > time.Saturday {
			return errors.New("a repeat with an unknown day of the week")
		}
	}
	return nil
}

// rrule writes r as an RRULE value: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;WKST=MO;UNTIL=20261209T080000Z".
// UNTIL is in UTC, as RFC 5545 wants when DTSTART has a TZID.
func rrule(r *Repeat) string {
	days := slices.Clone(r.Weekdays)
	// Monday first, as the week starts.
	slices.SortFunc(days, func(a, b time.Weekday) int { return (int(a)+6)%7 - (int(b)+6)%7 })
	names := make([]string, 0, len(days))
	for _, d := range slices.Compact(days) {
		names = append(names, byDay[d])
	}
	return "FREQ=WEEKLY;INTERVAL=" + strconv.Itoa(r.Interval) + ";BYDAY=" + strings.Join(names, ",") +
		";WKST=MO;UNTIL=" + r.Until.UTC().Format(utcLayout)
}

// addRepeat adds the RRULE and EXDATEs of ev's repeat, if any, to its VEVENT c.
func addRepeat(c *ical.Component, ev Event) {
	if ev.Repeat == nil {
		return
	}
	c.Props.Set(&ical.Prop{Name: ical.PropRecurrenceRule, Params: ical.Params{}, Value: rrule(ev.Repeat)})
	except := slices.Clone(ev.Repeat.Except)
	slices.SortFunc(except, func(a, b time.Time) int { return a.Compare(b) })
	for _, t := range except {
		tmp := ical.Props{}
		setTime(tmp, ical.PropExceptionDates, t, ev.Zone)
		c.Props.Add(tmp.Get(ical.PropExceptionDates))
	}
}

package booking

import (
	"time"
)

// Interval is a half-open time interval [Start, End).
type Interval struct {
	Start, End time.Time
}

// Overlaps reports whether two half-open intervals share a moment. 10:00–11:00 and 11:00–12:00 do not.
func (i Interval) Overlaps(o Interval) bool { return i.Start.Before(o.End) && o.Start.Before(i.End) }

// local returns i's start and end in the time zone named timezone, or in UTC when that zone does not
// load.
func (i Interval) local(timezone string) (start, end time.Time) {
	loc, err := Location(timezone)
	if err != nil {
		loc = time.UTC
	}
	return i.Start.In(loc), i.End.In(loc)
}

// atOffset returns the moment that is offset after midnight on t's local day in loc. The offset is a
// clock time, not elapsed time: 8 h is 08:00 even on a day the clocks change, and 24 h is the next
// midnight.
func atOffset(t time.Time, loc *time.Location, offset time.Duration) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, int(offset), loc)
}

// timeOfDay is the inverse of atOffset: it returns t's clock time as an offset from midnight. Each day
// after midnight's day adds 24 h, so the next midnight is 24 h.
func timeOfDay(t, midnight time.Time) time.Duration {
	t = t.In(midnight.Location())
	y, m, d := t.Date()
	my, mm, md := midnight.Date()
	days := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(time.Date(my, mm, md, 0, 0, 0, 0, time.UTC)) / (24 * time.Hour)
	return days*24*time.Hour + time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute +
		time.Duration(t.Second())*time.Second + time.Duration(t.Nanosecond())
}

// latest returns the latest of the given moments.
func latest(t time.Time, ts ...time.Time) time.Time {
	for _, u := range ts {
		if u.After(t) {
			t = u
		}
	}
	return t
}

// earliest returns the earliest of the given moments.
func earliest(t time.Time, ts ...time.Time) time.Time {
	for _, u := range ts {
		if u.Before(t) {
			t = u
		}
	}
	return t
}

// checkTimes refuses an interval that does not end after it starts, or that lies outside
// [MinTime, MaxTime]. start and end are the field names used in the error message.
// Codes: 2000.
func checkTimes(iv Interval, start, end string) error {
	if !iv.End.After(iv.Start) {
		return FieldRefuse(CodeInvalidRequest, end, "refusal.booking.mustBeAfter", map[string]any{"Start": start})
	}
	if iv.Start.Before(MinTime) || iv.End.After(MaxTime) {
		return Refuse(CodeInvalidRequest, "refusal.booking.bothYears", map[string]any{"Start": start, "End": end})
	}
	return nil
}

// MinTime and MaxTime bound the times a booking may use, because the database cannot store some times
// outside them.
var (
	MinTime = time.UnixMilli(0)
	MaxTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

package views

import (
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

// StateText says how a result fares, after the badge that names its state: until when a free one stays
// free ("until 20:00 Madrid time"), when a busy or own one is taken ("10:00–11:00 Madrid time"), why the
// rule refuses the hours ("then: that time is over"), or why it is closed ("— Closed: Christmas"). With several days it goes day by day where they
// differ: "until 12:00 on Mon 23 Nov and 20:00 on Tue 24 Nov Madrid time", "Tue 24 Nov: busy 10:00–11:00
// Madrid time".
func StateText(r booking.SearchResult, zone string, now time.Time) string {
	if len(r.Days) == 0 {
		return ""
	}
	if r.State == booking.SpotFree {
		first := dayClock(r.Days[0].FreeUntil, dayMidnight(r.Days[0]))
		same := true
		parts := make([]string, len(r.Days))
		for i, d := range r.Days {
			c := dayClock(d.FreeUntil, dayMidnight(d))
			same = same && c == first
			parts[i] = c + " on " + Day(d.Hours.Start, now)
		}
		if same {
			return "until " + first + " " + zone
		}
		return "until " + findJoin(parts) + " " + zone
	}
	if len(r.Days) == 1 {
		return findDayDetail(r.Days[0], zone)
	}
	var parts []string
	for _, d := range r.Days {
		if d.State != booking.SpotFree {
			parts = append(parts, Day(d.Hours.Start, now)+": "+strings.ToLower(spotStateLabel(d.State))+" "+findDayDetail(d, zone))
		}
	}
	return strings.Join(parts, "; ")
}

// findDayDetail says why a day is not free, after the state's name.
func findDayDetail(d booking.SearchDay, zone string) string {
	switch d.State {
	case booking.SpotMine:
		return daySpans(overlappingHours(d.Mine, d.Hours), dayMidnight(d)) + " " + zone
	case booking.SpotBusy:
		return daySpans(overlappingHours(d.Busy, d.Hours), dayMidnight(d)) + " " + zone
	case booking.SpotUnavailable:
		if d.Closed != nil {
			return "— Closed: " + d.Closed.Reason
		}
		return "then: " + d.Refusal
	}
	return ""
}

func findJoin(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// overlappingHours are the intervals that overlap hours.
func overlappingHours(ivs []booking.Interval, hours booking.Interval) []booking.Interval {
	var out []booking.Interval
	for _, iv := range ivs {
		if iv.Overlaps(hours) {
			out = append(out, iv)
		}
	}
	return out
}

// dayClock writes t as a time of day on the local day that starts at midnight; the next midnight is
// written 24:00.
func dayClock(t, midnight time.Time) string {
	if t.After(midnight) && t.Hour() == 0 && t.Minute() == 0 {
		return "24:00"
	}
	return Clock(t)
}

// daySpan is an interval of one day: "10:00–11:00".
func daySpan(iv booking.Interval, midnight time.Time) string {
	return dayClock(iv.Start, midnight) + "–" + dayClock(iv.End, midnight)
}

// daySpans lists intervals of one day: "10:00–11:00, 14:00–15:00".
func daySpans(ivs []booking.Interval, midnight time.Time) string {
	out := make([]string, len(ivs))
	for i, iv := range ivs {
		out[i] = daySpan(iv, midnight)
	}
	return strings.Join(out, ", ")
}

// dayMidnight returns the local midnight at which the search day d starts.
func dayMidnight(d booking.SearchDay) time.Time {
	t := d.Hours.Start
	y, m, dd := t.Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, t.Location())
}

// spotStateLabel names a state in a badge.
func spotStateLabel(s booking.SpotState) string {
	switch s {
	case booking.SpotFree:
		return "Free"
	case booking.SpotBusy:
		return "Busy"
	case booking.SpotMine:
		return "Yours"
	}
	return "Unavailable"
}

// spotMark is the symbol the floor plan draws on a resource, besides its pattern.
func spotMark(s booking.SpotState) string {
	switch s {
	case booking.SpotFree:
		return "✓"
	case booking.SpotBusy:
		return "✕"
	case booking.SpotMine:
		return "★"
	}
	return "⊘"
}

// SpotLabel is what the floor plan says of a resource: "Desk 1.07, free until 18:00 Madrid time".
func SpotLabel(r booking.SearchResult, zone string, now time.Time) string {
	return r.Resource.Name + ", " + strings.ToLower(spotStateLabel(r.State)) + " " + StateText(r, zone, now)
}

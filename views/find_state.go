package views

import (
	"context"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// StateText says how a result fares, after the badge that names its state: until when a free one stays
// free ("until 20:00 Madrid time"), when a busy or own one is taken ("10:00–11:00 Madrid time"), why the
// rule refuses the hours ("then: that time is over"), or why it is closed ("— Closed: Christmas"). With several days it goes day by day where they
// differ: "until 12:00 on Mon 23 Nov and 20:00 on Tue 24 Nov Madrid time", "Tue 24 Nov: busy 10:00–11:00
// Madrid time". zone is the building's time zone as lang.Zone names it.
func StateText(ctx context.Context, r booking.SearchResult, zone string, now time.Time) string {
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
			parts[i] = lang.T(ctx, "find.timeOnDay", map[string]any{"Time": c, "Day": lang.Day(ctx, d.Hours.Start, now)})
		}
		if same {
			return lang.T(ctx, "find.freeUntil", map[string]any{"Time": first, "Zone": zone})
		}
		return lang.T(ctx, "find.freeUntilDays", map[string]any{"Times": findJoin(ctx, parts), "Zone": zone})
	}
	if len(r.Days) == 1 {
		return findDayDetail(ctx, r.Days[0], zone)
	}
	var parts []string
	for _, d := range r.Days {
		if d.State != booking.SpotFree {
			parts = append(parts, lang.Day(ctx, d.Hours.Start, now)+": "+strings.ToLower(spotStateLabel(ctx, d.State, r.Resource))+" "+findDayDetail(ctx, d, zone))
		}
	}
	return strings.Join(parts, "; ")
}

// findDayDetail says why a day is not free, after the state's name.
func findDayDetail(ctx context.Context, d booking.SearchDay, zone string) string {
	switch d.State {
	case booking.SpotMine:
		return daySpans(overlappingHours(d.Mine, d.Hours), dayMidnight(d)) + " " + zone
	case booking.SpotBusy:
		return daySpans(overlappingHours(d.Busy, d.Hours), dayMidnight(d)) + " " + zone
	case booking.SpotUnavailable:
		if d.Closed != nil {
			return lang.T(ctx, "find.closedReason", map[string]any{"Reason": d.Closed.Reason})
		}
		refusal := d.Refusal
		if d.Why != nil {
			refusal = d.Why.In(ctx)
		}
		return lang.T(ctx, "find.refusedThen", map[string]any{"Refusal": refusal})
	}
	return ""
}

// findJoin joins words into a list: "A", "A and B", "A, B and C" ("A, B y C").
func findJoin(ctx context.Context, parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return lang.T(ctx, "find.listAnd", map[string]any{"Items": strings.Join(parts[:len(parts)-1], ", "), "Last": parts[len(parts)-1]})
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
	return lang.Clock(t)
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

// spotStateLabel names a state in a badge, agreeing with the resource where the language asks for it
// (Spanish: "Ocupado" for a desk, "Ocupada" for a room).
func spotStateLabel(ctx context.Context, s booking.SpotState, r booking.Resource) string {
	room := r.Subcategory.Category == booking.CategorySpace
	switch {
	case s == booking.SpotFree:
		return lang.T(ctx, "find.stateFree")
	case s == booking.SpotBusy && room:
		return lang.T(ctx, "find.stateBusyRoom")
	case s == booking.SpotBusy:
		return lang.T(ctx, "find.stateBusy")
	case s == booking.SpotMine && room:
		return lang.T(ctx, "find.stateMineRoom")
	case s == booking.SpotMine:
		return lang.T(ctx, "find.stateMine")
	}
	return lang.T(ctx, "find.stateUnavailable")
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
func SpotLabel(ctx context.Context, r booking.SearchResult, zone string, now time.Time) string {
	return r.Resource.Name + ", " + strings.ToLower(spotStateLabel(ctx, r.State, r.Resource)) + " " + StateText(ctx, r, zone, now)
}

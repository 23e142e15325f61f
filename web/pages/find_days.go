package pages

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// The days of a search come from three places in its address:
//   - start and until: a range of days, the first and the last, both included ("From day", "To day"); a
//     From day alone is that day;
//   - date (repeated): single days, ticked on the week strip, and what links and older addresses carry;
//   - add_date with add: one more day, as the "Add day" button of older pages sent it.
//
// A range that is new replaces the ticked days. The form sends the range it showed back as range_shown,
// so that a range nobody changed does not undo a day unticked on the strip. week (a Monday) is the week
// the strip shows, and go_week the one its ‹ and › buttons ask for.

// findDays is what the address says about the days, before it is checked.
type findDays struct {
	start, until string   // start and until
	shown        string   // range_shown: "START/UNTIL" as the form last showed it
	dates        []string // date (repeated), and add_date when add is set
	week, goWeek string   // week and go_week
}

// readFindDaysQuery reads the days' parameters from the query.
func readFindDaysQuery(q url.Values) findDays {
	d := findDays{
		start: strings.TrimSpace(q.Get("start")), until: strings.TrimSpace(q.Get("until")), shown: q.Get("range_shown"),
		dates: q["date"], week: strings.TrimSpace(q.Get("week")), goWeek: strings.TrimSpace(q.Get("go_week")),
	}
	if q.Get("add") != "" {
		d.dates = append(slices.Clip(d.dates), q.Get("add_date"))
	}
	return d
}

// rangeChanged reports whether the range is one to apply: with a From day, and not the one the form
// showed. A To day alone is not a range: it is what a From day being typed again leaves.
func (d findDays) rangeChanged() bool {
	return d.start != "" && d.start+"/"+d.until != d.shown
}

// weekAsked reports whether the strip was asked to show another week.
func (d findDays) weekAsked() bool { return d.goWeek != "" }

// readFindDays sets the search's days from the query and the week the strip shows, noting the first
// problem in words: a malformed date, a range that ends before it starts, a day in the past, or more
// than booking.MaxSearchDays days, in ctx's language. Days left empty start where the search starts
// (startFindSearch).
func readFindDays(ctx context.Context, in *views.FindSearch, d findDays) {
	in.Today = buildingToday(in.Building, in.Now)
	var bad string
	if d.rangeChanged() {
		in.Days, bad = readRange(ctx, in, d.start, d.until)
	} else if in.Days, bad = readDates(d.dates); bad != "" {
		addProblem(in, lang.T(ctx, "find.problemDay", map[string]any{"Value": bad}))
	}
	if bad != "" {
		in.Days = nil
	}
	in.RangeChanged = d.rangeChanged() && bad == ""
	if in.Problem == "" && len(in.Days) > 0 {
		if in.Days[0].Before(in.Today) {
			addProblem(in, lang.T(ctx, "find.problemPastDay", map[string]any{"Day": lang.Day(ctx, in.Days[0], in.Now)}))
		}
		if n := len(in.Days); n > booking.MaxSearchDays {
			addProblem(in, lang.T(ctx, "find.problemTooManyDays", map[string]any{"Max": booking.MaxSearchDays, "Count": n}))
		}
	}
}

// readRange reads a range of days, both ends included; without a To day it is the From day alone. It notes the
// range's problem and returns bad, the value that failed, when it cannot be read.
func readRange(ctx context.Context, in *views.FindSearch, start, until string) (days []time.Time, bad string) {
	if until == "" {
		until = start
	}
	first, err := time.Parse(time.DateOnly, start)
	if err != nil {
		addProblem(in, lang.T(ctx, "find.problemFromDay", map[string]any{"Value": start}))
		return nil, start
	}
	last, err := time.Parse(time.DateOnly, until)
	if err != nil {
		addProblem(in, lang.T(ctx, "find.problemToDay", map[string]any{"Value": until}))
		return nil, until
	}
	if last.Before(first) {
		addProblem(in, lang.T(ctx, "find.problemRangeBackwards", map[string]any{
			"First": lang.Day(ctx, first, in.Now), "Last": lang.Day(ctx, last, in.Now),
		}))
		return nil, until
	}
	// A range longer than a search may be is refused before its days are written out.
	if n := int(last.Sub(first)/(24*time.Hour)) + 1; n > booking.MaxSearchDays {
		addProblem(in, lang.T(ctx, "find.problemRangeTooLong", map[string]any{
			"Max": booking.MaxSearchDays, "First": lang.Day(ctx, first, in.Now), "Last": lang.Day(ctx, last, in.Now), "Count": n,
		}))
		return nil, until
	}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		days = append(days, d)
	}
	return days, ""
}

// buildingToday is today's date in the building, as a UTC midnight like the dates the address gives.
func buildingToday(b booking.Building, now time.Time) time.Time {
	if loc, err := booking.Location(b.Timezone); err == nil {
		now = now.In(loc)
	}
	y, m, d := now.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// chooseWeek is the Monday of the week the strip shows: the one asked for with go_week or kept with week,
// else the first day's. It is never before this week, nor more than views.MaxWeeksAhead weeks after it.
func chooseWeek(in *views.FindSearch, d findDays) time.Time {
	first := views.Monday(in.Today)
	week := first
	if len(in.Days) > 0 {
		week = views.Monday(in.Days[0])
	}
	for _, v := range []string{d.goWeek, d.week} {
		if w, err := time.Parse(time.DateOnly, v); err == nil && !d.rangeChanged() {
			week = views.Monday(w)
			break
		}
	}
	last := first.AddDate(0, 0, 7*views.MaxWeeksAhead)
	switch {
	case week.Before(first):
		return first
	case week.After(last):
		return last
	}
	return week
}

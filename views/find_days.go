package views

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/lang"
)

// MaxWeeksAhead is how many weeks after this one the week strip goes to.
const MaxWeeksAhead = 53

// Monday is the Monday of the week of d, a date as a UTC midnight.
func Monday(d time.Time) time.Time {
	y, m, day := d.Date()
	d = time.Date(y, m, day, 0, 0, 0, 0, time.UTC)
	return d.AddDate(0, 0, -((int(d.Weekday()) + 6) % 7))
}

// dateOnly is the date of t, as a UTC midnight, so that days from the address and days from the search
// (local midnights) compare alike.
func dateOnly(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// hasDay reports whether the search has the date d.
func (s FindSearch) hasDay(d time.Time) bool {
	return slices.ContainsFunc(s.Days, func(x time.Time) bool { return dateOnly(x).Equal(d) })
}

// dayChip is one day of the week strip.
type dayChip struct {
	Value   string // YYYY-MM-DD
	Weekday string // "Mon"
	Date    string // "30 Nov"
	Long    string // "Monday 30 November 2026"
	Ticked  bool
	Past    bool // before today: it cannot be ticked
}

// weekChips are the seven days of the week the strip shows, Monday first, in ctx's language.
func (s FindSearch) weekChips(ctx context.Context) []dayChip {
	chips := make([]dayChip, 7)
	for i := range chips {
		d := s.Week.AddDate(0, 0, i)
		chips[i] = dayChip{
			Value: DateValue(d), Weekday: lang.Weekday(ctx, d.Weekday()), Date: chipDate(ctx, d), Long: lang.DayLong(ctx, d),
			Ticked: s.hasDay(d), Past: d.Before(s.Today),
		}
	}
	return chips
}

// chipDate is a day's date without its weekday, as a chip of the week strip shows it under the weekday:
// "30 Nov" ("30 nov"). It is lang.Day's date less its first word, the weekday, which every language's
// short date starts with.
func chipDate(ctx context.Context, d time.Time) string {
	_, date, _ := strings.Cut(lang.Day(ctx, d, d), " ")
	return date
}

// alsoChosen are the days of the search outside the week the strip shows.
func (s FindSearch) alsoChosen() []time.Time {
	var out []time.Time
	end := s.Week.AddDate(0, 0, 7)
	for _, d := range s.Days {
		if d := dateOnly(d); d.Before(s.Week) || !d.Before(end) {
			out = append(out, d)
		}
	}
	return out
}

// weekLabel names the week the strip shows: "Week of Mon 30 Nov".
func (s FindSearch) weekLabel(ctx context.Context) string {
	return lang.T(ctx, "find.weekOf", map[string]any{"Day": lang.Day(ctx, s.Week, s.Now)})
}

// prevWeek is the Monday of the week before the strip's, and whether the strip may go there: not before
// this week.
func (s FindSearch) prevWeek() (string, bool) {
	w := s.Week.AddDate(0, 0, -7)
	return DateValue(w), !w.Before(Monday(s.Today))
}

// nextWeek is the Monday of the week after the strip's, and whether the strip may go there: at most
// MaxWeeksAhead weeks after this one.
func (s FindSearch) nextWeek() (string, bool) {
	w := s.Week.AddDate(0, 0, 7)
	return DateValue(w), !w.After(Monday(s.Today).AddDate(0, 0, 7*MaxWeeksAhead))
}

// rangeStart and rangeUntil are the first and the last day of the search, as the range inputs show them.
func (s FindSearch) rangeStart() string {
	if len(s.Days) == 0 {
		return ""
	}
	return DateValue(s.Days[0])
}

func (s FindSearch) rangeUntil() string {
	if len(s.Days) == 0 {
		return ""
	}
	return DateValue(s.Days[len(s.Days)-1])
}

// rangeShown is the range the form shows, sent back so that an unchanged range is not applied again.
func (s FindSearch) rangeShown() string { return s.rangeStart() + "/" + s.rangeUntil() }

// daysSummary names the days in a few words: "Mon 30 Nov"; "3 days, Mon 30 Nov – Wed 2 Dec" for days in a
// row; "3 days: Mon 30 Nov, Wed 2 Dec, Fri 4 Dec" otherwise, with at most three named.
func daysSummary(ctx context.Context, days []time.Time, now time.Time) string {
	switch len(days) {
	case 0:
		return ""
	case 1:
		return lang.Day(ctx, days[0], now)
	}
	first, last := dateOnly(days[0]), dateOnly(days[len(days)-1])
	n := len(days)
	if int(last.Sub(first)/(24*time.Hour))+1 == n {
		return lang.N(ctx, "find.daysInARow", n, map[string]any{"First": lang.Day(ctx, days[0], now), "Last": lang.Day(ctx, days[n-1], now)})
	}
	names := make([]string, 0, 3)
	for _, d := range days[:min(n, 3)] {
		names = append(names, lang.Day(ctx, d, now))
	}
	more := ""
	if n > 3 {
		more = ", …"
	}
	return lang.N(ctx, "find.daysList", n, map[string]any{"Days": strings.Join(names, ", ") + more})
}

// FiltersSummary is the search in one line, as the folded filters show it on a phone: "Madrid HQ ·
// desks · Mon 30 Nov · 08:00–18:00".
func (s FindSearch) FiltersSummary(ctx context.Context) string {
	parts := []string{s.Building.Name, findKindPlural(ctx, s.Kind)}
	if s.Kind == KindRoom && s.Capacity != "" {
		parts = append(parts, lang.T(ctx, "find.summaryPeople", map[string]any{"People": s.Capacity}))
	}
	if n := len(s.FeatureIDs); n > 0 {
		parts = append(parts, lang.N(ctx, "find.summaryFeatures", n))
	}
	parts = append(parts, daysSummary(ctx, s.Days, s.Now), findHoursLabel(s.From)+"–"+findHoursLabel(s.To))
	return strings.Join(parts, " · ")
}

// foldOpen tells whether the filters show unfolded on a phone: when the search has a problem or found
// nothing free, the person has something to change there.
func (r FindResults) foldOpen() bool { return r.Search.Problem != "" || r.Free == 0 }

// pickSummary names the ticked spaces: "3 ticked: Desk 0.02, Desk 0.03, Desk 0.04".
func (r FindResults) pickSummary(ctx context.Context) string {
	names := make([]string, len(r.Booking.Resources))
	for i, res := range r.Booking.Resources {
		names[i] = res.Name
	}
	return lang.N(ctx, "find.pickSummary", len(names), map[string]any{"Names": strings.Join(names, ", ")})
}

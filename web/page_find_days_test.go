package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestFindDays reads the days of a search from a range, from days ticked on the week strip and from the
// older date and add_date parameters; the page names them in the filters' summary and ticks them on the
// strip. Days the search cannot use are refused in words, with the filters open.
func TestFindDays(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := pb.signedIn(t, fx.Alice)

	// ticked lists the days ticked on the strip and beside it.
	ticked := func(p htmlPage) []string {
		return p.doc.Find(`#f-week-strip input[name=date][checked]`).Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("value", "") })
	}

	t.Run("Range", func(t *testing.T) {
		p := b.get(findPath("kind", "desk", "start", "2026-11-30", "until", "2026-12-02", "from", "09:00", "to", "18:00"))
		p.wantStatus(t, http.StatusOK)
		if got, want := squash(p.text("#filters-summary")), "Madrid HQ · desks · 3 days, Mon 30 Nov – Wed 2 Dec · 09:00–18:00"; got != want {
			t.Errorf("summary = %q, want %q", got, want)
		}
		if diff := cmp.Diff([]string{"2026-11-30", "2026-12-01", "2026-12-02"}, ticked(p)); diff != "" {
			t.Errorf("ticked days (-want +got):\n%s", diff)
		}
		p.wantText(t, "#f-week", "Week of Mon 30 Nov")
		if got := p.attr("#f-start", "value") + " " + p.attr("#f-until", "value"); got != "2026-11-30 2026-12-02" {
			t.Errorf("From day and To day = %s, want the range", got)
		}
		p.wantText(t, ".results-head .meta", "3 days: Mon 30 Nov, Tue 1 Dec, Wed 2 Dec")
		if p.count("#filters-fold[open]") != 0 {
			t.Errorf("the filters are open over a search with results")
		}
	})

	t.Run("OneDay", func(t *testing.T) {
		p := b.get(findPath("kind", "room", "date", "2026-11-25", "from", "10:00", "to", "11:00"))
		if got, want := squash(p.text("#filters-summary")), "Madrid HQ · rooms · Wed 25 Nov · 10:00–11:00"; got != want {
			t.Errorf("summary = %q, want %q", got, want)
		}
	})

	t.Run("StripAndAlsoChosen", func(t *testing.T) {
		p := b.get(findPath("date", "2026-11-23", "date", "2026-11-25", "date", "2026-12-01"))
		p.wantText(t, "#filters-summary", "3 days: Mon 23 Nov, Wed 25 Nov, Tue 1 Dec")
		p.wantText(t, "#f-week", "Week of Mon 23 Nov")
		if diff := cmp.Diff([]string{"2026-11-23", "2026-11-25", "2026-12-01"}, ticked(p)); diff != "" {
			t.Errorf("ticked days (-want +got):\n%s", diff)
		}
		p.wantText(t, "#f-week-strip .also-chosen", "Also chosen:", "Tue 1 Dec")
		if got := p.count(`#f-week-strip .week-days input[name=date]`); got != 7 {
			t.Errorf("the strip has %d days, want 7", got)
		}
		if got := p.count(`#f-week-prev[disabled]`); got != 1 {
			t.Errorf("‹ can go before this week")
		}
	})

	t.Run("UnchangedRangeKeepsUnticked", func(t *testing.T) {
		// Wednesday was unticked on the strip; the range the form showed still spans it.
		p := b.get(findPath("start", "2026-11-24", "until", "2026-11-26", "range_shown", "2026-11-24/2026-11-26",
			"date", "2026-11-24", "date", "2026-11-26"))
		p.wantText(t, "#filters-summary", "2 days: Tue 24 Nov, Thu 26 Nov")

		// Friday ticked on the strip: the range inputs are redrawn to end on it.
		ticked := b.hxGet(findPath("start", "2026-11-24", "until", "2026-11-26", "range_shown", "2026-11-24/2026-11-26",
			"date", "2026-11-24", "date", "2026-11-26", "date", "2026-11-27"))
		if got := ticked.attr("#f-range[hx-swap-oob] #f-start", "value") + " " + ticked.attr("#f-range[hx-swap-oob] #f-until", "value"); got != "2026-11-24 2026-11-27" {
			t.Errorf("after a tick the range shows %q, want 2026-11-24 2026-11-27", got)
		}
		if got := ticked.attr("#f-range-shown[hx-swap-oob]", "value"); got != "2026-11-24/2026-11-27" {
			t.Errorf("range_shown = %q, want the new range", got)
		}
		// A To day typed: the search follows it, and the inputs being typed in are left alone.
		typed := b.hxGet(findPath("start", "2026-11-24", "until", "2026-11-25", "range_shown", "2026-11-24/2026-11-27",
			"date", "2026-11-24", "date", "2026-11-26", "date", "2026-11-27"))
		typed.wantText(t, "#filters-summary", "2 days, Tue 24 Nov – Wed 25 Nov")
		if typed.count("#f-range") != 0 {
			t.Errorf("the range inputs are redrawn while a date is typed in them")
		}
		if got := typed.attr("#f-range-shown[hx-swap-oob]", "value"); got != "2026-11-24/2026-11-25" {
			t.Errorf("range_shown = %q, want the range typed", got)
		}
	})

	t.Run("OlderAddresses", func(t *testing.T) {
		p := b.get(findPath("date", "2026-11-24", "add", "day", "add_date", "2026-11-26"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#filters-summary", "2 days: Tue 24 Nov, Thu 26 Nov")
		if p.count(`button[name=add]`) != 0 {
			t.Errorf("the search still has an Add day button")
		}
	})

	t.Run("Weeks", func(t *testing.T) {
		next := b.hxGet(findPath("date", "2026-11-25", "week", "2026-11-23", "go_week", "2026-11-30"))
		next.wantStatus(t, http.StatusOK)
		next.wantText(t, "#f-week-strip[hx-swap-oob] #f-week", "Week of Mon 30 Nov")
		next.wantText(t, "#f-week-strip .also-chosen", "Wed 25 Nov")
		// The strip goes no further than 53 weeks after this one, and never before it.
		far := b.get(findPath("date", "2026-11-25", "go_week", "2028-06-05"))
		far.wantText(t, "#f-week", "Week of Mon 29 Nov 2027")
		if far.count(`#f-week-next[disabled]`) != 1 {
			t.Errorf("› can go past 53 weeks ahead")
		}
		past := b.get(findPath("date", "2026-11-25", "go_week", "2026-10-05"))
		past.wantText(t, "#f-week", "Week of Mon 23 Nov")
	})

	t.Run("TickedSpacesInTheBar", func(t *testing.T) {
		p := b.hxGet(findPath("date", "2026-11-25", "from", "10:00", "to", "11:00", "resource", fx.DeskOne.String(), "resource", fx.DeskTwo.String()))
		p.wantText(t, "#pick-bar[hx-swap-oob]", "2 ticked: Desk 1, Desk 2", "Book")
		if got := p.attr("#pick-bar .pick-book", "href"); got != "#booking" {
			t.Errorf("Book leads to %q, want #booking", got)
		}
		p.wantText(t, "#filters-summary[hx-swap-oob]", "Wed 25 Nov")
		none := b.get(findPath("date", "2026-11-25"))
		if got := strings.TrimSpace(none.text("#pick-bar")); got != "" {
			t.Errorf("the bar says %q while nothing is ticked", got)
		}
	})

	t.Run("PastDaysCannotBeTicked", func(t *testing.T) {
		pb.Clock.Set(fx.At(2, 9, 0)) // Wednesday
		defer pb.Clock.Set(fx.Now)
		p := b.get(findPath("date", "2026-11-26"))
		for _, day := range []string{"2026-11-23", "2026-11-24"} {
			if p.count(`#f-day-`+day+`[disabled]`) != 1 {
				t.Errorf("%s, before today, can be ticked", day)
			}
		}
		if p.count(`#f-day-2026-11-25[disabled]`) != 0 {
			t.Errorf("today cannot be ticked")
		}
	})

	for _, tc := range []struct {
		name, path, want string
	}{
		{"Reversed", findPath("start", "2026-11-26", "until", "2026-11-24"),
			"To day (Tue 24 Nov) is before From day (Thu 26 Nov): choose a To day on or after the From day."},
		{"TooLong", findPath("start", "2026-11-24", "until", "2026-12-31"),
			"Days: at most 31 days at once, and Tue 24 Nov to Thu 31 Dec are 38. Choose fewer days."},
		{"TooMany", findPath() + manyDays(32), "Days: at most 31 days at once, and 32 are chosen. Choose fewer days."},
		{"Past", findPath("date", "2026-11-20"), "Day: Fri 20 Nov is in the past: choose today or a later day."},
		{"PastRange", findPath("start", "2026-11-20", "until", "2026-11-24"), "Day: Fri 20 Nov is in the past: choose today or a later day."},
		{"MalformedStart", findPath("start", "30/11/2026"), "From day: “30/11/2026” is not a date: write it as YYYY-MM-DD, e.g. 2026-11-30."},
		{"MalformedUntil", findPath("start", "2026-11-30", "until", "2 Dec"), "To day: “2 Dec” is not a date: write it as YYYY-MM-DD, e.g. 2026-12-02."},
		{"MalformedDate", findPath("date", "tomorrow"), "Day: “tomorrow” is not a date: write it as YYYY-MM-DD, e.g. 2026-11-24."},
	} {
		t.Run("Refused"+tc.name, func(t *testing.T) {
			p := b.get(tc.path)
			p.wantStatus(t, http.StatusBadRequest)
			p.wantText(t, "#search-problem", tc.want)
			if p.count("#filters-fold[open]") != 1 {
				t.Errorf("the filters are folded over a search that cannot run")
			}
			plan := b.get(strings.Replace(tc.path, "/find?", "/find/plan?", 1))
			plan.wantStatus(t, http.StatusBadRequest)
			plan.wantText(t, "main", tc.want)
		})
	}

	t.Run("Plan", func(t *testing.T) {
		p := b.get("/find/plan?" + strings.TrimPrefix(findPath("start", "2026-11-24", "until", "2026-11-25", "from", "10:00", "to", "11:00"), "/find?"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "#p-week", "Week of Mon 23 Nov")
		for _, day := range []string{"2026-11-24", "2026-11-25"} {
			if p.count(`#p-day-`+day+`[checked]`) != 1 {
				t.Errorf("the plan's strip does not tick %s", day)
			}
		}
		if p.count(`#p-start`) != 1 || p.count(`#p-until`) != 1 || p.count(`button[name=add]`) != 0 {
			t.Errorf("the plan's days are not the range and the strip")
		}
		next := b.hxGet("/find/plan?" + strings.TrimPrefix(findPath("date", "2026-11-24", "go_week", "2026-11-30"), "/find?"))
		next.wantText(t, "#p-week-strip[hx-swap-oob] #p-week", "Week of Mon 30 Nov")
	})
}

package main

import (
	"fmt"
	"time"
)

// setInfo describes one data set of the benchmark, and holds its runs.
type setInfo struct {
	SizeName     string
	Size         size
	Database     string
	SeedTime     time.Duration
	SeededAt     time.Time
	Reused       bool   // seeded by an earlier benchmark, at SeededAt
	DatabaseSize string // as PostgreSQL writes it, measured at the end
	Results      map[string][]result
}

// onDisk is ", 1.2 GB on disk (…)" when the size on disk was measured, else nothing.
func (s *setInfo) onDisk() string {
	if s == nil || s.DatabaseSize == "" {
		return ""
	}
	return "; it takes " + s.DatabaseSize
}

// sets are the data sets the benchmark ran on: the standard one, and the large one if it ran on it.
func (r report) sets() []*setInfo {
	standard := r.Standard
	if standard == nil {
		standard = &setInfo{SizeName: r.SizeName, Size: r.Size, Database: r.Database, Results: r.Results}
	}
	if r.Large == nil {
		return []*setInfo{standard}
	}
	return []*setInfo{standard, r.Large}
}

// rows are the medians of each of the set's scenarios.
func (s *setInfo) rows() map[string]row {
	return report{Results: s.Results}.rows()
}

// largeGrowth is how much slower a scenario's p99 may be on the large data set than on the standard one.
const largeGrowth = 1.5

// largeTargets are the scenarios whose p99 on the large data set must stay within largeGrowth of the
// standard one's. book must also keep its rate: at least 1/largeGrowth of the standard one's.
var largeTargets = []string{"status", "free", "availability", "book"}

// largeVerdicts are the large data set's targets, each measured against the same run's standard medians.
func (r report) largeVerdicts(rows map[string]row) []verdict {
	if r.Large == nil {
		return nil
	}
	large := r.Large.rows()
	var out []verdict
	for _, sc := range largeTargets {
		s, l := rows[sc], large[sc]
		if s.LatencyMS.P99 == 0 || l.LatencyMS.P99 == 0 {
			out = append(out, verdict{fmt.Sprintf("large: %s", sc), "not run", false})
			continue
		}
		g := l.LatencyMS.P99 / s.LatencyMS.P99
		out = append(out, verdict{
			Target:   fmt.Sprintf("large: %s p99 ≤ %.1f × standard", sc, largeGrowth),
			Measured: fmt.Sprintf("%.1f ms against %.1f ms: %.2f ×", l.LatencyMS.P99, s.LatencyMS.P99, g),
			Pass:     g <= largeGrowth,
		})
		if sc == "book" && s.BookingRate > 0 {
			g := l.BookingRate / s.BookingRate
			out = append(out, verdict{
				Target:   fmt.Sprintf("large: book ≥ %.2f × standard bookings/s", 1/largeGrowth),
				Measured: fmt.Sprintf("%.0f bookings/s against %.0f: %.2f ×", l.BookingRate, s.BookingRate, g),
				Pass:     g >= 1/largeGrowth,
			})
		}
	}
	return out
}

// writeLarge writes the large data set's set-up and results beside the standard ones.
func (r report) writeLarge(p printer, rows map[string]row) {
	l := r.Large
	if l == nil {
		return
	}
	sz := l.Size
	p("## At the large scale\n\n")
	p("The same scenarios on a second data set, `%s` (`loadtest seed --size large`): %s organizations, each with\n", l.Database, thousands(sz.Organizations))
	p("%s people, %s resources (%s rooms) on %s floors and %s bookings over %s days (%s ahead): %s people,\n",
		thousands(sz.Users), thousands(sz.resources()), thousands(sz.rooms()), thousands(sz.floors()), thousands(sz.Bookings),
		thousands(sz.Days), thousands(sz.DaysAhead), thousands(sz.Organizations*sz.Users))
	p("%s resources and %s bookings in all. The scenarios load its first organization through a server of\n",
		thousands(sz.Organizations*sz.resources()), thousands(sz.Organizations*sz.Bookings))
	p("its own, each run right after the same run on the standard data set.\n%s\n\n", l.seedText())
	large := l.rows()
	p("| scenario | req/s | bookings/s | p50 ms | p95 ms | p99 ms | max ms | p99 large / standard |\n")
	p("|---|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, sc := range scenarios {
		w, ok := large[sc]
		if !ok || sc == "pages" {
			continue
		}
		growth := "–"
		if s := rows[sc].LatencyMS.P99; s > 0 {
			growth = fmt.Sprintf("%.2f", w.LatencyMS.P99/s)
		}
		p("| %s | %.0f | %s | %.2f | %.2f | %.2f | %.1f | %s |\n", sc, w.Rate, bookingRate(w), w.LatencyMS.P50, w.LatencyMS.P95,
			w.LatencyMS.P99, w.LatencyMS.Max, growth)
	}
	if parts := pageRows(l.Results["pages"]); len(parts) > 0 {
		p("\nThe pages of a floor of its first organization, as in Pages:\n\n")
		pagePartsTable(p, parts)
	}
	p("\n")
}

// seedText says how the large data set was seeded, and its size on disk.
func (s *setInfo) seedText() string {
	text := fmt.Sprintf("It was seeded in %s", s.SeedTime.Round(time.Second))
	if s.Reused {
		text += fmt.Sprintf(", at %s, before this benchmark", s.SeededAt.Format("2006-01-02 15:04 MST"))
	}
	if s.DatabaseSize != "" {
		text += "; it takes " + s.DatabaseSize
	}
	return text + "."
}

// bookingRate writes a row's bookings a second, or a dash when it booked nothing.
func bookingRate(w row) string {
	if w.BookingRate > 0 {
		return fmt.Sprintf("%.0f", w.BookingRate)
	}
	return "–"
}

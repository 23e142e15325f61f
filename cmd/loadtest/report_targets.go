package main

import (
	"fmt"
	"strings"
)

// verdict is one target: what it asks, what was measured, and whether it was met.
type verdict struct {
	Target   string `json:"target"`
	Measured string `json:"measured"`
	Pass     bool   `json:"pass"`
}

// verdicts are the targets of the benchmark, each against the medians rows (the checks: against every run).
func (r report) verdicts(rows map[string]row) []verdict {
	var out []verdict
	add := func(target, measured string, pass bool) { out = append(out, verdict{target, measured, pass}) }
	var peakRSS float64 // the server's, over every run
	for _, sc := range scenarios {
		w, ok := rows[sc]
		if !ok {
			add(sc, "not run", false)
			continue
		}
		t := targets[sc]
		switch sc {
		case "book":
			add(fmt.Sprintf("book ≥ %s bookings/s", thousands(t.rate)), fmt.Sprintf("%.0f bookings/s", w.BookingRate), w.BookingRate >= t.rate)
			if rs := r.bookRatios(); len(rs) > 0 {
				m := medianRatio(rs)
				add("book ≥ 50% of pgbench TPC-B tps", fmt.Sprintf("%.0f%% (runs: %s)", 100*m, percents(rs)), m >= 0.5)
			}
		case "contend":
			// A run is OK only when every round was won and no answer was unexpected (a 5xx, none at all).
			add("contend: exactly one 201 per round, all others 409 4001, no 5xx",
				fmt.Sprintf("%d of %d rounds; %s", w.RoundsOne, w.Rounds, counts(w.StatusCounts)), w.RunsOK == w.Runs)
		case "rush":
			add("rush: no 5xx, only 200, 201 and 409 4001", counts(w.StatusCounts), w.RunsOK == w.Runs)
		case "pages":
			// Measured against the API beside them, without a target of their own.
			add("pages: only 200 (list, plan and API)", counts(w.StatusCounts), w.RunsOK == w.Runs)
		default:
			add(fmt.Sprintf("%s ≥ %s req/s", sc, thousands(t.rate)), fmt.Sprintf("%.0f req/s", w.Rate), w.Rate >= t.rate)
		}
		if t.p99 > 0 {
			add(fmt.Sprintf("%s p99 ≤ %.0f ms", sc, t.p99), fmt.Sprintf("%.1f ms", w.LatencyMS.P99), w.LatencyMS.P99 <= t.p99)
		}
	}
	var pagesRSS float64
	for _, set := range r.sets() {
		api, all := set.peakRSS()
		peakRSS, pagesRSS = max(peakRSS, api), max(pagesRSS, all)
	}
	what := "server peak RSS ≤ %d MB"
	if pagesRSS > 0 {
		what += " (API scenarios, before any page)"
	}
	add(fmt.Sprintf(what, memoryTargetMB), fmt.Sprintf("%.0f MB", peakRSS), peakRSS > 0 && peakRSS <= memoryTargetMB)
	if pagesRSS > 0 {
		add(fmt.Sprintf("server peak RSS ≤ %d MB, pages included", memoryTargetMB), fmt.Sprintf("%.0f MB", pagesRSS), pagesRSS <= memoryTargetMB)
	}
	out = append(out, r.largeVerdicts(rows)...)
	runs, ok := 0, 0
	for _, set := range r.sets() {
		for _, rs := range set.Results {
			for _, x := range rs {
				runs++
				if x.Check.OK {
					ok++
				}
			}
		}
	}
	add("after every run: no overlapping blocking bookings, every 201 stored", fmt.Sprintf("%d of %d runs", ok, runs), ok == runs)
	return out
}

// failedChecks names the runs whose checks failed: an unexpected answer, a contend round without exactly
// one winner, an overlap or a lost booking.
func (r report) failedChecks() []string {
	var out []string
	for _, set := range r.sets() {
		for _, sc := range scenarios {
			for i, x := range set.Results[sc] {
				if !x.OK {
					out = append(out, fmt.Sprintf("%s run %d (%s data set): %s", sc, i+1, set.SizeName, strings.Join(x.Failures, "; ")))
				}
			}
		}
	}
	return out
}

// percents writes each run's ratio: "61%, 64%, 70%".
func percents(rs []bookRatio) string {
	parts := make([]string, len(rs))
	for i, b := range rs {
		parts[i] = fmt.Sprintf("%.0f%%", 100*b.ratio())
	}
	return strings.Join(parts, ", ")
}

func passFail(ok bool) string {
	if ok {
		return "pass"
	}
	return "**fail**"
}

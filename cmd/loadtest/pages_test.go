package main

import (
	"strings"
	"testing"
	"time"
)

// TestPagesReport checks that the pages' parts are reported as medians of their runs, each against the
// API of the same run, with their weight on a cold load.
func TestPagesReport(t *testing.T) {
	part := func(name string, rate, p50, p99 float64, errors int) pagePart {
		return pagePart{Name: name, Rate: rate, LatencyMS: latencies{P50: p50, P99: p99}, Errors: errors}
	}
	rep := report{Runs: 3, Duration: 9 * time.Second, Size: sizes["standard"], Results: map[string][]result{"pages": {
		{Scenario: "pages", OK: true, ServerPeakRSSMB: 80, StatusCounts: map[string]int{"200": 30},
			Pages: []pagePart{part("find", 100, 200, 400, 0), part("plan", 300, 60, 100, 0), part("availability", 1000, 8, 40, 0)}},
		{Scenario: "pages", OK: true, ServerPeakRSSMB: 95, StatusCounts: map[string]int{"200": 30},
			Pages: []pagePart{part("find", 200, 100, 200, 1), part("plan", 400, 40, 80, 0), part("availability", 2000, 4, 20, 0)}},
		{Scenario: "pages", OK: true, ServerPeakRSSMB: 90, StatusCounts: map[string]int{"200": 30},
			Pages: []pagePart{part("find", 150, 150, 300, 0), part("plan", 200, 50, 120, 0), part("availability", 500, 6, 30, 0)}},
	}}, Weights: []pageWeight{
		{Data: "synthetic", Page: "/find?building=b", Requests: 6, Raw: 250_000, Gzip: 41_500,
			Assets: []asset{{Path: "/find?building=b", Kind: "page", Raw: 200_000, Gzip: 30_000}}},
		{Data: "demo", Page: "/find/plan?floor=f", Requests: 7, Raw: 90_000, Gzip: 20_000, Missing: 1,
			Assets: []asset{{Path: "/find/plan?floor=f", Kind: "page", Raw: 50_000, Gzip: 9_000}}},
	}}
	// Runs after the first run of pages report its peak: the API's own is read from before it.
	rep.Results["status"] = []result{{Scenario: "status", OK: true, ServerPeakRSSMB: 70, StatusCounts: map[string]int{"200": 1}},
		{Scenario: "status", OK: true, ServerPeakRSSMB: 95, StatusCounts: map[string]int{"200": 1}}}
	got := pageRows(rep.Results["pages"])
	// find ÷ API by run: rates 0.1, 0.1, 0.3, p99s 10, 10, 10; plan: rates 0.3, 0.2, 0.4, p99s 2.5, 4, 4.
	want := []pageRow{
		{Name: "find", Runs: 3, Rate: 150, P50: 150, P99: 300, Errors: 1, RateVsAPI: 0.1, P99VsAPI: 10},
		{Name: "plan", Runs: 3, Rate: 300, P50: 50, P99: 100, RateVsAPI: 0.3, P99VsAPI: 4},
		{Name: "availability", Runs: 3, Rate: 1000, P50: 6, P99: 30, RateVsAPI: 1, P99VsAPI: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("rows %+v, want %+v", got, want)
	}
	for i := range want {
		g, w := got[i], want[i]
		near := func(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
		if g.Name != w.Name || g.Runs != w.Runs || g.Rate != w.Rate || g.P50 != w.P50 || g.P99 != w.P99 || g.Errors != w.Errors ||
			!near(g.RateVsAPI, w.RateVsAPI) || !near(g.P99VsAPI, w.P99VsAPI) {
			t.Errorf("row %d: %+v, want %+v", i, g, w)
		}
	}
	md := rep.markdown(rep.rows())
	for _, line := range []string{
		"## Pages",
		"| find | `GET /find?building=…&kind=desk&date=…&from=08:00&to=18:00` | 150 | 150.00 | 300.00 | 1 | 0.10 | 10.00 |",
		"| plan | `GET /find/plan?…&floor=…` | 300 | 50.00 | 100.00 | 0 | 0.30 | 4.00 |",
		"peak resident memory by the end of the runs of pages: 95 MB",
		"| synthetic | /find | 6 | 41.5 KB | 250.0 KB | 30.0 KB | 0 |",
		"| demo | /find/plan | 7 | 20.0 KB | 90.0 KB | 9.0 KB | 1 |",
		"| pages: only 200 (list, plan and API) | 200 × 90 | pass |",
		"| server peak RSS ≤ 150 MB (API scenarios, before any page) | 70 MB | pass |",
		"| server peak RSS ≤ 150 MB, pages included | 95 MB | pass |",
	} {
		if !strings.Contains(md, line) {
			t.Errorf("benchmarks.md lacks %q:\n%s", line, md)
		}
	}
	term := rep.table(rep.rows())
	for _, line := range []string{
		"pages find               150 req/s  p50 150.00 ms  p99 300.00 ms  1 errors  ÷ API: req/s 0.10, p99 10.00 (median)",
		"weight demo      /find/plan   7 requests  20.0 KB gzip, 90.0 KB uncompressed, 1 missing",
	} {
		if !strings.Contains(term, line) {
			t.Errorf("terminal table lacks %q:\n%s", line, term)
		}
	}
}

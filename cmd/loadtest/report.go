package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// report is what `loadtest bench` measured, and how.
type report struct {
	Date     time.Time
	Runs     int
	Duration time.Duration
	Warmup   time.Duration
	Procs    int // the load generator's GOMAXPROCS
	Users    int // synthetic people, one token each
	// SizeName and Size are the synthetic organization seeded.
	SizeName string
	Size     size
	// PoolMaxConns is the server's pool size: its database URL's pool_max_conns, else the service's default.
	PoolMaxConns    int
	Database        string // the database seeded and served
	PgbenchDatabase string
	DemoDatabase    string // the demo office, whose pages are weighed
	SeedTime        time.Duration
	Took            time.Duration       // the whole benchmark
	Results         map[string][]result // by scenario, in run order: the standard data set's
	// Standard describes the standard data set; Large the large one, when the benchmark ran on it too.
	Standard, Large *setInfo
	Pgbench         []pgbenchResult
	Ceiling         []ceilingResult // the booking script, beside each run of book
	BusyHours       []ceilingResult // the busy-hours script, as many runs
	BookCost        []perBooking    // what the database server spent on each run of book's bookings
	Outbox          []outboxResult  // each run of book with the outbox on and off, and its e-mails
	Machine         machineInfo
	ServerFlags     []string           // serve's flags beyond --addr
	Weights         []pageWeight       // the pages on a cold load, after the first run of pages
	Utilisation     *utilisationResult // the utilisation report, after the first run of pages
}

// row is one scenario's medians over its runs.
type row struct {
	Scenario     string         `json:"scenario"`
	Runs         int            `json:"runs"`
	Rate         float64        `json:"rate"`
	BookingRate  float64        `json:"bookings_per_s"`
	LatencyMS    latencies      `json:"latency_ms"`
	StatusCounts map[string]int `json:"status_counts"` // summed over the runs
	ErrorCodes   map[string]int `json:"error_codes,omitempty"`
	Rounds       int            `json:"rounds,omitempty"`
	RoundsOne    int            `json:"rounds_with_one_winner,omitempty"`
	PeakRSSMB    float64        `json:"server_peak_rss_mb"`
	RunsOK       int            `json:"runs_ok"`
}

// median is the middle value (the mean of the two middle ones for an even count).
func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// rows are the medians of each scenario's runs, by scenario: computed once, for every part of the report.
func (r report) rows() map[string]row {
	rows := make(map[string]row, len(r.Results))
	for sc, rs := range r.Results {
		if len(rs) > 0 {
			rows[sc] = medians(sc, rs)
		}
	}
	return rows
}

// medians is the row of a scenario's runs rs.
func medians(sc string, rs []result) row {
	of := func(f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, x := range rs {
			v[i] = f(x)
		}
		return median(v)
	}
	w := row{
		Scenario: sc, Runs: len(rs), StatusCounts: map[string]int{},
		Rate:        of(func(x result) float64 { return x.Rate }),
		BookingRate: of(func(x result) float64 { return x.BookingRate }),
		LatencyMS: latencies{
			P50: of(func(x result) float64 { return x.LatencyMS.P50 }), P95: of(func(x result) float64 { return x.LatencyMS.P95 }),
			P99: of(func(x result) float64 { return x.LatencyMS.P99 }), Max: of(func(x result) float64 { return x.LatencyMS.Max }),
			Mean: of(func(x result) float64 { return x.LatencyMS.Mean }),
		},
	}
	for _, x := range rs {
		for k, n := range x.StatusCounts {
			w.StatusCounts[k] += n
		}
		for k, n := range x.ErrorCodes {
			if w.ErrorCodes == nil {
				w.ErrorCodes = map[string]int{}
			}
			w.ErrorCodes[k] += n
		}
		w.Rounds += len(x.Rounds)
		w.RoundsOne += x.roundsWon()
		w.PeakRSSMB = max(w.PeakRSSMB, x.ServerPeakRSSMB)
		if x.OK {
			w.RunsOK++
		}
	}
	return w
}

// pgbenchMedians are the medians of each pgbench mode's runs, in the order of pgbenchModes.
func (r report) pgbenchMedians() []pgbenchResult {
	var out []pgbenchResult
	for _, mode := range pgbenchModes {
		var tps, latency []float64
		for _, p := range r.Pgbench {
			if p.Name == mode.name {
				tps, latency = append(tps, p.TPS), append(latency, p.LatencyMS)
			}
		}
		if len(tps) > 0 {
			out = append(out, pgbenchResult{Name: mode.name, TPS: median(tps), LatencyMS: median(latency)})
		}
	}
	return out
}

// bookRatio is a run of book beside the TPC-B run measured just after it.
type bookRatio struct {
	Run               int
	Bookings, TPCBTPS float64
}

func (b bookRatio) ratio() float64 { return b.Bookings / b.TPCBTPS }

// bookRatios pairs each run of book with the TPC-B run measured beside it.
func (r report) bookRatios() []bookRatio {
	var out []bookRatio
	for i, x := range r.Results["book"] {
		for _, p := range r.Pgbench {
			if p.Name == "TPC-B" && p.Run == i+1 && p.TPS > 0 {
				out = append(out, bookRatio{Run: i + 1, Bookings: x.BookingRate, TPCBTPS: p.TPS})
			}
		}
	}
	return out
}

// medianRatio is the median of the runs' ratios of book to TPC-B.
func medianRatio(rs []bookRatio) float64 {
	v := make([]float64, len(rs))
	for i, b := range rs {
		v[i] = b.ratio()
	}
	return median(v)
}

// table is the results for the terminal, with the medians rows.
func (r report) table(rows map[string]row) string {
	var s strings.Builder
	fmt.Fprintf(&s, "%-13s %9s %10s %8s %8s %8s %8s\n", "scenario", "req/s", "bookings/s", "p50 ms", "p95 ms", "p99 ms", "max ms")
	for _, sc := range scenarios {
		if w, ok := rows[sc]; ok && sc != "pages" {
			fmt.Fprintf(&s, "%-13s %9.0f %10.0f %8.2f %8.2f %8.2f %8.1f\n", sc, w.Rate, w.BookingRate, w.LatencyMS.P50, w.LatencyMS.P95, w.LatencyMS.P99, w.LatencyMS.Max)
		}
	}
	s.WriteString(r.pagesTerminal())
	for _, b := range r.pgbenchMedians() {
		fmt.Fprintf(&s, "pgbench %-12s %.0f tps, latency average %.2f ms (median)\n", b.Name, b.TPS, b.LatencyMS)
	}
	for _, v := range r.verdicts(rows) {
		fmt.Fprintf(&s, "%-5s %s: %s\n", strings.Trim(passFail(v.Pass), "*"), v.Target, v.Measured)
	}
	return s.String()
}

// chart is docs/benchmarks.svg: p50, p95 and p99 of each scenario's medians rows.
func (r report) chart(path string, rows map[string]row) error {
	var names []string
	var p50, p95, p99 []float64
	for _, sc := range scenarios {
		if w, ok := rows[sc]; ok && sc != "pages" {
			names = append(names, sc)
			p50, p95, p99 = append(p50, w.LatencyMS.P50), append(p95, w.LatencyMS.P95), append(p99, w.LatencyMS.P99)
		}
	}
	title := fmt.Sprintf("Latency by scenario: medians of %s of %s, %d clients (contend %d), %s",
		plural(r.Runs, "run"), r.Duration, defaultClients, defaultContendClients, r.Date.Format("2006-01-02"))
	return latencyChart(path, title, names, p50, p95, p99)
}

// summary is the benchmark's medians rows, verdicts and measurements as JSON.
func (r report) summary(rows map[string]row) any {
	ordered := func(rows map[string]row) []row {
		var out []row
		for _, sc := range scenarios {
			if w, ok := rows[sc]; ok {
				out = append(out, w)
			}
		}
		return out
	}
	var large []row
	if r.Large != nil {
		large = ordered(r.Large.rows())
	}
	return struct {
		Date        time.Time       `json:"date"`
		Runs        int             `json:"runs"`
		DurationS   float64         `json:"duration_s"`
		SeedS       float64         `json:"seed_s"`
		TookS       float64         `json:"took_s"`
		ServerFlags []string        `json:"server_flags"`
		Machine     machineInfo     `json:"machine"`
		Scenarios   []row           `json:"scenarios"`
		Large       []row           `json:"large_scenarios,omitempty"`
		Pgbench     []pgbenchResult `json:"pgbench"`
		Ceiling     []ceilingResult `json:"booking_script"`
		BusyHours   []ceilingResult `json:"busy_hours_script"`
		BookCost    []perBooking    `json:"book_cost"`
		Targets     []verdict       `json:"targets"`
		Pages       []pageRow       `json:"pages,omitempty"`
		Weights     []pageWeight    `json:"page_weights,omitempty"`
	}{r.Date, r.Runs, r.Duration.Seconds(), r.SeedTime.Seconds(), r.Took.Seconds(), r.ServerFlags, r.Machine, ordered(rows), large,
		r.Pgbench, r.Ceiling, r.BusyHours, r.BookCost, r.verdicts(rows), pageRows(r.Results["pages"]), r.Weights}
}

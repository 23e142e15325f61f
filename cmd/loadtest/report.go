package main

import (
	"fmt"
	"maps"
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
	Machine         machineInfo
	ServerFlags     []string     // serve's flags beyond --addr
	Weights         []pageWeight // the pages on a cold load, after the first run of pages
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

// percents writes each run's ratio: "61%, 64%, 70%".
func percents(rs []bookRatio) string {
	parts := make([]string, len(rs))
	for i, b := range rs {
		parts[i] = fmt.Sprintf("%.0f%%", 100*b.ratio())
	}
	return strings.Join(parts, ", ")
}

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

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// thousands writes a number rounded to a whole one, its thousands separated by commas: 1,000,000.
func thousands[N int | float64](v N) string {
	s := fmt.Sprintf("%.0f", float64(v))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func passFail(ok bool) string {
	if ok {
		return "pass"
	}
	return "**fail**"
}

// scenarioText says what a scenario sends, on the organization seeded.
func (r report) scenarioText(sc string) string {
	switch sc {
	case "status":
		return "`GET …/resources/statusinfo?postercode=` of a random resource, as a random person"
	case "free":
		return fmt.Sprintf("`GET …/workstations/subcategories/{s}/free` (deprecated listing) for one day: one floor's desks (%d)",
			r.Size.ResourcesPerFloor-r.Size.RoomsPerFloor)
	case "availability":
		return fmt.Sprintf("`GET …/buildings/{b}/availability?floorId=` for one day: one floor's %d resources", r.Size.ResourcesPerFloor)
	case "book":
		return fmt.Sprintf("`POST …/bookings/workstations/standard` and `…/spaces/standard`, desks and rooms in proportion to their numbers, each booking a distinct free %s evening slot past the days the reads look at, of a desk, as the person it is kept for (one who holds no other desk), or of a room, as a random person; expects 201",
			minutes(slotLength))
	case "contend":
		return fmt.Sprintf("%d people released together on the same room and slot, a new slot each round; expects one 201 and %d × 409 4001",
			defaultContendClients, defaultContendClients-1)
	case "pages":
		return "`GET /find` and `GET /find/plan` of one floor as signed-in people, then the API's availability of the same floor, a third of the run each (see Pages)"
	case "rush":
		return fmt.Sprintf("80%% reads (status, availability, free), 20%% bookings aimed at %d hot rooms, a new slot each second: most lose with 409 4001 (expected), none may get a 5xx",
			min(rushHotRooms, r.Size.rooms()))
	}
	return ""
}

// minutes writes a length of time in minutes: "15-minute".
func minutes(d time.Duration) string { return fmt.Sprintf("%d-minute", int(d/time.Minute)) }

// clock writes a time of day: "08:00".
func clock(d time.Duration) string {
	return fmt.Sprintf("%02d:%02d", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// cores writes how many cores the load generator ran on.
func cores(n int) string {
	if n == 1 {
		return "one core"
	}
	return fmt.Sprintf("%d cores", n)
}

// markdown is docs/benchmarks.md, with the medians rows.
func (r report) markdown(rows map[string]row) string {
	var s strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&s, format, a...) }
	r.writeSetup(p)
	r.writeResults(p, rows)
	r.writePages(p, rows)
	r.writeLarge(p, rows)
	r.writeTargets(p, rows)
	r.writePgbench(p)
	r.writeCeiling(p)
	r.writeReproduce(p)
	return s.String()
}

// printer writes a part of the report, as fmt.Printf does.
type printer func(format string, a ...any)

// writeSetup writes the title, the machine, and how the benchmark was set up.
func (r report) writeSetup(p printer) {
	p("# Benchmarks\n\n")
	p("Measured by `make bench` on %s. The server, PostgreSQL and the load generator share one\n", r.Date.Format("2006-01-02 15:04 MST"))
	p("machine, which other work may share too: compare medians and ratios rather than single figures.\n\n")
	p("| machine | |\n|---|---|\n")
	p("| CPU | %s × %d |\n| memory | %s |\n| OS | %s |\n| Go | %s |\n| PostgreSQL | %s |\n\n",
		r.Machine.CPU, r.Machine.CPUs, r.Machine.Memory, r.Machine.OS, r.Machine.Go, r.Machine.PostgreSQL)

	sz := r.Size
	p("## Set-up\n\n")
	p("- **Data**: a fresh database, `%s`, seeded with the %s synthetic organization\n", r.Database, r.SizeName)
	p("  (`loadtest seed --size %s`): %s buildings in %s time zones, %s floors, %s resources (%s meeting\n",
		r.SizeName, thousands(sz.Buildings), thousands(sz.zones()), thousands(sz.floors()), thousands(sz.resources()), thousands(sz.rooms()))
	p("  rooms, %s desks), %s people and %s bookings over the %d days around today (past ones finished,\n",
		thousands(sz.resources()-sz.rooms()), thousands(sz.Users), thousands(sz.Bookings), sz.Days)
	p("  expired or cancelled, some active, future ones pending), %s–%s building time; seeded in %s%s.\n",
		clock(seededFrom), clock(seededUntil), r.SeedTime.Round(100*time.Millisecond), r.Standard.onDisk())
	p("- **Server**: one `bin/booking serve` built from this tree, on 127.0.0.1, with a pool of %d connections\n", r.PoolMaxConns)
	p("  and its rate limits off, `%s`: every synthetic person calls from 127.0.0.1, and the\n", strings.Join(r.ServerFlags, " "))
	p("  benchmark measures the service, not its limits.\n")
	p("- **Load**: `loadtest run`, one scenario at a time, %s of %s each (after %s of warm-up, not measured) at\n", plural(r.Runs, "run"), r.Duration, r.Warmup)
	p("  %d clients over kept-alive connections, as %s people with a bearer token each (contend: %d clients ×\n", defaultClients, thousands(r.Users), defaultContendClients)
	p("  %d rounds). The generator is a process of its own on %s (GOMAXPROCS=%d). The table gives the\n", defaultRounds, cores(r.Procs), r.Procs)
	p("  medians of the runs; the answers are summed over them. The whole benchmark took %s.\n", r.Took.Round(time.Second))
	p("- **Checks** after every run, in SQL: no two blocking bookings (WAITING_APPROVAL, PENDING, ACTIVE) of one\n")
	p("  resource overlap, and every booking answered 201 is in the database.\n\n")
	p("| scenario | what |\n|---|---|\n")
	for _, sc := range scenarios {
		p("| %s | %s |\n", sc, r.scenarioText(sc))
	}
}

// writeResults writes the medians of each scenario, and the chart.
func (r report) writeResults(p printer, rows map[string]row) {
	p("\n## Results\n\n")
	p("| scenario | req/s | bookings/s | p50 ms | p95 ms | p99 ms | max ms | answers (all runs) |\n")
	p("|---|--:|--:|--:|--:|--:|--:|---|\n")
	for _, sc := range scenarios {
		w, ok := rows[sc]
		if !ok || sc == "pages" { // its parts are in Pages: their mix means nothing
			continue
		}
		answers := answerText(w)
		p("| %s | %.0f | %s | %.2f | %.2f | %.2f | %.1f | %s |\n", sc, w.Rate, bookingRate(w), w.LatencyMS.P50, w.LatencyMS.P95, w.LatencyMS.P99, w.LatencyMS.Max, answers)
	}
	p("\n![p50, p95 and p99 latency by scenario, logarithmic axis](benchmarks.svg)\n\n")
}

// writeTargets writes each target against what was measured, and book against TPC-B run by run.
func (r report) writeTargets(p printer, rows map[string]row) {
	p("## Targets\n\n| target | measured (median) | |\n|---|---|---|\n")
	for _, v := range r.verdicts(rows) {
		p("| %s | %s | %s |\n", v.Target, v.Measured, passFail(v.Pass))
	}
	if rs := r.bookRatios(); len(rs) > 0 {
		p("\nbook / TPC-B, run by run: each run of book against the pgbench TPC-B run measured right after it, on\n")
		p("the same machine at the same moment (its speed drifts from minute to minute, and the two drift together).\n")
		p("A booking is a bearer-token check, rule checks, an insert under the exclusion constraint and the full\n")
		p("booking in the answer, over HTTP; a TPC-B transaction is three updates, a select and an insert, from C.\n\n")
		p("| run | book bookings/s | TPC-B tps | ratio |\n|--:|--:|--:|--:|\n")
		for _, b := range rs {
			p("| %d | %.0f | %.0f | %.2f |\n", b.Run, b.Bookings, b.TPCBTPS, b.ratio())
		}
		p("| median | | | %.2f |\n", medianRatio(rs))
	}
}

// writePgbench writes pgbench's medians: the database server's own ceiling.
func (r report) writePgbench(p printer) {
	p("\n## pgbench\n\nThe database server's own ceiling on this machine: a fresh database, `%s`, of scale %s, %d clients,\n", r.PgbenchDatabase, benchPgbenchScale, defaultClients)
	p("2 threads, prepared statements, %s each, after each run of book (the server idle meanwhile). Medians of the\n", r.Duration)
	p("runs.\n\n| pgbench | tps | latency average ms |\n|---|--:|--:|\n")
	for _, b := range r.pgbenchMedians() {
		p("| %s | %.0f | %.2f |\n", b.Name, b.TPS, b.LatencyMS)
	}
}

// writeReproduce says how to run the benchmark again, whole or one scenario at a time.
func (r report) writeReproduce(p printer) {
	command := "make bench"
	if r.Large != nil {
		command += " SIZE=large"
	}
	p("\n## How to reproduce\n\n```sh\n%s\n```\n\n", command)
	if r.DemoDatabase != "" {
		p("It drops and recreates the databases `%s`, `%s` and `%s` (the demo office) on the server of `DATABASE_URL`\n", r.Database, r.PgbenchDatabase, r.DemoDatabase)
	} else {
		p("It drops and recreates the databases `%s` and `%s` on the server of `DATABASE_URL`\n", r.Database, r.PgbenchDatabase)
	}
	p("(else the local one), seeds the %s organization, builds and starts `bin/booking serve`, runs every\n", r.SizeName)
	p("scenario (and pgbench after each run of book), stops the server with SIGTERM, and writes this file,\n")
	p("`benchmarks.svg` and each run's JSON under `bench-results/` (not committed; the server's log too when a run\n")
	p("failed). It fails when a check fails; targets missed are reported above.\n")
	p("Options: `go run ./cmd/loadtest bench --runs 3 --duration 10s --out docs`.\n\n")
	p("One scenario against a server of your own:\n\n```sh\n")
	p("go run ./cmd/loadtest seed --db postgres://postgres@127.0.0.1:5432/booking_load   # a fresh database\n")
	p("DATABASE_URL=postgres://postgres@127.0.0.1:5432/booking_load bin/booking serve --rate-per-user=0 --rate-per-address=0 &\n")
	p("go run ./cmd/loadtest run --db postgres://postgres@127.0.0.1:5432/booking_load --scenario book --c 32 --duration 10s --out book.json\n```\n")
}

// answerText is a scenario's answers: counts by status (4xx and 5xx by code instead), contend's rounds.
func answerText(w row) string {
	statuses := maps.Clone(w.StatusCounts)
	maps.DeleteFunc(statuses, func(k string, _ int) bool { return k >= "400" && k != "error" })
	var parts []string
	for _, c := range []string{counts(statuses), counts(w.ErrorCodes)} {
		if c != "" {
			parts = append(parts, c)
		}
	}
	if w.Rounds > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d rounds with one winner", w.RoundsOne, w.Rounds))
	}
	return strings.Join(parts, ", ")
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

package main

import (
	"fmt"
	"maps"
	"strings"
	"time"
)

// markdown is docs/benchmarks.md, with the medians rows.
func (r report) markdown(rows map[string]row) string {
	var s strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&s, format, a...) }
	r.writeSetup(p)
	r.writeResults(p, rows)
	r.writePages(p, rows)
	r.writeUtilisation(p)
	r.writeLarge(p, rows)
	r.writeTargets(p, rows)
	r.writePgbench(p)
	r.writeCeiling(p)
	r.writeOutbox(p)
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

// outboxTarget is the least share of book's throughput the outbox must leave.
const outboxTarget = 0.90

// writeOutbox writes what the outbox costs book, and how long its e-mails take.
func (r report) writeOutbox(p printer) {
	if len(r.Outbox) == 0 {
		return
	}
	p("\n## The outbox\n\n")
	p("Each booking writes its event into the outbox with the statement that makes it, and the server's workers\n")
	p("turn them into e-mails, sent to a mail server in the load generator's process (go-smtp). While the\n")
	p("events of a burst arrive, the relay gives way to bookings and holds them back (each for at most a\n")
	p("minute); the e-mails go out after the burst\n")
	p("([notifications.md](notifications.md#why-an-outbox-table-before-river)).\n\n")
	p("Two servers of their own run on the standard data set, started together and used for nothing else: one\n")
	p("with `--no-events`, one with the outbox on. Before each run of book, book is run twice on both at\n")
	p("once, just after a checkpoint, with half its clients on each (the second time the halves swap), so\n")
	p("the two sides are measured in the same seconds of a shared machine whose speed comes and goes. The\n")
	p("ratio is the mean throughput with the outbox as a share of the mean without it. After each run the\n")
	p("benchmark waits until its e-mails are out, then vacuums the outbox's tables, as autovacuum would on\n")
	p("a server where it is on; so no run shares the machine with another run's e-mails. The lag is from\n")
	p("the moment the booking's event was recorded (its id is a UUIDv7) to the mail server's acceptance,\n")
	p("over every e-mail of both runs: under this load the e-mails wait for the burst to end, so it\n")
	p("includes that wait and the time the queue takes to drain.\n\n")
	p("| run | bookings/s with the outbox (mean of 2) | without (mean of 2) | ratio | e-mails | all out after the run | lag p50 | lag p99 |\n|---|---|---|---|---|---|---|---|\n")
	var ratios []float64
	for _, o := range r.Outbox {
		ratios = append(ratios, o.ratio())
		p("| %d | %.0f | %.0f | %.3f | %d | %s | %s | %s |\n", o.Run, o.On, o.Off, o.ratio(), o.Mails,
			o.Drain.Round(100*time.Millisecond), o.LagP50.Round(time.Millisecond), o.LagP99.Round(time.Millisecond))
	}
	// Three decimals: a median of 0.897 printed as 0.90 would read as the target met.
	m, verdict := median(ratios), "meets"
	if m < outboxTarget {
		verdict = "misses"
	}
	p("\nMedian ratio: **%.3f**; it %s the target of at least %.2f.\n", m, verdict, outboxTarget)
}

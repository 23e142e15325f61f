package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// ceilingScript is pgbench's script of one booking: the service's own insert (see ceiling.sql).
//
//go:embed ceiling.sql
var ceilingScript string

// ceilingSubject is the subject of the ceiling's bookings, which are deleted after each run.
const ceilingSubject = "pgbench ceiling"

// ceilingFirstDay is the first day, counted from today, the ceiling books: past every seeded booking (the
// seed spreads them over the sz.Days around today), so that none of its inserts is refused.
func ceilingFirstDay(sz size) int { return sz.Days/2 + 2 }

// ceilingResult is one run of the booking script, with what the server spent on it.
type ceilingResult struct {
	Run       int        `json:"run"` // compared with this run of book
	TPS       float64    `json:"tps"`
	LatencyMS float64    `json:"latency_average_ms"`
	Cost      perBooking `json:"per_booking"`
}

// runCeiling runs the booking script on the standard data set's database and keeps its results. It waits
// for the last run of book and then runs the script once for each run of book. Run between them, its
// inserts and the checkpoints they cause slowed the next runs of book by about a tenth.
func runCeiling(ctx context.Context, b *benchRun, run int) error {
	if run < b.o.Runs {
		return nil
	}
	std := b.sets[0]
	for i := range b.o.Runs {
		r, err := b.pgbench.ceiling(ctx, std, b.runOptions["book"].Concurrency, i+1, b.o.Duration, b.stdout)
		if err != nil {
			return err
		}
		b.rep.Ceiling = append(b.rep.Ceiling, r)
	}
	return nil
}

// ceiling runs the booking script for duration with clients on the seeded database of pool (dbURL), as
// the benchmark's run-th, then deletes the bookings it made, so that the scenarios find the database as
// the seed left it.
func (p pgbench) ceiling(ctx context.Context, set *dataSet, clients, run int, duration time.Duration, stdout io.Writer) (ceilingResult, error) {
	pool, dbURL := set.pool, set.dbURL
	args, err := ceilingArgs(ctx, pool, set.size, set.world, clients, duration)
	if err != nil {
		return ceilingResult{}, err
	}
	script := filepath.Join(os.TempDir(), fmt.Sprintf("loadtest-ceiling-%d.sql", os.Getpid()))
	if err := os.WriteFile(script, []byte(ceilingScript), 0o644); err != nil {
		return ceilingResult{}, err
	}
	defer os.Remove(script)
	fmt.Fprintf(stdout, "bench: pgbench, the booking script: %d clients, %s\n", clients, duration)
	meter := newCostMeter(ctx, pool)
	before, err := meter.snapshot(ctx)
	if err != nil {
		return ceilingResult{}, err
	}
	text, err := exec.CommandContext(ctx, p.bin, append(args, "-f", script, plain(dbURL))...).CombinedOutput()
	if err != nil {
		return ceilingResult{}, fmt.Errorf("pgbench booking script: %w\n%s", err, text)
	}
	after, err := meter.snapshot(ctx)
	if err != nil {
		return ceilingResult{}, err
	}
	r := ceilingResult{Run: run}
	m, l := tpsLine.FindSubmatch(text), latencyLine.FindSubmatch(text)
	if m == nil || l == nil {
		return ceilingResult{}, fmt.Errorf("pgbench booking script: no tps or latency in its output:\n%s", text)
	}
	r.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
	r.LatencyMS, _ = strconv.ParseFloat(string(l[1]), 64)
	made, err := pool.Exec(ctx, "DELETE FROM bookings WHERE organization_id = $1 AND subject = $2", orgID, ceilingSubject)
	if err != nil {
		return ceilingResult{}, fmt.Errorf("delete the booking script's bookings: %w", err)
	}
	if _, err := pool.Exec(ctx, "VACUUM bookings"); err != nil {
		return ceilingResult{}, fmt.Errorf("vacuum bookings: %w", err)
	}
	r.Cost = after.since(before).per(made.RowsAffected())
	fmt.Fprintf(stdout, "bench: the booking script: %.0f tps, latency average %.1f ms; %s\n", r.TPS, r.LatencyMS, r.Cost)
	return r, nil
}

// ceilingArgs are pgbench's arguments for the booking script, but the script itself: its variables
// describe the seeded organization (see ceiling.sql).
func ceilingArgs(ctx context.Context, pool *pgxpool.Pool, sz size, w *world, clients int, duration time.Duration) ([]string, error) {
	var layout int64
	if err := pool.QueryRow(ctx, "SELECT layout_version FROM organizations WHERE id = $1", orgID).Scan(&layout); err != nil {
		return nil, fmt.Errorf("read the layout version: %w", err)
	}
	vars := []struct {
		name  string
		value int64
	}{
		{"n", -1}, {"clients", int64(clients)}, {"epoch", time.Now().UTC().Truncate(24 * time.Hour).Unix()},
		{"firstday", int64(ceilingFirstDay(sz))}, {"rooms", int64(len(w.rooms))},
		{"desks", int64(len(w.bookedDesks()))}, {"users", int64(sz.Users)},
		{"perfloor", int64(sz.ResourcesPerFloor)}, {"roomsperfloor", int64(sz.RoomsPerFloor)}, {"layout", layout},
		{"floorsperbuilding", int64(sz.FloorsPerBuilding)},
	}
	args := []string{"-n", "-c", strconv.Itoa(clients), "-j", "2", "-T", strconv.Itoa(int(duration.Seconds())),
		"-M", "prepared", "-D", "org=" + orgID.String()}
	for _, v := range vars {
		args = append(args, "-D", fmt.Sprintf("%s=%d", v.name, v.value))
	}
	return args, nil
}

// bookCost measures what the database server spends on the bookings of each run of book.
type bookCost struct {
	meter  *costMeter
	before pgCost
	made   int64 // load-test bookings in the database at the snapshot
}

// countLoadBookings counts the load test's bookings.
func countLoadBookings(ctx context.Context, pool *pgxpool.Pool) (int64, error) {
	var n int64
	err := pool.QueryRow(ctx, "SELECT count(*) FROM bookings WHERE organization_id = $1 AND subject = $2", orgID, loadSubject).Scan(&n)
	return n, err
}

// beforeBook takes the snapshot a run of book on the standard data set is measured from.
func beforeBook(ctx context.Context, b *benchRun, _ int) error {
	if b.bookCost.meter == nil {
		b.bookCost.meter = newCostMeter(ctx, b.sets[0].pool)
	}
	var err error
	if b.bookCost.made, err = countLoadBookings(ctx, b.sets[0].pool); err != nil {
		return err
	}
	b.bookCost.before, err = b.bookCost.meter.snapshot(ctx)
	return err
}

// afterBook keeps what the server spent on each booking of the run of book just ended.
func afterBook(ctx context.Context, b *benchRun, _ int) error {
	after, err := b.bookCost.meter.snapshot(ctx)
	if err != nil {
		return err
	}
	made, err := countLoadBookings(ctx, b.sets[0].pool)
	if err != nil {
		return err
	}
	cost := after.since(b.bookCost.before).per(made - b.bookCost.made)
	fmt.Fprintf(b.stdout, "bench: book %s\n", cost)
	b.rep.BookCost = append(b.rep.BookCost, cost)
	return nil
}

// String is the cost in one line.
func (p perBooking) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "per booking: %.0f WAL bytes (%.2f full pages)", p.WALBytes, p.FPI)
	if p.CPUMicros > 0 {
		fmt.Fprintf(&b, ", %.0f µs server CPU", p.CPUMicros)
	}
	if p.ExecMicros > 0 {
		fmt.Fprintf(&b, ", insert %.0f µs and %.0f WAL bytes (pg_stat_statements)", p.ExecMicros, p.InsertWAL)
	}
	return b.String()
}

// writeCeiling writes book against the booking script, run by run, and what the database server spent on
// a booking of each.
func (r report) writeCeiling(p printer) {
	if len(r.Ceiling) == 0 {
		return
	}
	p("\n## The ceiling of a booking\n\n")
	p("pgbench runs the service's own insert (queries/bookings.sql, BookingInsert: the advisory lock, the\n")
	p("layout-version check, the exclusion constraints and foreign keys) from C, on the seeded database,\n")
	p("as many times as book ran, after its last run, with as many clients (%d), for %s each. It books the\n", r.ceilingClients(), r.Duration)
	p("rooms and desks book does, in the same proportion, resource after resource, in evening quarters from a\n")
	p("day past every seeded booking, so its slots never overlap and it measures inserts, not refusals. Its\n")
	p("bookings are deleted after each run. book over HTTP as a share of it is what the service itself costs.\n\n")
	p("| run | book bookings/s | booking script tps | book / script |\n|--:|--:|--:|--:|\n")
	var ratios []float64
	for i, c := range r.Ceiling {
		if i < len(r.Results["book"]) && c.TPS > 0 {
			b := r.Results["book"][i].BookingRate
			ratios = append(ratios, b/c.TPS)
			p("| %d | %.0f | %.0f | %.0f%% |\n", c.Run, b, c.TPS, 100*b/c.TPS)
		}
	}
	p("| median | | | %.0f%% |\n", 100*median(ratios))
	p("\nWhat the database server spent on a booking: WAL from pg_stat_wal (the whole server's, full-page\n")
	p("images included), CPU time of its processes from /proc (when it runs on this machine), and, when\n")
	p("pg_stat_statements is loaded, the insert's own execution time and WAL. Medians of the runs.\n\n")
	p("| | WAL bytes | full-page images | server CPU µs | insert exec µs | insert WAL bytes |\n|---|--:|--:|--:|--:|--:|\n")
	for _, x := range []struct {
		name string
		cs   []perBooking
	}{{"book (HTTP)", r.BookCost}, {"booking script", r.ceilingCosts()}} {
		m := medianCost(x.cs)
		p("| %s | %.0f | %.2f | %s | %s | %s |\n", x.name, m.WALBytes, m.FPI, orDash(m.CPUMicros), orDash(m.ExecMicros), orDash(m.InsertWAL))
	}
}

// ceilingClients is the booking script's client count: book's.
func (r report) ceilingClients() int { return defaultOptions("book").Concurrency }

// ceilingCosts are the booking script's costs, run by run.
func (r report) ceilingCosts() []perBooking {
	out := make([]perBooking, len(r.Ceiling))
	for i, c := range r.Ceiling {
		out[i] = c.Cost
	}
	return out
}

// medianCost is the median of each figure of cs.
func medianCost(cs []perBooking) perBooking {
	of := func(f func(perBooking) float64) float64 {
		v := make([]float64, len(cs))
		for i, c := range cs {
			v[i] = f(c)
		}
		return median(v)
	}
	return perBooking{
		WALBytes: of(func(c perBooking) float64 { return c.WALBytes }), FPI: of(func(c perBooking) float64 { return c.FPI }),
		CPUMicros:  of(func(c perBooking) float64 { return c.CPUMicros }),
		ExecMicros: of(func(c perBooking) float64 { return c.ExecMicros }),
		InsertWAL:  of(func(c perBooking) float64 { return c.InsertWAL }),
	}
}

// orDash is a figure, or a dash when it was not measured.
func orDash(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", v)
}

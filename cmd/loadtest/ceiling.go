package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
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

// busyHoursScript is pgbench's script of bookings at busy hours, among the seeded ones (see busyhours.sql).
//
//go:embed busyhours.sql
var busyHoursScript string

// busyHoursSubject is the subject of the busy-hours script's bookings, which are deleted after each run.
const busyHoursSubject = "pgbench busy hours"

// ceilingFirstDay is the first day, counted from today, the ceiling may book: past every seeded booking
// (the seed spreads them over the sz.Days around today), so that none of its inserts is refused. It
// starts later when the runs of book have reached further (ceilingArgs).
func ceilingFirstDay(sz size) int { return sz.Days/2 + 2 }

// ceilingResult is one run of the booking script, with what the server spent on it.
type ceilingResult struct {
	Run       int        `json:"run"` // compared with this run of book
	TPS       float64    `json:"tps"`
	LatencyMS float64    `json:"latency_average_ms"`
	Attempts  int64      `json:"attempts"` // transactions pgbench ran; each tried one booking
	Made      int64      `json:"made"`     // bookings made; the others overlapped one already there
	Cost      perBooking `json:"per_booking"`
}

// runCeiling runs the booking script on the standard data set's database and keeps its results, then the
// busy-hours script as many times. It waits for the last run of book and then runs each script once for
// each run of book. Run between them, their inserts and the checkpoints they cause slowed the next runs of
// book by about a tenth.
func runCeiling(ctx context.Context, b *benchRun, run int) error {
	if run < b.o.Runs {
		return nil
	}
	std, clients := b.sets[0], b.runOptions["book"].Concurrency
	for i := range b.o.Runs {
		r, err := b.pgbench.ceiling(ctx, std, clients, i+1, b.o.Duration, b.stdout)
		if err != nil {
			return err
		}
		b.rep.Ceiling = append(b.rep.Ceiling, r)
	}
	for i := range b.o.Runs {
		r, err := b.pgbench.busyHours(ctx, std, clients, i+1, b.o.Duration, b.stdout)
		if err != nil {
			return err
		}
		b.rep.BusyHours = append(b.rep.BusyHours, r)
	}
	return nil
}

// ceiling runs the booking script for duration with clients on the seeded database of set, as the
// benchmark's run-th, then deletes the bookings it made, so that the scenarios find the database as the
// seed left it.
func (p pgbench) ceiling(ctx context.Context, set *dataSet, clients, run int, duration time.Duration, stdout io.Writer) (ceilingResult, error) {
	args, err := ceilingArgs(ctx, set.pool, set.size, set.world, clients, duration)
	if err != nil {
		return ceilingResult{}, err
	}
	return p.runScript(ctx, set, "the booking script", ceilingScript, ceilingSubject, args, run, stdout)
}

// busyHours runs the busy-hours script as ceiling runs the booking script. Its random numbers start from
// the run's number, so each benchmark tries the same bookings.
func (p pgbench) busyHours(ctx context.Context, set *dataSet, clients, run int, duration time.Duration, stdout io.Writer) (ceilingResult, error) {
	args, err := busyHoursArgs(ctx, set.pool, set.size, clients, run, duration)
	if err != nil {
		return ceilingResult{}, err
	}
	return p.runScript(ctx, set, "the busy-hours script", busyHoursScript, busyHoursSubject, args, run, stdout)
}

// runScript runs pgbench with script and args on set's database, measures what the server spent on each
// booking it made, and deletes those bookings (their subject is subject) and vacuums.
func (p pgbench) runScript(ctx context.Context, set *dataSet, name, script, subject string, args []string, run int, stdout io.Writer) (ceilingResult, error) {
	// A file of its own: scripts run at the same time in one process must not overwrite each other.
	f, err := os.CreateTemp("", "loadtest-script-*.sql")
	if err != nil {
		return ceilingResult{}, err
	}
	file := f.Name()
	defer os.Remove(file)
	_, err = f.WriteString(script)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ceilingResult{}, err
	}
	fmt.Fprintf(stdout, "bench: pgbench, %s: %s\n", name, strings.Join(args, " "))
	meter := newCostMeter(ctx, set.pool)
	before, err := meter.snapshot(ctx)
	if err != nil {
		return ceilingResult{}, err
	}
	text, err := exec.CommandContext(ctx, p.bin, append(args, "-f", file, plain(set.dbURL))...).CombinedOutput()
	if err != nil {
		return ceilingResult{}, fmt.Errorf("pgbench, %s: %w\n%s", name, err, text)
	}
	after, err := meter.snapshot(ctx)
	if err != nil {
		return ceilingResult{}, err
	}
	r := ceilingResult{Run: run}
	m, l, n := tpsLine.FindSubmatch(text), latencyLine.FindSubmatch(text), processedLine.FindSubmatch(text)
	if m == nil || l == nil || n == nil {
		return ceilingResult{}, fmt.Errorf("pgbench, %s: no tps, latency or count in its output:\n%s", name, text)
	}
	r.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
	r.LatencyMS, _ = strconv.ParseFloat(string(l[1]), 64)
	r.Attempts, _ = strconv.ParseInt(string(n[1]), 10, 64)
	made, err := set.pool.Exec(ctx, "DELETE FROM bookings WHERE organization_id = $1 AND subject = $2", orgID, subject)
	if err != nil {
		return ceilingResult{}, fmt.Errorf("delete the bookings of %s: %w", name, err)
	}
	if _, err := set.pool.Exec(ctx, "VACUUM bookings"); err != nil {
		return ceilingResult{}, fmt.Errorf("vacuum bookings: %w", err)
	}
	r.Made = made.RowsAffected()
	r.Cost = after.since(before).per(r.Made)
	fmt.Fprintf(stdout, "bench: %s: %.0f tps, latency average %.1f ms, %d bookings made of %d tried; %s\n",
		name, r.TPS, r.LatencyMS, r.Made, r.Attempts, r.Cost)
	return r, nil
}

// ceilingArgs are pgbench's arguments for the booking script, but the script itself: its variables
// describe the seeded organization (see ceiling.sql).
func ceilingArgs(ctx context.Context, pool *pgxpool.Pool, sz size, w *world, clients int, duration time.Duration) ([]string, error) {
	// The runs of book fill days from the first day after the reads' days; a benchmark's many runs reach
	// past ceilingFirstDay. The script books after the last of them too.
	if err := w.readFirstDay(ctx, pool); err != nil {
		return nil, err
	}
	first := max(ceilingFirstDay(sz), w.firstDay)
	return orgScriptArgs(ctx, pool, sz, clients, duration, nil,
		pgbenchVar{"n", -1}, pgbenchVar{"clients", int64(clients)}, pgbenchVar{"firstday", int64(first)},
		pgbenchVar{"rooms", int64(len(w.rooms))}, pgbenchVar{"desks", int64(len(w.bookedDesks()))})
}

// busyHoursArgs are pgbench's arguments for the busy-hours script, but the script itself (see
// busyhours.sql). seed starts pgbench's random numbers.
func busyHoursArgs(ctx context.Context, pool *pgxpool.Pool, sz size, clients, seed int, duration time.Duration) ([]string, error) {
	return orgScriptArgs(ctx, pool, sz, clients, duration, []string{"--random-seed=" + strconv.Itoa(seed)},
		pgbenchVar{"resources", int64(sz.resources())})
}

// pgbenchVar is a variable of a pgbench script, set with -D.
type pgbenchVar struct {
	name  string
	value int64
}

// orgScriptArgs are pgbench's arguments for a script run on the seeded organization: clients for duration
// with prepared statements, the flags, then the variables vars and those both scripts use: the
// organization, its layout version, today's midnight (UTC), and the seed's counts.
func orgScriptArgs(ctx context.Context, pool *pgxpool.Pool, sz size, clients int, duration time.Duration, flags []string, vars ...pgbenchVar) ([]string, error) {
	var layout int64
	if err := pool.QueryRow(ctx, "SELECT layout_version FROM organizations WHERE id = $1", orgID).Scan(&layout); err != nil {
		return nil, fmt.Errorf("read the layout version: %w", err)
	}
	args := append([]string{"-n", "-c", strconv.Itoa(clients), "-j", "2", "-T", strconv.Itoa(int(duration.Seconds())),
		"-M", "prepared"}, flags...)
	args = append(args, "-D", "org="+orgID.String())
	vars = append(vars, pgbenchVar{"layout", layout}, pgbenchVar{"epoch", time.Now().UTC().Truncate(24 * time.Hour).Unix()},
		pgbenchVar{"perfloor", int64(sz.ResourcesPerFloor)}, pgbenchVar{"roomsperfloor", int64(sz.RoomsPerFloor)},
		pgbenchVar{"floorsperbuilding", int64(sz.FloorsPerBuilding)}, pgbenchVar{"users", int64(sz.Users)})
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
	p("day past every seeded booking and every run of book's, so its slots never overlap and it measures\n")
	p("inserts, not refusals. Its bookings are deleted after each run. book over HTTP as a share of it is\n")
	p("what the service itself costs.\n\n")
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
	row := func(name string, cs []perBooking) {
		m := medianCost(cs)
		p("| %s | %.0f | %.2f | %s | %s | %s |\n", name, m.WALBytes, m.FPI, orDash(m.CPUMicros), orDash(m.ExecMicros), orDash(m.InsertWAL))
	}
	row("book (HTTP)", r.BookCost)
	row("booking script", costs(r.Ceiling))
	if len(r.BusyHours) == 0 {
		return
	}
	row("busy-hours script", costs(r.BusyHours))
	var made, tried int64
	var tps []float64
	for _, c := range r.BusyHours {
		made, tried, tps = made+c.Made, tried+c.Attempts, append(tps, c.TPS)
	}
	p("\nThe busy-hours script (cmd/loadtest/busyhours.sql) books what people book, among the seeded bookings:\n")
	p("a random resource as a random person, 15 minutes to 2 hours from a quarter hour between 07:00 and\n")
	p("17:00 UTC on one of the next 30 days, with as many clients for as long. It made %d bookings of the %d\n", made, tried)
	p("it tried (%.0f tries a second, median); the others overlapped a booking there and were skipped after the\n", median(tps))
	p("same search the service's insert makes. Its figures are per booking made, so they include the refused\n")
	p("tries. Its bookings are deleted after each run.\n")
}

// ceilingClients is the booking script's client count: book's.
func (r report) ceilingClients() int { return defaultOptions("book").Concurrency }

// costs are the costs of a script's runs, run by run.
func costs(rs []ceilingResult) []perBooking {
	out := make([]perBooking, len(rs))
	for i, c := range rs {
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

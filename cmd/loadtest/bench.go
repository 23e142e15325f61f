package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web/postgres"
)

// benchOptions are those of `loadtest bench`.
type benchOptions struct {
	ServerURL       string // DATABASE_URL: its server hosts the benchmark's databases
	Database        string
	PgbenchDatabase string
	DemoDatabase    string // the demo office, whose pages are weighed too
	// Size is standard, or large: then the scenarios also run on the large data set in LargeDatabase,
	// each run right after the same run on the standard one.
	Size          string
	LargeDatabase string
	OutDir        string
	ResultsDir    string
	Runs          int
	Duration      time.Duration
}

const (
	benchPgbenchScale    = "32"
	memoryTargetMB       = 150
	serverReadyTimeout   = time.Minute
	serverShutdownWindow = 40 * time.Second
	// largeReuseWithin is how old a large data set may be for a benchmark to use it again rather than
	// seed it anew (half an hour on two shared cores). Its bookings' statuses drift with the clock.
	largeReuseWithin = 24 * time.Hour
)

// target is what a scenario's medians must reach. contend and rush have none: their runs' checks decide.
type target struct {
	rate float64 // requests a second (book: bookings a second), at least
	p99  float64 // ms, at most
}

var targets = map[string]target{
	"status":       {rate: 5000, p99: 20},
	"free":         {rate: 1500, p99: 50},
	"availability": {rate: 1500, p99: 50},
	"book":         {rate: 1100, p99: 50},
}

// benchRun is one run of `loadtest bench`: what it set up, and the report it fills in.
type benchRun struct {
	o              benchOptions
	rep            report
	runOptions     map[string]options // each scenario's, as `loadtest run` would have them
	resultsDir     string
	sets           []*dataSet // the standard data set first
	pgbench        pgbench
	bookCost       bookCost
	outbox         outboxBench
	serverEnv      []string  // the servers' environment beyond DATABASE_URL (the outbox's mail server)
	demoURL        string    // the demo office's database, once loaded
	demoEmployee   uuid.UUID // the demo office's employee, the pages are opened as
	stdout, stderr io.Writer
}

// dataSet is a database seeded for the benchmark, and the server on it.
type dataSet struct {
	name  string // the size seeded: standard or large
	size  size
	dbURL string
	pool  *pgxpool.Pool
	world *world
	srv   *server
	info  *setInfo // in the report, with the results
}

// measurement is something the benchmark measures beside the scenarios. prepare runs once, before the
// servers start; before and after run just before and just after each run of scenario on the standard
// data set, after while the servers are idle, so that the two are measured at the same moment of a
// machine whose speed drifts. Any may be nil.
type measurement struct {
	name     string
	scenario string
	prepare  func(ctx context.Context, b *benchRun) error
	before   func(ctx context.Context, b *benchRun, run int) error
	after    func(ctx context.Context, b *benchRun, run int) error
}

// measurements are taken in this order.
var measurements = []measurement{
	// First, so that its own two runs and their e-mails come before the snapshots of the cost of a
	// booking, and its wait for the standard run's e-mails before them too: that cost includes the
	// outbox's work.
	{name: "outbox", scenario: "book", prepare: prepareOutbox, before: beforeOutbox, after: afterOutbox},
	// First, so that what the server spent on book's bookings is read before pgbench adds to it.
	{name: "cost of a booking", scenario: "book", before: beforeBook, after: afterBook},
	{name: "pgbench", scenario: "book", prepare: preparePgbench, after: runPgbench},
	{name: "booking script", scenario: "book", after: runCeiling},
	{name: "page weight", scenario: "pages", prepare: prepareDemo, after: weighPages},
	{name: "utilisation report", scenario: "pages", prepare: prepareUtilisation, after: measureUtilisation},
}

// bench measures the service on a fresh standard data set, and on a large one if asked. It seeds the
// data, builds and starts the real server on each, runs every scenario Runs times with the measurements
// beside them, and writes the report.
// It fails when a run's checks fail (a double booking, a lost 201, an unexpected answer). Missed targets
// are only reported: the machine's load decides them as much as the code does.
func bench(ctx context.Context, o benchOptions, stdout, stderr io.Writer) error {
	b, err := newBenchRun(o, stdout, stderr)
	if err != nil {
		return err
	}
	defer b.close()
	if err := b.seedStandard(ctx); err != nil {
		return err
	}
	if o.Size == "large" {
		if err := b.seedLarge(ctx); err != nil {
			return err
		}
	}
	if err := b.prepare(ctx); err != nil {
		return err
	}
	for _, set := range b.sets {
		logs := filepath.Join(b.resultsDir, set.name+"-server.log")
		if set.srv, err = startServer(ctx, set.dbURL, logs, stdout, b.serverEnv); err != nil {
			return err
		}
	}
	if err := b.measure(ctx); err != nil {
		return err
	}
	if err := b.stopServers(); err != nil {
		return err
	}
	b.rep.Machine = machine(ctx, b.sets[0].pool)
	for _, set := range b.sets {
		set.info.DatabaseSize = databaseSize(ctx, set.pool)
	}
	b.rep.Took = time.Since(b.rep.Date)
	if err := b.write(); err != nil {
		return err
	}
	if failed := b.rep.failedChecks(); len(failed) > 0 {
		return fmt.Errorf("checks failed: %s", strings.Join(failed, "; "))
	}
	return nil
}

// newBenchRun checks the options and makes the folder for the run's JSON.
func newBenchRun(o benchOptions, stdout, stderr io.Writer) (*benchRun, error) {
	if o.Runs < 1 || o.Runs > 10 {
		return nil, fmt.Errorf("--runs %d: between 1 and 10", o.Runs)
	}
	if o.Size != "standard" && o.Size != "large" {
		return nil, fmt.Errorf("--size %q: standard or large", o.Size)
	}
	b := &benchRun{o: o, runOptions: make(map[string]options, len(scenarios)), stdout: stdout, stderr: stderr}
	// Each scenario runs with the defaults of `loadtest run`, for the benchmark's duration. The server's
	// address and pid are filled in once it has started.
	for _, sc := range scenarios {
		opt := defaultOptions(sc)
		opt.Duration = o.Duration
		if err := opt.check(); err != nil {
			return nil, err
		}
		b.runOptions[sc] = opt
	}
	dbURL, err := withDatabase(o.ServerURL, o.Database)
	if err != nil {
		return nil, err
	}
	// The server configures its pool from the same URL.
	poolCfg, err := postgres.PoolConfig(dbURL)
	if err != nil {
		return nil, err
	}
	began := time.Now().UTC()
	b.resultsDir = filepath.Join(o.ResultsDir, began.Format("20060102T150405Z"))
	if err := os.MkdirAll(b.resultsDir, 0o755); err != nil {
		return nil, err
	}
	standard := &dataSet{name: "standard", size: sizes["standard"], dbURL: dbURL,
		info: &setInfo{SizeName: "standard", Size: sizes["standard"], Database: o.Database, Results: map[string][]result{}}}
	b.sets = []*dataSet{standard}
	b.rep = report{
		Date: began, Runs: o.Runs, Duration: o.Duration, Warmup: defaultOptions("").Warmup, Procs: runtime.GOMAXPROCS(0),
		SizeName: "standard", Size: standard.size, PoolMaxConns: int(poolCfg.MaxConns), ServerFlags: serveFlags,
		Database: o.Database, PgbenchDatabase: o.PgbenchDatabase, DemoDatabase: o.DemoDatabase, Results: standard.info.Results, Standard: standard.info,
	}
	return b, nil
}

// seedStandard recreates the benchmark's database and seeds the standard organization in it.
func (b *benchRun) seedStandard(ctx context.Context) error {
	set := b.sets[0]
	fmt.Fprintf(b.stdout, "bench: recreating database %s\n", b.o.Database)
	if err := recreate(ctx, b.o.ServerURL, b.o.Database); err != nil {
		return err
	}
	seeded := time.Now()
	if err := seed(ctx, set.dbURL, set.size, seeded, b.stdout); err != nil {
		return err
	}
	b.rep.SeedTime = time.Since(seeded)
	set.info.SeedTime, set.info.SeededAt = b.rep.SeedTime, seeded.UTC()
	if err := b.open(ctx, set); err != nil {
		return err
	}
	b.rep.Users = len(set.world.users)
	return nil
}

// seedLarge makes the large data set ready: the one in LargeDatabase when it was seeded at this size
// within largeReuseWithin, without the bookings earlier benchmarks made in it; else a fresh one.
func (b *benchRun) seedLarge(ctx context.Context) error {
	dbURL, err := withDatabase(b.o.ServerURL, b.o.LargeDatabase)
	if err != nil {
		return err
	}
	set := &dataSet{name: "large", size: sizes["large"], dbURL: dbURL,
		info: &setInfo{SizeName: "large", Size: sizes["large"], Database: b.o.LargeDatabase, Results: map[string][]result{}}}
	mark, ok := readSeedMark(ctx, dbURL)
	if ok && mark.Size == "large" && time.Since(mark.At) < largeReuseWithin {
		fmt.Fprintf(b.stdout, "bench: using database %s, seeded with the large data set at %s\n", b.o.LargeDatabase, mark.At.Format(time.RFC3339))
		set.info.Reused = true
		if err := forgetLoad(ctx, dbURL); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(b.stdout, "bench: recreating database %s for the large data set\n", b.o.LargeDatabase)
		if err := recreate(ctx, b.o.ServerURL, b.o.LargeDatabase); err != nil {
			return err
		}
		mark = seedMark{Size: "large", At: time.Now().UTC()}
		if err := seed(ctx, dbURL, set.size, mark.At, b.stdout); err != nil {
			return err
		}
		mark.Took = time.Since(mark.At)
		if err := markSeeded(ctx, dbURL, mark); err != nil {
			return err
		}
	}
	set.info.SeedTime, set.info.SeededAt = mark.Took, mark.At
	b.rep.Large = set.info
	b.sets = append(b.sets, set)
	return b.open(ctx, set)
}

// open opens a pool on the data set and reads the world the scenarios load it with.
func (b *benchRun) open(ctx context.Context, set *dataSet) error {
	var err error
	if set.pool, err = openPool(ctx, set.dbURL, 4); err != nil {
		return err
	}
	// One world serves every run. Its tokens outlive the longest benchmark; only the first free day
	// changes from run to run.
	load := defaultOptions("")
	ttl := 2*time.Hour + time.Duration(b.o.Runs*len(scenarios)*2)*(load.Warmup+b.o.Duration)
	set.world, err = newWorld(ctx, set.pool, load.Users, ttl, time.Now())
	return err
}

// close closes the data sets' pools and stops their servers, if still running.
func (b *benchRun) close() {
	for _, srv := range b.outbox.servers() {
		srv.stop()
	}
	for _, set := range b.sets {
		if set.srv != nil {
			set.srv.stop()
		}
		if set.pool != nil {
			set.pool.Close()
		}
	}
}

// prepare builds bin/booking and prepares each measurement.
func (b *benchRun) prepare(ctx context.Context) error {
	fmt.Fprintln(b.stdout, "bench: go build -o bin/booking ./cmd/booking")
	build := exec.CommandContext(ctx, "go", "build", "-o", "bin/booking", "./cmd/booking")
	build.Stdout, build.Stderr = b.stderr, b.stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	for _, m := range measurements {
		if m.prepare == nil {
			continue
		}
		if err := m.prepare(ctx, b); err != nil {
			return fmt.Errorf("%s: %w", m.name, err)
		}
	}
	return nil
}

// measure runs every scenario Runs times, in turn, on each data set, and the measurements after the runs
// of their scenario.
func (b *benchRun) measure(ctx context.Context) error {
	for i := range b.o.Runs {
		for _, sc := range scenarios {
			for j, set := range b.sets {
				fmt.Fprintf(b.stdout, "\nbench: %s, run %d of %d, %s data set\n", sc, i+1, b.o.Runs, set.name)
				standard := j == 0
				if standard {
					if err := b.runMeasurements(ctx, sc, i+1, func(m measurement) measureFunc { return m.before }); err != nil {
						return err
					}
				}
				if err := b.runScenario(ctx, set, sc, i+1); err != nil {
					return fmt.Errorf("%s on the %s data set: %w", sc, set.name, err)
				}
				if standard {
					if err := b.runMeasurements(ctx, sc, i+1, func(m measurement) measureFunc { return m.after }); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// measureFunc is one step of a measurement beside the run-th run of a scenario.
type measureFunc func(ctx context.Context, b *benchRun, run int) error

// runMeasurements runs the step that pick chooses of each measurement beside scenario sc.
func (b *benchRun) runMeasurements(ctx context.Context, sc string, run int, pick func(measurement) measureFunc) error {
	for _, m := range measurements {
		if f := pick(m); m.scenario == sc && f != nil {
			if err := f(ctx, b, run); err != nil {
				return fmt.Errorf("%s: %w", m.name, err)
			}
		}
	}
	return nil
}

// runScenario runs scenario sc once on a data set, as the benchmark's run-th, and keeps its result.
func (b *benchRun) runScenario(ctx context.Context, set *dataSet, sc string, run int) error {
	opt := b.runOptions[sc]
	opt.Bases, opt.ServerPIDs = []string{set.srv.base}, []int{set.srv.cmd.Process.Pid}
	if err := set.world.readFirstDay(ctx, set.pool); err != nil {
		return err
	}
	res, err := runScenario(ctx, set.pool, set.world, opt, b.stderr)
	if err != nil {
		return err
	}
	printResult(b.stdout, res)
	name := fmt.Sprintf("%s-%d.json", sc, run)
	if set.name != "standard" {
		name = set.name + "-" + name
	}
	if err := writeJSON(filepath.Join(b.resultsDir, name), res); err != nil {
		return err
	}
	set.info.Results[sc] = append(set.info.Results[sc], res)
	return nil
}

// stopServers stops the servers. A server logs every request: its log is kept only when a run failed.
func (b *benchRun) stopServers() error {
	for _, srv := range b.outbox.servers() {
		if err := srv.stop(); err != nil {
			return fmt.Errorf("stop the outbox measurement's server: %w", err)
		}
	}
	for _, set := range b.sets {
		if err := set.srv.stop(); err != nil {
			return fmt.Errorf("stop the server of the %s data set: %w", set.name, err)
		}
	}
	if len(b.rep.failedChecks()) > 0 {
		return nil
	}
	for _, set := range b.sets {
		if err := os.Remove(set.srv.logPath); err != nil {
			return err
		}
	}
	return nil
}

// write writes docs/benchmarks.md, its chart and the summary's JSON, and prints the results.
func (b *benchRun) write() error {
	if err := os.MkdirAll(b.o.OutDir, 0o755); err != nil {
		return err
	}
	rows := b.rep.rows()
	md, svg := filepath.Join(b.o.OutDir, "benchmarks.md"), filepath.Join(b.o.OutDir, "benchmarks.svg")
	if err := os.WriteFile(md, []byte(b.rep.markdown(rows)), 0o644); err != nil {
		return err
	}
	if err := b.rep.chart(svg, rows); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	if err := writeJSON(filepath.Join(b.resultsDir, "summary.json"), b.rep.summary(rows)); err != nil {
		return err
	}
	fmt.Fprintf(b.stdout, "\n%s\nbench: wrote %s, %s and the runs' JSON under %s\n", b.rep.table(rows), md, svg, b.resultsDir)
	return nil
}

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

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web/postgres"
)

// benchOptions are those of `loadtest bench`.
type benchOptions struct {
	ServerURL       string // DATABASE_URL: its server hosts the benchmark's databases
	Database        string
	PgbenchDatabase string
	OutDir          string
	ResultsDir      string
	Runs            int
	Duration        time.Duration
}

const (
	benchPgbenchScale    = "32"
	memoryTargetMB       = 150
	serverReadyTimeout   = time.Minute
	serverShutdownWindow = 40 * time.Second
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
	dbURL          string
	pool           *pgxpool.Pool
	world          *world
	srv            *server
	pgbench        pgbench
	stdout, stderr io.Writer
}

// measurement is something the benchmark measures beside the scenarios. prepare runs once, before the
// server starts; after runs after each run of scenario, while the server is idle, so that the two are
// measured at the same moment of a machine whose speed drifts. Either may be nil.
type measurement struct {
	name     string
	scenario string
	prepare  func(ctx context.Context, b *benchRun) error
	after    func(ctx context.Context, b *benchRun, run int) error
}

// measurements are taken in this order.
var measurements = []measurement{
	{name: "pgbench", scenario: "book", prepare: preparePgbench, after: runPgbench},
}

// bench measures the service on a fresh standard data set. It seeds the data, builds and starts the real
// server, runs every scenario Runs times with the measurements beside them, and writes the report.
// It fails when a run's checks fail (a double booking, a lost 201, an unexpected answer). Missed targets
// are only reported: the machine's load decides them as much as the code does.
func bench(ctx context.Context, o benchOptions, stdout, stderr io.Writer) error {
	b, err := newBenchRun(o, stdout, stderr)
	if err != nil {
		return err
	}
	if err := b.seed(ctx); err != nil {
		return err
	}
	defer b.pool.Close()
	if err := b.prepare(ctx); err != nil {
		return err
	}
	if b.srv, err = startServer(ctx, b.dbURL, filepath.Join(b.resultsDir, "server.log"), stdout); err != nil {
		return err
	}
	defer b.srv.stop()
	if err := b.measure(ctx); err != nil {
		return err
	}
	if err := b.srv.stop(); err != nil {
		return fmt.Errorf("stop the server: %w", err)
	}
	// The server logs every request: its log is kept only when a run failed.
	if len(b.rep.failedChecks()) == 0 {
		if err := os.Remove(b.srv.logPath); err != nil {
			return err
		}
	}
	b.rep.Machine = machine(ctx, b.pool)
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
	var err error
	if b.dbURL, err = withDatabase(o.ServerURL, o.Database); err != nil {
		return nil, err
	}
	// The server configures its pool from the same URL.
	poolCfg, err := postgres.PoolConfig(b.dbURL)
	if err != nil {
		return nil, err
	}
	began := time.Now().UTC()
	b.resultsDir = filepath.Join(o.ResultsDir, began.Format("20060102T150405Z"))
	if err := os.MkdirAll(b.resultsDir, 0o755); err != nil {
		return nil, err
	}
	b.rep = report{
		Date: began, Runs: o.Runs, Duration: o.Duration, Warmup: defaultOptions("").Warmup, Procs: runtime.GOMAXPROCS(0),
		SizeName: "standard", Size: sizes["standard"], PoolMaxConns: int(poolCfg.MaxConns), ServerFlags: serveFlags,
		Database: o.Database, PgbenchDatabase: o.PgbenchDatabase, Results: map[string][]result{},
	}
	return b, nil
}

// seed recreates the benchmark's database, seeds it, and reads the world the scenarios load it with.
func (b *benchRun) seed(ctx context.Context) error {
	fmt.Fprintf(b.stdout, "bench: recreating database %s\n", b.o.Database)
	if err := recreate(ctx, b.o.ServerURL, b.o.Database); err != nil {
		return err
	}
	seeded := time.Now()
	if err := seed(ctx, b.dbURL, b.rep.Size, time.Now(), b.stdout); err != nil {
		return err
	}
	b.rep.SeedTime = time.Since(seeded)
	var err error
	if b.pool, err = openPool(ctx, b.dbURL, 4); err != nil {
		return err
	}
	// One world serves every run. Its tokens outlive the longest benchmark; only the first free day
	// changes from run to run.
	load := defaultOptions("")
	ttl := 2*time.Hour + time.Duration(b.o.Runs*len(scenarios))*(load.Warmup+b.o.Duration)
	if b.world, err = newWorld(ctx, b.pool, load.Users, ttl, time.Now()); err != nil {
		b.pool.Close()
		return err
	}
	b.rep.Users = len(b.world.users)
	return nil
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

// measure runs every scenario Runs times, in turn, and the measurements after the runs of their scenario.
func (b *benchRun) measure(ctx context.Context) error {
	for i := range b.o.Runs {
		for _, sc := range scenarios {
			fmt.Fprintf(b.stdout, "\nbench: %s, run %d of %d\n", sc, i+1, b.o.Runs)
			if err := b.runScenario(ctx, sc, i+1); err != nil {
				return fmt.Errorf("%s: %w", sc, err)
			}
			for _, m := range measurements {
				if m.scenario != sc || m.after == nil {
					continue
				}
				if err := m.after(ctx, b, i+1); err != nil {
					return fmt.Errorf("%s: %w", m.name, err)
				}
			}
		}
	}
	return nil
}

// runScenario runs scenario sc once against the server, as the benchmark's run-th, and keeps its result.
func (b *benchRun) runScenario(ctx context.Context, sc string, run int) error {
	opt := b.runOptions[sc]
	opt.Bases, opt.ServerPIDs = []string{b.srv.base}, []int{b.srv.cmd.Process.Pid}
	if err := b.world.readFirstDay(ctx, b.pool); err != nil {
		return err
	}
	res, err := runScenario(ctx, b.pool, b.world, opt, b.stderr)
	if err != nil {
		return err
	}
	printResult(b.stdout, res)
	if err := writeJSON(filepath.Join(b.resultsDir, fmt.Sprintf("%s-%d.json", sc, run)), res); err != nil {
		return err
	}
	b.rep.Results[sc] = append(b.rep.Results[sc], res)
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

// Command loadtest measures Workspace Booking under load. It builds a synthetic organization straight
// into a database (seed), drives a running server over HTTP with one scenario at a time and checks the
// database afterwards (run), and runs the whole benchmark behind `make bench` (bench): a fresh standard
// data set, the real server, every scenario, pgbench beside it, docs/benchmarks.md and its chart.
//
//	loadtest seed  [--size standard|large|small] [--db URL]
//	loadtest run   --scenario status|free|availability|book|contend|rush|pages [--base http://127.0.0.1:8080]
//	               [--db URL] [--c 32] [--duration 10s] [--warmup 1s] [--rounds 100] [--users 1000]
//	               [--procs 1] [--server-pid PID] [--out FILE.json]
//	loadtest bench [--size standard|large] [--out docs] [--runs 3] [--duration 10s]
//
// It is a binary of its own rather than a `booking` subcommand. Load generation and pgbench stay out of
// the server binary, and the generator runs as a separate process: it never shares the server's heap or
// scheduler, and its own cost is not counted as the server's. Runs are bounded (5 minutes, 1,000
// clients) and only ever aimed at this machine (loopback).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // building time zones work on machines without a zoneinfo database

	"github.com/workspacebooking/booking/cmd/internal/cli"
)

// defaultDatabaseURL is the local server, used when neither --db nor DATABASE_URL is set.
const defaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/booking?sslmode=disable"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, cli.ErrHelp) {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

const usage = `usage: loadtest <command> [flags]

commands:
  seed   [--size standard|large|small] [--db URL]
                                                 build the synthetic organizations into a (fresh) database
  run    --scenario NAME [--base URL] [flags]    load a running server with one scenario, then check the database
  bench  [--size standard|large] [--out docs] [--runs 3] [--duration 10s]
                                                 fresh standard data set, the real server, every scenario and
                                                 pgbench; writes docs/benchmarks.md and docs/benchmarks.svg

scenarios: status, free, availability, book, contend, rush, pages
environment: DATABASE_URL (the default of --db)
`

// run is the whole program: it parses args, reads the environment through getenv, and writes to stdout
// and stderr only.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	dbDefault := getenv("DATABASE_URL")
	if dbDefault == "" {
		dbDefault = defaultDatabaseURL
	}
	cmd, rest := args[1], args[2:]
	fs := cli.NewCommand(cmd, "usage: loadtest "+cmd+" [flags]")
	switch cmd {
	case "seed":
		return runSeed(ctx, fs, rest, dbDefault, stdout, stderr)
	case "run":
		return runRun(ctx, fs, rest, dbDefault, stdout, stderr)
	case "bench":
		return runBench(ctx, fs, rest, dbDefault, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// runSeed is `loadtest seed`.
func runSeed(ctx context.Context, fs *cli.Command, args []string, dbDefault string, stdout, stderr io.Writer) error {
	size := fs.String("size", "standard", "size of the organization: "+strings.Join(sizeNames(), ", "))
	db := fs.String("db", dbDefault, "database URL")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	sz, ok := sizes[*size]
	if !ok {
		return fmt.Errorf("--size %q: one of %s", *size, strings.Join(sizeNames(), ", "))
	}
	start := time.Now()
	if err := seed(ctx, *db, sz, start, stdout); err != nil {
		return err
	}
	return markSeeded(ctx, *db, seedMark{Size: *size, At: start.UTC(), Took: time.Since(start)})
}

// sizeNames are the sizes seed knows, in name order.
func sizeNames() []string { return slices.Sorted(maps.Keys(sizes)) }

// runRun is `loadtest run`.
func runRun(ctx context.Context, fs *cli.Command, args []string, dbDefault string, stdout, stderr io.Writer) error {
	o := defaultOptions("")
	fs.StringVar(&o.Scenario, "scenario", "", "one of "+strings.Join(scenarios, ", "))
	base := fs.String("base", strings.Join(o.Bases, ","), "the server; several, comma-separated, are loaded in turn")
	db := fs.String("db", dbDefault, "the server's database URL (ids to use, and the check afterwards)")
	fs.IntVar(&o.Concurrency, "c", 0, fmt.Sprintf("concurrent clients (default %d; contend %d)", defaultClients, defaultContendClients))
	fs.DurationVar(&o.Duration, "duration", o.Duration, "how long to measure (all but contend)")
	fs.DurationVar(&o.Warmup, "warmup", o.Warmup, "how long to load the server before measuring (all but contend)")
	procs := fs.Int("procs", 1, "cores the load generator uses (GOMAXPROCS; 0: all)")
	fs.IntVar(&o.Rounds, "rounds", o.Rounds, "contend: rounds")
	fs.IntVar(&o.Users, "users", o.Users, "at most this many synthetic people, one token each")
	pids := fs.String("server-pid", "", "the server process(es), comma-separated, whose peak resident memory to report")
	out := fs.String("out", "", "write the result as JSON to this file")
	fs.BoolVar(&o.Pinned, "pinned", false, "with several servers: each client keeps to one (client i loads the i-th, in turn), and the result gives each server's bookings")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	defer useProcs(*procs)()
	o.Bases = strings.Split(*base, ",")
	if o.Concurrency == 0 {
		o.Concurrency = defaultOptions(o.Scenario).Concurrency
	}
	var err error
	if o.ServerPIDs, err = parsePIDs(*pids); err != nil {
		return err
	}
	res, err := runOnce(ctx, *db, o, stderr)
	if err != nil {
		return err
	}
	printResult(stdout, res)
	if *out != "" {
		if err := writeJSON(*out, res); err != nil {
			return err
		}
	}
	if !res.OK {
		return fmt.Errorf("%s failed: %s", res.Scenario, strings.Join(res.Failures, "; "))
	}
	return nil
}

// parsePIDs reads --server-pid: process ids, comma-separated.
func parsePIDs(s string) ([]int, error) {
	var pids []int
	for p := range strings.SplitSeq(s, ",") {
		if p == "" {
			continue
		}
		pid, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("--server-pid %q: not a process id", p)
		}
		pids = append(pids, pid)
	}
	return pids, nil
}

// runBench is `loadtest bench`.
func runBench(ctx context.Context, fs *cli.Command, args []string, dbDefault string, stdout, stderr io.Writer) error {
	b := benchOptions{ServerURL: dbDefault}
	fs.StringVar(&b.OutDir, "out", "docs", "where to write benchmarks.md and benchmarks.svg")
	fs.StringVar(&b.ResultsDir, "results", "bench-results", "where to write each run's JSON")
	fs.IntVar(&b.Runs, "runs", 3, "runs of each scenario; the report gives their medians")
	fs.DurationVar(&b.Duration, "duration", defaultOptions("").Duration, "length of each run and of each pgbench run")
	fs.StringVar(&b.Database, "database", "booking_bench", "the database to recreate and seed, on the server of DATABASE_URL")
	fs.StringVar(&b.PgbenchDatabase, "pgbench-database", "booking_pgbench", "the database to recreate for pgbench")
	fs.StringVar(&b.DemoDatabase, "demo-database", "booking_demo_bench", "the database to recreate with the demo office, whose pages are weighed")
	fs.StringVar(&b.Size, "size", "standard", "standard, or large: the scenarios also run on the large data set, side by side")
	fs.StringVar(&b.LargeDatabase, "large-database", "booking_large", "the database of the large data set, kept from one benchmark to the next for a day")
	procs := fs.Int("procs", 1, "cores the load generator uses (GOMAXPROCS; 0: all)")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	defer useProcs(*procs)()
	return bench(ctx, b, stdout, stderr)
}

// useProcs sets GOMAXPROCS to n (n > 0) and returns what restores it. One core is the default: on a
// small machine the generator then leaves the others to the server and PostgreSQL, and it spends less
// on waking threads (a core drives several thousand requests a second).
func useProcs(n int) func() {
	if n <= 0 {
		return func() {}
	}
	prev := runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(prev) }
}

// runOnce checks the options, reads the organization and mints its tokens, and runs one scenario.
func runOnce(ctx context.Context, dbURL string, o options, progress io.Writer) (result, error) {
	if err := o.check(); err != nil {
		return result{}, err
	}
	pool, err := openPool(ctx, dbURL, 4)
	if err != nil {
		return result{}, err
	}
	defer pool.Close()
	w, err := newWorld(ctx, pool, o.Users, 2*time.Hour, time.Now())
	if err != nil {
		return result{}, err
	}
	return runScenario(ctx, pool, w, o, progress)
}

// printResult writes the summary of a run.
func printResult(w io.Writer, r result) {
	fmt.Fprintf(w, "%s: %d requests in %.1fs, %.0f/s", r.Scenario, r.Requests, r.ElapsedS, r.Rate)
	if r.Bookings > 0 {
		fmt.Fprintf(w, "; %d bookings, %.0f/s", r.Bookings, r.BookingRate)
	}
	fmt.Fprintf(w, " (%d clients)\n", r.Concurrency)
	fmt.Fprintf(w, "  latency ms: p50 %.2f  p95 %.2f  p99 %.2f  max %.2f\n", r.LatencyMS.P50, r.LatencyMS.P95, r.LatencyMS.P99, r.LatencyMS.Max)
	fmt.Fprintf(w, "  status: %s\n", counts(r.StatusCounts))
	if len(r.ErrorCodes) > 0 {
		fmt.Fprintf(w, "  errors by code: %s\n", counts(r.ErrorCodes))
	}
	if len(r.Rounds) > 0 {
		fmt.Fprintf(w, "  rounds with exactly one 201 and only 409 4001 besides: %d of %d\n", r.roundsWon(), len(r.Rounds))
	}
	if len(r.Pages) > 0 {
		fmt.Fprint(w, pagesTable(r.Pages))
	}
	if r.ServerPeakRSSMB > 0 {
		fmt.Fprintf(w, "  server peak RSS: %.0f MB\n", r.ServerPeakRSSMB)
	}
	fmt.Fprintf(w, "  check: %d overlapping blocking bookings; %d of %d bookings answered 201 found (%.1fs)\n",
		r.Check.OverlappingPairs, r.Check.Found201, r.Check.Answered201, r.Check.Seconds)
	if r.OK {
		fmt.Fprintln(w, "  ok")
	} else {
		fmt.Fprintf(w, "  FAILED: %s\n", strings.Join(r.Failures, "; "))
	}
}

// counts writes a map of counts in key order: "200 × 1234, 409 × 5".
func counts(m map[string]int) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s × %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// writeJSON writes v to path as indented JSON: a run's result, the benchmark's summary.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

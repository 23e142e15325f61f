// Command loadtest measures Workspace Booking under load: it builds a synthetic organization of a chosen
// size straight into a database, drives a running server over HTTP with one scenario at a time, checks the
// database after every run (no two blocking bookings of a resource overlap; every booking answered 201
// exists), and runs the whole benchmark behind `make bench`.
//
//	loadtest seed  [--size standard|small]
//	loadtest run   --scenario status|free|availability|book|contend|rush [--base URL[,URL…]] [--c 32]
//	               [--duration 10s] [--rounds 100] [--server-pid PID[,PID…]] [--out result.json]
//	loadtest bench [--out docs] [--runs 3] [--duration 10s]
//
// It is a binary of its own rather than a `booking` subcommand: load generation, pgbench orchestration
// and charting stay out of the server, and the generator runs as a process of its own, never sharing the
// server's heap or scheduler. Runs are bounded (5 minutes, 1,000 clients) and only ever aimed at this
// machine (loopback).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

const defaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/booking?sslmode=disable"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  loadtest seed  [--size standard|small]             builds the synthetic organization into DATABASE_URL
  loadtest run   --scenario NAME [flags]             drives a running server with one scenario
  loadtest bench [--out docs] [--runs 3]             the standard set on a fresh database, pgbench beside it
scenarios: status, free, availability, book, contend, rush`

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprintln(stderr, usage)
		return errors.New("a command is required")
	}
	dbURL := getenv("DATABASE_URL")
	if dbURL == "" {
		dbURL = defaultDatabaseURL
	}
	fs := flag.NewFlagSet(args[1], flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizeName := fs.String("size", "standard", "size of the synthetic organization: standard or small")
	switch args[1] {
	case "seed":
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		sz, ok := sizes[*sizeName]
		if !ok {
			return fmt.Errorf("--size %q: standard or small", *sizeName)
		}
		return seed(ctx, dbURL, sz, time.Now(), stdout)
	case "run":
		scenario := fs.String("scenario", "", "status, free, availability, book, contend or rush")
		base := fs.String("base", "http://127.0.0.1:8080", "the server(s), comma-separated; requests go to each in turn")
		c := fs.Int("c", 0, "concurrent clients (default 32; contend 50)")
		duration := fs.Duration("duration", 10*time.Second, "how long to run (not contend)")
		rounds := fs.Int("rounds", 100, "contend: rounds")
		pids := fs.String("server-pid", "", "the server processes, comma-separated, whose peak memory to report")
		out := fs.String("out", "", "write the result as JSON to this file")
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		sz, ok := sizes[*sizeName]
		if !ok {
			return fmt.Errorf("--size %q: standard or small", *sizeName)
		}
		o := options{Scenario: *scenario, Bases: strings.Split(*base, ","), Concurrency: *c, Duration: *duration, Rounds: *rounds}
		if o.Concurrency == 0 {
			o.Concurrency = 32
			if o.Scenario == "contend" {
				o.Concurrency = 50
			}
		}
		for _, p := range strings.Split(*pids, ",") {
			if p == "" {
				continue
			}
			pid, err := strconv.Atoi(p)
			if err != nil {
				return fmt.Errorf("--server-pid %q: %w", p, err)
			}
			o.ServerPIDs = append(o.ServerPIDs, pid)
		}
		res, err := runOnce(ctx, dbURL, sz, o, stderr)
		if err != nil {
			return err
		}
		printResult(stdout, res)
		if *out != "" {
			if err := writeResult(*out, res); err != nil {
				return err
			}
		}
		if !res.OK {
			return fmt.Errorf("%s: %s", res.Scenario, strings.Join(res.Failures, "; "))
		}
		return nil
	case "bench":
		outDir := fs.String("out", "docs", "where to write benchmarks.md and benchmarks.png")
		runs := fs.Int("runs", 3, "runs of each scenario (the medians are reported)")
		duration := fs.Duration("duration", 10*time.Second, "length of each run and of each pgbench run")
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		return bench(ctx, dbURL, *outDir, *runs, *duration, stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	fmt.Fprintln(stderr, usage)
	return fmt.Errorf("unknown command %q", args[1])
}

// runOnce checks the options, then runs one scenario against the database's organization.
func runOnce(ctx context.Context, dbURL string, sz size, o options, progress io.Writer) (result, error) {
	if !validScenario(o.Scenario) {
		return result{}, fmt.Errorf("--scenario %q: one of %s", o.Scenario, strings.Join(scenarios, ", "))
	}
	for _, b := range o.Bases {
		if err := loopback(b); err != nil {
			return result{}, err
		}
	}
	if o.Duration <= 0 || o.Duration > maxDuration {
		return result{}, fmt.Errorf("--duration %s: between 0 and %s", o.Duration, maxDuration)
	}
	if o.Concurrency < 1 || o.Concurrency > maxConcurrency {
		return result{}, fmt.Errorf("--c %d: between 1 and %d", o.Concurrency, maxConcurrency)
	}
	if o.Rounds < 1 || o.Rounds > 10_000 {
		return result{}, fmt.Errorf("--rounds %d: between 1 and 10000", o.Rounds)
	}
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return result{}, err
	}
	defer pool.Close()
	w, err := newWorld(ctx, pool, sz)
	if err != nil {
		return result{}, err
	}
	return runScenario(ctx, pool, w, o, progress)
}

func validScenario(s string) bool {
	for _, n := range scenarios {
		if n == s {
			return true
		}
	}
	return false
}

func printResult(w io.Writer, r result) {
	fmt.Fprintf(w, "%s: %d requests in %.1fs = %.0f/s", r.Scenario, r.Requests, r.Seconds, r.Rate)
	if r.Bookings > 0 {
		fmt.Fprintf(w, " (%d bookings, %.0f/s)", r.Bookings, r.BookingsPerSecond)
	}
	fmt.Fprintf(w, "\n  latency ms: p50 %.1f  p95 %.1f  p99 %.1f  max %.1f\n", r.LatencyMS.P50, r.LatencyMS.P95, r.LatencyMS.P99, r.LatencyMS.Max)
	fmt.Fprintf(w, "  answers: %v\n", r.Statuses)
	if r.Rounds > 0 {
		fmt.Fprintf(w, "  rounds with exactly one winner: %d of %d\n", r.RoundsOneWinner, r.Rounds)
	}
	if r.PeakRSSMB > 0 {
		fmt.Fprintf(w, "  server peak RSS: %.0f MB\n", r.PeakRSSMB)
	}
	fmt.Fprintf(w, "  check: %d overlapping blocking bookings; %d of %d bookings answered 201 found\n", r.Overlaps, r.Found201, r.Answered201)
	if r.OK {
		fmt.Fprintln(w, "  ok")
	} else {
		fmt.Fprintf(w, "  FAILED: %s\n", strings.Join(r.Failures, "; "))
	}
}

func writeResult(path string, r result) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

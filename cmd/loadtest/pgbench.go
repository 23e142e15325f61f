package main

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/workspacebooking/booking/cmd/internal/pgcluster"
)

// pgbenchResult is one pgbench run.
type pgbenchResult struct {
	Name      string  `json:"name"`
	Run       int     `json:"run"` // the benchmark's run it was measured in, beside that run of book
	TPS       float64 `json:"tps"`
	LatencyMS float64 `json:"latency_average_ms"`
}

// pgbenchModes are pgbench's runs, by name: TPC-B (its default script) and select-only.
var pgbenchModes = []struct {
	name  string
	extra []string
}{{"TPC-B", nil}, {"select-only", []string{"-S"}}}

var (
	tpsLine     = regexp.MustCompile(`tps = ([0-9.]+)`)
	latencyLine = regexp.MustCompile(`latency average = ([0-9.]+) ms`)
	// processedLine is pgbench's count of the transactions it ran.
	processedLine = regexp.MustCompile(`number of transactions actually processed: ([0-9]+)`)
)

// pgbench measures the database server itself, on a database of its own.
type pgbench struct{ bin, dbURL string }

// initPgbench fills the database of dbURL with pgbench's tables, of scale benchPgbenchScale.
func initPgbench(ctx context.Context, dbURL string, stderr io.Writer) (pgbench, error) {
	bin, err := pgcluster.Program("pgbench")
	if err != nil {
		return pgbench{}, err
	}
	p := pgbench{bin: bin, dbURL: plain(dbURL)}
	init := exec.CommandContext(ctx, bin, "-i", "-q", "-s", benchPgbenchScale, p.dbURL)
	init.Stdout, init.Stderr = stderr, stderr
	if err := init.Run(); err != nil {
		return pgbench{}, fmt.Errorf("pgbench -i: %w", err)
	}
	return p, nil
}

// run runs each of pgbenchModes for duration at the benchmark's concurrency, as the benchmark's run-th.
func (p pgbench) run(ctx context.Context, run int, duration time.Duration, stdout io.Writer) ([]pgbenchResult, error) {
	var out []pgbenchResult
	for _, mode := range pgbenchModes {
		args := append([]string{"-c", strconv.Itoa(defaultClients), "-j", "2", "-T", strconv.Itoa(int(duration.Seconds())), "-M", "prepared"}, mode.extra...)
		fmt.Fprintf(stdout, "bench: pgbench %s\n", strings.Join(args, " "))
		text, err := exec.CommandContext(ctx, p.bin, append(args, p.dbURL)...).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("pgbench %s: %w\n%s", mode.name, err, text)
		}
		r := pgbenchResult{Name: mode.name, Run: run}
		m, l := tpsLine.FindSubmatch(text), latencyLine.FindSubmatch(text)
		if m == nil || l == nil {
			return nil, fmt.Errorf("pgbench %s: no tps or latency in its output:\n%s", mode.name, text)
		}
		r.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
		r.LatencyMS, _ = strconv.ParseFloat(string(l[1]), 64)
		fmt.Fprintf(stdout, "bench: pgbench %s: %.0f tps, latency average %.1f ms\n", r.Name, r.TPS, r.LatencyMS)
		out = append(out, r)
	}
	return out, nil
}

// preparePgbench recreates pgbench's own database and fills it.
func preparePgbench(ctx context.Context, b *benchRun) error {
	fmt.Fprintf(b.stdout, "\nbench: pgbench on a fresh database %s\n", b.o.PgbenchDatabase)
	pgbURL, err := withDatabase(b.o.ServerURL, b.o.PgbenchDatabase)
	if err != nil {
		return err
	}
	if err := recreate(ctx, b.o.ServerURL, b.o.PgbenchDatabase); err != nil {
		return err
	}
	b.pgbench, err = initPgbench(ctx, pgbURL, b.stderr)
	return err
}

// runPgbench runs pgbench beside a run of book, and keeps its results.
func runPgbench(ctx context.Context, b *benchRun, run int) error {
	prs, err := b.pgbench.run(ctx, run, b.o.Duration, b.stdout)
	if err != nil {
		return err
	}
	b.rep.Pgbench = append(b.rep.Pgbench, prs...)
	return nil
}

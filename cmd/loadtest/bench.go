package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// target is what a scenario must reach (the figures).
type target struct {
	rate, p99 float64 // at least rate/s (bookings/s for book), p99 at most this many ms
	text      string
}

var targets = map[string]target{
	"status":       {rate: 5000, p99: 20, text: "≥ 5,000/s, p99 ≤ 20 ms"},
	"free":         {rate: 1500, p99: 50, text: "≥ 1,500/s, p99 ≤ 50 ms"},
	"availability": {rate: 1500, p99: 50, text: "≥ 1,500/s, p99 ≤ 50 ms"},
	"book":         {rate: 1100, p99: 50, text: "≥ 1,100 bookings/s and ≥ 50% of TPC-B, p99 ≤ 50 ms"},
	"contend":      {text: "exactly 1 winner per round, every other answer 409 4001, no 5xx"},
	"rush":         {text: "no 5xx; every 201 stored; no overlap"},
}

const memoryTarget = 150 // MB resident

// pgbenchResult is one pgbench run.
type pgbenchResult struct {
	Name      string
	TPS       float64
	LatencyMS float64
}

// bench runs the standard set on a fresh database and writes the report.
func bench(ctx context.Context, serverURL, outDir string, runs int, duration time.Duration, stdout, stderr io.Writer) error {
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		return fmt.Errorf("DATABASE_URL: %w", err)
	}
	dbURL, pgbURL := withDatabase(serverURL, "booking_bench"), withDatabase(serverURL, "booking_pgbench")
	for _, db := range []string{"booking_bench", "booking_pgbench"} {
		if err := recreate(ctx, serverURL, db); err != nil {
			return err
		}
	}
	sz := sizes["standard"]
	seeded := time.Now()
	if err := seed(ctx, dbURL, sz, time.Now(), stdout); err != nil {
		return err
	}
	seedTime := time.Since(seeded)

	fmt.Fprintln(stdout, "building bin/booking")
	build := exec.CommandContext(ctx, "go", "build", "-o", "bin/booking", "./cmd/booking")
	build.Stdout, build.Stderr = stderr, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	srv, base, err := startServer(ctx, dbURL, stderr)
	if err != nil {
		return err
	}
	defer func() { _ = srv.Process.Signal(syscall.SIGTERM); _ = srv.Wait() }()

	resultsDir := "bench-results"
	if err := os.MkdirAll(resultsDir, 0o755); err != nil {
		return err
	}
	all := map[string][]result{}
	for _, sc := range scenarios {
		for i := range runs {
			o := options{Scenario: sc, Bases: []string{base}, Concurrency: 32, Duration: duration, Rounds: 100, ServerPIDs: []int{srv.Process.Pid}}
			if sc == "contend" {
				o.Concurrency = 50
			}
			res, err := runOnce(ctx, dbURL, sz, o, stderr)
			if err != nil {
				return err
			}
			printResult(stdout, res)
			if err := writeResult(filepath.Join(resultsDir, fmt.Sprintf("%s-%d.json", sc, i+1)), res); err != nil {
				return err
			}
			all[sc] = append(all[sc], res)
		}
	}
	_ = srv.Process.Signal(syscall.SIGTERM)
	_ = srv.Wait()

	pgb, err := runPgbench(ctx, cfg, pgbURL, duration, stdout, stderr)
	if err != nil {
		return err
	}
	report := benchReport{
		Runs: runs, Duration: duration, SeedTime: seedTime, Results: all, Pgbench: pgb,
		Machine: machine(ctx, dbURL), Date: time.Now().UTC(),
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(outDir, "benchmarks.md"), []byte(report.markdown()), 0o644); err != nil {
		return err
	}
	if err := writeChart(filepath.Join(outDir, "benchmarks.png"), report); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s and %s\n", filepath.Join(outDir, "benchmarks.md"), filepath.Join(outDir, "benchmarks.png"))
	if failed := report.failed(); len(failed) > 0 {
		return fmt.Errorf("targets missed: %s", strings.Join(failed, "; "))
	}
	return nil
}

// withDatabase is the URL of another database on the same server.
func withDatabase(serverURL, db string) string {
	cfg, _ := pgx.ParseConfig(serverURL)
	return fmt.Sprintf("postgres://%s@%s/%s?sslmode=disable", cfg.User, net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), db)
}

// recreate drops the database if it exists and creates it empty.
func recreate(ctx context.Context, serverURL, db string) error {
	conn, err := pgx.Connect(ctx, withDatabase(serverURL, "postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	name := pgx.Identifier{db}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+name)
	return err
}

// startServer starts bin/booking serve on a free loopback port, without the per-address and per-user
// limits (every synthetic person calls from 127.0.0.1), and waits until it is ready.
func startServer(ctx context.Context, dbURL string, stderr io.Writer) (*exec.Cmd, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	addr := ln.Addr().String()
	ln.Close()
	args := []string{"serve", "--addr", addr}
	if help, _ := exec.CommandContext(ctx, "bin/booking", "serve", "--help").CombinedOutput(); strings.Contains(string(help), "rate-per-user") {
		args = append(args, "--rate-per-user", "0", "--rate-per-address", "0")
	}
	cmd := exec.CommandContext(ctx, "bin/booking", args...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL)
	logs, err := os.Create(filepath.Join(os.TempDir(), "booking-bench-server.log"))
	if err != nil {
		return nil, "", err
	}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		return nil, "", err
	}
	base := "http://" + addr
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if res, err := http.Get(base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				fmt.Fprintf(stderr, "server ready on %s (pid %d, logs in %s)\n", base, cmd.Process.Pid, logs.Name())
				return cmd, base, nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	return nil, "", errors.New("the server did not become ready within a minute")
}

var (
	tpsLine     = regexp.MustCompile(`tps = ([0-9.]+)`)
	latencyLine = regexp.MustCompile(`latency average = ([0-9.]+) ms`)
)

// runPgbench measures the machine's own ceiling: pgbench TPC-B and select-only, 32 clients.
func runPgbench(ctx context.Context, cfg *pgx.ConnConfig, dbURL string, duration time.Duration, stdout, stderr io.Writer) ([]pgbenchResult, error) {
	bin, err := pgTool("pgbench")
	if err != nil {
		return nil, err
	}
	conn := []string{"-h", cfg.Host, "-p", strconv.Itoa(int(cfg.Port)), "-U", cfg.User}
	init := exec.CommandContext(ctx, bin, append(conn, "-i", "-q", "-s", "32", "booking_pgbench")...)
	init.Stdout, init.Stderr = stderr, stderr
	fmt.Fprintln(stdout, "pgbench: initializing scale 32")
	if err := init.Run(); err != nil {
		return nil, fmt.Errorf("pgbench -i: %w", err)
	}
	var out []pgbenchResult
	for _, mode := range []struct {
		name  string
		extra []string
	}{{"TPC-B", nil}, {"select-only", []string{"-S"}}} {
		args := append(append(slices.Clone(conn), "-n", "-c", "32", "-j", "2", "-M", "prepared", "-T", strconv.Itoa(int(duration.Seconds()))), mode.extra...)
		text, err := exec.CommandContext(ctx, bin, append(args, "booking_pgbench")...).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("pgbench %s: %w\n%s", mode.name, err, text)
		}
		r := pgbenchResult{Name: mode.name}
		if m := tpsLine.FindSubmatch(text); m != nil {
			r.TPS, _ = strconv.ParseFloat(string(m[1]), 64)
		}
		if m := latencyLine.FindSubmatch(text); m != nil {
			r.LatencyMS, _ = strconv.ParseFloat(string(m[1]), 64)
		}
		fmt.Fprintf(stdout, "pgbench %s: %.0f tps, latency average %.1f ms\n", r.Name, r.TPS, r.LatencyMS)
		out = append(out, r)
	}
	return out, nil
}

// pgTool finds a PostgreSQL program on the PATH or where Debian puts it.
func pgTool(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(matches) == 0 {
		return "", fmt.Errorf("%s not found: install PostgreSQL's client programs", name)
	}
	slices.Sort(matches)
	return matches[len(matches)-1], nil
}

// machine describes where the figures were measured.
func machine(ctx context.Context, dbURL string) map[string]string {
	m := map[string]string{"cores": strconv.Itoa(runtime.NumCPU()), "go": runtime.Version(), "os": runtime.GOOS + "/" + runtime.GOARCH}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m["cpu"] = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int
		fmt.Sscanf(strings.SplitN(string(data), "\n", 2)[0], "MemTotal: %d kB", &kb)
		m["memory"] = fmt.Sprintf("%.0f GiB", float64(kb)/(1<<20))
	}
	if data, err := os.ReadFile("/etc/os-release"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				m["system"] = strings.Trim(v, `"`)
			}
		}
	}
	if pool, err := pgxpool.New(ctx, dbURL); err == nil {
		var v string
		if pool.QueryRow(ctx, "SHOW server_version").Scan(&v) == nil {
			m["postgresql"] = v
		}
		pool.Close()
	}
	return m
}

// benchReport is what `make bench` writes.
type benchReport struct {
	Runs     int
	Duration time.Duration
	SeedTime time.Duration
	Results  map[string][]result
	Pgbench  []pgbenchResult
	Machine  map[string]string
	Date     time.Time
}

// median is the run with the median rate of a scenario's runs; its latencies are the medians of the runs'.
func (b benchReport) median(sc string) (result, bool) {
	rs := b.Results[sc]
	if len(rs) == 0 {
		return result{}, false
	}
	med := func(f func(result) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	m := slices.Clone(rs)
	slices.SortFunc(m, func(a, c result) int { return int(a.Rate - c.Rate) })
	r := m[len(m)/2]
	r.Rate = med(func(r result) float64 { return r.Rate })
	r.BookingsPerSecond = med(func(r result) float64 { return r.BookingsPerSecond })
	r.LatencyMS = latencies{
		P50: med(func(r result) float64 { return r.LatencyMS.P50 }), P95: med(func(r result) float64 { return r.LatencyMS.P95 }),
		P99: med(func(r result) float64 { return r.LatencyMS.P99 }), Max: med(func(r result) float64 { return r.LatencyMS.Max }),
	}
	for _, x := range rs {
		r.PeakRSSMB = max(r.PeakRSSMB, x.PeakRSSMB)
		r.OK = r.OK && x.OK
	}
	return r, true
}

func (b benchReport) tpcb() float64 {
	for _, p := range b.Pgbench {
		if p.Name == "TPC-B" {
			return p.TPS
		}
	}
	return 0
}

// verdict says whether a scenario's median run meets its target, and why not.
func (b benchReport) verdict(sc string) (bool, string) {
	r, ok := b.median(sc)
	if !ok {
		return false, "not run"
	}
	t := targets[sc]
	var miss []string
	for _, x := range b.Results[sc] {
		if !x.OK {
			miss = append(miss, "a run failed its checks: "+strings.Join(x.Failures, "; "))
			break
		}
	}
	rate := r.Rate
	if sc == "book" {
		rate = r.BookingsPerSecond
		if tp := b.tpcb(); tp > 0 && rate < tp/2 {
			miss = append(miss, fmt.Sprintf("%.0f%% of TPC-B", 100*rate/tp))
		}
	}
	if t.rate > 0 && rate < t.rate {
		miss = append(miss, fmt.Sprintf("%.0f/s", rate))
	}
	if t.p99 > 0 && r.LatencyMS.P99 > t.p99 {
		miss = append(miss, fmt.Sprintf("p99 %.1f ms", r.LatencyMS.P99))
	}
	if r.PeakRSSMB > memoryTarget {
		miss = append(miss, fmt.Sprintf("%.0f MB resident", r.PeakRSSMB))
	}
	return len(miss) == 0, strings.Join(miss, ", ")
}

func (b benchReport) failed() []string {
	var out []string
	for _, sc := range scenarios {
		if ok, why := b.verdict(sc); !ok {
			out = append(out, sc+": "+why)
		}
	}
	return out
}

func (b benchReport) markdown() string {
	var s strings.Builder
	fmt.Fprintf(&s, "# Benchmarks\n\nMeasured by `make bench` on %s. Server, PostgreSQL and load generator share one machine:\n\n", b.Date.Format("2006-01-02 15:04 MST"))
	for _, k := range []string{"cpu", "cores", "memory", "system", "go", "postgresql"} {
		if v := b.Machine[k]; v != "" {
			fmt.Fprintf(&s, "- %s: %s\n", k, v)
		}
	}
	fmt.Fprintf(&s, "\nData: the standard synthetic organization (10 buildings, 50 floors, 10,000 resources of which 1,000 rooms, "+
		"5,000 people, 1,000,000 bookings over the 180 days around today), seeded in %s. Each scenario ran %d times for %s "+
		"at 32 concurrent clients (contend: 50 clients × 100 rounds) against one `booking serve` with its default pool (16 connections); "+
		"the table gives the medians. The per-user and per-address rate limits are off for the runs: every synthetic person calls "+
		"from 127.0.0.1. After every run an SQL check proved that no two blocking bookings of a resource overlap and that every "+
		"booking answered 201 is stored.\n\n", b.SeedTime.Round(time.Second), b.Runs, b.Duration)
	s.WriteString("| scenario | req/s | bookings/s | p50 ms | p95 ms | p99 ms | max ms | answers (last run) | server RSS MB | target | met |\n")
	s.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, sc := range scenarios {
		r, ok := b.median(sc)
		if !ok {
			continue
		}
		last := b.Results[sc][len(b.Results[sc])-1]
		var answers []string
		for _, k := range slices.Sorted(maps.Keys(last.Statuses)) {
			answers = append(answers, fmt.Sprintf("%s × %d", k, last.Statuses[k]))
		}
		if sc == "contend" {
			answers = append(answers, fmt.Sprintf("%d of %d rounds with one winner", last.RoundsOneWinner, last.Rounds))
		}
		met, why := b.verdict(sc)
		mark := "yes"
		if !met {
			mark = "no: " + why
		}
		bps := "—"
		if r.BookingsPerSecond > 0 {
			bps = fmt.Sprintf("%.0f", r.BookingsPerSecond)
		}
		fmt.Fprintf(&s, "| %s | %.0f | %s | %.1f | %.1f | %.1f | %.1f | %s | %.0f | %s | %s |\n", sc, r.Rate, bps,
			r.LatencyMS.P50, r.LatencyMS.P95, r.LatencyMS.P99, r.LatencyMS.Max, strings.Join(answers, ", "), r.PeakRSSMB, targets[sc].text, mark)
	}
	s.WriteString("\nThe machine's own ceiling, pgbench on a fresh database of scale 32, 32 clients, 2 threads, prepared statements:\n\n")
	s.WriteString("| pgbench | tps | latency average ms |\n|---|---|---|\n")
	for _, p := range b.Pgbench {
		fmt.Fprintf(&s, "| %s | %.0f | %.1f |\n", p.Name, p.TPS, p.LatencyMS)
	}
	if r, ok := b.median("book"); ok && b.tpcb() > 0 {
		fmt.Fprintf(&s, "\n`book` made %.0f bookings/s, %.0f%% of TPC-B's %.0f transactions/s.\n", r.BookingsPerSecond, 100*r.BookingsPerSecond/b.tpcb(), b.tpcb())
	}
	s.WriteString("\n![Latency by scenario](benchmarks.png)\n\n## How to reproduce\n\n```\nmake bench\n```\n\n" +
		"It drops and recreates the databases `booking_bench` and `booking_pgbench` on the server of `DATABASE_URL` (default: the local one), " +
		"seeds the standard organization, builds and starts `bin/booking serve`, runs every scenario, runs pgbench, and writes this file, " +
		"the chart and each run's JSON under `bench-results/`. One scenario against a server of your own:\n\n" +
		"```\ngo run ./cmd/loadtest seed\ngo run ./cmd/loadtest run --scenario book --base http://127.0.0.1:8080 --c 32 --duration 10s --out book.json\n```\n\n" +
		"The machine is shared and noisy: compare medians and ratios, not single runs.\n")
	return s.String()
}

// writeChart draws p50, p95 and p99 of each scenario as bars, on a square-root scale up to the largest p99.
func writeChart(path string, b benchReport) error {
	const w, h, left, bottom, top = 960, 480, 70, 60, 40
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	ink := color.RGBA{0x22, 0x22, 0x22, 0xff}
	grey := color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	shades := []color.RGBA{{0x9e, 0xca, 0xe1, 0xff}, {0x42, 0x92, 0xc6, 0xff}, {0x08, 0x45, 0x94, 0xff}}
	text := func(x, y int, s string) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(ink), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	fill := func(x0, y0, x1, y1 int, c color.Color) {
		draw.Draw(img, image.Rect(x0, y0, x1, y1), image.NewUniform(c), image.Point{}, draw.Src)
	}
	var rs []result
	top99 := 1.0
	for _, sc := range scenarios {
		if r, ok := b.median(sc); ok {
			rs = append(rs, r)
			top99 = max(top99, r.LatencyMS.P99)
		}
	}
	scale := func(v float64) int { return int(float64(h-bottom-top) * math.Sqrt(v/top99)) }
	for _, v := range []float64{1, 5, 10, 20, 50, 100, 200, 500} {
		if v > top99 {
			break
		}
		y := h - bottom - scale(v)
		fill(left, y, w-20, y+1, grey)
		text(8, y+4, fmt.Sprintf("%g ms", v))
	}
	fill(left, h-bottom, w-20, h-bottom+1, ink)
	text(left, 20, fmt.Sprintf("Latency by scenario (medians of %d runs, 32 clients; square-root scale): p50, p95, p99", b.Runs))
	slot := (w - left - 40) / max(1, len(rs))
	for i, r := range rs {
		x := left + 20 + i*slot
		for j, v := range []float64{r.LatencyMS.P50, r.LatencyMS.P95, r.LatencyMS.P99} {
			bx := x + j*(slot-30)/3
			fill(bx, h-bottom-scale(v), bx+(slot-30)/3-4, h-bottom, shades[j])
		}
		text(x, h-bottom+18, r.Scenario)
		text(x, h-bottom+34, fmt.Sprintf("p99 %.1f ms", r.LatencyMS.P99))
	}
	for j, name := range []string{"p50", "p95", "p99"} {
		fill(w-200+j*60, 28, w-188+j*60, 40, shades[j])
		text(w-184+j*60, 39, name)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return png.Encode(f, img)
}

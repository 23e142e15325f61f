package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/cmd/internal/pgcluster"
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

// bench measures the service on a fresh standard data set: it seeds it, builds and starts the real
// server, runs every scenario Runs times and pgbench (on a database of its own) after each run of book,
// and writes the report.
// It fails when a run's checks fail (a double booking, a lost 201, an unexpected answer); targets missed
// are reported, not failed, since the machine's load decides them as much as the code does.
func bench(ctx context.Context, o benchOptions, stdout, stderr io.Writer) error {
	if o.Runs < 1 || o.Runs > 10 {
		return fmt.Errorf("--runs %d: between 1 and 10", o.Runs)
	}
	// Each scenario's runs: the defaults of `loadtest run`, for the benchmark's duration, on the server it
	// starts (its base and pid are set then).
	runOptions := make(map[string]options, len(scenarios))
	for _, sc := range scenarios {
		opt := defaultOptions(sc)
		opt.Duration = o.Duration
		if err := opt.check(); err != nil {
			return err
		}
		runOptions[sc] = opt
	}
	load := defaultOptions("")
	dbURL, err := withDatabase(o.ServerURL, o.Database)
	if err != nil {
		return err
	}
	pgbURL, err := withDatabase(o.ServerURL, o.PgbenchDatabase)
	if err != nil {
		return err
	}
	// The server's pool, as it configures it from its DATABASE_URL.
	poolCfg, err := postgres.PoolConfig(dbURL)
	if err != nil {
		return err
	}
	began := time.Now().UTC()
	resultsDir := filepath.Join(o.ResultsDir, began.Format("20060102T150405Z"))
	if err := os.MkdirAll(resultsDir, 0o755); err != nil {
		return err
	}
	rep := report{
		Date: began, Runs: o.Runs, Duration: o.Duration, Warmup: load.Warmup, Procs: runtime.GOMAXPROCS(0),
		SizeName: "standard", Size: sizes["standard"], PoolMaxConns: int(poolCfg.MaxConns), ServerFlags: serveFlags,
		Database: o.Database, PgbenchDatabase: o.PgbenchDatabase, Results: map[string][]result{},
	}

	fmt.Fprintf(stdout, "bench: recreating database %s\n", o.Database)
	if err := recreate(ctx, o.ServerURL, o.Database); err != nil {
		return err
	}
	seeded := time.Now()
	if err := seed(ctx, dbURL, rep.Size, time.Now(), stdout); err != nil {
		return err
	}
	rep.SeedTime = time.Since(seeded)
	pool, err := openPool(ctx, dbURL, 4)
	if err != nil {
		return err
	}
	defer pool.Close()
	// One world for every run: its tokens outlive the longest benchmark; only the first free day changes
	// from run to run.
	ttl := 2*time.Hour + time.Duration(o.Runs*len(scenarios))*(load.Warmup+o.Duration)
	w, err := newWorld(ctx, pool, load.Users, ttl, time.Now())
	if err != nil {
		return err
	}
	rep.Users = len(w.users)

	fmt.Fprintln(stdout, "bench: go build -o bin/booking ./cmd/booking")
	build := exec.CommandContext(ctx, "go", "build", "-o", "bin/booking", "./cmd/booking")
	build.Stdout, build.Stderr = stderr, stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build: %w", err)
	}
	// pgbench runs beside the scenarios, on a database of its own: after each run of book, so that the two
	// are compared as measured at the same moment of a machine whose speed drifts.
	fmt.Fprintf(stdout, "\nbench: pgbench on a fresh database %s\n", o.PgbenchDatabase)
	if err := recreate(ctx, o.ServerURL, o.PgbenchDatabase); err != nil {
		return err
	}
	pgbench, err := initPgbench(ctx, pgbURL, stderr)
	if err != nil {
		return err
	}
	srv, err := startServer(ctx, dbURL, filepath.Join(resultsDir, "server.log"), stdout)
	if err != nil {
		return err
	}
	defer srv.stop()

	for i := range o.Runs {
		for _, sc := range scenarios {
			opt := runOptions[sc]
			opt.Bases, opt.ServerPIDs = []string{srv.base}, []int{srv.cmd.Process.Pid}
			fmt.Fprintf(stdout, "\nbench: %s, run %d of %d\n", sc, i+1, o.Runs)
			if err := w.readFirstDay(ctx, pool); err != nil {
				return err
			}
			res, err := runScenario(ctx, pool, w, opt, stderr)
			if err != nil {
				return fmt.Errorf("%s: %w", sc, err)
			}
			printResult(stdout, res)
			if err := writeJSON(filepath.Join(resultsDir, fmt.Sprintf("%s-%d.json", sc, i+1)), res); err != nil {
				return err
			}
			rep.Results[sc] = append(rep.Results[sc], res)
			if sc == "book" {
				// The server is idle meanwhile: pgbench has the machine as book had it.
				prs, err := pgbench.run(ctx, i+1, o.Duration, stdout)
				if err != nil {
					return err
				}
				rep.Pgbench = append(rep.Pgbench, prs...)
			}
		}
	}
	if err := srv.stop(); err != nil {
		return fmt.Errorf("stop the server: %w", err)
	}
	// The server logs every request: its log is kept only when a run failed.
	if len(rep.failedChecks()) == 0 {
		if err := os.Remove(srv.logPath); err != nil {
			return err
		}
	}

	rep.Machine = machine(ctx, pool)
	rep.Took = time.Since(began)

	if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
		return err
	}
	rows := rep.rows()
	md, png := filepath.Join(o.OutDir, "benchmarks.md"), filepath.Join(o.OutDir, "benchmarks.png")
	if err := os.WriteFile(md, []byte(rep.markdown(rows)), 0o644); err != nil {
		return err
	}
	if err := rep.chart(png, rows); err != nil {
		return fmt.Errorf("chart: %w", err)
	}
	if err := writeJSON(filepath.Join(resultsDir, "summary.json"), rep.summary(rows)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\n%s\nbench: wrote %s, %s and the runs' JSON under %s\n", rep.table(rows), md, png, resultsDir)
	if failed := rep.failedChecks(); len(failed) > 0 {
		return fmt.Errorf("checks failed: %s", strings.Join(failed, "; "))
	}
	return nil
}

// withDatabase is the URL of another database on the server of serverURL, with the same user, password
// and parameters.
func withDatabase(serverURL, db string) (string, error) {
	u, err := url.Parse(serverURL)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("DATABASE_URL: a postgres:// URL is needed to name the benchmark's databases")
	}
	u.Path, u.RawPath = "/"+db, ""
	return u.String(), nil
}

// plain is a database URL without the parameters only the service's pool understands (pool_max_conns…),
// for pgbench and single connections: it keeps sslmode alone.
func plain(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return dbURL
	}
	q := url.Values{}
	if v := u.Query().Get("sslmode"); v != "" {
		q.Set("sslmode", v)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// recreate drops the database if it exists and creates it empty. A database someone is connected to is
// not dropped: the benchmark says so and stops.
func recreate(ctx context.Context, serverURL, db string) error {
	admin, err := withDatabase(serverURL, "postgres")
	if err != nil {
		return err
	}
	conn, err := pgx.Connect(ctx, plain(admin))
	if err != nil {
		return fmt.Errorf("connect to the server of DATABASE_URL: %w", err)
	}
	defer conn.Close(context.Background())
	name := pgx.Identifier{db}.Sanitize()
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+name); err != nil {
		return fmt.Errorf("drop database %s (is something still connected to it?): %w", db, err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return fmt.Errorf("create database %s: %w", db, err)
	}
	return nil
}

// server is the bin/booking serve the benchmark started.
type server struct {
	cmd     *exec.Cmd
	base    string
	logPath string
	exited  chan struct{} // closed once the process has exited, err set
	err     error         // what cmd.Wait returned
}

// serveFlags are what the benchmark passes to serve beyond --addr: its rate limits, each off at 0. Every
// synthetic person calls from 127.0.0.1, and the benchmark measures the service, not its limits.
var serveFlags = []string{"--rate-per-user=0", "--rate-per-address=0"}

// listeningLine is the line serve prints on stdout once it listens.
var listeningLine = regexp.MustCompile(`listening on http://(\S+)`)

// startServer starts bin/booking serve on a loopback port of the system's choosing, with its logs in
// logPath, reads where it listens from its stdout, and waits until /readyz answers 200.
func startServer(ctx context.Context, dbURL, logPath string, stdout io.Writer) (*server, error) {
	logs, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	addrs := make(chan string, 1)
	args := append([]string{"serve", "--addr", "127.0.0.1:0"}, serveFlags...)
	cmd := exec.Command("bin/booking", args...)
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL)
	cmd.Stdout, cmd.Stderr = &addrWatch{w: logs, addrs: addrs}, logs
	// Wait returns soon after the server exits, even if something it started still holds its stdout.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		logs.Close()
		return nil, fmt.Errorf("start bin/booking serve: %w", err)
	}
	s := &server{cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		logs.Close()
		close(s.exited)
	}()
	deadline := time.NewTimer(serverReadyTimeout)
	defer deadline.Stop()
	select {
	case addr := <-addrs:
		s.base = "http://" + addr
		fmt.Fprintf(stdout, "bench: bin/booking %s (pid %d, listening on %s, logs in %s)\n", strings.Join(args, " "), cmd.Process.Pid, addr, logPath)
	case <-s.exited:
		return nil, fmt.Errorf("the server exited before it listened (%v): see %s", s.err, logPath)
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	case <-deadline.C:
		s.stop()
		return nil, fmt.Errorf("the server did not say where it listens within %s: see %s", serverReadyTimeout, logPath)
	}
	// Each poll is bounded: a server that accepts the connection but never answers is polled again.
	hc := &http.Client{Timeout: time.Second}
	defer hc.CloseIdleConnections()
	for {
		if res, err := hc.Get(s.base + "/readyz"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("the server exited before it was ready (%v): see %s", s.err, logPath)
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		case <-deadline.C:
			s.stop()
			return nil, fmt.Errorf("the server was not ready within %s: see %s", serverReadyTimeout, logPath)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// addrWatch passes the server's stdout on to w, and sends on addrs (buffered) the address of the first
// line saying where the server listens. Only the goroutine of exec that copies stdout calls it.
type addrWatch struct {
	w     io.Writer
	addrs chan<- string
	line  []byte // the part of a line not yet ended
	found bool
}

func (a *addrWatch) Write(p []byte) (int, error) {
	if !a.found {
		a.line = append(a.line, p...)
		for !a.found {
			end := bytes.IndexByte(a.line, '\n')
			if end < 0 {
				break
			}
			if m := listeningLine.FindSubmatch(a.line[:end]); m != nil {
				a.addrs <- string(m[1])
				a.found, a.line = true, nil
			} else {
				a.line = a.line[end+1:]
			}
		}
	}
	return a.w.Write(p)
}

// stop ends the server with SIGTERM (SIGKILL if it has not exited in time) and returns how it exited;
// stopping it again returns the same.
func (s *server) stop() error {
	select {
	case <-s.exited:
	default:
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
		case <-time.After(serverShutdownWindow):
			_ = s.cmd.Process.Kill()
			<-s.exited
			return errors.New("the server did not stop on SIGTERM: killed")
		}
	}
	var exit *exec.ExitError
	if errors.As(s.err, &exit) {
		return fmt.Errorf("the server exited with %v", s.err)
	}
	return s.err
}

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

// machineInfo describes where the figures were measured.
type machineInfo struct {
	CPU        string `json:"cpu"`
	CPUs       int    `json:"cpus"`
	Memory     string `json:"memory"`
	OS         string `json:"os"`
	Go         string `json:"go"`
	PostgreSQL string `json:"postgresql"`
}

// machine describes this machine, and the PostgreSQL server of pool.
func machine(ctx context.Context, pool *pgxpool.Pool) machineInfo {
	m := machineInfo{CPUs: runtime.NumCPU(), Go: runtime.Version(), OS: runtime.GOOS + "/" + runtime.GOARCH}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			k, v, _ := strings.Cut(sc.Text(), ":")
			switch strings.TrimSpace(k) {
			case "model name":
				m.CPU = strings.TrimSpace(v)
			case "processor":
				n++
			}
		}
		f.Close()
		if n > 0 {
			m.CPUs = n
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int
		fmt.Sscanf(strings.SplitN(string(data), "\n", 2)[0], "MemTotal: %d kB", &kb)
		m.Memory = fmt.Sprintf("%.1f GiB", float64(kb)/(1<<20))
	}
	if data, err := os.ReadFile("/etc/os-release"); err == nil {
		for line := range strings.SplitSeq(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
				m.OS = strings.Trim(v, `"`)
			}
		}
	}
	if data, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.OS += ", Linux " + strings.TrimSpace(string(data))
	}
	_ = pool.QueryRow(ctx, "SHOW server_version").Scan(&m.PostgreSQL)
	return m
}

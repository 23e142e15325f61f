package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// pgCost is what the database server spent over a stretch of time, from its own counters: the WAL it wrote
// (pg_stat_wal, the whole server's), the CPU time of its processes (read from /proc when the server runs
// on this machine), and, when pg_stat_statements is loaded, the execution time and WAL of the statements
// that insert bookings.
type pgCost struct {
	WALBytes   int64 `json:"wal_bytes"`
	WALRecords int64 `json:"wal_records"`
	WALFPI     int64 `json:"wal_full_page_images"`
	// CPU is the server processes' CPU time; zero when they could not be read.
	CPU time.Duration `json:"cpu_ns"`
	// Inserts, InsertExecMS and InsertWALBytes are pg_stat_statements' figures for the statements that
	// insert into bookings; Inserts is zero when it is not loaded.
	Inserts        int64   `json:"inserts"`
	InsertExecMS   float64 `json:"insert_exec_ms"`
	InsertWALBytes int64   `json:"insert_wal_bytes"`
}

// costMeter reads pgCost snapshots of the server of one pool.
type costMeter struct {
	pool       *pgxpool.Pool
	postmaster int  // pid of the server's postmaster on this machine, or 0
	statements bool // pg_stat_statements is loaded and created in the pool's database
}

// newCostMeter finds what can be measured on the server of pool: it creates the pg_stat_statements
// extension in its database when the server preloads the library, and finds the postmaster when the
// server's processes are this machine's.
func newCostMeter(ctx context.Context, pool *pgxpool.Pool) *costMeter {
	m := &costMeter{pool: pool}
	var preload string
	if err := pool.QueryRow(ctx, "SHOW shared_preload_libraries").Scan(&preload); err == nil &&
		strings.Contains(preload, "pg_stat_statements") {
		_, err := pool.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
		m.statements = err == nil
	}
	var backend int
	if err := pool.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&backend); err == nil {
		// The backend's parent is the postmaster, when the pid is one of this machine's and it is postgres.
		if st, err := readProcStat(backend); err == nil && st.comm == "postgres" {
			if parent, err := readProcStat(st.ppid); err == nil && (parent.comm == "postgres" || parent.comm == "postmaster") {
				m.postmaster = st.ppid
			}
		}
	}
	return m
}

// snapshot reads the counters now.
func (m *costMeter) snapshot(ctx context.Context) (pgCost, error) {
	var c pgCost
	if err := m.pool.QueryRow(ctx, "SELECT wal_bytes::bigint, wal_records, wal_fpi FROM pg_stat_wal").
		Scan(&c.WALBytes, &c.WALRecords, &c.WALFPI); err != nil {
		return pgCost{}, fmt.Errorf("read pg_stat_wal: %w", err)
	}
	if m.statements {
		if err := m.pool.QueryRow(ctx, `
			SELECT coalesce(sum(calls), 0)::bigint, coalesce(sum(total_exec_time), 0), coalesce(sum(wal_bytes), 0)::bigint
			FROM pg_stat_statements
			WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
			  AND query ~* '^\s*(--[^\n]*\n\s*)*INSERT INTO bookings .*booking_may_insert'`).
			Scan(&c.Inserts, &c.InsertExecMS, &c.InsertWALBytes); err != nil {
			return pgCost{}, fmt.Errorf("read pg_stat_statements: %w", err)
		}
	}
	if m.postmaster != 0 {
		c.CPU = treeCPU(m.postmaster)
	}
	return c, nil
}

// since is what was spent between an earlier snapshot and c.
func (c pgCost) since(before pgCost) pgCost {
	return pgCost{
		WALBytes: c.WALBytes - before.WALBytes, WALRecords: c.WALRecords - before.WALRecords, WALFPI: c.WALFPI - before.WALFPI,
		CPU: c.CPU - before.CPU, Inserts: c.Inserts - before.Inserts, InsertExecMS: c.InsertExecMS - before.InsertExecMS,
		InsertWALBytes: c.InsertWALBytes - before.InsertWALBytes,
	}
}

// perBooking is a stretch's cost divided among the bookings it made.
type perBooking struct {
	Bookings   int64   `json:"bookings"`
	WALBytes   float64 `json:"wal_bytes"`        // the server's WAL over the bookings
	FPI        float64 `json:"wal_fpi"`          // full-page images among them
	CPUMicros  float64 `json:"cpu_us"`           // the server's CPU time, 0 when unknown
	ExecMicros float64 `json:"insert_exec_us"`   // pg_stat_statements' execution time of an insert, 0 when unknown
	InsertWAL  float64 `json:"insert_wal_bytes"` // pg_stat_statements' WAL of an insert alone, 0 when unknown
}

// per divides c among n bookings.
func (c pgCost) per(n int64) perBooking {
	if n <= 0 {
		return perBooking{}
	}
	p := perBooking{Bookings: n, WALBytes: float64(c.WALBytes) / float64(n), FPI: float64(c.WALFPI) / float64(n),
		CPUMicros: float64(c.CPU.Microseconds()) / float64(n)}
	if c.Inserts > 0 {
		p.ExecMicros = 1000 * c.InsertExecMS / float64(c.Inserts)
		p.InsertWAL = float64(c.InsertWALBytes) / float64(c.Inserts)
	}
	return p
}

// procStat is what readProcStat reads of /proc/PID/stat.
type procStat struct {
	comm          string
	ppid          int
	own, children time.Duration // utime+stime; cutime+cstime (children waited for)
}

// clockTick is the unit of /proc's times: USER_HZ, 100 on every Linux this runs on.
const clockTick = 10 * time.Millisecond

// readProcStat reads /proc/PID/stat.
func readProcStat(pid int) (procStat, error) {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return procStat{}, err
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses, so split after its last ')'.
	s := string(data)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return procStat{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(s[end+1:])
	// f[0] is field 3 (state): ppid is field 4, utime..cstime fields 14 to 17.
	if len(f) < 15 {
		return procStat{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	n := func(i int) int64 { v, _ := strconv.ParseInt(f[i-3], 10, 64); return v }
	return procStat{
		comm: s[open+1 : end], ppid: int(n(4)),
		own:      time.Duration(n(14)+n(15)) * clockTick,
		children: time.Duration(n(16)+n(17)) * clockTick,
	}, nil
}

// treeCPU is the CPU time of the postmaster and of its children, those running and those gone (which the
// postmaster's own figures count once it has waited for them).
func treeCPU(postmaster int) time.Duration {
	pm, err := readProcStat(postmaster)
	if err != nil {
		return 0
	}
	total := pm.own + pm.children
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return total
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readProcStat(pid); err == nil && st.ppid == postmaster {
			total += st.own
		}
	}
	return total
}

// Package hacluster runs a pg_auto_failover formation on this machine: a monitor and two PostgreSQL
// nodes, a primary and a secondary that replicates synchronously, each with a folder and a port of its
// own. It backs `make ha` and the failover test.
package hacluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/workspacebooking/booking/cmd/internal/pgcluster"
)

const installHelp = `pg_autoctl (pg_auto_failover) is not installed.
Install it, for example on Debian/Ubuntu:
  apt-get install postgresql-15-auto-failover pg-auto-failover-cli`

// FastFailover are the monitor's settings that make it notice a lost primary and promote the secondary
// within a few seconds (its defaults take about 30). They suit nodes on one machine or one LAN; on a
// slower network, raise them.
var FastFailover = map[string]string{
	"pgautofailover.health_check_period":               "1000", // ms between health checks
	"pgautofailover.health_check_timeout":              "1000", // ms a health check may take to connect
	"pgautofailover.health_check_max_retries":          "1",
	"pgautofailover.health_check_retry_delay":          "500",
	"pgautofailover.node_considered_unhealthy_timeout": "2000", // ms without a keeper's report
	"pgautofailover.primary_demote_timeout":            "3000", // ms the monitor waits for a lost primary to demote itself
	"pgautofailover.startup_grace_period":              "2000",
}

// NodeSettings are settings of both nodes, applied with ALTER SYSTEM each time the formation starts.
// After a checkpoint, the first change to each page writes the whole page to the WAL, and with
// synchronous replication a commit waits until the secondary has it. wal_compression = lz4 compresses
// those pages: right after a checkpoint, a booking on the pair wrote 38% less WAL with it
// (docs/scaling.md). A server built without lz4 refuses the value; the node then keeps its own.
var NodeSettings = map[string]string{"wal_compression": "lz4"}

// Formation is a monitor and two nodes under Root: Root/monitor, Root/node1 and Root/node2, each a data
// folder with its log beside it (Root/node1.log…). The nodes serve the database Database.
type Formation struct {
	Root        string
	MonitorPort int
	NodePorts   [2]int
	Database    string
	// Log receives the output of the pg_autoctl commands that create and stop the nodes.
	Log io.Writer

	pgctl string
	cred  *syscall.Credential // the postgres user's, when we run as root; nil otherwise
}

// New finds pg_autoctl and PostgreSQL's binaries for a formation under root (made absolute). As root,
// the nodes run as the system user postgres, since PostgreSQL refuses to run as root.
func New(root string, monitorPort int, nodePorts [2]int, log io.Writer) (*Formation, error) {
	if _, err := exec.LookPath("pg_autoctl"); err != nil {
		return nil, errors.New(installHelp)
	}
	pgctl, err := pgcluster.Program("pg_ctl")
	if err != nil {
		return nil, err
	}
	// pg_autoctl looks for pg_basebackup and pg_rewind beside pg_ctl, which may be a link to them.
	if pgctl, err = filepath.EvalSymlinks(pgctl); err != nil {
		return nil, err
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	f := &Formation{Root: root, MonitorPort: monitorPort, NodePorts: nodePorts, Database: "booking", Log: log, pgctl: pgctl}
	if os.Geteuid() == 0 {
		if f.cred, err = postgresUser(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Installed reports whether pg_autoctl is on the PATH.
func Installed() bool {
	_, err := exec.LookPath("pg_autoctl")
	return err == nil
}

// URL is the service's DATABASE_URL: both nodes, of which the client keeps the one that accepts writes.
func (f *Formation) URL() string { return f.url("read-write") }

// ReadURL is a URL for reads that may lag a little: the secondary while there is one, else the primary.
func (f *Formation) ReadURL() string { return f.url("prefer-standby") }

func (f *Formation) url(attrs string) string {
	return fmt.Sprintf("postgres://postgres@%s,%s/%s?sslmode=disable&target_session_attrs=%s",
		f.NodeAddr(0), f.NodeAddr(1), f.Database, attrs)
}

// NodeAddr is the TCP address of node i (0 or 1).
func (f *Formation) NodeAddr(i int) string { return addr(f.NodePorts[i]) }

// NodeURL is the address of the database on node i alone, whatever its role.
func (f *Formation) NodeURL(i int) string {
	return fmt.Sprintf("postgres://postgres@%s/%s?sslmode=disable", f.NodeAddr(i), f.Database)
}

// MonitorURL is the address of the monitor's database, as the nodes reach it.
func (f *Formation) MonitorURL() string {
	return fmt.Sprintf("postgres://autoctl_node@%s/pg_auto_failover?sslmode=disable", addr(f.MonitorPort))
}

// addr is the TCP address of a port on this machine.
func addr(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }

// Running reports whether the monitor accepts connections, as it does once Start has run.
func (f *Formation) Running() bool { return pgcluster.Listening(addr(f.MonitorPort)) }

// Start creates what does not exist yet, starts the monitor and both nodes, and waits until one node is
// primary and the other its secondary. The keepers (pg_autoctl run) go on after Start returns, detached
// from this process; Stop stops them.
func (f *Formation) Start(ctx context.Context) error {
	for _, dir := range []string{f.Root, f.path("run")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
	}
	if err := f.chown(f.Root); err != nil {
		return err
	}
	if err := f.startMonitor(ctx); err != nil {
		return err
	}
	for i := range f.NodePorts {
		// A new second node clones the first, which must be running by then.
		if i == 1 && !exists(filepath.Join(f.path(nodeName(1)), "PG_VERSION")) {
			single := func(nodes []Node) bool { return len(nodes) == 1 && settled(nodes[0], "single") }
			if err := f.WaitFor(ctx, time.Minute, "the first node", single); err != nil {
				return err
			}
		}
		if err := f.startNode(ctx, i); err != nil {
			return err
		}
	}
	if err := f.WaitFor(ctx, time.Minute, "a primary and a secondary", Paired); err != nil {
		return err
	}
	return f.tuneNodes(ctx)
}

// startMonitor creates the monitor when its folder is empty, starts its keeper and applies FastFailover.
func (f *Formation) startMonitor(ctx context.Context) error {
	dir := f.path("monitor")
	if !exists(filepath.Join(dir, "PG_VERSION")) {
		err := f.autoctl(ctx, "create", "monitor", "--pgdata", dir, "--pgctl", f.pgctl,
			"--pgport", strconv.Itoa(f.MonitorPort), "--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl")
		if err != nil {
			return err
		}
	}
	if err := f.runKeeper("monitor"); err != nil {
		return err
	}
	return f.tuneMonitor(ctx)
}

// startNode creates node i when its folder is empty, registering it with the monitor (which makes the
// first node primary and the second its secondary), and starts its keeper.
func (f *Formation) startNode(ctx context.Context, i int) error {
	name := nodeName(i)
	dir := f.path(name)
	if !exists(filepath.Join(dir, "PG_VERSION")) {
		err := f.autoctl(ctx, "create", "postgres", "--pgdata", dir, "--pgctl", f.pgctl,
			"--pgport", strconv.Itoa(f.NodePorts[i]), "--listen", "127.0.0.1", "--hostname", "127.0.0.1",
			"--name", name, "--dbname", f.Database, "--monitor", f.MonitorURL(), "--auth", "trust", "--no-ssl")
		if err != nil {
			return err
		}
	}
	return f.runKeeper(name)
}

// tuneMonitor applies FastFailover on the monitor, once it accepts connections.
func (f *Formation) tuneMonitor(ctx context.Context) error {
	url := fmt.Sprintf("postgres://postgres@%s/pg_auto_failover?sslmode=disable", addr(f.MonitorPort))
	return alterSystem(ctx, url, "monitor", FastFailover, f.Log)
}

// tuneNodes applies NodeSettings on both nodes. ALTER SYSTEM keeps them in each node's
// postgresql.auto.conf, so they last through restarts and failovers.
func (f *Formation) tuneNodes(ctx context.Context) error {
	for i := range f.NodePorts {
		if err := alterSystem(ctx, f.NodeURL(i), nodeName(i), NodeSettings, f.Log); err != nil {
			return err
		}
	}
	return nil
}

// alterSystem sets settings with ALTER SYSTEM on the server of url (called who in errors), once it accepts
// connections, and reloads its configuration. A value the server refuses as invalid is reported to log and
// left out.
func alterSystem(ctx context.Context, url, who string, settings map[string]string, log io.Writer) error {
	conn, err := connectWithin(ctx, url, 30*time.Second)
	if err != nil {
		return fmt.Errorf("%s: %w", who, err)
	}
	defer conn.Close(context.Background())
	for name, value := range settings {
		_, err := conn.Exec(ctx, fmt.Sprintf("ALTER SYSTEM SET %s = %s", name, value))
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "22023" { // invalid_parameter_value
			fmt.Fprintf(log, "%s: %s = %s refused (%s); left as it is\n", who, name, value, pgErr.Message)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: set %s: %w", who, name, err)
		}
	}
	_, err = conn.Exec(ctx, "SELECT pg_reload_conf()")
	return err
}

// Stop stops both nodes, then the monitor, and waits until each keeper has stopped its PostgreSQL. It
// leaves alone what is not running.
func (f *Formation) Stop(ctx context.Context) error {
	var errs []error
	for _, name := range []string{"node2", "node1", "monitor"} {
		if f.command(ctx, "status", "--pgdata", f.path(name)).Run() != nil {
			continue // not running
		}
		if err := f.autoctl(ctx, "stop", "--pgdata", f.path(name)); err != nil {
			errs = append(errs, err)
			continue
		}
		for exists(filepath.Join(f.path(name), "postmaster.pid")) && ctx.Err() == nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	return errors.Join(errs...)
}

// Logs returns the last lines of the monitor's and the nodes' logs, at most n of each.
func (f *Formation) Logs(n int) string {
	var b strings.Builder
	for _, name := range []string{"monitor", "node1", "node2"} {
		data, _ := os.ReadFile(f.path(name + ".log"))
		lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
		fmt.Fprintf(&b, "%s.log:\n%s\n", name, strings.Join(lines[max(0, len(lines)-n):], "\n"))
	}
	return b.String()
}

// Node is one node as the monitor sees it.
type Node struct {
	Name     string
	Port     int
	Reported string // the state the node's keeper last reported: primary, secondary, wait_primary…
	Goal     string // the state the monitor assigned it
}

// Nodes returns the formation's nodes as the monitor sees them, in the order they joined.
func (f *Formation) Nodes(ctx context.Context) ([]Node, error) {
	conn, err := pgx.Connect(ctx, f.MonitorURL())
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(ctx, `
		SELECT nodename, nodeport, reportedstate::text, goalstate::text
		FROM pgautofailover.node ORDER BY nodeid`)
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (Node, error) {
		var n Node
		err := row.Scan(&n.Name, &n.Port, &n.Reported, &n.Goal)
		return n, err
	})
}

// WaitFor waits until ok holds for the nodes as the monitor sees them, and gives up after timeout with
// an error naming what it waited for.
func (f *Formation) WaitFor(ctx context.Context, timeout time.Duration, what string, ok func([]Node) bool) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var last []Node
	for {
		nodes, err := f.Nodes(ctx)
		if err == nil && ok(nodes) {
			return nil
		} else if err == nil {
			last = nodes
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waited %s for %s; the nodes as last seen: %+v", timeout, what, last)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Paired reports whether one node is primary and the other its secondary, as assigned and reported.
func Paired(nodes []Node) bool {
	return len(nodes) == 2 && (settled(nodes[0], "primary") && settled(nodes[1], "secondary") ||
		settled(nodes[0], "secondary") && settled(nodes[1], "primary"))
}

// settled reports whether the node has reached state and the monitor wants it there.
func settled(n Node, state string) bool { return n.Reported == state && n.Goal == state }

// Primary returns the index (0 or 1) of the node the monitor holds as primary, or an error when neither
// is one.
func (f *Formation) Primary(ctx context.Context) (int, error) {
	nodes, err := f.Nodes(ctx)
	if err != nil {
		return 0, err
	}
	for _, n := range nodes {
		if settled(n, "primary") {
			for i, p := range f.NodePorts {
				if p == n.Port {
					return i, nil
				}
			}
		}
	}
	return 0, fmt.Errorf("no primary: %+v", nodes)
}

// Crash kills node i as the loss of its machine would: its PostgreSQL's postmaster, then its keeper
// and everything the keeper started, with SIGKILL. Nothing of the node runs until Revive.
func (f *Formation) Crash(i int) error {
	dir := f.path(nodeName(i))
	postmaster, err := pidIn(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		return err
	}
	// pg_autoctl keeps its pid file under XDG_RUNTIME_DIR, in a folder named after the data folder.
	keeper, err := pidIn(filepath.Join(f.path("run"), "pg_autoctl", dir, "pg_autoctl.pid"))
	if err != nil {
		return err
	}
	if err := syscall.Kill(postmaster, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill the postmaster of %s: %w", nodeName(i), err)
	}
	// runKeeper started the keeper as the leader of a process group of its own.
	if err := syscall.Kill(-keeper, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill the keeper of %s: %w", nodeName(i), err)
	}
	return nil
}

// Revive starts node i's keeper again after Crash. The keeper starts PostgreSQL, and the node rejoins:
// as the secondary when the monitor promoted the other node meanwhile (pg_rewind drops what the node
// wrote that the other did not receive).
func (f *Formation) Revive(i int) error { return f.runKeeper(nodeName(i)) }

// pidIn reads the process id on the first line of a pid file.
func pidIn(file string) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	first, _, _ := strings.Cut(string(data), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", file, err)
	}
	return pid, nil
}

// nodeName is the name, and the folder, of node i: node1 or node2.
func nodeName(i int) string { return "node" + strconv.Itoa(i+1) }

// path is the file or folder name under Root.
func (f *Formation) path(name string) string { return filepath.Join(f.Root, name) }

// exists reports whether a file or folder is at path.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// connectWithin connects to url, trying again until it succeeds or timeout has passed.
func connectWithin(ctx context.Context, url string, timeout time.Duration) (*pgx.Conn, error) {
	deadline := time.Now().Add(timeout)
	for {
		conn, err := pgx.Connect(ctx, url)
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return conn, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

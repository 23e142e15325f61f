// Package pgcluster runs a private PostgreSQL server from the machine's own binaries (initdb, pg_ctl):
// the local database of `make run` on a machine without one, and the server that the fault tests stop
// and start again.
package pgcluster

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

const installHelp = `no PostgreSQL server binaries (pg_ctl, initdb) found.
Install PostgreSQL, for example:
  Debian/Ubuntu: apt-get install postgresql
  macOS:         brew install postgresql@16
or set DATABASE_URL to an existing server.`

// Cluster is a private server: its data under Root, listening on 127.0.0.1:Port, with its socket in Root.
type Cluster struct {
	Root string
	Port int
	// Log receives the tools' output (never stdout, which may carry a URL).
	Log   io.Writer
	bin   string
	owner *user.User // the user the server runs as when we are root; nil otherwise
}

// New finds the server binaries for a cluster under root (made absolute) on port.
func New(root string, port int, log io.Writer) (*Cluster, error) {
	bin, err := findBinDir()
	if err != nil {
		return nil, err
	}
	root, err = filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Root: root, Port: port, Log: log, bin: bin}
	// initdb and postgres refuse to run as root: use the postgres user then.
	if os.Geteuid() == 0 {
		if c.owner, err = user.Lookup("postgres"); err != nil {
			return nil, fmt.Errorf("running as root, so the private server must run as the system user \"postgres\", "+
				"which does not exist (%v); create it first, e.g. with: useradd --system postgres", err)
		}
	}
	return c, nil
}

// Addr is the server's TCP address.
func (c *Cluster) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(c.Port)) }

// URL is the address of a database on the server, as user postgres.
func (c *Cluster) URL(database string) string {
	return fmt.Sprintf("postgres://postgres@%s/%s?sslmode=disable", c.Addr(), database)
}

// Listening reports whether something accepts connections on the cluster's address.
func (c *Cluster) Listening() bool { return Listening(c.Addr()) }

// Start creates the cluster when it does not exist yet and starts it, waiting until it accepts connections.
func (c *Cluster) Start() error {
	pgdata := filepath.Join(c.Root, "postgres")
	if err := os.MkdirAll(pgdata, 0o700); err != nil {
		return err
	}
	if c.owner != nil {
		if err := chownTree(c.Root, c.owner); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(pgdata, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		err := c.run("initdb", "-D", pgdata, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C")
		if err != nil {
			return err
		}
	}
	opts := fmt.Sprintf("-p %d -k '%s' -c listen_addresses=127.0.0.1", c.Port, c.Root)
	return c.run("pg_ctl", "-D", pgdata, "-l", filepath.Join(c.Root, "postgres.log"), "-o", opts, "-w", "start")
}

// Stop stops the server at once (mode fast: sessions are ended, transactions rolled back), waiting until
// it is down.
func (c *Cluster) Stop() error {
	return c.run("pg_ctl", "-D", filepath.Join(c.Root, "postgres"), "-m", "fast", "-w", "stop")
}

// run runs one of the server's programs in Root, as the owner when there is one.
func (c *Cluster) run(program string, args ...string) error {
	name := filepath.Join(c.bin, program)
	if c.owner != nil {
		args = append([]string{"-u", c.owner.Username, "--", name}, args...)
		name = "runuser"
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = c.Root
	cmd.Stdout, cmd.Stderr = c.Log, c.Log
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(cmd.Args, " "), err)
	}
	return nil
}

// Listening reports whether something accepts TCP connections on addr.
func Listening(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// chownTree gives dir and everything under it to owner.
func chownTree(dir string, owner *user.User) error {
	uid, err := strconv.Atoi(owner.Uid)
	if err != nil {
		return err
	}
	gid, err := strconv.Atoi(owner.Gid)
	if err != nil {
		return err
	}
	return filepath.WalkDir(dir, func(path string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(path, uid, gid)
	})
}

// Program returns the path of one of PostgreSQL's programs (pgbench, psql…): the one on the PATH, else
// that of the installation New uses (the one whose pg_ctl is on the PATH, else the newest one installed).
// A pg_ctl on the PATH may be a link into the installation's own directory, where its other programs
// are: that directory is looked in too.
func Program(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	bin, err := findBinDir()
	if err != nil {
		return "", fmt.Errorf("%s not found on the PATH; %w", name, err)
	}
	dirs := []string{bin}
	if pgctl, err := filepath.EvalSymlinks(filepath.Join(bin, "pg_ctl")); err == nil && filepath.Dir(pgctl) != bin {
		dirs = append(dirs, filepath.Dir(pgctl))
	}
	for _, dir := range dirs {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found on the PATH nor in %s: install the PostgreSQL package that provides it", name, strings.Join(dirs, " or "))
}

// findBinDir returns the directory holding pg_ctl and initdb.
func findBinDir() (string, error) {
	if pgctl, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(pgctl), nil
		}
	}
	for _, pattern := range []string{
		"/usr/lib/postgresql/*/bin/initdb",         // Debian, Ubuntu
		"/opt/homebrew/opt/postgresql*/bin/initdb", // Homebrew, Apple silicon
		"/usr/local/opt/postgresql*/bin/initdb",    // Homebrew, Intel
	} {
		matches, _ := filepath.Glob(pattern)
		bins := make(map[string]string) // e.g. "15" or "postgresql@16" -> its bin dir
		for _, m := range matches {
			bin := filepath.Dir(m)
			if _, err := os.Stat(filepath.Join(bin, "pg_ctl")); err == nil {
				bins[filepath.Base(filepath.Dir(bin))] = bin
			}
		}
		if len(bins) > 0 {
			return bins[newest(slices.Collect(maps.Keys(bins)))], nil
		}
	}
	return "", errors.New(installHelp)
}

// newest returns the name with the highest version, comparing the dot-separated numbers after any
// non-digit prefix ("9.6" < "13" < "postgresql@16"). It returns "" for an empty list.
func newest(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return slices.MaxFunc(names, func(a, b string) int {
		return slices.Compare(versionOf(a), versionOf(b))
	})
}

func versionOf(name string) []int {
	digits := strings.TrimLeftFunc(name, func(r rune) bool { return r < '0' || r > '9' })
	var v []int
	for _, part := range strings.Split(digits, ".") {
		n, err := strconv.Atoi(part)
		if err != nil {
			break
		}
		v = append(v, n)
	}
	return v
}

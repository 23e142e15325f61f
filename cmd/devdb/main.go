// Command devdb prints the URL of a PostgreSQL server for local development,
// so that `make run` and `make test` work on a fresh machine:
//
//	DATABASE_URL=$(go run ./cmd/devdb) ./bin/booking serve
//
// It prints exactly one line on stdout. In order, it uses:
//
//  1. $DATABASE_URL, if set;
//  2. a server already listening on 127.0.0.1:5432;
//  3. a private server under .data/ in the current directory (port 54329),
//     created with initdb and started with pg_ctl when needed.
//
// Progress and errors go to stderr. Creating the booking database itself is
// left to the application.
package main

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

const (
	systemAddr  = "127.0.0.1:5432"
	systemURL   = "postgres://postgres@127.0.0.1:5432/booking?sslmode=disable"
	privatePort = "54329"
	privateAddr = "127.0.0.1:" + privatePort
	privateURL  = "postgres://postgres@127.0.0.1:" + privatePort + "/booking?sslmode=disable"
)

const installHelp = `no PostgreSQL server binaries (pg_ctl, initdb) found.
Install PostgreSQL, for example:
  Debian/Ubuntu: apt-get install postgresql
  macOS:         brew install postgresql@16
or set DATABASE_URL to an existing server.`

func main() {
	if err := run(os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "devdb:", err)
		os.Exit(1)
	}
}

func run(getenv func(string) string, stdout, stderr io.Writer) error {
	url, err := databaseURL(getenv, stderr)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, url)
	return err
}

func databaseURL(getenv func(string) string, stderr io.Writer) (string, error) {
	if url := getenv("DATABASE_URL"); url != "" {
		return url, nil
	}
	if listening(systemAddr) {
		return systemURL, nil
	}
	if err := startPrivate(stderr); err != nil {
		return "", err
	}
	return privateURL, nil
}

// listening reports whether something accepts TCP connections on addr.
func listening(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// startPrivate makes sure a server runs on privatePort with its data under .data/.
func startPrivate(stderr io.Writer) error {
	if listening(privateAddr) {
		return nil // started by an earlier call
	}
	bin, err := findBinDir()
	if err != nil {
		return err
	}
	// initdb and postgres refuse to run as root: use the postgres user then.
	var owner *user.User
	if os.Geteuid() == 0 {
		if owner, err = user.Lookup("postgres"); err != nil {
			return fmt.Errorf("running as root, so the private server must run as the system user \"postgres\", "+
				"which does not exist (%v); create it first, e.g. with: useradd --system postgres", err)
		}
	}
	dataRoot, err := filepath.Abs(".data")
	if err != nil {
		return err
	}
	fmt.Fprintln(stderr, "No DATABASE_URL and nothing on "+systemAddr+": starting a private PostgreSQL under .data/ (port "+privatePort+"; stop it with: pg_ctl -D .data/postgres stop)")

	pgdata := filepath.Join(dataRoot, "postgres")
	if err := os.MkdirAll(pgdata, 0o700); err != nil {
		return err
	}
	if owner != nil {
		if err := chownTree(dataRoot, owner); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(pgdata, "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		err := runTool(stderr, dataRoot, owner, filepath.Join(bin, "initdb"),
			"-D", pgdata, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C")
		if err != nil {
			return err
		}
	}
	opts := fmt.Sprintf("-p %s -k '%s' -c listen_addresses=127.0.0.1", privatePort, dataRoot)
	return runTool(stderr, dataRoot, owner, filepath.Join(bin, "pg_ctl"),
		"-D", pgdata, "-l", filepath.Join(dataRoot, "postgres.log"), "-o", opts, "-w", "start")
}

// runTool runs a PostgreSQL program in dir, as owner if not nil, with its
// output on stderr (never on stdout, which carries the URL).
func runTool(stderr io.Writer, dir string, owner *user.User, name string, args ...string) error {
	if owner != nil {
		args = append([]string{"-u", owner.Username, "--", name}, args...)
		name = "runuser"
	}
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout = stderr
	cmd.Stderr = stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(cmd.Args, " "), err)
	}
	return nil
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

// newest returns the name with the highest version, comparing the
// dot-separated numbers after any non-digit prefix ("9.6" < "13" <
// "postgresql@16"). It returns "" for an empty list.
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

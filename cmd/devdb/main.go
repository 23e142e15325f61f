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
	"fmt"
	"io"
	"os"

	"github.com/workspacebooking/booking/cmd/internal/pgcluster"
)

const (
	systemAddr  = "127.0.0.1:5432"
	systemURL   = "postgres://postgres@127.0.0.1:5432/booking?sslmode=disable"
	privatePort = 54329
)

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
	if pgcluster.Listening(systemAddr) {
		return systemURL, nil
	}
	// A bare Cluster is enough to check the port and build the URL. New also looks for the
	// PostgreSQL binaries, which is only needed to start the server.
	private := pgcluster.Cluster{Port: privatePort}
	if private.Listening() { // an earlier run of devdb started it
		return private.URL("booking"), nil
	}
	c, err := pgcluster.New(".data", privatePort, stderr)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(stderr, "No DATABASE_URL and nothing on %s: starting a private PostgreSQL under .data/ (port %d; stop it with: pg_ctl -D .data/postgres stop)\n", systemAddr, privatePort)
	if err := c.Start(); err != nil {
		return "", err
	}
	return c.URL("booking"), nil
}

// Command booking runs Workspace Booking: the server, its migrations, layout imports, bearer tokens and
// the demo office.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	_ "time/tzdata" // building time zones work on machines without a zoneinfo database

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/postgres"
)

// DefaultDatabaseURL is the local server, used when DATABASE_URL is not set.
const DefaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/booking?sslmode=disable"

const usage = `usage: booking <command> [flags]

commands:
  serve   [--addr 127.0.0.1:8080] [--dev]   migrate, then serve the API (and pages) and expire no-shows
          [--sweep-every 15s]
          [--rate-per-user 20] [--burst-per-user 40]          per signed-in user (0: no limit)
          [--rate-per-address 200] [--burst-per-address 400]  per client address (0: no limit)
  migrate                                  apply pending migrations and exit
  import  FILE.json                        load a layout document (idempotent)
  token   --user USER_ID [--ttl 1h]        print a bearer token for that user (last line); --ttl at most 720h
  token revoke --user USER_ID [--before RFC3339]
                                           refuse every token of that user issued before then (default: now)
  demo    [--addr 127.0.0.1:8080]          load the demo office and print how to try it on that server
  domain approve ORGANIZATION_ID DOMAIN    verify an e-mail domain for an organization on your word

booking <command> --help shows the usage of a command and does nothing else.
environment: DATABASE_URL, DATABASE_READ_URL, BASE_URL, OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET,
             OIDC_AUDIENCE, OIDC_SCOPES, OIDC_INTROSPECTION, TOKEN_ENCRYPTION_KEY
DATABASE_URL may list several servers, of which the one that accepts writes is used:
  postgres://h1:5432,h2:5432/booking?target_session_attrs=read-write
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil && !errors.Is(err, cli.ErrHelp) {
		fmt.Fprintln(os.Stderr, "booking:", err)
		os.Exit(1)
	}
}

// run is the whole program. It parses args, reads the environment through getenv, and writes only to
// stdout and stderr. It returns when the command is done, or for serve when ctx is cancelled. Every
// command answers -h and --help with its usage and does nothing else (cli.ErrHelp).
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	cmd, rest := args[1], args[2:]
	switch cmd {
	case "serve":
		return serve(ctx, rest, getenv, stdout, stderr)
	case "migrate":
		return migrate(ctx, rest, getenv, stdout, stderr)
	case "import":
		return importLayout(ctx, rest, getenv, stdout, stderr)
	case "token":
		return token(ctx, rest, getenv, stdout, stderr)
	case "demo":
		return demo(ctx, rest, getenv, stdout, stderr)
	case "domain":
		return domain(ctx, rest, getenv, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// dbURLFrom returns DATABASE_URL, or the local server when it is not set. It refuses a URL of another
// database than PostgreSQL, and names only its scheme in the error, since the URL may hold a password.
func dbURLFrom(getenv func(string) string) (string, error) {
	dbURL := getenv("DATABASE_URL")
	if dbURL == "" {
		return DefaultDatabaseURL, nil
	}
	scheme, _, isURL := strings.Cut(dbURL, "://")
	if isURL && scheme != "postgres" && scheme != "postgresql" {
		return "", fmt.Errorf("DATABASE_URL: a %q URL is not PostgreSQL: a postgres:// URL is expected, e.g. %s", scheme, DefaultDatabaseURL)
	}
	return dbURL, nil
}

// openFrom is open on the database of DATABASE_URL.
func openFrom(ctx context.Context, getenv func(string) string, opts ...booking.Option) (*pgxpool.Pool, *booking.Service, error) {
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return nil, nil, err
	}
	return open(ctx, dbURL, opts...)
}

// open migrates the database and opens a pool and the service on it, with opts.
func open(ctx context.Context, dbURL string, opts ...booking.Option) (*pgxpool.Pool, *booking.Service, error) {
	if _, err := postgres.Migrate(ctx, dbURL); err != nil {
		return nil, nil, err
	}
	cfg, err := postgres.PoolConfig(dbURL)
	if err != nil {
		return nil, nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("database: %w", err)
	}
	return pool, booking.NewService(pool, opts...), nil
}

// Command booking runs Workspace Booking: the server, its migrations, layout imports, bearer tokens and
// the demo office.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
	_ "time/tzdata" // building time zones work on machines without a zoneinfo database

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
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

// migrate applies the pending migrations and exits.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c := cli.NewCommand("migrate", `usage: booking migrate

Applies the pending migrations to the database of DATABASE_URL (created when missing), and exits.`)
	if _, err := c.Parse(args, stdout, stderr); err != nil {
		return err
	}
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return err
	}
	n, err := postgres.Migrate(ctx, dbURL)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "applied %d migration(s); the database is up to date\n", n)
	return nil
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

// serveFlags are the flags of serve.
type serveFlags struct {
	addr       string
	dev        bool
	sweepEvery time.Duration
	limits     web.Limits
}

// parseServe reads the flags of serve and refuses values that cannot work.
func parseServe(args []string, stdout, stderr io.Writer) (serveFlags, error) {
	fs := cli.NewCommand("serve", `usage: booking serve [flags]

Migrates the database of DATABASE_URL, then serves the pages and /api/v1 and sweeps the bookings (expiring
no-shows) until Ctrl-C or SIGTERM.`)
	var f serveFlags
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.BoolVar(&f.dev, "dev", false, "development mode: readable logs at debug level, and a sign-in page listing everybody when OIDC_ISSUER is not set")
	fs.DurationVar(&f.sweepEvery, "sweep-every", booking.SweepEvery, "how often to expire no-shows and finish ended bookings")
	fs.Float64Var(&f.limits.PerUser.Rate, "rate-per-user", 20, "requests a second of each signed-in user, API and pages together, on average (0: no limit)")
	fs.IntVar(&f.limits.PerUser.Burst, "burst-per-user", 40, "requests of each signed-in user at once")
	fs.Float64Var(&f.limits.PerAddress.Rate, "rate-per-address", 200, "requests a second from each client address, on average (0: no limit)")
	fs.IntVar(&f.limits.PerAddress.Burst, "burst-per-address", 400, "requests from each client address at once")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return f, err
	}
	if f.sweepEvery <= 0 {
		return f, fmt.Errorf("serve: --sweep-every must be positive")
	}
	for _, l := range []struct {
		who   string
		limit web.Limit
	}{{"user", f.limits.PerUser}, {"address", f.limits.PerAddress}} {
		if err := l.limit.Validate(); err != nil {
			return f, fmt.Errorf("serve: --rate-per-%[1]s and --burst-per-%[1]s: %[2]w", l.who, err)
		}
	}
	return f, nil
}

// serve migrates the database, then serves the pages and the API and sweeps the bookings until ctx is
// cancelled.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	flags, err := parseServe(args, stdout, stderr)
	if err != nil {
		return err
	}
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return err
	}
	baseURL, issuer := getenv("BASE_URL"), getenv("OIDC_ISSUER")
	if issuer != "" && baseURL == "" {
		return errors.New("OIDC_ISSUER is set: set BASE_URL too (the identity provider sends people back there)")
	}
	log := newLogger(stderr, flags.dev)
	opts, closeReads, err := serviceOptions(ctx, getenv, log, flags.dev)
	if err != nil {
		return err
	}
	defer closeReads()
	pool, svc, err := open(ctx, dbURL, opts...)
	if err != nil {
		return err
	}
	defer pool.Close()
	people := identity.New(pool, svc)
	deps := web.Deps{
		Bookings: svc, Admin: layout.New(pool, svc), Identity: people, Logger: log, Dev: flags.dev, BaseURL: baseURL, Limits: flags.limits,
		// The sweeps delete expired sessions, so the store's own cleanup goroutine is off.
		Sessions: pgxstore.NewWithCleanupInterval(pool, 0),
	}
	if deps.Provider, err = identityProvider(getenv, log); err != nil {
		return err
	}
	if deps.Provider != nil {
		// The service starts without the provider, and signs people in once it has answered.
		go deps.Provider.Run(ctx)
	}
	if deps.Tokens, err = web.NewTokens(ctx, people, deps.Provider); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", flags.addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Workspace Booking listening on http://%s\n", ln.Addr())
	log.Info("serving", slog.String("addr", ln.Addr().String()), slog.Bool("dev", flags.dev), slog.Bool("oidc", deps.Provider != nil))
	if flags.dev && deps.Provider == nil {
		log.Warn("development sign-in is on: anyone can sign in as anyone")
	}
	return serveUntilDone(ctx, newHTTPServer(deps), ln, svc, people, flags.sweepEvery, log)
}

// serviceOptions reads the service's options from the environment: the key of TOKEN_ENCRYPTION_KEY, and
// a pool on DATABASE_READ_URL for the reads that may lag a little. The function it returns closes that
// pool.
func serviceOptions(ctx context.Context, getenv func(string) string, log *slog.Logger, dev bool) ([]booking.Option, func(), error) {
	var opts []booking.Option
	if k := getenv("TOKEN_ENCRYPTION_KEY"); k != "" {
		key, err := booking.ParseTokenKey(k)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, booking.WithTokenKey(key))
	} else if !dev {
		log.Warn("TOKEN_ENCRYPTION_KEY is not set: the key that encrypts the identity provider's tokens is kept in " +
			"the database, next to the tokens, so anyone who can read the database can read them; set " +
			"TOKEN_ENCRYPTION_KEY to the output of `openssl rand -base64 32` (the tokens kept so far are then forgotten)")
	}
	readURL := getenv("DATABASE_READ_URL")
	if readURL == "" {
		return opts, func() {}, nil
	}
	cfg, err := postgres.PoolConfig(readURL)
	if err != nil {
		return nil, nil, fmt.Errorf("DATABASE_READ_URL: %w", err)
	}
	reads, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("DATABASE_READ_URL: %w", err)
	}
	return append(opts, booking.WithReadPool(reads)), reads.Close, nil
}

// identityProvider is the identity provider of OIDC_ISSUER, not yet discovered; nil when OIDC_ISSUER is
// not set.
func identityProvider(getenv func(string) string, log *slog.Logger) (*web.Provider, error) {
	issuer := getenv("OIDC_ISSUER")
	if issuer == "" {
		return nil, nil
	}
	scopes, err := web.ParseScopes(getenv("OIDC_SCOPES"))
	if err != nil {
		return nil, err
	}
	var introspection bool
	switch v := getenv("OIDC_INTROSPECTION"); v {
	case "", "off":
	case "on":
		introspection = true
	default:
		return nil, fmt.Errorf("OIDC_INTROSPECTION: %q is neither on nor off", v)
	}
	return web.NewProvider(web.ProviderConfig{
		Issuer: issuer, ClientID: getenv("OIDC_CLIENT_ID"), ClientSecret: getenv("OIDC_CLIENT_SECRET"),
		Audience: getenv("OIDC_AUDIENCE"), BaseURL: getenv("BASE_URL"), Scopes: scopes, Introspection: introspection,
	}, log)
}

// newHTTPServer is the HTTP server of the service, with timeouts that keep a slow client from holding a
// connection for ever.
func newHTTPServer(deps web.Deps) *http.Server {
	return &http.Server{
		Handler:           web.NewServer(deps),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(deps.Logger.Handler(), slog.LevelWarn),
	}
}

// serveUntilDone serves on ln and sweeps the bookings every sweepEvery until ctx is cancelled, then
// lets the requests in flight finish (for up to 30 seconds) and stops the sweeps.
func serveUntilDone(ctx context.Context, srv *http.Server, ln net.Listener, svc *booking.Service, people *identity.Service, sweepEvery time.Duration, log *slog.Logger) error {
	// Every instance sweeps; the sweep itself makes sure that only one acts at a time.
	// Every instance also looks up the DNS records of e-mail domains that wait for their proof; a look-up
	// twice over changes nothing.
	sweepCtx, stopSweeps := context.WithCancel(ctx)
	var background sync.WaitGroup
	background.Go(func() { svc.RunSweeps(sweepCtx, sweepEvery, log) })
	background.Go(func() { people.RunDomainChecks(sweepCtx, log) })
	defer func() { stopSweeps(); background.Wait() }() // before the caller closes the pool

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing in-flight requests")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	log.Info("stopped")
	return nil
}

// newLogger logs JSON, or readable text in development mode and on a terminal.
func newLogger(w io.Writer, dev bool) *slog.Logger {
	if f, ok := w.(*os.File); dev || (ok && isTerminal(f)) {
		level := slog.LevelInfo
		if dev {
			level = slog.LevelDebug
		}
		return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
	}
	return slog.New(slog.NewJSONHandler(w, nil))
}

// isTerminal reports whether f is a terminal rather than a file or a pipe.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// importLayout loads a layout document, all or nothing, and prints what it created or updated.
func importLayout(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c := cli.NewCommand("import", `usage: booking import FILE.json

Loads a layout document into the database of DATABASE_URL, all or nothing; importing again updates every
object in place by id.`, "FILE.json")
	args, err := c.Parse(args, stdout, stderr)
	if err != nil {
		return err
	}
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	l, err := layout.DecodeLayout(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: not a layout document: %w", args[0], err)
	}
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	sum, err := layout.New(pool, svc).Import(ctx, l)
	if err != nil {
		return fmt.Errorf("%s: nothing imported: %w", args[0], err)
	}
	fmt.Fprintf(stdout, "imported %s: %s\n", args[0], summary(sum))
	return nil
}

// domain runs `booking domain approve ORGANIZATION_ID DOMAIN`: the service's operator vouches that the
// organization owns the domain, which then counts at once without a DNS record.
func domain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "approve" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, domainUsage)
			return cli.ErrHelp
		}
		fmt.Fprint(stderr, domainUsage)
		return errors.New("domain: the only subcommand is approve")
	}
	c := cli.NewCommand("domain approve", domainUsage, "ORGANIZATION_ID", "DOMAIN")
	args, err := c.Parse(args[1:], stdout, stderr)
	if err != nil {
		return err
	}
	org, err := uuid.Parse(args[0])
	if err != nil {
		return fmt.Errorf("domain approve: %q is not an organization id", args[0])
	}
	pool, svc, err := openFrom(ctx, getenv)
	if err != nil {
		return err
	}
	defer pool.Close()
	d, err := identity.New(pool, svc).ApproveEmailDomain(ctx, org, args[1])
	if err != nil {
		return fmt.Errorf("domain approve: %w", err)
	}
	fmt.Fprintf(stdout, "%s is verified for organization %s: its people can sign in with their addresses there\n", d.Domain, org)
	return nil
}

const domainUsage = `usage: booking domain approve ORGANIZATION_ID DOMAIN

Verifies the e-mail domain for the organization on your word, as its DNS record would: people with a
verified address at the domain then sign in to that organization, and no other organization can use the
domain. The organization claims the domain if it did not yet. Public mail domains (gmail.com…) and a domain
another organization verified are refused.
`

// summary writes an import's counts as "2 buildings, 14 resources", leaving out the zeros.
func summary(sum layout.ImportSummary) string {
	keys := make([]string, 0, len(sum))
	for k, n := range sum {
		if n > 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", sum[k], k)
	}
	return strings.Join(parts, ", ")
}

// token prints a bearer token for a user, or with "revoke" refuses the user's tokens (revokeTokens).
func token(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "revoke" {
		return revokeTokens(ctx, args[1:], getenv, stdout, stderr)
	}
	fs := cli.NewCommand("token", `usage: booking token --user USER_ID [--ttl 1h]
       booking token revoke --user USER_ID [--before RFC3339]

Prints a bearer token of the service for that user; the token is the last line. --ttl is at most 720h
(30 days). "token revoke" refuses every token of the user issued before --before (default: now).`)
	user := fs.String("user", "", "id of the user the token is for")
	ttl := fs.Duration("ttl", time.Hour, "how long the token is valid")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	if *user == "" {
		fs.PrintUsage(stderr)
		return errors.New("token: --user is required: the id of the user the token is for (booking demo lists some)")
	}
	if *ttl <= 0 {
		return errors.New("--ttl: must be positive")
	}
	if *ttl > web.MaxTokenTTL {
		return errors.New("--ttl: at most 720h (30 days); mint a new token when it runs out")
	}
	pool, people, u, err := openForUser(ctx, getenv, *user)
	if err != nil {
		return err
	}
	defer pool.Close()
	tok, err := mint(ctx, people, u, *ttl)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# bearer token for %s %s <%s>, valid %s\n%s\n", u.Name, u.Surname, u.Email, *ttl, tok)
	return nil
}

// revokeTokens refuses, from now on, every token of the user issued before --before (default: now). It
// refuses a --before later than now, which would refuse tokens not minted yet.
func revokeTokens(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := cli.NewCommand("token revoke", `usage: booking token revoke --user USER_ID [--before RFC3339]

Refuses every token of the service that the user was given before --before, a moment of the past such as
2026-01-02T15:04:05Z (default: now); a running server follows within a minute. A revocation never moves
back: when a later moment is refused already, it stays.`)
	user := fs.String("user", "", "id of the user whose tokens are revoked")
	beforeFlag := fs.String("before", "", "refuse the tokens issued before this moment, in RFC 3339 (default: now)")
	if _, err := fs.Parse(args, stdout, stderr); err != nil {
		return err
	}
	if *user == "" {
		fs.PrintUsage(stderr)
		return errors.New("token revoke: --user is required: the id of the user whose tokens are revoked")
	}
	// Tokens carry their issue time in whole seconds: by default revoke up to the end of this second, so
	// that a token minted a moment ago is refused too.
	now := time.Now()
	before := now.Truncate(time.Second).Add(time.Second)
	if *beforeFlag != "" {
		t, err := time.Parse(time.RFC3339, *beforeFlag)
		if err != nil {
			return fmt.Errorf("--before: %q is not a moment in RFC 3339, such as 2026-01-02T15:04:05Z", *beforeFlag)
		}
		if t.After(now) {
			return fmt.Errorf("--before: %s is later than now; it would refuse tokens not minted yet (leave --before out to revoke until now)", *beforeFlag)
		}
		before = t
	}
	pool, people, u, err := openForUser(ctx, getenv, *user)
	if err != nil {
		return err
	}
	defer pool.Close()
	inForce, err := people.RevokeTokens(ctx, u, before)
	if err != nil {
		return err
	}
	if inForce.After(before) {
		fmt.Fprintf(stdout, "tokens of %s %s <%s> issued before %s were refused already; nothing changed\n",
			u.Name, u.Surname, u.Email, inForce.UTC().Format(time.RFC3339Nano))
		return nil
	}
	fmt.Fprintf(stdout, "tokens of %s %s <%s> issued before %s are refused from now on (within a minute on a running server)\n",
		u.Name, u.Surname, u.Email, before.UTC().Format(time.RFC3339Nano))
	return nil
}

// openForUser opens the identity service on the database of DATABASE_URL and finds the user with the id given as
// --user. It refuses an id that is not a UUID and one the database does not know.
func openForUser(ctx context.Context, getenv func(string) string, user string) (*pgxpool.Pool, *identity.Service, booking.User, error) {
	id, err := uuid.Parse(user)
	if err != nil {
		return nil, nil, booking.User{}, fmt.Errorf("--user: %q is not a user id", user)
	}
	dbURL, err := dbURLFrom(getenv)
	if err != nil {
		return nil, nil, booking.User{}, err
	}
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return nil, nil, booking.User{}, err
	}
	people := identity.New(pool, svc)
	u, err := people.FindUser(ctx, id)
	if err != nil {
		pool.Close()
		return nil, nil, booking.User{}, err
	}
	return pool, people, u, nil
}

// mint returns a bearer token of the service for the user, valid for ttl.
func mint(ctx context.Context, people *identity.Service, u booking.User, ttl time.Duration) (string, error) {
	tokens, err := web.NewTokens(ctx, people, nil)
	if err != nil {
		return "", err
	}
	return tokens.Mint(u, ttl)
}

// demo loads the demo office and prints the people, a token and the links to try it with.
func demo(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	c := cli.NewCommand("demo", `usage: booking demo [--addr 127.0.0.1:8080]

Loads the demo office into the database of DATABASE_URL and prints how to try it: the people, a token
and links to the server, at BASE_URL when it is set, else at --addr.`)
	addr := c.String("addr", "127.0.0.1:8080", "the address the server listens on (serve --addr), for the links")
	if _, err := c.Parse(args, stdout, stderr); err != nil {
		return err
	}
	base := strings.TrimRight(getenv("BASE_URL"), "/")
	if base == "" {
		var err error
		if base, err = baseOf(*addr); err != nil {
			return err
		}
	}
	pool, svc, err := openFrom(ctx, getenv)
	if err != nil {
		return err
	}
	defer pool.Close()
	res, err := layout.New(pool, svc).LoadDemo(ctx, time.Now())
	if err != nil {
		return err
	}
	tok, err := mint(ctx, identity.New(pool, svc), res.Employee, 12*time.Hour)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Demo office loaded: %s.\n\n", summary(res.Summary))
	fmt.Fprintf(stdout, "In the browser: %s (with serve --dev, sign in with one click as anyone below;\n"+
		"the receptionist's kiosk is %s/kiosk, a poster's page e.g. %s/p/%s).\n\n", base, base, base, res.Room.PosterCode)
	if d := res.AnyHour; d.ID != uuid.Nil {
		// The other desks and the rooms keep office hours: late in the evening everything else is closed.
		fmt.Fprintf(stdout, "Open round the clock: %s, %s, whose desks can be booked at any hour (the other desks\n"+
			"07:00–21:00, the rooms 08:00–20:00, local time). Try it now with %s:\n", d.Floor.Name, d.Floor.Building.Name, d.Name)
		fmt.Fprintf(stdout, "  Poster:  %s/p/%s\n", base, url.PathEscape(d.PosterCode))
		fmt.Fprintf(stdout, "  Kiosk:   %s/kiosk/resource?code=%s  (as %s %s, the receptionist)\n", base, url.QueryEscape(d.PosterCode),
			res.Receptionist.Name, res.Receptionist.Surname)
		fmt.Fprintf(stdout, "  Search:  %s/find?building=%s&kind=desk\n\n", base, d.Floor.Building.ID)
	}
	fmt.Fprintf(stdout, "People to try it as (get a token with: booking token --user ID):\n")
	for _, p := range []struct {
		what string
		u    booking.User
	}{{"employee", res.Employee}, {"receptionist", res.Receptionist}, {"admin", res.Admin}} {
		fmt.Fprintf(stdout, "  %-12s %s %s <%s>  %s\n", p.what, p.u.Name, p.u.Surname, p.u.Email, p.u.ID)
	}
	fmt.Fprintf(stdout, "\nA token for %s %s, valid 12h:\n  export TOKEN=%s\n", res.Employee.Name, res.Employee.Surname, tok)
	fmt.Fprintf(stdout, "\nIs room %s (%s) free now?\n  curl -s -H \"Authorization: Bearer $TOKEN\" '%s/api/v1/users/me/resources/statusinfo?postercode=%s'\n",
		res.Room.Name, res.Room.PosterCode, base, res.Room.PosterCode)
	return nil
}

// baseOf returns the URL at which a browser on this machine reaches a server listening on addr
// (host:port). A server listening on every interface ("", 0.0.0.0, ::) is reached at 127.0.0.1.
func baseOf(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return "", fmt.Errorf("--addr %q: want host:port, e.g. 127.0.0.1:8080", addr)
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

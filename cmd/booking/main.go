// Command booking runs Workspace Booking: the server, its migrations, layout imports, bearer tokens and
// the demo office.
package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // building time zones work on machines without a zoneinfo database

	"github.com/alexedwards/scs/pgxstore"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
)

// DefaultDatabaseURL is the local server, used when DATABASE_URL is not set.
const DefaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/booking?sslmode=disable"

const usage = `usage: booking <command> [flags]

commands:
  serve   [--addr 127.0.0.1:8080] [--dev]   migrate, then serve the API (and pages) and expire no-shows
          [--sweep-every 15s]
          [--rate-per-user 20] [--burst-per-user 40]          per API user (0: no limit)
          [--rate-per-address 200] [--burst-per-address 400]  per client address (0: no limit)
  migrate                                  apply pending migrations and exit
  import  FILE.json                        load a layout document (idempotent)
  token   --user USER_ID [--ttl 1h]        print a bearer token for that user (last line)
  demo                                     load the demo office and print how to try it

environment: DATABASE_URL, BASE_URL, OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_AUDIENCE
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args, os.Getenv, os.Stdout, os.Stderr); err != nil && !errors.Is(err, cli.ErrHelp) {
		fmt.Fprintln(os.Stderr, "booking:", err)
		os.Exit(1)
	}
}

// run is the whole program: it parses args, reads the environment through getenv, and writes to stdout
// and stderr only. It returns when the command is done or, for serve, when ctx is cancelled.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command")
	}
	dbURL := getenv("DATABASE_URL")
	if dbURL == "" {
		dbURL = DefaultDatabaseURL
	}
	cmd, rest := args[1], args[2:]
	switch cmd {
	case "serve":
		return serve(ctx, rest, dbURL, getenv, stdout, stderr)
	case "migrate":
		n, err := booking.Migrate(ctx, dbURL)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "applied %d migration(s); the database is up to date\n", n)
		return nil
	case "import":
		return importLayout(ctx, rest, dbURL, stdout, stderr)
	case "token":
		return token(ctx, rest, dbURL, stdout, stderr)
	case "demo":
		return demo(ctx, dbURL, getenv, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// open migrates the database and opens a pool and the service on it.
func open(ctx context.Context, dbURL string) (*pgxpool.Pool, *booking.Service, error) {
	if _, err := booking.Migrate(ctx, dbURL); err != nil {
		return nil, nil, err
	}
	cfg, err := booking.PoolConfig(dbURL)
	if err != nil {
		return nil, nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("database: %w", err)
	}
	return pool, booking.NewService(pool), nil
}

func serve(ctx context.Context, args []string, dbURL string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	dev := fs.Bool("dev", false, "development mode: readable logs at debug level, and a sign-in page listing everybody when OIDC_ISSUER is not set")
	sweepEvery := fs.Duration("sweep-every", booking.SweepEvery, "how often to expire no-shows and finish ended bookings")
	var limits web.Limits
	fs.Float64Var(&limits.PerUser.Rate, "rate-per-user", 20, "API requests a second of each user, on average (0: no limit)")
	fs.IntVar(&limits.PerUser.Burst, "burst-per-user", 40, "API requests of each user at once")
	fs.Float64Var(&limits.PerAddress.Rate, "rate-per-address", 200, "requests a second from each client address, on average (0: no limit)")
	fs.IntVar(&limits.PerAddress.Burst, "burst-per-address", 400, "requests from each client address at once")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	if *sweepEvery <= 0 {
		return fmt.Errorf("serve: --sweep-every must be positive")
	}
	for _, l := range []struct {
		who   string
		limit web.Limit
	}{{"user", limits.PerUser}, {"address", limits.PerAddress}} {
		if err := l.limit.Validate(); err != nil {
			return fmt.Errorf("serve: --rate-per-%[1]s and --burst-per-%[1]s: %[2]w", l.who, err)
		}
	}
	baseURL, issuer := getenv("BASE_URL"), getenv("OIDC_ISSUER")
	if issuer != "" && baseURL == "" {
		return errors.New("OIDC_ISSUER is set: set BASE_URL too (the identity provider sends people back there)")
	}
	log := newLogger(stderr, *dev)
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	audience := getenv("OIDC_AUDIENCE")
	if audience == "" {
		audience = getenv("OIDC_CLIENT_ID")
	}
	tokens, err := web.NewTokens(ctx, svc, web.OIDCConfig{Issuer: issuer, Audience: audience})
	if err != nil {
		return err
	}
	var login *web.Login
	if issuer != "" {
		login, err = web.NewLogin(ctx, web.LoginConfig{
			Issuer: issuer, ClientID: getenv("OIDC_CLIENT_ID"), ClientSecret: getenv("OIDC_CLIENT_SECRET"), BaseURL: baseURL,
		})
		if err != nil {
			return err
		}
	}
	// The sweeps delete expired sessions; the store's own cleanup goroutine is off.
	sessions := pgxstore.NewWithCleanupInterval(pool, 0)
	srv := &http.Server{
		Handler: web.NewServer(web.Deps{
			Bookings: svc, Tokens: tokens, Logger: log, Sessions: sessions, Login: login, Dev: *dev, BaseURL: baseURL,
			Limits: limits,
		}),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Workspace Booking listening on http://%s\n", ln.Addr())
	log.Info("serving", slog.String("addr", ln.Addr().String()), slog.Bool("dev", *dev), slog.Bool("oidc", login != nil))
	if *dev && login == nil {
		log.Warn("development sign-in is on: anyone can sign in as anyone")
	}

	// Every instance sweeps; the sweep itself makes sure only one acts at a time.
	sweepCtx, stopSweeps := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() {
		defer close(swept)
		svc.RunSweeps(sweepCtx, *sweepEvery, log)
	}()
	defer func() { stopSweeps(); <-swept }() // before the pool closes

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

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func importLayout(ctx context.Context, args []string, dbURL string, stdout, stderr io.Writer) error {
	if len(args) != 1 {
		fmt.Fprint(stderr, usage)
		return errors.New("import takes one file")
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return err
	}
	l, err := booking.DecodeLayout(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: not a layout document: %w", args[0], err)
	}
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	sum, err := svc.Import(ctx, l)
	if err != nil {
		return fmt.Errorf("%s: nothing imported: %w", args[0], err)
	}
	fmt.Fprintf(stdout, "imported %s: %s\n", args[0], summary(sum))
	return nil
}

func summary(sum booking.ImportSummary) string {
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

func token(ctx context.Context, args []string, dbURL string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.String("user", "", "id of the user the token is for")
	ttl := fs.Duration("ttl", time.Hour, "how long the token is valid")
	if err := cli.ParseFlags(fs, args); err != nil {
		return err
	}
	id, err := uuid.Parse(*user)
	if err != nil {
		return fmt.Errorf("--user: %q is not a user id", *user)
	}
	if *ttl <= 0 {
		return errors.New("--ttl: must be positive")
	}
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	u, err := svc.FindUser(ctx, id)
	if err != nil {
		return err
	}
	tok, err := mint(ctx, svc, u, *ttl)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# bearer token for %s %s <%s>, valid %s\n%s\n", u.Name, u.Surname, u.Email, *ttl, tok)
	return nil
}

// mint returns a bearer token of the service for the user, valid for ttl.
func mint(ctx context.Context, svc *booking.Service, u booking.User, ttl time.Duration) (string, error) {
	tokens, err := web.NewTokens(ctx, svc, web.OIDCConfig{})
	if err != nil {
		return "", err
	}
	return tokens.Mint(u, ttl)
}

func demo(ctx context.Context, dbURL string, getenv func(string) string, stdout io.Writer) error {
	pool, svc, err := open(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	res, err := svc.LoadDemo(ctx, time.Now())
	if err != nil {
		return err
	}
	tok, err := mint(ctx, svc, res.Employee, 12*time.Hour)
	if err != nil {
		return err
	}
	// The links point where the server will answer: BASE_URL, else the address serve is given (ADDR, as
	// make run passes it), else serve's default.
	base := strings.TrimRight(getenv("BASE_URL"), "/")
	if base == "" {
		base = "http://" + cmp.Or(getenv("ADDR"), "127.0.0.1:8080")
	}
	fmt.Fprintf(stdout, "Demo office loaded: %s.\n\n", summary(res.Summary))
	fmt.Fprintf(stdout, "In the browser: %s (with serve --dev, sign in with one click as anyone below;\n"+
		"the receptionist's kiosk is %s/kiosk, a poster's page e.g. %s/p/%s).\n\n", base, base, base, res.Room.PosterCode)
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

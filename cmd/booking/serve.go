package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/notify"
	"github.com/workspacebooking/booking/web/postgres"
	"github.com/workspacebooking/booking/web/report"
)

// serveFlags are the flags of serve.
type serveFlags struct {
	addr       string
	dev        bool
	sweepEvery time.Duration
	limits     web.Limits
	noEvents   bool
}

// parseServe reads the flags of serve and refuses values that cannot work.
func parseServe(args []string, stdout, stderr io.Writer) (serveFlags, error) {
	fs := cli.NewCommand("serve", `usage: booking serve [flags]

Migrates the database of DATABASE_URL, then serves the pages and /api/v1 and sweeps the bookings (expiring
no-shows) until Ctrl-C or SIGTERM.`)
	var f serveFlags
	fs.StringVar(&f.addr, "addr", "127.0.0.1:8080", "address to listen on")
	fs.BoolVar(&f.dev, "dev", false, "development mode: readable logs at debug level, and a sign-in page listing everybody when OIDC_ISSUER is not set")
	fs.BoolVar(&f.noEvents, "no-events", false, "record no events, so nobody is told of any booking: only for measuring what the outbox costs (make bench), never in production")
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
	if flags.noEvents {
		log.Warn("--no-events: bookings record no events, so nobody is told of them")
		opts = append(opts, booking.WithoutEvents())
	}
	pool, svc, err := open(ctx, dbURL, opts...)
	if err != nil {
		return err
	}
	defer pool.Close()
	people := identity.New(pool, svc)
	tell, err := notifier(pool, svc, getenv, baseURL, flags.dev, log)
	if err != nil {
		return err
	}
	deps := web.Deps{
		Bookings: svc, Admin: layout.New(pool, svc), Identity: people, Notify: tell, Logger: log, Dev: flags.dev, BaseURL: baseURL, Limits: flags.limits,
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
	return serveUntilDone(ctx, newHTTPServer(deps), ln, svc, people, tell, flags.sweepEvery, log)
}

// notifier is the service that tells people of their bookings: e-mail through SMTP_URL from SMTP_FROM,
// or written to the log in development, and webhooks. It says at start where e-mail goes.
func notifier(pool *pgxpool.Pool, svc *booking.Service, getenv func(string) string, baseURL string, dev bool, log *slog.Logger) (*notify.Service, error) {
	cfg := notify.Config{SMTPURL: getenv("SMTP_URL"), From: getenv("SMTP_FROM"), BaseURL: strings.TrimSuffix(baseURL, "/"), Dev: dev, Log: log}
	tell, err := notify.New(pool, svc, cfg)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.SMTPURL != "":
		log.Info("e-mail goes out through SMTP_URL", slog.String("from", cfg.From))
	case dev:
		log.Info("e-mail is written to the log: SMTP_URL is not set (development)")
	default:
		log.Warn("e-mail is off: set SMTP_URL and SMTP_FROM to tell people of their bookings by e-mail")
	}
	if baseURL == "" && tell.MailOn() {
		log.Warn("BASE_URL is not set: the links in e-mails will not work (they need the service's address)")
	}
	return tell, nil
}

// serviceOptions reads the service's options from the environment: the key of TOKEN_ENCRYPTION_KEY, the
// online-meeting template of ONLINE_MEETING_URL, and a pool on DATABASE_READ_URL for the reads that may
// lag a little. The function it returns closes that pool.
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
	if tpl := getenv("ONLINE_MEETING_URL"); tpl != "" {
		if err := booking.CheckOnlineMeetingURL(tpl); err != nil {
			return nil, nil, err
		}
		opts = append(opts, booking.WithOnlineMeetings(tpl))
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
func serveUntilDone(ctx context.Context, srv *http.Server, ln net.Listener, svc *booking.Service, people *identity.Service, tell *notify.Service, sweepEvery time.Duration, log *slog.Logger) error {
	// Every instance sweeps; the sweep itself makes sure that only one acts at a time.
	// Every instance also looks up the DNS records of e-mail domains that wait for their proof; a look-up
	// twice over changes nothing.
	sweepCtx, stopSweeps := context.WithCancel(ctx)
	var background sync.WaitGroup
	background.Go(func() { svc.RunSweeps(sweepCtx, sweepEvery, log) })
	// The same rounds roll up the closed days for the utilisation reports and anonymise the bookings past
	// their organization's retention.
	background.Go(func() { report.New(svc.Pool()).RunSweeps(sweepCtx, sweepEvery, log) })
	background.Go(func() { people.RunDomainChecks(sweepCtx, log) })
	defer func() { stopSweeps(); background.Wait() }() // before the caller closes the pool
	// Every instance works the outbox; River gives each job to one of them.
	if err := tell.Start(sweepCtx); err != nil && sweepCtx.Err() == nil {
		return err
	}
	defer func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := tell.Stop(stopCtx); err != nil {
			log.Warn("stopping the outbox", slog.Any("err", err))
		}
	}()

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

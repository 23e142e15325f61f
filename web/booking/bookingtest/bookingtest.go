// Package bookingtest gives tests a fresh, migrated PostgreSQL database (cloned from a template that is
// migrated once), a settable clock, and a small fixture layout of two organizations with known ids.
package bookingtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"io/fs"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/jackc/pgx/v5/stdlib" // the driver pgtestdb connects with
	"github.com/peterldowns/pgtestdb"

	schema "github.com/workspacebooking/booking/sql"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/postgres"
)

// DefaultDatabaseURL is the server tests use when DATABASE_URL is not set.
const DefaultDatabaseURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// migrator builds the template database with the service's own migrations.
type migrator struct{}

func (migrator) Hash() (string, error) {
	h := sha256.New()
	h.Write([]byte("river " + postgres.RiverVersion))
	err := fs.WalkDir(schema.Migrations, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(schema.Migrations, path)
		h.Write([]byte(path))
		h.Write(b)
		return err
	})
	return hex.EncodeToString(h.Sum(nil)), err
}

func (migrator) Migrate(ctx context.Context, _ *sql.DB, c pgtestdb.Config) error {
	_, err := postgres.Migrate(ctx, c.URL())
	return err
}

// ServerURL returns the URL of the "postgres" database on the test server: the server DATABASE_URL
// names, or else DefaultDatabaseURL's. Tests create and drop their databases through it.
func ServerURL() string {
	base := os.Getenv("DATABASE_URL")
	if base == "" {
		base = DefaultDatabaseURL
	}
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = "/postgres"
	return u.String()
}

// NewDatabaseURL returns the URL of a fresh, migrated database. When the test ends the database is
// emptied and kept for a later test, or dropped (see spares.go). If no server is reachable, the test
// fails rather than being skipped.
func NewDatabaseURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv("DATABASE_URL")
	if base == "" {
		base = DefaultDatabaseURL
	}
	cfg, err := pgx.ParseConfig(base)
	if err != nil {
		t.Fatalf("DATABASE_URL: %v", err)
	}
	conf := pgtestdb.Config{
		DriverName: "pgx", Host: cfg.Host, Port: strconv.Itoa(int(cfg.Port)), User: cfg.User, Password: cfg.Password,
		Database: "postgres", Options: "sslmode=disable", ForceTerminateConnections: true,
	}
	if c, err := net.DialTimeout("tcp", net.JoinHostPort(cfg.Host, conf.Port), 2*time.Second); err != nil {
		t.Fatalf("no PostgreSQL at %s:%s (set DATABASE_URL, or run the tests with `make test`): %v", cfg.Host, conf.Port, err)
	} else {
		c.Close()
	}
	return keptOrNew(t, conf)
}

// NewEmptyDatabaseURL creates an empty database, not migrated, on the test server and returns its URL.
// The database is dropped when the test ends.
func NewEmptyDatabaseURL(t testing.TB) string {
	t.Helper()
	base := ServerURL()
	admin, err := pgx.Connect(t.Context(), base)
	if err != nil {
		t.Fatalf("connect to %s: %v", base, err)
	}
	defer admin.Close(context.Background())
	name := "booking_migrate_" + strings.ReplaceAll(uuid.NewString(), "-", "")
	if _, err := admin.Exec(t.Context(), "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		c, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("connect to drop database %s: %v", name, err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// NewPool returns a pool on a fresh database. The pool is closed when the test ends.
func NewPool(t testing.TB) *pgxpool.Pool {
	t.Helper()
	cfg, err := postgres.PoolConfig(NewDatabaseURL(t)) // as the service runs
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatalf("pool: %v", err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// Clock is a settable clock for booking.WithClock.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock set to t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// Bundle is what most tests need: a service on a fresh database loaded with the fixture, its pool, and
// a clock set to Now. The sweeps also use that clock in place of the database's clock.
type Bundle struct {
	Service *booking.Service
	Pool    *pgxpool.Pool
	Clock   *Clock
}

// Setup returns a Bundle on a fresh database. opts configure the service further.
func Setup(t testing.TB, opts ...booking.Option) *Bundle {
	t.Helper()
	pool := NewPool(t)
	clock := NewClock(Now)
	svc := booking.NewService(pool, append([]booking.Option{booking.WithClock(clock.Now), booking.WithDatabaseClock(clock.Now)}, opts...)...)
	if _, err := layout.New(pool, svc).Import(context.Background(), Layout()); err != nil {
		t.Fatalf("import fixture: %v", err)
	}
	return &Bundle{Service: svc, Pool: pool, Clock: clock}
}

// Identity returns an identity service on the bundle's database, with the bundle's clock.
func (b *Bundle) Identity() *identity.Service { return identity.New(b.Pool, b.Service) }

// User returns a fixture user.
func (b *Bundle) User(t testing.TB, org, id uuid.UUID) booking.User {
	t.Helper()
	u, err := b.Service.UserByID(context.Background(), org, id)
	if err != nil {
		t.Fatalf("user %s: %v", id, err)
	}
	return u
}

// Wait is the longest a test waits for something. It is generous, for a slow shared machine.
const Wait = 60 * time.Second

// WaitFor waits up to Wait for cond to hold, and fails the test if it does not. what describes cond in
// the failure message.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(Wait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", Wait, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

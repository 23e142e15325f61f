package postgres_test

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/postgres"
)

func TestPoolConfig(t *testing.T) {
	t.Parallel()
	t.Run("Defaults", func(t *testing.T) {
		cfg, err := postgres.PoolConfig("postgres://postgres@127.0.0.1:5432/booking")
		if err != nil {
			t.Fatal(err)
		}
		if cfg.MaxConns != 16 || cfg.ConnConfig.ConnectTimeout != 3*time.Second || cfg.AfterConnect == nil {
			t.Errorf("max conns %d, connect timeout %s, AfterConnect set %v; want 16, 3s and ids in binary",
				cfg.MaxConns, cfg.ConnConfig.ConnectTimeout, cfg.AfterConnect != nil)
		}
		p := cfg.ConnConfig.RuntimeParams
		if p["statement_timeout"] != "5s" || p["idle_in_transaction_session_timeout"] != "15s" {
			t.Errorf("runtime params %v, want statement_timeout 5s and idle_in_transaction_session_timeout 15s", p)
		}
	})
	t.Run("TheURLWins", func(t *testing.T) {
		cfg, err := postgres.PoolConfig("postgres://postgres@127.0.0.1:5432/booking?pool_max_conns=4&connect_timeout=1&statement_timeout=250ms")
		if err != nil {
			t.Fatal(err)
		}
		if cfg.MaxConns != 4 || cfg.ConnConfig.ConnectTimeout != time.Second || cfg.ConnConfig.RuntimeParams["statement_timeout"] != "250ms" {
			t.Errorf("max conns %d, connect timeout %s, statement_timeout %q; want the URL's 4, 1s, 250ms",
				cfg.MaxConns, cfg.ConnConfig.ConnectTimeout, cfg.ConnConfig.RuntimeParams["statement_timeout"])
		}
	})
	t.Run("Malformed", func(t *testing.T) {
		if _, err := postgres.PoolConfig("postgres://%zz"); err == nil {
			t.Error("a malformed DATABASE_URL was accepted")
		}
	})
}

// A statement that runs longer than the statement timeout is stopped, and the client gets 5030.
func TestStatementTimeout(t *testing.T) {
	t.Parallel()
	pool := newPool(t, "statement_timeout=100ms")
	_, err := pool.Exec(t.Context(), "SELECT pg_sleep(2)")
	if got := booking.ErrorCode(booking.Interpret(err)); got != booking.CodeUnavailable {
		t.Errorf("a 2 s statement under a 100 ms statement timeout: %v (code %d), want 5030", err, got)
	}
}

// A server that refuses writes as read-only, as a primary demoted to a standby does, is 5030 to the
// client, and the connection is closed, so that the pool's next one goes to the server that accepts
// writes.
func TestReadOnlyServer(t *testing.T) {
	t.Parallel()
	// default_transaction_read_only makes the server refuse writes with the standby's SQLSTATE (25006).
	pool := newPool(t, "default_transaction_read_only=on")
	_, err := pool.Exec(t.Context(), "CREATE TABLE refused (i int)")
	if got := booking.ErrorCode(booking.Interpret(err)); got != booking.CodeUnavailable {
		t.Errorf("a write refused as read-only: %v (code %d), want 5030", err, got)
	}
	// The pool destroys a closed connection in the background.
	bookingtest.WaitFor(t, "the pool to drop its connection to the read-only server", func() bool {
		return pool.Stat().TotalConns() == 0
	})
}

// newPool opens a pool of PoolConfig on a fresh test database, with setting (name=value) added to its URL,
// and closes it when the test ends.
func newPool(t *testing.T, setting string) *pgxpool.Pool {
	t.Helper()
	cfg, err := postgres.PoolConfig(bookingtest.NewDatabaseURL(t) + "&" + setting)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

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
	cfg, err := postgres.PoolConfig(bookingtest.NewDatabaseURL(t) + "&statement_timeout=100ms")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	_, err = pool.Exec(t.Context(), "SELECT pg_sleep(2)")
	if got := booking.ErrorCode(booking.Interpret(err)); got != booking.CodeUnavailable {
		t.Errorf("a 2 s statement under a 100 ms statement timeout: %v (code %d), want 5030", err, got)
	}
}

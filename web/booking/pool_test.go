package booking_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

func TestPoolConfig(t *testing.T) {
	t.Parallel()
	t.Run("Defaults", func(t *testing.T) {
		cfg, err := booking.PoolConfig("postgres://postgres@127.0.0.1:5432/booking")
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
		cfg, err := booking.PoolConfig("postgres://postgres@127.0.0.1:5432/booking?pool_max_conns=4&connect_timeout=1&statement_timeout=250ms")
		if err != nil {
			t.Fatal(err)
		}
		if cfg.MaxConns != 4 || cfg.ConnConfig.ConnectTimeout != time.Second || cfg.ConnConfig.RuntimeParams["statement_timeout"] != "250ms" {
			t.Errorf("max conns %d, connect timeout %s, statement_timeout %q; want the URL's 4, 1s, 250ms",
				cfg.MaxConns, cfg.ConnConfig.ConnectTimeout, cfg.ConnConfig.RuntimeParams["statement_timeout"])
		}
	})
	t.Run("Malformed", func(t *testing.T) {
		if _, err := booking.PoolConfig("postgres://%zz"); err == nil {
			t.Error("a malformed DATABASE_URL was accepted")
		}
	})
}

package main

import (
	"testing"

	"github.com/workspacebooking/booking/web/booking"
)

// A statement that runs longer than the statement timeout is stopped, and is 5030 to the client.
func TestStatementTimeout(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	pool, _, err := open(t.Context(), dbURL+"&statement_timeout=100ms&pool_max_conns=4")
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if got := pool.Config().MaxConns; got != 4 {
		t.Errorf("pool_max_conns=4 in the URL: %d connections at most", got)
	}
	_, err = pool.Exec(t.Context(), "SELECT pg_sleep(2)")
	if got := booking.ErrorCode(booking.Interpret(err)); got != booking.CodeUnavailable {
		t.Errorf("a 2 s statement under a 100 ms statement timeout: %v (code %d), want 5030", err, got)
	}
}

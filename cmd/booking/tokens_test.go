package main

import (
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// booking token refuses lifetimes past 30 days, and token revoke makes every token of the user issued
// until then refused.
func TestTokenLifetimeAndRevoke(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)

	_, _, err := runBooking(t, environ(dbURL), "token", "--user", bookingtest.Alice.String(), "--ttl", "721h")
	if err == nil || !strings.Contains(err.Error(), "--ttl: at most 720h (30 days)") {
		t.Errorf("--ttl 721h: err = %v, want one naming the 30-day limit", err)
	}
	mustRun(t, dbURL, "token", "--user", bookingtest.Alice.String(), "--ttl", "720h")

	before := time.Now()
	stdout := mustRun(t, dbURL, "token", "revoke", "--user", bookingtest.Alice.String())
	if !strings.Contains(stdout, "alice@acme.test") || !strings.Contains(stdout, "refused") {
		t.Errorf("stdout = %q, want it to name the user and say the tokens are refused", stdout)
	}
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	var after *time.Time
	if err := conn.QueryRow(t.Context(), "SELECT tokens_valid_after FROM users WHERE id = $1", bookingtest.Alice).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after == nil || after.Before(before) || after.After(time.Now().Add(time.Second)) {
		t.Errorf("tokens_valid_after = %v, want about now (%v)", after, before)
	}

	for _, args := range [][]string{{"token", "revoke"}, {"token", "revoke", "--user", "alice"},
		{"token", "revoke", "--user", "00000000-0000-4000-8000-999999999999"}} {
		if _, _, err := runBooking(t, environ(dbURL), args...); err == nil {
			t.Errorf("booking %s: err = nil, want a refusal", strings.Join(args, " "))
		}
	}
}

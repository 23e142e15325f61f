package main

import (
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestTokenLifetimeAndRevoke checks that `booking token` refuses a lifetime over 30 days, and that
// `token revoke` makes every token issued to the user so far invalid.
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

// TestTokenRevokeBefore checks `token revoke --before TIME`, which invalidates the user's tokens issued
// before a past moment. A future moment is refused, because it would invalidate tokens not issued yet.
// A later call with an earlier moment does not move the revocation back.
func TestTokenRevokeBefore(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(t.Context())
	validAfter := func() *time.Time {
		t.Helper()
		var after *time.Time
		if err := conn.QueryRow(t.Context(), "SELECT tokens_valid_after FROM users WHERE id = $1", bookingtest.Alice).Scan(&after); err != nil {
			t.Fatal(err)
		}
		return after
	}
	alice := bookingtest.Alice.String()

	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, tc := range []struct{ before, want string }{
		{later, "--before: " + later + " is later than now"},
		{"yesterday", `--before: "yesterday" is not a moment in RFC 3339`},
		{"2026-01-02 03:04:05", `--before: "2026-01-02 03:04:05" is not a moment in RFC 3339`},
	} {
		_, _, err := runBooking(t, environ(dbURL), "token", "revoke", "--user", alice, "--before", tc.before)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--before %s: err = %v, want one saying %q", tc.before, err, tc.want)
		}
	}
	if after := validAfter(); after != nil {
		t.Errorf("tokens_valid_after = %v after refused revocations, want none", after)
	}

	past := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	stdout := mustRun(t, dbURL, "token", "revoke", "--user", alice, "--before", "2026-01-02T04:04:05+01:00")
	if !strings.Contains(stdout, "alice@acme.test") || !strings.Contains(stdout, "issued before 2026-01-02T03:04:05Z are refused") {
		t.Errorf("stdout = %q, want it to name the user and the moment", stdout)
	}
	if after := validAfter(); after == nil || !after.Equal(past) {
		t.Errorf("tokens_valid_after = %v, want %v", after, past)
	}

	mustRun(t, dbURL, "token", "revoke", "--user", alice)
	now := validAfter()
	stdout = mustRun(t, dbURL, "token", "revoke", "--user", alice, "--before", past.Format(time.RFC3339))
	if after := validAfter(); after == nil || !after.Equal(*now) {
		t.Errorf("tokens_valid_after = %v after revoking before an earlier moment, want it kept at %v", after, now)
	}
	if want := "issued before " + now.UTC().Format(time.RFC3339) + " were refused already"; !strings.Contains(stdout, want) {
		t.Errorf("stdout = %q, want it to say %q", stdout, want)
	}
}

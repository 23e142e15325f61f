package main

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestServeLimits checks that serve passes its rate-limit flags to the server, that it refuses bad
// values, and that /metrics, asked from this machine, counts the throttled call.
func TestServeLimits(t *testing.T) {
	t.Parallel()

	t.Run("FlagsSetTheLimits", func(t *testing.T) {
		t.Parallel()
		dbURL := withFixture(t)
		tok := mintToken(t, dbURL, bookingtest.Alice)
		s := startServer(t, dbURL, "--rate-per-user", "0.01", "--burst-per-user", "1", "--rate-per-address", "0")
		const statusinfo = "/api/v1/users/me/resources/statusinfo?postercode=MAD-R1"
		if res := s.get(t, statusinfo, tok); res.status != http.StatusOK {
			t.Fatalf("first call = %d %s, want 200", res.status, res.body)
		}
		res := s.get(t, statusinfo, tok)
		if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") != "100" ||
			!strings.Contains(res.body, `"code":4290`) {
			t.Errorf("second call = %d (Retry-After %q) %s, want 429 4290 with Retry-After 100", res.status, res.header.Get("Retry-After"), res.body)
		}
		// --rate-per-address 0 turns off the limit per address.
		for range 50 {
			if res := s.get(t, "/healthz", ""); res.status != http.StatusOK {
				t.Fatalf("GET /healthz = %d, want 200 (no limit per address)", res.status)
			}
		}
		res = s.get(t, "/metrics", "")
		if res.status != http.StatusOK || !strings.Contains(res.body, `booking_http_requests_total{method="GET",route="/api/v1/users/:userId/resources/statusinfo",status="429"} 1`) ||
			!strings.Contains(res.body, "booking_db_connections_max ") {
			t.Errorf("GET /metrics = %d, want 200 with the throttled call and the pool\n%s", res.status, res.body)
		}
		s.stop(t)
	})

	t.Run("BadFlagsAreRefused", func(t *testing.T) {
		t.Parallel()
		dbURL := bookingtest.NewDatabaseURL(t)
		// The context is already cancelled. If serve accepted a bad flag, it would return at once with an
		// error that names no flag, and the test would fail.
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		for _, tc := range []struct {
			args []string
			flag string // the flag the error must name
		}{
			{[]string{"--rate-per-user", "-1"}, "rate-per-user"},
			{[]string{"--rate-per-address", "NaN"}, "rate-per-address"},
			{[]string{"--rate-per-user", "5", "--burst-per-user", "0"}, "burst-per-user"},
			{[]string{"--burst-per-address", "many"}, "burst-per-address"},
		} {
			var stdout, stderr syncBuffer
			err := run(ctx, append([]string{"booking", "serve", "--addr", "127.0.0.1:0"}, tc.args...), environ(dbURL), &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), "-"+tc.flag) {
				t.Errorf("serve %v: %v, want an error naming -%s", tc.args, err, tc.flag)
			}
		}
	})
}

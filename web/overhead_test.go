package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
)

// These tests measure what the metrics and the rate limits cost each request. Once a route, a user or an
// address has been seen, they must allocate nothing.

func TestMetricsObserveAllocatesNothing(t *testing.T) {
	m := newMetrics(nil)
	const route = "/api/v1/users/:userId/resources/statusinfo"
	m.observe(route, "GET", 200, time.Millisecond)
	if n := testing.AllocsPerRun(1000, func() { m.observe(route, "GET", 200, time.Millisecond) }); n != 0 {
		t.Errorf("observe allocates %v times a request, want 0", n)
	}
}

func TestMetricsMethodsAreBounded(t *testing.T) {
	m := newMetrics(nil)
	for _, method := range []string{"BREW", "PROPFIND", "get", strings.Repeat("X", 100)} {
		m.observe("", method, 405, time.Millisecond)
	}
	if len(m.series) != 1 {
		t.Errorf("%d series for four unknown methods, want 1 (OTHER)", len(m.series))
	}
}

func TestRateLimiterAllocatesNothing(t *testing.T) {
	users := newLimiter[uuid.UUID](Limit{Rate: 1e9, Burst: 1e9})
	addresses := newLimiter[string](Limit{Rate: 1e9, Burst: 1e9})
	id, now := uuid.New(), time.Now()
	if n := testing.AllocsPerRun(1000, func() {
		users.allow(id, now)
		addresses.allow("192.0.2.1", now)
	}); n != 0 {
		t.Errorf("allow allocates %v times a request, want 0", n)
	}
}

func TestRateLimiterForgetsIdleKeys(t *testing.T) {
	l := newLimiter[string](Limit{Rate: 10, Burst: 10}) // refills in 1 s; an idle key is dropped after 2 s
	now := time.Now()
	for i := range 10 {
		if ok, _ := l.allow("192.0.2.1", now); !ok {
			t.Fatalf("request %d refused within the burst", i)
		}
	}
	ok, after := l.allow("192.0.2.1", now)
	if ok || after <= 0 || after > 100*time.Millisecond {
		t.Errorf("over the burst: ok %v, retry after %v; want refused, one token (100 ms) away", ok, after)
	}
	l.allow("192.0.2.2", now.Add(3*time.Second))
	if _, kept := l.buckets["192.0.2.1"]; kept || len(l.buckets) != 1 {
		t.Errorf("buckets after 3 s = %d (the idle one kept: %v), want only the active one", len(l.buckets), kept)
	}
	if ok, _ := l.allow("192.0.2.1", now.Add(3*time.Second)); !ok {
		t.Error("a forgotten address is refused, want a full bucket again")
	}
	if newLimiter[string](Limit{}) != nil || newLimiter[string](Limit{Rate: -1, Burst: 5}) != nil {
		t.Error("a zero or negative rate gives a limiter, want none (no limit)")
	}
}

func TestRateLimiterRefills(t *testing.T) {
	l := newLimiter[string](Limit{Rate: 1, Burst: 2}) // one token a second, at most two saved up
	now := time.Now()
	allow := func(key string, at time.Duration) (bool, time.Duration) { return l.allow(key, now.Add(at)) }
	for i := range 2 {
		if ok, _ := allow("192.0.2.1", 0); !ok {
			t.Fatalf("request %d refused within the burst", i)
		}
	}
	for _, tc := range []struct {
		at, after time.Duration
	}{{0, time.Second}, {400 * time.Millisecond, 600 * time.Millisecond}, {999 * time.Millisecond, time.Millisecond}} {
		if ok, after := allow("192.0.2.1", tc.at); ok || after != tc.after {
			t.Errorf("%v on: ok %v, retry after %v; want refused, %v to the next token", tc.at, ok, after, tc.after)
		}
	}
	// A refused request uses no token, so after a second exactly one token is back.
	if ok, _ := allow("192.0.2.1", time.Second); !ok {
		t.Error("refused a second on, want the token that came back")
	}
	if ok, after := allow("192.0.2.1", time.Second); ok || after != time.Second {
		t.Errorf("again a second on: ok %v, retry after %v; want refused, 1s to the next token", ok, after)
	}
	// After being idle longer than it takes to refill, but not long enough to be dropped, the bucket holds
	// the burst and no more.
	for i := range 2 {
		if ok, _ := allow("192.0.2.1", 3500*time.Millisecond); !ok {
			t.Errorf("request %d refused after 2.5 s idle, want the burst again", i)
		}
	}
	if ok, after := allow("192.0.2.1", 3500*time.Millisecond); ok || after != time.Second {
		t.Errorf("a third request after 2.5 s idle: ok %v, retry after %v; want refused, 1s to the next token", ok, after)
	}
}

func TestTooManyRetryAfterIsWholeSecondsRoundedUp(t *testing.T) {
	for after, want := range map[time.Duration]string{
		time.Nanosecond: "1", time.Millisecond: "1", time.Second: "1", time.Second + time.Millisecond: "2",
		1000*time.Second - time.Millisecond: "1000", 0: "1",
	} {
		c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, "/", nil), httptest.NewRecorder())
		err := tooMany(c, "user", after)
		if got := c.Response().Header().Get("Retry-After"); got != want {
			t.Errorf("tooMany(%v): Retry-After %q, want %q", after, got, want)
		}
		if booking.ErrorCode(err) != booking.CodeTooManyRequests || !strings.Contains(err.Error(), "try again in "+want+" s") {
			t.Errorf("tooMany(%v) = %v, want a 4290 saying when to try again", after, err)
		}
	}
}

func TestIdempotencyKeyValid(t *testing.T) {
	for key, want := range map[string]bool{
		"k": true, "7f1c2a-0b9e": true, strings.Repeat("k", 255): true, " ~!": true,
		"": false, strings.Repeat("k", 256): false, "tab\there": false, "nl\n": false, "del\x7f": false,
		"nul\x00": false, "ünïcode": false,
	} {
		if got := validKey(key); got != want {
			t.Errorf("validKey(%q) = %v, want %v", key, got, want)
		}
	}
}

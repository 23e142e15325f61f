package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// withLimits returns a setup option that sets the rate limits.
func withLimits(limits web.Limits) func(*web.Deps) {
	return func(d *web.Deps) { d.Limits = limits }
}

// slow is the rate the tests use: one token every 1000 s, so no token comes back while a test runs. The
// limiter's refill is tested with its own clock in overhead_test.go.
const slow = 0.001

// wantRetryAfter checks that Retry-After is the whole number of seconds until the next token at the slow
// rate: 1000, minus the seconds that have passed since the bucket was first used (at since or later).
func wantRetryAfter(t *testing.T, got string, since time.Time) {
	t.Helper()
	secs, err := strconv.Atoi(got)
	if least := 1000 - int(time.Since(since).Seconds()); err != nil || secs < least || secs > 1000 {
		t.Errorf("Retry-After = %q, want whole seconds from %d to 1000 (a token every 1000 s)", got, least)
	}
}

// wantThrottled checks for a 429 response with code 4290 and a Retry-After in whole seconds.
func wantThrottled(t *testing.T, r reply, since time.Time) {
	t.Helper()
	wantProblem(t, r, http.StatusTooManyRequests, booking.CodeTooManyRequests, noIndex)
	wantRetryAfter(t, r.header.Get("Retry-After"), since)
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	status := statusPath("me", "MAD-R1")

	t.Run("PerUser", func(t *testing.T) {
		t.Parallel()
		tb := setup(t, withLimits(web.Limits{PerUser: web.Limit{Rate: slow, Burst: 2}}))
		since := time.Now()
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		// Over the limit, a booking request is refused and nothing is written.
		start := fx.At(1, 10, 0)
		r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))})
		wantThrottled(t, r, since)
		tb.wantRows(t, "bookings", 0)
		wantThrottled(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), since)
		// Another user has their own bucket.
		wantStatus(t, tb.call(t, fx.Bob, http.MethodGet, status, nil), http.StatusOK)
	})

	t.Run("PerAddress", func(t *testing.T) {
		t.Parallel()
		tb := setup(t, withLimits(web.Limits{PerAddress: web.Limit{Rate: slow, Burst: 2}}))
		since := time.Now()
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		wantStatus(t, tb.call(t, fx.Bob, http.MethodGet, status, nil), http.StatusOK)
		// Everybody at this address shares the bucket, signed in or not.
		wantThrottled(t, tb.call(t, fx.Rita, http.MethodGet, status, nil), since)
		wantThrottled(t, tb.call(t, uuid.Nil, http.MethodGet, status, nil), since)
	})

	t.Run("PerAddressIsTheTCPPeer", func(t *testing.T) {
		t.Parallel()
		s := web.NewServer(web.Deps{Logger: slog.New(slog.DiscardHandler), Limits: web.Limits{PerAddress: web.Limit{Rate: slow, Burst: 1}}})
		since := time.Now()
		get := func(path, addr, forwardedFor string) *httptest.ResponseRecorder {
			req := httptest.NewRequest(http.MethodGet, path, nil)
			req.RemoteAddr = addr
			if forwardedFor != "" {
				req.Header.Set("X-Forwarded-For", forwardedFor)
				req.Header.Set("X-Real-Ip", forwardedFor)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			return rec
		}
		if rec := get("/healthz", "192.0.2.1:4000", ""); rec.Code != http.StatusOK {
			t.Fatalf("first request = %d, want 200", rec.Code)
		}
		// Another port on the same address, with a header claiming to forward for someone else, still uses
		// the same bucket.
		rec := get("/healthz", "192.0.2.1:4001", "198.51.100.7")
		if rec.Code != http.StatusTooManyRequests {
			t.Errorf("second request = %d, want 429", rec.Code)
		}
		wantRetryAfter(t, rec.Header().Get("Retry-After"), since)
		// A page request gets the error page, also with Retry-After.
		rec = get("/find", "192.0.2.1:4002", "")
		if ct := rec.Header().Get("Content-Type"); rec.Code != http.StatusTooManyRequests || !strings.HasPrefix(ct, "text/html") ||
			!strings.Contains(rec.Body.String(), "Too many requests from this address") {
			t.Errorf("a page over the limit = %d %q; want the 429 error page\n%s", rec.Code, ct, rec.Body)
		}
		wantRetryAfter(t, rec.Header().Get("Retry-After"), since)
		// The API responds with problem+json.
		rec = get(api+"/openapi.json", "192.0.2.1:4003", "")
		if ct := rec.Header().Get("Content-Type"); rec.Code != http.StatusTooManyRequests || ct != "application/problem+json" ||
			!strings.Contains(rec.Body.String(), `"code":4290,"name":"TOO_MANY_REQUESTS"`) {
			t.Errorf("the API over the limit = %d %q %s; want 429 4290 in problem+json", rec.Code, ct, rec.Body)
		}
		// Another address has its own bucket, IPv6 included.
		for _, addr := range []string{"192.0.2.2:4000", "[2001:db8::1]:4000"} {
			if rec := get("/healthz", addr, ""); rec.Code != http.StatusOK {
				t.Errorf("first request from %s = %d, want 200", addr, rec.Code)
			}
		}
	})

	t.Run("ThrottledRetryKeepsNoKey", func(t *testing.T) {
		t.Parallel()
		tb := setup(t, withLimits(web.Limits{PerUser: web.Limit{Rate: slow, Burst: 1}}))
		start := fx.At(1, 10, 0)
		body := []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}
		since := time.Now()
		wantStatus(t, tb.postKeyed(t, fx.Alice, "k-1", body), http.StatusCreated)
		wantThrottled(t, tb.postKeyed(t, fx.Alice, "k-2", body), since)
		tb.wantRows(t, "bookings", 1)
		tb.wantRows(t, "idempotency_keys", 1)
	})

	t.Run("NoneByDefault", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		for range 50 {
			wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		}
	})
}

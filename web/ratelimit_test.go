package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// limited is the fixture's server with limits.
func limited(t *testing.T, limits web.Limits) *testBundle {
	t.Helper()
	b := fx.Setup(t)
	tokens, err := web.NewTokens(t.Context(), b.Service, web.OIDCConfig{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.NewServer(web.Deps{
		Bookings: b.Service, Tokens: tokens, Logger: slog.New(slog.DiscardHandler), Limits: limits,
	}))
	t.Cleanup(srv.Close)
	return &testBundle{Bundle: b, srv: srv, tokens: tokens}
}

// wantThrottled checks a 429 4290 with a Retry-After of whole seconds.
func wantThrottled(t *testing.T, r reply) {
	t.Helper()
	wantProblem(t, r, http.StatusTooManyRequests, booking.CodeTooManyRequests, noIndex)
	if got := r.header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1 (second)", got)
	}
}

func TestRateLimits(t *testing.T) {
	t.Parallel()
	status := statusPath("me", "MAD-R1")

	t.Run("PerUser", func(t *testing.T) {
		t.Parallel()
		tb := limited(t, web.Limits{PerUser: web.Limit{Rate: 1, Burst: 2}})
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		// Over the limit, a booking is refused and nothing is written.
		start := fx.At(1, 10, 0)
		r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))})
		wantThrottled(t, r)
		tb.wantRows(t, "bookings", 0)
		// Another user has a bucket of their own.
		wantStatus(t, tb.call(t, fx.Bob, http.MethodGet, status, nil), http.StatusOK)
		time.Sleep(1100 * time.Millisecond) // one token again
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
	})

	t.Run("PerAddress", func(t *testing.T) {
		t.Parallel()
		tb := limited(t, web.Limits{PerAddress: web.Limit{Rate: 1, Burst: 2}})
		wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		wantStatus(t, tb.call(t, fx.Bob, http.MethodGet, status, nil), http.StatusOK)
		// Everybody on this address shares the bucket, signed in or not.
		wantThrottled(t, tb.call(t, fx.Rita, http.MethodGet, status, nil))
		wantThrottled(t, tb.call(t, uuid.Nil, http.MethodGet, status, nil))
	})

	t.Run("PerAddressIsTheTCPPeer", func(t *testing.T) {
		t.Parallel()
		s := web.NewServer(web.Deps{Logger: slog.New(slog.DiscardHandler), Limits: web.Limits{PerAddress: web.Limit{Rate: 1, Burst: 1}}})
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
		// Another port of the same address, claiming to forward for someone else: the same bucket.
		rec := get("/healthz", "192.0.2.1:4001", "198.51.100.7")
		if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" {
			t.Errorf("second request = %d, Retry-After %q; want 429 with Retry-After 1", rec.Code, rec.Header().Get("Retry-After"))
		}
		// A page gets the error page, with Retry-After too.
		rec = get("/find", "192.0.2.1:4002", "")
		if ct := rec.Header().Get("Content-Type"); rec.Code != http.StatusTooManyRequests || !strings.HasPrefix(ct, "text/html") ||
			rec.Header().Get("Retry-After") != "1" || !strings.Contains(rec.Body.String(), "Too many requests from this address") {
			t.Errorf("a page over the limit = %d %q, Retry-After %q; want the 429 error page\n%s", rec.Code, ct, rec.Header().Get("Retry-After"), rec.Body)
		}
		// The API answers problem+json.
		rec = get(api+"/openapi.json", "192.0.2.1:4003", "")
		if ct := rec.Header().Get("Content-Type"); rec.Code != http.StatusTooManyRequests || ct != "application/problem+json" ||
			!strings.Contains(rec.Body.String(), `"code":4290,"name":"TOO_MANY_REQUESTS"`) {
			t.Errorf("the API over the limit = %d %q %s; want 429 4290 in problem+json", rec.Code, ct, rec.Body)
		}
		// Another address has a bucket of its own, IPv6 too.
		for _, addr := range []string{"192.0.2.2:4000", "[2001:db8::1]:4000"} {
			if rec := get("/healthz", addr, ""); rec.Code != http.StatusOK {
				t.Errorf("first request from %s = %d, want 200", addr, rec.Code)
			}
		}
	})

	t.Run("ThrottledRetryKeepsNoKey", func(t *testing.T) {
		t.Parallel()
		tb := limited(t, web.Limits{PerUser: web.Limit{Rate: 0.001, Burst: 1}})
		start := fx.At(1, 10, 0)
		body := []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}
		send := func(key string) reply {
			req := tb.request(t, fx.Alice, http.MethodPost, bookingsPath("me"), body)
			req.Header.Set("Idempotency-Key", key)
			return tb.send(t, req)
		}
		wantStatus(t, send("k-1"), http.StatusCreated)
		r := send("k-2")
		wantProblem(t, r, http.StatusTooManyRequests, booking.CodeTooManyRequests, noIndex)
		if got := r.header.Get("Retry-After"); got != "1000" {
			t.Errorf("Retry-After = %q, want 1000 (a token every 1000 s)", got)
		}
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

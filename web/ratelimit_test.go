package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
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

	t.Run("NoneByDefault", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		for range 50 {
			wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, status, nil), http.StatusOK)
		}
	})
}

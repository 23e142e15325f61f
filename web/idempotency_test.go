package web_test

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	start := fx.At(1, 10, 0)
	goya := []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}
	velazquez := []any{spaceBooking(fx.RoomVelazquez, start, start.Add(time.Hour))}
	post := func(tb *testBundle, as uuid.UUID, key string, body any) reply {
		t.Helper()
		req := tb.request(t, as, http.MethodPost, bookingsPath("me"), body)
		req.Header.Set("Idempotency-Key", key)
		return tb.send(t, req)
	}

	t.Run("RetryGetsTheFirstAnswer", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first := post(tb, fx.Alice, "k-1", goya)
		wantStatus(t, first, http.StatusCreated)
		again := post(tb, fx.Alice, "k-1", goya)
		wantStatus(t, again, http.StatusCreated)
		if !bytes.Equal(again.body, first.body) || again.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry: %s (replayed %q), want the first answer again, replayed", again.body, again.header.Get("Idempotent-Replayed"))
		}
		if first.header.Get("Idempotent-Replayed") != "" {
			t.Error("the first answer says it was replayed")
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("SameKeyOtherRequestIs4220", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, post(tb, fx.Alice, "k-2", goya), http.StatusCreated)
		r := post(tb, fx.Alice, "k-2", velazquez)
		wantProblem(t, r, http.StatusUnprocessableEntity, booking.CodeIdempotencyKeyReused, noIndex)
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("KeysAreEachUsersOwn", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, post(tb, fx.Alice, "k-3", goya), http.StatusCreated)
		// Bob's same key is a request of his own: it runs, and the room is taken.
		wantProblem(t, post(tb, fx.Bob, "k-3", goya), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		wantStatus(t, post(tb, fx.Bob, "k-4", velazquez), http.StatusCreated)
		tb.wantRows(t, "bookings", 2)
	})

	t.Run("RefusalsAreKeptToo", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.call(t, fx.Bob, http.MethodPost, bookingsPath("me"), goya), http.StatusCreated)
		first := post(tb, fx.Alice, "k-5", goya)
		wantProblem(t, first, http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		if _, err := tb.Pool.Exec(t.Context(), `UPDATE bookings SET status = 'CANCELLED'`); err != nil {
			t.Fatal(err)
		}
		again := post(tb, fx.Alice, "k-5", goya) // the room is free now, but this is a retry
		if again.status != http.StatusConflict || !bytes.Equal(again.body, first.body) {
			t.Errorf("retry of a refusal: %d %s, want the first 409 again", again.status, again.body)
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("ConcurrentRetriesRunOnce", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		replies := make([]reply, 10)
		var wg sync.WaitGroup
		for i := range replies {
			wg.Go(func() { replies[i] = post(tb, fx.Alice, "k-6", goya) })
		}
		wg.Wait()
		for _, r := range replies {
			if r.status != http.StatusCreated || !bytes.Equal(r.body, replies[0].body) {
				t.Errorf("answers differ: %d %s and %d %s", r.status, r.body, replies[0].status, replies[0].body)
			}
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("ExpiredKeysAreNew", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, post(tb, fx.Alice, "k-7", goya), http.StatusCreated)
		if _, err := tb.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`); err != nil {
			t.Fatal(err)
		}
		// 25 hours on, the key is a new one: the request runs again (and the room is taken by the first).
		wantProblem(t, post(tb, fx.Alice, "k-7", goya), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		if _, err := tb.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`); err != nil {
			t.Fatal(err)
		}
		if n, err := tb.Service.DeleteExpiredIdempotencyKeys(t.Context()); err != nil || n != 1 {
			t.Errorf("sweep: %d keys deleted (%v), want 1", n, err)
		}
	})

	t.Run("MalformedKeyIs2000", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		for _, key := range []string{strings.Repeat("k", 256), "tab\there", "ünïcode"} {
			wantProblem(t, post(tb, fx.Alice, key, goya), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		}
		tb.wantRows(t, "bookings", 0)
	})

	t.Run("WithoutAKeyNothingIsKept", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya), http.StatusCreated)
		tb.wantRows(t, "idempotency_keys", 0)
	})
}

package web_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	start := fx.At(1, 10, 0)
	goya := []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}
	velazquez := []any{spaceBooking(fx.RoomVelazquez, start, start.Add(time.Hour))}
	post := func(t *testing.T, tb *testBundle, as uuid.UUID, key string, body any) reply {
		t.Helper()
		req := tb.request(t, as, http.MethodPost, bookingsPath("me"), body)
		req.Header.Set("Idempotency-Key", key)
		return tb.send(t, req)
	}

	t.Run("RetryGetsTheFirstAnswer", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first := post(t, tb, fx.Alice, "k-1", goya)
		wantStatus(t, first, http.StatusCreated)
		again := post(t, tb, fx.Alice, "k-1", goya)
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
		first := post(t, tb, fx.Alice, "k-2", goya)
		wantStatus(t, first, http.StatusCreated)
		// Another body, another path, another query: each is another request.
		for _, req := range []*http.Request{
			tb.request(t, fx.Alice, http.MethodPost, bookingsPath("me"), velazquez),
			tb.request(t, fx.Alice, http.MethodPost, api+"/users/me/bookings/workstations/standard", goya),
			tb.request(t, fx.Alice, http.MethodPost, bookingsPath("me")+"?x=1", goya),
		} {
			req.Header.Set("Idempotency-Key", "k-2")
			r := tb.send(t, req)
			wantProblem(t, r, http.StatusUnprocessableEntity, booking.CodeIdempotencyKeyReused, noIndex)
			if r.header.Get("Idempotent-Replayed") != "" {
				t.Errorf("%s: a refusal of the key says it was replayed", req.URL)
			}
		}
		tb.wantRows(t, "bookings", 1)
		// The key still holds the first answer.
		again := post(t, tb, fx.Alice, "k-2", goya)
		if again.status != http.StatusCreated || !bytes.Equal(again.body, first.body) {
			t.Errorf("retry after the refusals: %d %s, want the first answer", again.status, again.body)
		}
	})

	t.Run("KeysAreEachUsersOwn", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, post(t, tb, fx.Alice, "k-3", goya), http.StatusCreated)
		// Bob's same key is a request of his own: it runs, and the room is taken.
		wantProblem(t, post(t, tb, fx.Bob, "k-3", goya), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		wantStatus(t, post(t, tb, fx.Bob, "k-4", velazquez), http.StatusCreated)
		tb.wantRows(t, "bookings", 2)
	})

	t.Run("RefusalsAreKeptToo", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.call(t, fx.Bob, http.MethodPost, bookingsPath("me"), goya), http.StatusCreated)
		first := post(t, tb, fx.Alice, "k-5", goya)
		wantProblem(t, first, http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		if _, err := tb.Pool.Exec(t.Context(), `UPDATE bookings SET status = 'CANCELLED'`); err != nil {
			t.Fatal(err)
		}
		again := post(t, tb, fx.Alice, "k-5", goya) // the room is free now, but this is a retry
		if again.status != http.StatusConflict || !bytes.Equal(again.body, first.body) {
			t.Errorf("retry of a refusal: %d %s, want the first 409 again", again.status, again.body)
		}
		if again.header.Get("Idempotent-Replayed") != "true" || again.header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("retry of a refusal: Idempotent-Replayed %q, Content-Type %q; want true, application/problem+json",
				again.header.Get("Idempotent-Replayed"), again.header.Get("Content-Type"))
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("FailuresAreNotKept", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		// A failure of ours (500): nothing was written, and the key is given back.
		if _, err := tb.Pool.Exec(t.Context(), `
			CREATE FUNCTION refuse_bookings() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$;
			CREATE TRIGGER refuse_bookings BEFORE INSERT ON bookings FOR EACH ROW EXECUTE FUNCTION refuse_bookings()`); err != nil {
			t.Fatal(err)
		}
		failed := post(t, tb, fx.Alice, "k-fail", goya)
		wantProblem(t, failed, http.StatusInternalServerError, booking.CodeInternal, noIndex)
		tb.wantRows(t, "idempotency_keys", 0)
		if _, err := tb.Pool.Exec(t.Context(), `DROP TRIGGER refuse_bookings ON bookings`); err != nil {
			t.Fatal(err)
		}
		// The retry runs again.
		again := post(t, tb, fx.Alice, "k-fail", goya)
		wantStatus(t, again, http.StatusCreated)
		if again.header.Get("Idempotent-Replayed") != "" {
			t.Error("the retry after a failure says it was replayed")
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("ConcurrentRetriesRunOnce", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		replies := make([]reply, 10)
		var wg sync.WaitGroup
		for i := range replies {
			wg.Go(func() { replies[i] = post(t, tb, fx.Alice, "k-6", goya) })
		}
		wg.Wait()
		ran := 0
		for _, r := range replies {
			if r.status != http.StatusCreated || !bytes.Equal(r.body, replies[0].body) {
				t.Errorf("answers differ: %d %s and %d %s", r.status, r.body, replies[0].status, replies[0].body)
			}
			if r.header.Get("Idempotent-Replayed") == "" {
				ran++
			}
		}
		if ran != 1 {
			t.Errorf("%d answers not replayed, want 1 (the request ran once)", ran)
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("RetryWaitsForTheFirst", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		// Inserts of a resource's bookings queue on its advisory lock (queries/bookings.sql): holding it keeps
		// the first request running.
		tx, err := tb.Pool.Begin(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(context.Background())
		if _, err := tx.Exec(t.Context(), `SELECT pg_advisory_xact_lock(hashtextextended($1::uuid::text, 0))`, fx.RoomGoya); err != nil {
			t.Fatal(err)
		}
		first, retry := make(chan reply, 1), make(chan reply, 1)
		go func() { first <- post(t, tb, fx.Alice, "k-wait", goya) }()
		deadline := time.Now().Add(5 * time.Second)
		for tb.count(t, "idempotency_keys") == 0 {
			if time.Now().After(deadline) {
				t.Fatal("the first request did not claim its key within 5 s")
			}
			time.Sleep(5 * time.Millisecond)
		}
		go func() { retry <- post(t, tb, fx.Alice, "k-wait", goya) }()
		select {
		case r := <-retry:
			t.Fatalf("the retry answered %d %s while the first request was still running", r.status, r.body)
		case r := <-first:
			t.Fatalf("the first request answered %d %s while the resource was locked", r.status, r.body)
		case <-time.After(200 * time.Millisecond):
		}
		if err := tx.Rollback(t.Context()); err != nil {
			t.Fatal(err)
		}
		a, b := <-first, <-retry
		wantStatus(t, a, http.StatusCreated)
		if b.status != a.status || !bytes.Equal(b.body, a.body) || b.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry: %d %s (replayed %q), want the first answer, replayed", b.status, b.body, b.header.Get("Idempotent-Replayed"))
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("ExpiredKeysAreNew", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, post(t, tb, fx.Alice, "k-7", goya), http.StatusCreated)
		if _, err := tb.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`); err != nil {
			t.Fatal(err)
		}
		// 25 hours on, the key is a new one: the request runs again (and the room is taken by the first).
		wantProblem(t, post(t, tb, fx.Alice, "k-7", goya), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
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
		for _, key := range []string{"", strings.Repeat("k", 256), "tab\there", "ünïcode"} {
			wantProblem(t, post(t, tb, fx.Alice, key, goya), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		}
		req := tb.request(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya)
		req.Header.Add("Idempotency-Key", "k-a")
		req.Header.Add("Idempotency-Key", "k-b")
		wantProblem(t, tb.send(t, req), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		// 255 characters is still a key.
		wantStatus(t, post(t, tb, fx.Alice, strings.Repeat("k", 255), goya), http.StatusCreated)
		tb.wantRows(t, "bookings", 1)
		tb.wantRows(t, "idempotency_keys", 1)
	})

	t.Run("TooLargeBodyIs2000", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		big := `[{"subject":"` + strings.Repeat("x", web.MaxBodyBytes) + `"}]`
		wantProblem(t, post(t, tb, fx.Alice, "k-big", big), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		tb.wantRows(t, "idempotency_keys", 0)
		tb.wantRows(t, "bookings", 0)
	})

	t.Run("OtherOperations", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.Now.Add(5*time.Minute), fx.Now.Add(time.Hour))
		checkIn := func() reply {
			req := tb.request(t, fx.Alice, http.MethodPost, bookingPath(id, "checkin"), nil)
			req.Header.Set("Idempotency-Key", "k-in")
			return tb.send(t, req)
		}
		first := checkIn()
		wantStatus(t, first, http.StatusOK)
		// Checked in once: a second check-in would be refused; the retry gets the first answer.
		again := checkIn()
		if again.status != http.StatusOK || !bytes.Equal(again.body, first.body) || again.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("retry of a check-in: %d %s, want the first answer, replayed", again.status, again.body)
		}
	})

	t.Run("WithoutAKeyNothingIsKept", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya), http.StatusCreated)
		tb.wantRows(t, "idempotency_keys", 0)
	})
}

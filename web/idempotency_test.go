package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// keyed is the header of a request sent with the idempotency key.
func keyed(key string) http.Header { return http.Header{web.IdempotencyKeyHeader: {key}} }

// postKeyed books as the user with the body, sent with the idempotency key.
func (tb *testBundle) postKeyed(t *testing.T, as uuid.UUID, key string, body any) reply {
	t.Helper()
	return tb.callWith(t, as, http.MethodPost, bookingsPath("me"), body, keyed(key))
}

func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	start := fx.At(1, 10, 0)
	goya := []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}
	velazquez := []any{spaceBooking(fx.RoomVelazquez, start, start.Add(time.Hour))}
	// postRequest is postKeyed's request, built here so that another goroutine may send it (with tb.do).
	postRequest := func(t *testing.T, tb *testBundle, as uuid.UUID, key string, body any) *http.Request {
		t.Helper()
		req := tb.request(t, as, http.MethodPost, bookingsPath("me"), body)
		req.Header.Set(web.IdempotencyKeyHeader, key)
		return req
	}
	type result struct {
		reply
		err error
	}
	// sendAsync sends the request from a goroutine of its own and gives the result on the channel.
	sendAsync := func(tb *testBundle, req *http.Request) <-chan result {
		out := make(chan result, 1)
		go func() {
			r, err := tb.do(req)
			out <- result{r, err}
		}()
		return out
	}
	// receive waits for a result, at most fx.Wait.
	receive := func(t *testing.T, what string, c <-chan result) reply {
		t.Helper()
		select {
		case r := <-c:
			if r.err != nil {
				t.Fatalf("%s: %v", what, r.err)
			}
			return r.reply
		case <-time.After(fx.Wait):
			t.Fatalf("%s: no answer within %s", what, fx.Wait)
			return reply{}
		}
	}

	t.Run("RetryGetsTheFirstAnswer", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first := tb.postKeyed(t, fx.Alice, "k-1", goya)
		wantStatus(t, first, http.StatusCreated)
		again := tb.postKeyed(t, fx.Alice, "k-1", goya)
		wantStatus(t, again, http.StatusCreated)
		if !bytes.Equal(again.body, first.body) || again.header.Get(web.ReplayedHeader) != "true" {
			t.Errorf("retry: %s (replayed %q), want the first answer again, replayed", again.body, again.header.Get(web.ReplayedHeader))
		}
		if first.header.Get(web.ReplayedHeader) != "" {
			t.Error("the first answer says it was replayed")
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("SameKeyOtherRequestIs4220", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first := tb.postKeyed(t, fx.Alice, "k-2", goya)
		wantStatus(t, first, http.StatusCreated)
		// Another body, another path, another query: each is another request.
		for _, other := range []struct {
			path string
			body any
		}{
			{bookingsPath("me"), velazquez},
			{api + "/users/me/bookings/workstations/standard", goya},
			{bookingsPath("me") + "?x=1", goya},
		} {
			r := tb.callWith(t, fx.Alice, http.MethodPost, other.path, other.body, keyed("k-2"))
			wantProblem(t, r, http.StatusUnprocessableEntity, booking.CodeIdempotencyKeyReused, noIndex)
			if r.header.Get(web.ReplayedHeader) != "" {
				t.Errorf("%s: a refusal of the key says it was replayed", other.path)
			}
		}
		tb.wantRows(t, "bookings", 1)
		// The key still holds the first answer.
		again := tb.postKeyed(t, fx.Alice, "k-2", goya)
		if again.status != http.StatusCreated || !bytes.Equal(again.body, first.body) {
			t.Errorf("retry after the refusals: %d %s, want the first answer", again.status, again.body)
		}
	})

	t.Run("KeysAreEachUsersOwn", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.postKeyed(t, fx.Alice, "k-3", goya), http.StatusCreated)
		// Bob's same key is a request of his own: it runs, and the room is taken.
		wantProblem(t, tb.postKeyed(t, fx.Bob, "k-3", goya), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		wantStatus(t, tb.postKeyed(t, fx.Bob, "k-4", velazquez), http.StatusCreated)
		tb.wantRows(t, "bookings", 2)
	})

	t.Run("RefusalsAreKeptToo", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.call(t, fx.Bob, http.MethodPost, bookingsPath("me"), goya), http.StatusCreated)
		first := tb.postKeyed(t, fx.Alice, "k-5", goya)
		wantProblem(t, first, http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		if _, err := tb.Pool.Exec(t.Context(), `UPDATE bookings SET status = 'CANCELLED'`); err != nil {
			t.Fatal(err)
		}
		again := tb.postKeyed(t, fx.Alice, "k-5", goya) // the room is free now, but this is a retry
		if again.status != http.StatusConflict || !bytes.Equal(again.body, first.body) {
			t.Errorf("retry of a refusal: %d %s, want the first 409 again", again.status, again.body)
		}
		if again.header.Get(web.ReplayedHeader) != "true" || again.header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("retry of a refusal: Idempotent-Replayed %q, Content-Type %q; want true, application/problem+json",
				again.header.Get(web.ReplayedHeader), again.header.Get("Content-Type"))
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
		failed := tb.postKeyed(t, fx.Alice, "k-fail", goya)
		wantProblem(t, failed, http.StatusInternalServerError, booking.CodeInternal, noIndex)
		tb.wantRows(t, "idempotency_keys", 0)
		if _, err := tb.Pool.Exec(t.Context(), `DROP TRIGGER refuse_bookings ON bookings`); err != nil {
			t.Fatal(err)
		}
		// The retry runs again.
		again := tb.postKeyed(t, fx.Alice, "k-fail", goya)
		wantStatus(t, again, http.StatusCreated)
		if again.header.Get(web.ReplayedHeader) != "" {
			t.Error("the retry after a failure says it was replayed")
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("UnavailableIs5030AndNotKept", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		// The database cannot take the booking at the moment (57P03, as while it starts up): 503 5030, with
		// and without a key; nothing was written, and the key is given back.
		if _, err := tb.Pool.Exec(t.Context(), `
			CREATE FUNCTION unavailable_bookings() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN RAISE EXCEPTION 'not now' USING ERRCODE = '57P03'; END $$;
			CREATE TRIGGER unavailable_bookings BEFORE INSERT ON bookings FOR EACH ROW EXECUTE FUNCTION unavailable_bookings()`); err != nil {
			t.Fatal(err)
		}
		failed := tb.postKeyed(t, fx.Alice, "k-unavailable", goya)
		wantProblem(t, failed, http.StatusServiceUnavailable, booking.CodeUnavailable, noIndex)
		if failed.header.Get(web.ReplayedHeader) != "" {
			t.Error("the failed answer says it was replayed")
		}
		tb.wantRows(t, "bookings", 0)
		tb.wantRows(t, "idempotency_keys", 0)
		wantProblem(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya),
			http.StatusServiceUnavailable, booking.CodeUnavailable, noIndex)
		tb.wantRows(t, "bookings", 0)
		if _, err := tb.Pool.Exec(t.Context(), `DROP TRIGGER unavailable_bookings ON bookings`); err != nil {
			t.Fatal(err)
		}
		// Once the database is back, the retry runs.
		again := tb.postKeyed(t, fx.Alice, "k-unavailable", goya)
		wantStatus(t, again, http.StatusCreated)
		if again.header.Get(web.ReplayedHeader) != "" {
			t.Error("the retry after a 503 says it was replayed")
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("ConcurrentRetriesRunOnce", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		answers := make([]<-chan result, 10)
		reqs := make([]*http.Request, len(answers))
		for i := range reqs {
			reqs[i] = postRequest(t, tb, fx.Alice, "k-6", goya)
		}
		for i, req := range reqs {
			answers[i] = sendAsync(tb, req)
		}
		replies := make([]reply, len(answers))
		for i, c := range answers {
			replies[i] = receive(t, fmt.Sprintf("request %d", i), c)
		}
		ran := 0
		for _, r := range replies {
			if r.status != http.StatusCreated || !bytes.Equal(r.body, replies[0].body) {
				t.Errorf("answers differ: %d %s and %d %s", r.status, r.body, replies[0].status, replies[0].body)
			}
			if r.header.Get(web.ReplayedHeader) == "" {
				ran++
			}
		}
		if ran != 1 {
			t.Errorf("%d answers not replayed, want 1 (the request ran once)", ran)
		}
		tb.wantRows(t, "bookings", 1)
	})

	// An instance that stops after the bookings are made and before their answer is kept leaves the key
	// claimed, unanswered, with the bookings recorded on it: the retry that takes it over a minute later
	// answers with those bookings, and makes none.
	t.Run("RetryAfterALostAnswerGetsTheBookingsMade", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		two := []any{goya[0], velazquez[0]}
		first := created(t, tb.postKeyed(t, fx.Alice, "k-lost", two), 2)
		if _, err := tb.Pool.Exec(t.Context(), `
			UPDATE idempotency_keys SET status = NULL, content_type = '', body = '', created_at = now() - interval '2 minutes'`); err != nil {
			t.Fatal(err)
		}
		retry := tb.postKeyed(t, fx.Alice, "k-lost", two)
		again := created(t, retry, 2)
		for i := range again {
			wantValue(t, fmt.Sprintf("bookings[%d].id", i), again[i]["id"], first[i]["id"])
			wantValue(t, fmt.Sprintf("bookings[%d].resource.name", i), again[i]["resource"].(map[string]any)["name"],
				first[i]["resource"].(map[string]any)["name"])
		}
		tb.wantRows(t, "bookings", 2)
		// That answer is kept in turn.
		replayed := tb.postKeyed(t, fx.Alice, "k-lost", two)
		if !bytes.Equal(replayed.body, retry.body) || replayed.header.Get(web.ReplayedHeader) != "true" {
			t.Errorf("the next retry: %s (replayed %q), want the retry's answer, replayed", replayed.body, replayed.header.Get(web.ReplayedHeader))
		}
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
		// The locks and the server's connections are looked at from a connection of the test's own: one of
		// the pool could be the very one the server has just used.
		conn, err := pgx.ConnectConfig(t.Context(), tb.Pool.Config().ConnConfig.Copy())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		running := map[string]<-chan result{}
		// stillRunning stops the test if a request has answered while the resource is locked.
		stillRunning := func() {
			t.Helper()
			for name, c := range running {
				select {
				case r := <-c:
					t.Fatalf("%s answered %d %s (%v) while the resource was locked", name, r.status, r.body, r.err)
				default:
				}
			}
		}
		// seen tells whether the query counts any row, once no request has answered.
		seen := func(query string) func() bool {
			return func() bool {
				stillRunning()
				var n int
				if err := conn.QueryRow(t.Context(), query).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n > 0
			}
		}
		firstReq, retryReq := postRequest(t, tb, fx.Alice, "k-wait", goya), postRequest(t, tb, fx.Alice, "k-wait", goya)
		first := sendAsync(tb, firstReq)
		running["the first request"] = first
		// The first request has claimed its key when it waits for the resource's lock.
		fx.WaitFor(t, "the first request to wait for the resource's lock", seen(`
			SELECT count(*) FROM pg_locks
			WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`))
		if n := tb.count(t, "idempotency_keys"); n != 1 {
			t.Fatalf("idempotency keys while the first request waits = %d, want its own", n)
		}
		retry := sendAsync(tb, retryReq)
		running["the retry"] = retry
		// The retry, finding the key claimed and not answered, looks again and again for the answer: the last
		// query of one of the server's connections is the look (the first request's claim needed none).
		fx.WaitFor(t, "the retry to look for the first answer", seen(`
			SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND query LIKE '-- name: IdempotencyKeyGet %'`))
		stillRunning()
		if err := tx.Rollback(t.Context()); err != nil {
			t.Fatal(err)
		}
		a, b := receive(t, "the first request", first), receive(t, "the retry", retry)
		wantStatus(t, a, http.StatusCreated)
		if b.status != a.status || !bytes.Equal(b.body, a.body) || b.header.Get(web.ReplayedHeader) != "true" {
			t.Errorf("retry: %d %s (replayed %q), want the first answer, replayed", b.status, b.body, b.header.Get(web.ReplayedHeader))
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("ExpiredKeysAreNew", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.postKeyed(t, fx.Alice, "k-7", goya), http.StatusCreated)
		if _, err := tb.Pool.Exec(t.Context(), `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`); err != nil {
			t.Fatal(err)
		}
		// 25 hours on, the key is a new one: the request runs again (and the room is taken by the first).
		wantProblem(t, tb.postKeyed(t, fx.Alice, "k-7", goya), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
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
			wantProblem(t, tb.postKeyed(t, fx.Alice, key, goya), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		}
		twoKeys := http.Header{web.IdempotencyKeyHeader: {"k-a", "k-b"}}
		wantProblem(t, tb.callWith(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya, twoKeys), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		// 255 characters is still a key.
		wantStatus(t, tb.postKeyed(t, fx.Alice, strings.Repeat("k", 255), goya), http.StatusCreated)
		tb.wantRows(t, "bookings", 1)
		tb.wantRows(t, "idempotency_keys", 1)
	})

	t.Run("TooLargeBodyIs2000", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		big := `[{"subject":"` + strings.Repeat("x", web.MaxBodyBytes) + `"}]`
		p := wantProblem(t, tb.postKeyed(t, fx.Alice, "k-big", big), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		wantDetail(t, p, fmt.Sprintf("larger than %d bytes", web.MaxBodyBytes))
		tb.wantRows(t, "idempotency_keys", 0)
		tb.wantRows(t, "bookings", 0)
	})

	t.Run("OtherOperations", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.Now.Add(5*time.Minute), fx.Now.Add(time.Hour))
		checkIn := func() reply {
			return tb.callWith(t, fx.Alice, http.MethodPost, bookingPath(id, "checkin"), nil, keyed("k-in"))
		}
		first := checkIn()
		wantStatus(t, first, http.StatusOK)
		// Checked in once: a second check-in would be refused; the retry gets the first answer.
		again := checkIn()
		if again.status != http.StatusOK || !bytes.Equal(again.body, first.body) || again.header.Get(web.ReplayedHeader) != "true" {
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

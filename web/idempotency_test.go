package web_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/kit"
)

// keyed returns a header that carries the idempotency key.
func keyed(key string) http.Header { return http.Header{web.IdempotencyKeyHeader: {key}} }

// postKeyed sends a create-bookings request with the body as the user, with the idempotency key.
func (tb *testBundle) postKeyed(t *testing.T, as uuid.UUID, key string, body any) reply {
	t.Helper()
	return tb.callWith(t, as, http.MethodPost, bookingsPath("me"), body, keyed(key))
}

// postRequest builds the same request as postKeyed without sending it, so that another goroutine can
// send it with tb.do.
func (tb *testBundle) postRequest(t *testing.T, as uuid.UUID, key string, body any) *http.Request {
	t.Helper()
	req := tb.request(t, as, http.MethodPost, bookingsPath("me"), body)
	req.Header.Set(web.IdempotencyKeyHeader, key)
	return req
}

// result is what tb.do returned in a goroutine.
type result struct {
	reply
	err error
}

// sendAsync sends the request from a new goroutine and delivers the result on the returned channel.
func (tb *testBundle) sendAsync(req *http.Request) <-chan result {
	out := make(chan result, 1)
	go func() {
		r, err := tb.do(req)
		out <- result{r, err}
	}()
	return out
}

// receive waits up to fx.Wait for a result and fails the test if none comes or the request failed.
func receive(t *testing.T, what string, c <-chan result) reply {
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

// answer holds the parts of a reply that retry tests compare: the status, the body and the replayed
// header.
type answer struct {
	Status   int
	Body     string
	Replayed string
}

func answerOf(r reply) answer {
	return answer{Status: r.status, Body: string(r.body), Replayed: r.header.Get(web.ReplayedHeader)}
}

// wantReplayOf checks that got repeats first's answer and is marked as replayed.
func wantReplayOf(t *testing.T, what string, got, first reply) {
	t.Helper()
	want := answerOf(first)
	want.Replayed = "true"
	if diff := cmp.Diff(want, answerOf(got)); diff != "" {
		t.Errorf("%s: answer (-want +got):\n%s", what, diff)
	}
}

// wantNotReplayed checks that the reply is not marked as replayed.
func wantNotReplayed(t *testing.T, what string, r reply) {
	t.Helper()
	if got := r.header.Get(web.ReplayedHeader); got != "" {
		t.Errorf("%s: %s = %q, want none", what, web.ReplayedHeader, got)
	}
}

// refuseInserts makes every insert into bookings fail with the given SQLSTATE until the returned undo
// function is called.
func (tb *testBundle) refuseInserts(t *testing.T, sqlstate string) (undo func()) {
	t.Helper()
	tb.exec(t, `
		CREATE FUNCTION refuse_bookings() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'refused' USING ERRCODE = '`+sqlstate+`'; END $$;
		CREATE TRIGGER refuse_bookings BEFORE INSERT ON bookings FOR EACH ROW EXECUTE FUNCTION refuse_bookings()`)
	return func() { tb.exec(t, `DROP TRIGGER refuse_bookings ON bookings`) }
}

var (
	goyaAtTen      = []any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))}
	velazquezAtTen = []any{spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0))}
)

// TestIdempotencyKeys checks what a retry with the same key gets back.
func TestIdempotencyKeys(t *testing.T) {
	t.Parallel()
	goya, velazquez := goyaAtTen, velazquezAtTen

	t.Run("RetryGetsTheFirstAnswer", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first := tb.postKeyed(t, fx.Alice, "k-1", goya)
		wantStatus(t, first, http.StatusCreated)
		wantNotReplayed(t, "the first answer", first)
		wantReplayOf(t, "retry", tb.postKeyed(t, fx.Alice, "k-1", goya), first)
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("SameKeyOtherRequestIs4220", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		first := tb.postKeyed(t, fx.Alice, "k-2", goya)
		wantStatus(t, first, http.StatusCreated)
		// Reusing the key with a different body, path or query is refused: it is a different request.
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
			wantNotReplayed(t, other.path+": a refusal of the key", r)
		}
		tb.wantRows(t, "bookings", 1)
		// The key still returns the first answer.
		wantReplayOf(t, "retry after the refusals", tb.postKeyed(t, fx.Alice, "k-2", goya), first)
	})

	t.Run("KeysAreEachUsersOwn", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.postKeyed(t, fx.Alice, "k-3", goya), http.StatusCreated)
		// Keys are per user, so Bob's request with the same key runs, and finds the room taken.
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
		tb.exec(t, `UPDATE bookings SET status = 'CANCELLED'`)
		again := tb.postKeyed(t, fx.Alice, "k-5", goya) // the room is free now, but a retry gets the first answer
		wantReplayOf(t, "retry of a refusal", again, first)
		if got := again.header.Get("Content-Type"); got != "application/problem+json" {
			t.Errorf("retry of a refusal: Content-Type %q, want application/problem+json", got)
		}
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("ExpiredKeysAreNew", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.postKeyed(t, fx.Alice, "k-7", goya), http.StatusCreated)
		tb.exec(t, `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`)
		// After 25 hours the key has expired, so the request runs again, and finds the room taken by the
		// first booking.
		wantProblem(t, tb.postKeyed(t, fx.Alice, "k-7", goya), http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		tb.exec(t, `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`)
		if n, err := tb.Service.DeleteExpiredIdempotencyKeys(t.Context()); err != nil || n != 1 {
			t.Errorf("sweep: %d keys deleted (%v), want 1", n, err)
		}
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
		// A second check-in would be refused, but a retry with the same key gets the first answer.
		wantReplayOf(t, "retry of a check-in", checkIn(), first)
	})

	t.Run("WithoutAKeyNothingIsKept", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya), http.StatusCreated)
		tb.wantRows(t, "idempotency_keys", 0)
	})
}

// TestIdempotencyKeysNotKept checks the answers that a key does not store: the service's own failures,
// and malformed requests.
func TestIdempotencyKeysNotKept(t *testing.T) {
	t.Parallel()
	goya := goyaAtTen

	// Two kinds of failure: an internal error (500), and a database that cannot take bookings right now
	// (SQLSTATE 57P03, as while it starts up, which becomes 503 with code 5030). With or without a key,
	// nothing is written and the key is released, so a retry runs once the database works again.
	for _, tc := range []struct {
		name, key, sqlstate string
		status              int
		code                booking.Code
	}{
		{"FailuresAreNotKept", "k-fail", "P0001", http.StatusInternalServerError, booking.CodeInternal},
		{"UnavailableIs5030AndNotKept", "k-unavailable", "57P03", http.StatusServiceUnavailable, booking.CodeUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			undo := tb.refuseInserts(t, tc.sqlstate)
			failed := tb.postKeyed(t, fx.Alice, tc.key, goya)
			wantProblem(t, failed, tc.status, tc.code, noIndex)
			wantNotReplayed(t, "the failed answer", failed)
			tb.wantRows(t, "bookings", 0)
			tb.wantRows(t, "idempotency_keys", 0)
			wantProblem(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya), tc.status, tc.code, noIndex)
			tb.wantRows(t, "bookings", 0)
			undo()
			again := tb.postKeyed(t, fx.Alice, tc.key, goya)
			wantStatus(t, again, http.StatusCreated)
			wantNotReplayed(t, "the retry after a failure", again)
			tb.wantRows(t, "bookings", 1)
		})
	}

	t.Run("MalformedKeyIs2000", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		for _, key := range []string{"", strings.Repeat("k", 256), "tab\there", "ünïcode"} {
			wantProblem(t, tb.postKeyed(t, fx.Alice, key, goya), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		}
		twoKeys := http.Header{web.IdempotencyKeyHeader: {"k-a", "k-b"}}
		wantProblem(t, tb.callWith(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya, twoKeys), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		// A key of 255 characters is still accepted.
		wantStatus(t, tb.postKeyed(t, fx.Alice, strings.Repeat("k", 255), goya), http.StatusCreated)
		tb.wantRows(t, "bookings", 1)
		tb.wantRows(t, "idempotency_keys", 1)
	})

	t.Run("TooLargeBodyIs2000", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		big := `[{"subject":"` + strings.Repeat("x", kit.MaxBodyBytes) + `"}]`
		p := wantProblem(t, tb.postKeyed(t, fx.Alice, "k-big", big), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		wantDetail(t, p, fmt.Sprintf("larger than %d bytes", kit.MaxBodyBytes))
		tb.wantRows(t, "idempotency_keys", 0)
		tb.wantRows(t, "bookings", 0)
	})
}

// TestIdempotencyKeysConcurrent checks retries sent while the first request is still running, or after
// its answer was lost.
func TestIdempotencyKeysConcurrent(t *testing.T) {
	t.Parallel()
	goya, velazquez := goyaAtTen, velazquezAtTen

	t.Run("ConcurrentRetriesRunOnce", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		reqs := make([]*http.Request, 10)
		for i := range reqs {
			reqs[i] = tb.postRequest(t, fx.Alice, "k-6", goya)
		}
		answers := make([]<-chan result, len(reqs))
		for i, req := range reqs {
			answers[i] = tb.sendAsync(req)
		}
		ran := 0
		var firstAnswer answer
		for i, c := range answers {
			r := receive(t, fmt.Sprintf("request %d", i), c)
			got := answerOf(r)
			if got.Replayed == "" {
				ran++
			}
			got.Replayed = "" // already counted above
			if i == 0 {
				firstAnswer = got
				wantStatus(t, r, http.StatusCreated)
			} else if diff := cmp.Diff(firstAnswer, got); diff != "" {
				t.Errorf("request %d: answer differs from the first's (-first +got):\n%s", i, diff)
			}
		}
		if ran != 1 {
			t.Errorf("%d answers not replayed, want 1 (the request ran once)", ran)
		}
		tb.wantRows(t, "bookings", 1)
	})

	// If an instance stops after making the bookings but before storing the answer, the key stays claimed
	// with no answer, and the bookings are recorded on it. A retry more than a minute later takes the key
	// over and answers with those bookings, without making new ones.
	t.Run("RetryAfterALostAnswerGetsTheBookingsMade", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		two := []any{goya[0], velazquez[0]}
		first := created(t, tb.postKeyed(t, fx.Alice, "k-lost", two), 2)
		tb.exec(t, `UPDATE idempotency_keys SET status = NULL, content_type = '', body = '', created_at = now() - interval '2 minutes'`)
		retry := tb.postKeyed(t, fx.Alice, "k-lost", two)
		again := created(t, retry, 2)
		idAndName := func(bs []map[string]any) [][2]any {
			var out [][2]any
			for _, b := range bs {
				out = append(out, [2]any{b["id"], b["resource"].(map[string]any)["name"]})
			}
			return out
		}
		if diff := cmp.Diff(idAndName(first), idAndName(again)); diff != "" {
			t.Errorf("retry's bookings (id, resource name) (-first +retry):\n%s", diff)
		}
		tb.wantRows(t, "bookings", 2)
		// The retry's answer is stored in turn.
		wantReplayOf(t, "the next retry", tb.postKeyed(t, fx.Alice, "k-lost", two), retry)
	})

	t.Run("RetryWaitsForTheFirst", testRetryWaitsForTheFirst)
}

// testRetryWaitsForTheFirst holds the resource's lock so that the first request blocks, then sends a
// retry. It checks that the retry waits for the first request and returns the same answer.
func testRetryWaitsForTheFirst(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	// Inserting a booking takes the resource's advisory lock (queries/bookings.sql). Holding that lock
	// here keeps the first request waiting.
	tx, err := tb.Pool.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(t.Context(), `SELECT pg_advisory_xact_lock(hashtextextended($1::uuid::text, 0))`, fx.RoomGoya); err != nil {
		t.Fatal(err)
	}
	// Inspect locks and server connections from a separate connection. A connection from the pool could
	// be the one the server just used, and the test's query would then replace the server's last query
	// in pg_stat_activity.
	conn, err := pgx.ConnectConfig(t.Context(), tb.Pool.Config().ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	running := map[string]<-chan result{}
	// stillRunning fails the test if any request has answered while the resource is locked.
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
	// seen returns a condition for fx.WaitFor: no request has answered yet, and the count query returns
	// more than zero.
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
	firstReq, retryReq := tb.postRequest(t, fx.Alice, "k-wait", goyaAtTen), tb.postRequest(t, fx.Alice, "k-wait", goyaAtTen)
	first := tb.sendAsync(firstReq)
	running["the first request"] = first
	// By the time the first request waits for the resource's lock, it has claimed its key.
	fx.WaitFor(t, "the first request to wait for the resource's lock", seen(`
		SELECT count(*) FROM pg_locks
		WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`))
	if n := tb.count(t, "idempotency_keys"); n != 1 {
		t.Fatalf("idempotency keys while the first request waits = %d, want its own", n)
	}
	retry := tb.sendAsync(retryReq)
	running["the retry"] = retry
	// The retry finds the key claimed but not answered, so it polls for the answer with
	// IdempotencyKeyGet. Wait until a server connection's last query is that poll; the first request's
	// claim did not run it.
	fx.WaitFor(t, "the retry to look for the first answer", seen(`
		SELECT count(*) FROM pg_stat_activity
		WHERE datname = current_database() AND query LIKE '-- name: IdempotencyKeyGet %'`))
	stillRunning()
	if err := tx.Rollback(t.Context()); err != nil {
		t.Fatal(err)
	}
	a, b := receive(t, "the first request", first), receive(t, "the retry", retry)
	wantStatus(t, a, http.StatusCreated)
	wantReplayOf(t, "retry", b, a)
	tb.wantRows(t, "bookings", 1)
}

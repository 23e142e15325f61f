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
)

// keyed is the header of a request sent with the idempotency key.
func keyed(key string) http.Header { return http.Header{web.IdempotencyKeyHeader: {key}} }

// postKeyed books as the user with the body, sent with the idempotency key.
func (tb *testBundle) postKeyed(t *testing.T, as uuid.UUID, key string, body any) reply {
	t.Helper()
	return tb.callWith(t, as, http.MethodPost, bookingsPath("me"), body, keyed(key))
}

// postRequest is postKeyed's request, built here so that another goroutine may send it (with tb.do).
func (tb *testBundle) postRequest(t *testing.T, as uuid.UUID, key string, body any) *http.Request {
	t.Helper()
	req := tb.request(t, as, http.MethodPost, bookingsPath("me"), body)
	req.Header.Set(web.IdempotencyKeyHeader, key)
	return req
}

// result is what tb.do gave a goroutine.
type result struct {
	reply
	err error
}

// sendAsync sends the request from a goroutine of its own and gives the result on the channel.
func (tb *testBundle) sendAsync(req *http.Request) <-chan result {
	out := make(chan result, 1)
	go func() {
		r, err := tb.do(req)
		out <- result{r, err}
	}()
	return out
}

// receive waits for a result, at most fx.Wait.
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

// answer is what a retry compares of a reply: its status, its body and whether it says it was replayed.
type answer struct {
	Status   int
	Body     string
	Replayed string
}

func answerOf(r reply) answer {
	return answer{Status: r.status, Body: string(r.body), Replayed: r.header.Get(web.ReplayedHeader)}
}

// wantReplayOf checks that got is first's answer again, marked as replayed.
func wantReplayOf(t *testing.T, what string, got, first reply) {
	t.Helper()
	want := answerOf(first)
	want.Replayed = "true"
	if diff := cmp.Diff(want, answerOf(got)); diff != "" {
		t.Errorf("%s: answer (-want +got):\n%s", what, diff)
	}
}

// wantNotReplayed checks that the answer does not say it was replayed.
func wantNotReplayed(t *testing.T, what string, r reply) {
	t.Helper()
	if got := r.header.Get(web.ReplayedHeader); got != "" {
		t.Errorf("%s: %s = %q, want none", what, web.ReplayedHeader, got)
	}
}

// refuseInserts makes every insert into bookings fail with the SQLSTATE, until the returned function
// is called.
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

// TestIdempotencyKeys covers the answer a retry with the same key gets.
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
			wantNotReplayed(t, other.path+": a refusal of the key", r)
		}
		tb.wantRows(t, "bookings", 1)
		// The key still holds the first answer.
		wantReplayOf(t, "retry after the refusals", tb.postKeyed(t, fx.Alice, "k-2", goya), first)
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
		tb.exec(t, `UPDATE bookings SET status = 'CANCELLED'`)
		again := tb.postKeyed(t, fx.Alice, "k-5", goya) // the room is free now, but this is a retry
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
		// 25 hours on, the key is a new one: the request runs again (and the room is taken by the first).
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
		// Checked in once: a second check-in would be refused; the retry gets the first answer.
		wantReplayOf(t, "retry of a check-in", checkIn(), first)
	})

	t.Run("WithoutAKeyNothingIsKept", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		wantStatus(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), goya), http.StatusCreated)
		tb.wantRows(t, "idempotency_keys", 0)
	})
}

// TestIdempotencyKeysNotKept covers the answers a key does not keep: our failures, and malformed
// requests.
func TestIdempotencyKeysNotKept(t *testing.T) {
	t.Parallel()
	goya := goyaAtTen

	// A failure of ours (500), or a database that cannot take the booking at the moment (57P03, as while
	// it starts up: 503 5030), with and without a key: nothing was written, the key is given back, and the
	// retry runs once the database takes bookings again.
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
}

// TestIdempotencyKeysConcurrent covers retries sent while the first request runs, or after it was lost.
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
			got.Replayed = "" // compared on its own, above
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

	// An instance that stops after the bookings are made and before their answer is kept leaves the key
	// claimed, unanswered, with the bookings recorded on it: the retry that takes it over a minute later
	// answers with those bookings, and makes none.
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
		// That answer is kept in turn.
		wantReplayOf(t, "the next retry", tb.postKeyed(t, fx.Alice, "k-lost", two), retry)
	})

	t.Run("RetryWaitsForTheFirst", testRetryWaitsForTheFirst)
}

// testRetryWaitsForTheFirst holds the first request on its resource's lock, sends a retry, and checks
// that the retry waits for the first answer and gives it back.
func testRetryWaitsForTheFirst(t *testing.T) {
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
	firstReq, retryReq := tb.postRequest(t, fx.Alice, "k-wait", goyaAtTen), tb.postRequest(t, fx.Alice, "k-wait", goyaAtTen)
	first := tb.sendAsync(firstReq)
	running["the first request"] = first
	// The first request has claimed its key when it waits for the resource's lock.
	fx.WaitFor(t, "the first request to wait for the resource's lock", seen(`
		SELECT count(*) FROM pg_locks
		WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`))
	if n := tb.count(t, "idempotency_keys"); n != 1 {
		t.Fatalf("idempotency keys while the first request waits = %d, want its own", n)
	}
	retry := tb.sendAsync(retryReq)
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
	wantReplayOf(t, "retry", b, a)
	tb.wantRows(t, "bookings", 1)
}

package notify

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/outbox"
)

// record writes n events of organization A into the outbox, in one transaction.
func record(t *testing.T, hb *hookBundle, n int) {
	t.Helper()
	events := make([]outbox.Event, n)
	for i := range events {
		events[i] = outbox.New(outbox.Created, fx.OrgA, uuid.New(), time.Now(), outbox.State{Status: "PENDING"})
	}
	err := pgx.BeginFunc(t.Context(), hb.Pool, func(tx pgx.Tx) error { return outbox.Record(t.Context(), tx, events...) })
	if err != nil {
		t.Fatalf("record %d events: %v", n, err)
	}
}

// counts returns the events in the outbox and the outbox's jobs waiting in River.
func counts(t *testing.T, hb *hookBundle) (events, jobs int) {
	t.Helper()
	err := hb.Pool.QueryRow(t.Context(), `SELECT (SELECT count(*) FROM outbox_events),
		(SELECT count(*) FROM river_job WHERE state = 'available')`).Scan(&events, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	return events, jobs
}

// relayed runs one look of the relay and checks what it moved.
func relayed(t *testing.T, hb *hookBundle, p *pace, wantMoved int, wantBusy bool) {
	t.Helper()
	moved, busy, err := hb.svc.relayOnce(context.Background(), p)
	if err != nil {
		t.Fatalf("relayOnce: %v", err)
	}
	if moved != wantMoved || busy != wantBusy {
		t.Fatalf("relayOnce moved %d events (busy %v), want %d (busy %v)", moved, busy, wantMoved, wantBusy)
	}
}

// During a burst of events the relay holds them back, each for at most holdAtMost, then moves one per
// look; once the burst has passed, it moves the rest, but never more than relayWaiting jobs into River's
// queue.
func TestRelayGivesWayToABurst(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, true) // not started: the test runs the relay's looks itself
	var p pace
	relayed(t, hb, &p, 0, false) // the first look takes note of the empty outbox

	record(t, hb, 300) // far more than busyRate a second
	relayed(t, hb, &p, 0, true)
	if events, jobs := counts(t, hb); events != 300 || jobs != 0 {
		t.Fatalf("after a look during the burst: %d events in the outbox and %d jobs, want 300 and 0", events, jobs)
	}

	if _, err := hb.Pool.Exec(t.Context(), `UPDATE outbox_events SET recorded_at = now() - interval '61 seconds'`); err != nil {
		t.Fatal(err)
	}
	record(t, hb, 300) // the burst goes on, and the first events have waited longer than holdAtMost
	relayed(t, hb, &p, 1, true)
	if events, jobs := counts(t, hb); events != 599 || jobs != 1 {
		t.Fatalf("after a look a minute into the burst: %d events in the outbox and %d jobs, want 599 and 1", events, jobs)
	}

	p.at = time.Now().Add(-time.Minute) // a quiet minute: nothing new arrived
	relayed(t, hb, &p, relayWaiting-1, false)
	if events, jobs := counts(t, hb); events != 600-relayWaiting || jobs != relayWaiting {
		t.Fatalf("after the burst: %d events in the outbox and %d jobs, want %d and %d", events, jobs, 600-relayWaiting, relayWaiting)
	}

	p.at = time.Now().Add(-time.Minute)
	relayed(t, hb, &p, 0, false) // River's queue is full: the rest wait in the outbox
	if _, err := hb.Pool.Exec(t.Context(), `DELETE FROM river_job WHERE id IN (SELECT id FROM river_job LIMIT 50)`); err != nil {
		t.Fatal(err)
	}
	relayed(t, hb, &p, 50, false) // workers took 50: 50 more may come
	if events, jobs := counts(t, hb); events != 600-relayWaiting-50 || jobs != relayWaiting {
		t.Fatalf("after workers took 50 jobs: %d events in the outbox and %d jobs, want %d and %d", events, jobs, 600-relayWaiting-50, relayWaiting)
	}
}

// Statistics taken while the outbox was empty (by a VACUUM once a burst's events were sent, say) do not
// stall the relay when the next burst waits. With them, PostgreSQL chose a plan for the claim that ran
// its locking subquery again for every waiting event: with 20,000 events waiting, each claim ran into the
// statement timeout, and the relay moved nothing until the table was analyzed again.
func TestRelayClaimsAfterTheOutboxWasAnalyzedEmpty(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, true)
	const burst = 20000
	// TRUNCATE false keeps the emptied pages, as a VACUUM does while the relay's looks hold the table.
	analyzedEmptyThenFilled(t, hb, burst, "VACUUM (ANALYZE, TRUNCATE false) outbox_events")
	var p pace
	relayed(t, hb, &p, relayWaiting, false)
	if events, jobs := counts(t, hb); events != burst-relayWaiting || jobs != relayWaiting {
		t.Fatalf("after one look: %d events in the outbox and %d jobs, want %d and %d", events, jobs, burst-relayWaiting, relayWaiting)
	}
}

// analyzedEmptyThenFilled leaves n events in the outbox, with statistics taken by vacuum while it was
// empty.
func analyzedEmptyThenFilled(t *testing.T, hb *hookBundle, n int, vacuum string) {
	t.Helper()
	record(t, hb, n)
	if _, err := hb.Pool.Exec(t.Context(), `DELETE FROM outbox_events`); err != nil {
		t.Fatal(err)
	}
	if _, err := hb.Pool.Exec(t.Context(), vacuum); err != nil {
		t.Fatal(err)
	}
	record(t, hb, n)
}

// The relay looks at the outbox ten times a second on every instance, burst or not, and claims from it
// while a burst's events wait. Neither may read the whole table: with statistics taken while it was
// empty, the look counted the new events by reading every waiting one, so each look cost more the longer
// a burst went on, and only the servers recording events paid for it.
func TestRelayReadsTheOutboxByItsIndex(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, true)
	// This time the vacuum gives the emptied pages back, as it does when nothing holds the table.
	analyzedEmptyThenFilled(t, hb, 20000, "VACUUM (ANALYZE) outbox_events")
	var oldest uuid.UUID
	if err := hb.Pool.QueryRow(t.Context(), `SELECT id FROM outbox_events ORDER BY id LIMIT 1`).Scan(&oldest); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../../queries/outbox.sql")
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"@after": oldest, "@at_most": 11, "@max_rows": relayWaiting}
	for _, name := range []string{"OutboxEventsArrived", "OutboxEventsClaim"} {
		query, params := namedQuery(t, string(src), name)
		values := make([]any, len(params))
		for i, p := range params {
			values[i] = args[p]
		}
		var plan string
		if err := hb.Pool.QueryRow(t.Context(), "EXPLAIN (FORMAT JSON) "+query, values...).Scan(&plan); err != nil {
			t.Fatalf("explain %s: %v", name, err)
		}
		if strings.Contains(plan, `"Seq Scan"`) {
			t.Errorf("%s reads the whole outbox:\n%s", name, plan)
		}
	}
}

// namedQuery returns the query of that name in a file of sqlc queries, its parameters numbered in the
// order they first appear, as sqlc numbers them, and their names in that order.
func namedQuery(t *testing.T, src, name string) (query string, params []string) {
	t.Helper()
	_, q, ok := strings.Cut(src, "-- name: "+name+" ")
	if !ok {
		t.Fatalf("no query %s", name)
	}
	q, _, _ = strings.Cut(q, ";")
	q = q[strings.Index(q, "\n")+1:]
	query = regexp.MustCompile(`@\w+`).ReplaceAllStringFunc(q, func(p string) string {
		i := slices.Index(params, p)
		if i < 0 {
			params, i = append(params, p), len(params)
		}
		return fmt.Sprintf("$%d", i+1)
	})
	return query, params
}

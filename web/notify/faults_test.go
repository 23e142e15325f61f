package notify_test

import (
	"context"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// burst books a desk for Alice n times tomorrow, half an hour each: each booking sends Alice a
// confirmation and a check-in reminder (due at once: the fixture's clock is behind the real one).
func burst(t *testing.T, tl *teller, n int) {
	t.Helper()
	for i := range n {
		start := bookingtest.At(1, 8, 0).Add(time.Duration(i) * 30 * time.Minute)
		tl.book(t, bookingtest.Alice, booking.NewBooking{ResourceID: bookingtest.DeskOne, Start: start, End: start.Add(30 * time.Minute)})
	}
}

// The mail server is away during a burst of bookings and comes back: every message arrives, each
// Message-ID once.
func TestMailServerAwayThenBack(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	tl.sink.setAway(true)
	const n = 8
	burst(t, tl, n)
	bookingtest.WaitFor(t, "the mail server to refuse messages", func() bool {
		tl.sink.mu.Lock()
		defer tl.sink.mu.Unlock()
		return tl.sink.refused >= 2*n
	})
	time.Sleep(3 * time.Second) // a retry or two while away
	st, err := tl.notify.Stats(context.Background())
	if err != nil || st.Queued+st.Running < 2*n || st.Failed < 2*n || st.OldestWaiting < time.Second || st.Mailed != 0 {
		t.Errorf("while away: stats %+v, %v; want %d queued or being tried, as many failed tries, an oldest waiting a second or more, none mailed", st, err, 2*n)
	}
	tl.sink.setAway(false)
	got := tl.waitFor(t, map[string]int{alice: 2 * n})
	onceEach(t, got[alice])
	waitQuiet(t, tl)
	if st, err := tl.notify.Stats(context.Background()); err != nil || st.Queued != 0 || st.Mailed != 2*n || st.OldestWaiting != 0 {
		t.Errorf("back: stats %+v, %v; want none queued and %d mailed", st, err, 2*n)
	}
}

// Two instances work one outbox: each message is sent once.
func TestTwoInstancesSendOnce(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	startNotify(t, tl.Bundle, tl.sink) // a second instance on the same database
	const n = 10
	burst(t, tl, n)
	got := tl.waitFor(t, map[string]int{alice: 2 * n})
	onceEach(t, got[alice])
}

// onceEach fails if two messages share a Message-ID.
func onceEach(t *testing.T, ps []parsed) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range ps {
		id := p.Header.Get("Message-Id")
		if seen[id] {
			t.Errorf("Message-ID %s sent twice", id)
		}
		seen[id] = true
	}
}

// A message the mail server accepted is not sent again when its job runs again (its completion was
// lost): mail_sent knows its Message-ID.
func TestSentMessageIsNotSentAgain(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	ctx := context.Background()
	burst(t, tl, 1)
	tl.waitFor(t, map[string]int{alice: 2})
	waitQuiet(t, tl)
	// Run every finished mail job again, as River would after a crash between sending and completing.
	if _, err := tl.Pool.Exec(ctx, `UPDATE river_job SET state = 'available', finalized_at = NULL, scheduled_at = now(), attempt = 0
		WHERE kind = 'mail'`); err != nil {
		t.Fatal(err)
	}
	waitQuiet(t, tl)
	if n := len(tl.sink.all()); n != 2 {
		t.Errorf("%d messages after the jobs ran again, want the same 2", n)
	}
}

// Message-IDs sent more than 30 days ago are forgotten by the hourly cleanup, which also runs once when
// an instance starts leading; younger ones are kept.
func TestOldSentMailIsForgotten(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	ctx := context.Background()
	if _, err := b.Pool.Exec(ctx, `INSERT INTO mail_sent (message_id, organization_id, event_id, recipient, sent_at) VALUES
		('<old@x>', $1, gen_random_uuid(), 'a@x', now() - interval '31 days'),
		('<new@x>', $1, gen_random_uuid(), 'a@x', now() - interval '29 days')`, bookingtest.OrgA); err != nil {
		t.Fatal(err)
	}
	startNotify(t, b, newSink(t))
	bookingtest.WaitFor(t, "the cleanup", func() bool {
		var n int
		return b.Pool.QueryRow(ctx, "SELECT count(*) FROM mail_sent WHERE message_id = '<old@x>'").Scan(&n) == nil && n == 0
	})
	if n := bookingtest.RowCount(t, b, "SELECT count(*) FROM mail_sent WHERE message_id = '<new@x>'"); n != 1 {
		t.Errorf("a Message-ID sent 29 days ago was forgotten")
	}
}

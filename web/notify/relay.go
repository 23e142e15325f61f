package notify

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// The domain writes its events into outbox_events, in the transaction of the change: a plain row, so
// that the most common booking stays one statement. The relay moves them into River's job table in
// batches, deleting them in the same transaction, so each event becomes exactly one job. Instances relay
// side by side: each takes rows the others skip.
//
// The relay keeps River's queue short. It moves events only while fewer than relayWaiting of the outbox's
// jobs wait for a worker, so the backlog of a burst stays in outbox_events (one small row per event,
// written with the booking) rather than in River's larger table.
//
// The relay also gives way to bookings. While events arrive faster than busyRate a second, a burst of
// bookings is on, and telling people about it now would take the machine from the people still
// booking. The relay then holds the events back, and catches up once the burst has passed. An event
// waits at most holdAtMost that way: during a longer burst, the relay moves one event per look.

// relayEvery is how often the relay looks for events when it found none, or during a burst.
const (
	relayEvery   = 100 * time.Millisecond
	relayWaiting = 200
	busyRate     = 100
	holdAtMost   = time.Minute
)

// relay moves events into River until ctx is done.
func (s *Service) relay(ctx context.Context) {
	tick := time.NewTicker(relayEvery)
	defer tick.Stop()
	var p pace
	for {
		n, busy, err := s.relayOnce(ctx, &p)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("outbox: moving events to the job queue", slog.Any("err", err))
		}
		if n > 0 && !busy {
			continue // more may be waiting
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// pace tells from the events recorded since its last look whether a burst of bookings is on.
type pace struct {
	newest uuid.UUID // the newest event at the last look
	at     time.Time // when that look was; zero before the first
}

// look reports whether events arrived faster than busyRate a second since the last look, and how long
// the oldest event has waited (none: -1). The first look only takes note of where the outbox is.
func (p *pace) look(ctx context.Context, q *queries.Queries, now time.Time) (busy bool, oldest time.Duration, err error) {
	first, since := p.at.IsZero(), now.Sub(p.at)
	// A burst is on when more than busyRate*since events arrived: counting one more is enough to tell.
	limit := int32(1)
	if !first {
		limit = int32(min(busyRate*since.Seconds(), math.MaxInt32-1)) + 1
	}
	r, err := q.OutboxEventsArrived(ctx, queries.OutboxEventsArrivedParams{After: p.newest, AtMost: limit})
	if err != nil {
		return false, 0, err
	}
	p.newest, p.at = r.Newest, now
	busy = !first && float64(r.Arrived) > busyRate*since.Seconds()
	if r.OldestWaited < 0 {
		return busy, -1, nil
	}
	return busy, time.Duration(r.OldestWaited * float64(time.Second)), nil
}

// relayOnce moves events into River: as many as fit under relayWaiting, or during a burst none, or one
// once the oldest has waited holdAtMost. It returns how many it moved and whether a burst is on. With
// no event waiting, it opens no transaction.
func (s *Service) relayOnce(ctx context.Context, p *pace) (moved int, busy bool, err error) {
	busy, oldest, err := p.look(ctx, s.q, time.Now())
	if err != nil {
		return 0, false, err
	}
	limit := relayWaiting
	switch {
	case oldest < 0:
		return 0, busy, nil
	case busy && oldest < holdAtMost:
		return 0, true, nil
	case busy:
		limit = 1
	}
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		waiting, err := q.OutboxJobsWaiting(ctx, queries.OutboxJobsWaitingParams{Queue: outbox.Queue, AtMost: relayWaiting})
		if err != nil || int(waiting) >= relayWaiting {
			return err
		}
		rows, err := q.OutboxEventsClaim(ctx, int32(min(limit, relayWaiting-int(waiting))))
		if err != nil || len(rows) == 0 {
			return err
		}
		jobs := make([]river.InsertManyParams, len(rows))
		for i, r := range rows {
			jobs[i] = river.InsertManyParams{Args: outbox.Args{Event: outbox.Claimed(r)}, InsertOpts: &river.InsertOpts{Queue: outbox.Queue, MaxAttempts: outbox.MaxAttempts}}
		}
		if _, err := s.river.InsertManyTx(ctx, tx, jobs); err != nil {
			return fmt.Errorf("queue %d events: %w", len(jobs), err)
		}
		moved = len(rows)
		return nil
	})
	return moved, busy, err
}

// reminder returns the job of b's check-in reminder when ev leaves b waiting for check-in with check-in
// still ahead: an event scheduled for the moment check-in opens. Its id and fields depend only on the
// booking and that moment, and River keeps one job per such args, so a booking changed twice before its
// check-in opens is reminded once.
func (s *Service) reminder(ev outbox.Event, b booking.Booking) (river.InsertManyParams, bool) {
	switch ev.Kind {
	case outbox.Created, outbox.Changed, outbox.Approved:
	default:
		return river.InsertManyParams{}, false
	}
	opens := b.CheckIn.Start
	if ev.Booking.Status != string(booking.StatusPending) || b.Status != booking.StatusPending || !opens.After(s.now()) {
		return river.InsertManyParams{}, false
	}
	id := uuid.NewSHA1(b.ID, []byte("check-in opens "+opens.UTC().Format(time.RFC3339Nano)))
	r := outbox.Event{ID: id, Kind: outbox.CheckInOpened, OrganizationID: b.OrganizationID, BookingID: b.ID, At: opens,
		Booking: outbox.State{Status: string(booking.StatusPending), Start: b.Start, End: b.End, ResourceID: b.Resource.ID}}
	return river.InsertManyParams{Args: outbox.Args{Event: r}, InsertOpts: &river.InsertOpts{
		Queue: outbox.Queue, MaxAttempts: outbox.MaxAttempts, ScheduledAt: opens,
		UniqueOpts: river.UniqueOpts{ByArgs: true},
	}}, true
}

package notify

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// The domain writes its events into outbox_events, in the transaction of the change: a plain row, so
// that the most common booking stays one statement. The relay moves them into River's job table in
// batches, deleting them in the same transaction, so each event becomes exactly one job. Instances relay
// side by side: each takes rows the others skip.

// relayEvery is how often the relay looks for events when it found none; relayBatch how many it moves
// in one transaction.
const (
	relayEvery = 100 * time.Millisecond
	relayBatch = 500
)

// relay moves events into River until ctx is done.
func (s *Service) relay(ctx context.Context) {
	tick := time.NewTicker(relayEvery)
	defer tick.Stop()
	for {
		n, err := s.relayOnce(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("outbox: moving events to the job queue", slog.Any("err", err))
		}
		if n == relayBatch {
			continue // more are waiting
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// relayOnce moves up to relayBatch events and returns how many it moved.
func (s *Service) relayOnce(ctx context.Context) (int, error) {
	var n int
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := s.q.WithTx(tx).OutboxEventsClaim(ctx, relayBatch)
		if err != nil || len(rows) == 0 {
			return err
		}
		jobs := make([]river.InsertManyParams, len(rows))
		for i, raw := range rows {
			var ev outbox.Event
			if err := json.Unmarshal([]byte(raw), &ev); err != nil {
				return fmt.Errorf("read event %s: %w", raw, err)
			}
			jobs[i] = river.InsertManyParams{Args: outbox.Args{Event: ev}, InsertOpts: &river.InsertOpts{Queue: outbox.Queue, MaxAttempts: outbox.MaxAttempts}}
		}
		if _, err := s.river.InsertManyTx(ctx, tx, jobs); err != nil {
			return fmt.Errorf("queue %d events: %w", len(jobs), err)
		}
		n = len(rows)
		return nil
	})
	return n, err
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

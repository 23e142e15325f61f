package booking

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// SweepEvery is how often each serving instance sweeps. A no-show becomes EXPIRED, and its resource free
// again, at most this long (plus the time of one sweep) after its check-in window closed.
const SweepEvery = 15 * time.Second

// sweepLock is the key of the advisory lock that lets only one instance sweep at a time ("booking" in
// ASCII).
const sweepLock = 0x626f6f6b696e67

// SweepResult reports what one sweep did. Skipped is set if another instance was sweeping at the time.
type SweepResult struct {
	Expired  int // PENDING (or undecided WAITING_APPROVAL) bookings whose check-in closed, now EXPIRED
	Finished int // ACTIVE bookings whose end passed, now FINISHED
	Skipped  bool
}

// sweepBatch is the most bookings one round of a sweep changes of each kind. A sweep repeats rounds, each
// in a transaction of its own, until a round changes fewer: after a long outage it is many short
// transactions instead of one that holds every overdue booking.
const sweepBatch = 1000

// Sweep updates every organization's bookings as time passes. No-shows (PENDING past their check-in
// window) and requests still undecided by then (WAITING_APPROVAL) become EXPIRED, which frees their
// resources. Checked-in bookings past their end become FINISHED. The database's clock decides what has
// passed. Any instance may call Sweep at any time: an advisory lock lets one instance sweep while the
// others skip, so each booking changes only once.
func (s *Service) Sweep(ctx context.Context) (SweepResult, error) {
	var res SweepResult
	for round := 0; ; round++ {
		expired, finished, locked, err := s.sweepRound(ctx)
		if err != nil {
			return res, err
		}
		if !locked {
			// Another instance holds the lock: it sweeps what is left.
			res.Skipped = round == 0
			return res, nil
		}
		s.counts.expired.Add(int64(expired))
		s.counts.finished.Add(int64(finished))
		res.Expired += expired
		res.Finished += finished
		if expired < sweepBatch && finished < sweepBatch {
			return res, nil
		}
	}
}

// sweepRound changes at most sweepBatch bookings of each kind in one transaction, under the sweep lock.
// It reports false if another instance holds the lock.
func (s *Service) sweepRound(ctx context.Context) (expired, finished int, locked bool, err error) {
	err = s.inTxTelling(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		expired, finished = 0, 0
		var err error
		if locked, err = q.SweepLockTry(ctx, sweepLock); err != nil {
			return fmt.Errorf("take sweep lock: %w", err)
		}
		if !locked {
			return nil
		}
		// Use the database's clock, not this instance's, so that instances whose clocks differ agree and
		// none expires a booking early.
		var now *time.Time
		if s.dbNow != nil {
			t := s.dbNow()
			now = &t
		}
		e, err := q.BookingsExpireNoShows(ctx, queries.BookingsExpireNoShowsParams{At: now, MaxRows: sweepBatch})
		if err != nil {
			return fmt.Errorf("expire no-shows: %w", err)
		}
		f, err := q.BookingsFinishEnded(ctx, queries.BookingsFinishEndedParams{At: now, MaxRows: sweepBatch})
		if err != nil {
			return fmt.Errorf("finish ended bookings: %w", err)
		}
		expired, finished = len(e), len(f)
		ev.Add(expiredEvents(e, s.now())...)
		return nil
	})
	return expired, finished, locked, err
}

// RunSweeps sweeps at once, then every interval until ctx is done. It logs what changed and any failure;
// a failed sweep is simply tried again next time. Each round also deletes expired browser sessions,
// Idempotency-Key responses and users' access tokens.
func (s *Service) RunSweeps(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		res, err := s.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.ErrorContext(ctx, "sweep failed", slog.Any("error", err))
		case res.Expired > 0 || res.Finished > 0:
			log.InfoContext(ctx, "swept bookings", slog.Int("expired", res.Expired), slog.Int("finished", res.Finished))
		}
		if _, err := s.q.SessionsDeleteExpired(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "deleting expired sessions failed", slog.Any("error", err))
		}
		if _, err := s.DeleteExpiredIdempotencyKeys(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "deleting expired idempotency keys failed", slog.Any("error", err))
		}
		if _, err := s.DeleteExpiredUserAccessTokens(ctx); err != nil && ctx.Err() == nil {
			log.ErrorContext(ctx, "deleting expired user access tokens failed", slog.Any("error", err))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

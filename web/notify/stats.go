package notify

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// counters count what this instance delivered and what failed since it started.
type counters struct {
	mailed    atomic.Uint64 // e-mails the mail server accepted
	hooked    atomic.Uint64 // webhook deliveries answered with 2xx
	failed    atomic.Uint64 // tries that failed (each retry counts)
	discarded atomic.Uint64 // jobs given up after their last try
}

// Stats are the outbox's figures for /metrics.
type Stats struct {
	// Queued is how many jobs wait to be worked now or later (available, scheduled or retryable),
	// across every instance.
	Queued int64
	// Running is how many jobs an instance is working.
	Running int64
	// Discarded is how many jobs were given up after their last try and are still kept (a day).
	Discarded int64
	// OldestWaiting is how long the oldest job that is due has waited; 0 when none is due.
	OldestWaiting time.Duration
	// Mailed, Hooked and Failed count this instance's deliveries and failed tries since it started, and
	// DiscardedHere the jobs it gave up after their last try.
	Mailed, Hooked, Failed, DiscardedHere uint64
}

// Stats reads the outbox's figures.
func (s *Service) Stats(ctx context.Context) (Stats, error) {
	st := Stats{Mailed: s.counts.mailed.Load(), Hooked: s.counts.hooked.Load(), Failed: s.counts.failed.Load(),
		DiscardedHere: s.counts.discarded.Load()}
	rows, err := s.q.NotifyOutboxCounts(ctx)
	if err != nil {
		return st, fmt.Errorf("outbox counts: %w", err)
	}
	now := time.Now() // River's clock: the database's, not a test's
	for _, r := range rows {
		switch r.State {
		case "available", "retryable", "scheduled", "pending":
			st.Queued += r.Jobs
			if (r.State == "available" || r.State == "retryable") && r.Jobs > 0 && r.Oldest.Before(now) {
				st.OldestWaiting = max(st.OldestWaiting, now.Sub(r.Oldest))
			}
		case "running":
			st.Running += r.Jobs
		case "discarded":
			st.Discarded += r.Jobs
		}
	}
	return st, nil
}

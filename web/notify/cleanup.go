package notify

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/web/outbox"
)

// keepSent is how long mail_sent remembers a Message-ID. A retry comes within a day and a half, so a
// month is plenty.
const keepSent = 30 * 24 * time.Hour

// CleanupArgs is the hourly job that forgets what is no longer needed: Message-IDs sent more than
// keepSent ago.
type CleanupArgs struct{}

// Kind is the River job kind of the cleanup.
func (CleanupArgs) Kind() string { return "notify_cleanup" }

// cleanupWorker runs the cleanup.
type cleanupWorker struct {
	river.WorkerDefaults[CleanupArgs]
	s *Service
}

// Work deletes what the cleanup forgets.
func (w *cleanupWorker) Work(ctx context.Context, _ *river.Job[CleanupArgs]) error {
	if _, err := w.s.q.MailSentDeleteBefore(ctx, time.Now().Add(-keepSent)); err != nil {
		return fmt.Errorf("forget sent mail: %w", err)
	}
	return nil
}

// cleanupJob is the periodic job of the cleanup: hourly, and once when an instance leads the others.
func cleanupJob() *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(time.Hour), func() (river.JobArgs, *river.InsertOpts) {
		return CleanupArgs{}, &river.InsertOpts{Queue: outbox.Queue, MaxAttempts: 3}
	}, &river.PeriodicJobOpts{ID: "notify_cleanup", RunOnStart: true})
}

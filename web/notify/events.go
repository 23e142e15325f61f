package notify

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// eventWorker turns one event into its e-mails and webhook deliveries.
type eventWorker struct {
	river.WorkerDefaults[outbox.Args]
	s *Service
}

// Work reads the booking, writes one job per e-mail and per webhook delivery, and completes the event,
// all in one transaction: the deliveries of an event are written once.
func (w *eventWorker) Work(ctx context.Context, job *river.Job[outbox.Args]) error {
	s := w.s
	ev := job.Args.Event
	if ev.Kind.Series() {
		return s.workSeries(ctx, job)
	}
	b, attendees, err := s.bookings.BookingToTell(ctx, ev.OrganizationID, ev.BookingID)
	var be *booking.Error
	if errors.As(err, &be) && be.Code == booking.CodeBookingNotFound {
		return nil // gone with its organization: nobody to tell
	}
	if err != nil {
		return err
	}
	if ev.Kind == outbox.CheckInOpened && (b.Status != booking.StatusPending || !b.CheckIn.Start.Equal(ev.At)) {
		return nil // moved, cancelled or checked in since: the reminder is stale
	}
	jobs, err := s.mailInserts(ctx, ev, b, attendees)
	if err != nil {
		return err
	}
	hooks, err := s.webhookInserts(ctx, ev, b)
	if err != nil {
		return err
	}
	jobs = append(jobs, hooks...)
	if r, ok := s.reminder(ev, b); ok {
		jobs = append(jobs, r)
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if len(jobs) > 0 {
			if _, err := s.river.InsertManyTx(ctx, tx, jobs); err != nil {
				return fmt.Errorf("write deliveries: %w", err)
			}
		}
		_, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
		return err
	})
}

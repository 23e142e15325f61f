// Package notify tells people what happened to their bookings. The domain records events in the outbox
// (package outbox) in the transaction of each change; notify works those events afterwards. For each
// event it writes the e-mails (with calendar invitations) and the webhook deliveries as jobs of their
// own, in one transaction, and then sends each one, retrying with backoff until it is delivered or its
// tries run out. It also keeps what people chose about being told (their settings page, their calendar
// feed) and the webhook endpoints admins register.
//
// Nothing is sent from a request or inside a transaction of the domain.
package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// Config says how to reach people.
type Config struct {
	// SMTPURL is the mail server: smtp://[user:pass@]host:port (STARTTLS when offered; ?tls=required
	// insists on it) or smtps://[user:pass@]host:port (implicit TLS). Empty: e-mail is written to the log
	// in development, and off otherwise.
	SMTPURL string
	// From is the sender's address (SMTP_FROM). The organization's name is its display name.
	From string
	// BaseURL is where people reach the service; links in e-mails and feeds start with it.
	BaseURL string
	// Dev is development mode: without SMTPURL, e-mails are logged instead of dropped, and webhook
	// endpoints may be plain http and on loopback or private addresses.
	Dev bool
	// Workers is how many jobs this instance works at once; 0: 8, half the connections of the pool. A
	// burst of bookings does not wait for them: the relay gives way to bookings (relay.go).
	Workers int
	// Log receives what the workers do; nil: discard.
	Log *slog.Logger
}

// Service turns the outbox's events into e-mails and webhook deliveries and sends them.
type Service struct {
	pool      *pgxpool.Pool
	q         *queries.Queries
	bookings  *booking.Service
	cfg       Config
	log       *slog.Logger
	mail      sender // nil: e-mail is off
	river     *river.Client[pgx.Tx]
	relaying  sync.WaitGroup // the relay (relay.go) while it runs
	stopRelay func()
	counts    *counters
	now       func() time.Time
	hooks     webhooks // the webhook sender's HTTP client (webhooks_send.go)
}

// New returns a Service on pool. It works no jobs until Start.
func New(pool *pgxpool.Pool, bookings *booking.Service, cfg Config) (*Service, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.From == "" && cfg.SMTPURL == "" {
		cfg.From = devFrom
	}
	s := &Service{pool: pool, q: queries.New(pool), bookings: bookings, cfg: cfg, log: cfg.Log, counts: &counters{}, now: bookings.Now}
	var err error
	if s.mail, err = newSender(cfg); err != nil {
		return nil, err
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, &eventWorker{s: s})
	river.AddWorker(workers, &mailWorker{s: s})
	river.AddWorker(workers, &webhookWorker{s: s})
	river.AddWorker(workers, &cleanupWorker{s: s})
	s.river, err = river.NewClient(riverpgxv5.New(pool), &river.Config{
		// River reports each step of its loops at debug and info level; only its warnings and errors are
		// worth an operator's attention.
		Logger:       slog.New(warnings{cfg.Log.Handler()}).With(slog.String("part", "outbox")),
		Queues:       map[string]river.QueueConfig{outbox.Queue: {MaxWorkers: cfg.Workers}},
		Workers:      workers,
		RetryPolicy:  retryPolicy{},
		PeriodicJobs: []*river.PeriodicJob{cleanupJob()},
		// Finished jobs are kept a day (River's default); what was delivered stays in mail_sent and
		// webhook_deliveries.
		RescueStuckJobsAfter: 5 * time.Minute,
		// River fetches at most as many jobs as it has idle workers, and by default waits 100 ms between
		// fetches: with 8 workers, at most 80 jobs a second. Every 25 ms, it can take 320.
		FetchCooldown: 25 * time.Millisecond,
		JobTimeout:    2 * time.Minute,
	})
	if err != nil {
		return nil, fmt.Errorf("notify: %w", err)
	}
	return s, nil
}

// devFrom is the sender of the e-mails that development mode writes to the log.
const devFrom = "workspace-booking@localhost"

// warnings passes on only the records of level Warn and above.
type warnings struct{ slog.Handler }

func (w warnings) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelWarn && w.Handler.Enabled(ctx, l)
}

func (w warnings) WithAttrs(as []slog.Attr) slog.Handler { return warnings{w.Handler.WithAttrs(as)} }
func (w warnings) WithGroup(name string) slog.Handler    { return warnings{w.Handler.WithGroup(name)} }

// MailOn reports whether e-mail goes anywhere: to a mail server, or to the log in development.
func (s *Service) MailOn() bool { return s.mail != nil }

// Start works the outbox's jobs until Stop or until ctx is done. Several instances may work the same
// database: each job is taken by one of them.
func (s *Service) Start(ctx context.Context) error {
	events, stop := s.river.Subscribe(river.EventKindJobFailed)
	go func() {
		defer stop()
		for e := range events {
			if e.Job != nil && e.Job.State == rivertype.JobStateDiscarded {
				s.counts.discarded.Add(1)
				s.log.Error("outbox: gave up a job after its last try", slog.String("kind", e.Job.Kind), slog.Int64("job", e.Job.ID))
			}
		}
	}()
	if err := s.river.Start(ctx); err != nil {
		stop()
		return fmt.Errorf("notify: start: %w", err)
	}
	relayCtx, stopRelay := context.WithCancel(ctx)
	s.stopRelay = stopRelay
	s.relaying.Go(func() { s.relay(relayCtx) })
	return nil
}

// Stop stops taking events and jobs and waits for the ones under way, until ctx is done.
func (s *Service) Stop(ctx context.Context) error {
	if s.stopRelay != nil {
		s.stopRelay()
		s.relaying.Wait()
	}
	err := s.river.Stop(ctx)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return s.river.StopAndCancel(context.Background())
	}
	return err
}

// retryPolicy spaces the tries of a job: seconds apart at first, then doubling up to a cap of 5
// minutes, so that a message held back while the mail server was away for an hour goes out within
// minutes of its return. An e-mail's last try (mailAttempts) comes about a day after its first.
type retryPolicy struct{}

// NextRetry returns when to try job again.
func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(retryDelay(job.Attempt))
}

// retryDelay is the wait after the attempt-th failed try: 2 s, 4 s, 8 s, … capped at maxRetryDelay.
func retryDelay(attempt int) time.Duration {
	return min(2*time.Second<<min(max(attempt-1, 0), 10), maxRetryDelay)
}

// maxRetryDelay is the longest wait between two tries of a job.
const maxRetryDelay = 5 * time.Minute

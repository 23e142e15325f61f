package booking

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// WalkUpGrace is how far in the past a new booking may start, so that someone who walks up to a desk a
// few minutes after the hour can still book that hour.
const WalkUpGrace = 5 * time.Minute

// Service holds every booking rule. The JSON API and the HTML pages both call it, and it knows nothing
// of HTTP or HTML.
type Service struct {
	pool    *pgxpool.Pool
	q       *queries.Queries
	reads   *queries.Queries // the status and the free and busy listings; q unless WithReadPool
	now     func() time.Time
	layouts *layouts
	counts  *counters

	tokenKey tokenKey // encrypts the identity provider's tokens stored for users
	// deactivations counts the deactivations this instance made (web/identity, PeopleDeactivated) or may
	// have made (layout changes), so that the bearer tokens it has cached are checked again at once
	// (DeactivationCount).
	deactivations *atomic.Uint64
	// silent, if set, records no events in the outbox (WithoutEvents).
	silent bool
	// meetings is the online-meeting template (WithOnlineMeetings); "" when bookings cannot ask for one.
	meetings string
	// dbNow, if set, replaces the database's clock in the expiry sweep (tests only). If nil, the sweep
	// uses now() in SQL.
	dbNow func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithClock replaces the wall clock, so that tests can check windows and limits at any moment.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithDatabaseClock makes the expiry sweep read the time from now instead of the database's clock, so
// that tests can let time pass. Production code never sets it.
func WithDatabaseClock(now func() time.Time) Option { return func(s *Service) { s.dbNow = now } }

// WithoutEvents makes the service record no events in the outbox, so nobody is told of any change. It
// exists to measure what the outbox costs (make bench); a deployment never sets it.
func WithoutEvents() Option { return func(s *Service) { s.silent = true } }

// WithReadPool sends reads that may lag slightly behind writes to pool, which is a standby's pool
// (DATABASE_READ_URL). Only a resource's status and the free and busy listings use it. Anything a person
// must see right after their own write, such as the booking answer or their own bookings, is still read
// from the primary.
func WithReadPool(pool *pgxpool.Pool) Option { return func(s *Service) { s.reads = queries.New(pool) } }

// NewService returns a Service that uses pool.
func NewService(pool *pgxpool.Pool, opts ...Option) *Service {
	s := &Service{pool: pool, q: queries.New(pool), now: time.Now, layouts: newLayouts(), counts: &counters{},
		deactivations: &atomic.Uint64{}}
	s.reads = s.q
	for _, o := range opts {
		o(s)
	}
	return s
}

// Ping reports whether the database answers.
func (s *Service) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// inTx runs fn in one transaction and commits if fn returns nil. It retries on a serialization failure
// or a deadlock; a deadlock can happen when two multi-element requests insert overlapping intervals in
// opposite orders.
func (s *Service) inTx(ctx context.Context, fn func(q *queries.Queries) error) error {
	return Retried(func() error { return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(s.q.WithTx(tx)) }) })
}

// inTxTelling runs fn in one transaction, as inTx does, and records the events fn adds in the outbox in
// the same transaction. If fn fails, nothing is recorded.
func (s *Service) inTxTelling(ctx context.Context, fn func(q *queries.Queries, ev *outbox.Batch) error) error {
	return Retried(func() error {
		return outbox.InTx(ctx, s.pool, func(tx pgx.Tx, ev *outbox.Batch) error {
			if s.silent {
				ev = &outbox.Batch{} // WithoutEvents: what fn adds is dropped
			}
			return fn(s.q.WithTx(tx), ev)
		})
	})
}

var zones sync.Map // IANA time-zone name → *time.Location

// Location returns the time zone with the given IANA name, such as "Europe/Madrid" (see
// Building.Timezone). Each zone is loaded once per process. Calendar rules and the times that pages show
// use the building's zone.
func Location(name string) (*time.Location, error) {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("time zone %q: %w", name, err)
	}
	zones.Store(name, l)
	return l, nil
}

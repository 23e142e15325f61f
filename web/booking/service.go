package booking

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
)

// WalkUpGrace is how far in the past a booking may start: someone who walks up to a desk a few minutes
// after the hour can still book that hour.
const WalkUpGrace = 5 * time.Minute

// Service is the booking domain: every rule of the service, called alike by the JSON API and the pages.
// It knows nothing of HTTP or HTML.
type Service struct {
	pool    *pgxpool.Pool
	q       *queries.Queries
	reads   *queries.Queries // the status and the free and busy listings; q unless WithReadPool
	now     func() time.Time
	layouts *layouts
	counts  *counters

	tokenKey tokenKey // seals the identity provider's tokens kept for users
	// dbNow, when set, stands for the database's clock in the sweep (tests only); nil: now() in SQL.
	dbNow func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithClock replaces the wall clock, so that windows and limits can be tested at any moment.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithDatabaseClock makes the sweep take its moment from now instead of the database's clock, so that
// tests can let time pass; the service itself never sets it.
func WithDatabaseClock(now func() time.Time) Option { return func(s *Service) { s.dbNow = now } }

// WithReadPool sends the reads that may lag a little behind the writes to pool, a standby's
// (DATABASE_READ_URL): a resource's status and which resources are free or busy. Whatever a person
// must see right after their own write (the booking answer, their own bookings) is read from the
// primary's pool all the same.
func WithReadPool(pool *pgxpool.Pool) Option { return func(s *Service) { s.reads = queries.New(pool) } }

// NewService returns a Service on the pool.
func NewService(pool *pgxpool.Pool, opts ...Option) *Service {
	s := &Service{pool: pool, q: queries.New(pool), now: time.Now, layouts: newLayouts(), counts: &counters{}}
	s.reads = s.q
	for _, o := range opts {
		o(s)
	}
	return s
}

// Ping reports whether the database answers.
func (s *Service) Ping(ctx context.Context) error { return s.pool.Ping(ctx) }

// inTx runs fn in one transaction and commits when it returns nil. A serialization failure or a deadlock
// (possible when two multi-element requests insert crossing intervals in opposite orders) is retried.
func (s *Service) inTx(ctx context.Context, fn func(q *queries.Queries) error) error {
	return retried(func() error { return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(s.q.WithTx(tx)) }) })
}

// retried runs op up to three times. It runs op again only when PostgreSQL ended it having written
// nothing: to break a deadlock, on a serialization failure, or because a booking's resource moved to
// another floor meanwhile (bookings_resource_fkey refused the old floor). In that last case op must read
// the resource again.
func retried(op func() error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = op()
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || !transient(pgErr) {
			return err
		}
	}
	return err
}

func transient(err *pgconn.PgError) bool {
	const serializationFailure, deadlockDetected = "40001", "40P01"
	return err.Code == serializationFailure || err.Code == deadlockDetected || movedFloor(err)
}

// movedFloor reports whether err is bookings_resource_fkey refusing a booking written with a floor its
// resource is no longer on.
func movedFloor(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503" && pgErr.ConstraintName == "bookings_resource_fkey"
}

var zones sync.Map // IANA time-zone name → *time.Location

// Location returns the time zone with the IANA name a building gives (Building.Timezone, such as
// "Europe/Madrid"). Each zone is loaded once per process. Calendar rules and the times the pages show are
// read in the building's zone.
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

var errUnstorableText = Errorf(CodeInvalidRequest, "the request holds text that cannot be stored: a NUL character, or bytes that are not UTF-8")

// Interpret turns a database error that is not a fault of ours into a domain error. Text PostgreSQL
// cannot store (a NUL character, or bytes that are not UTF-8) is 2000; a database that cannot be reached,
// is shutting down or did not answer in time is 5030. Other errors are returned unchanged.
func Interpret(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && (pgErr.Code == "22021" || pgErr.Code == "22P05") {
		return errUnstorableText
	}
	if unavailable(err) {
		return Errorf(CodeUnavailable, "the database cannot be reached at the moment; please try again shortly")
	}
	return err
}

// readOnlyTransaction is PostgreSQL's refusal of a write on a standby.
const readOnlyTransaction = "25006"

// unavailable reports whether err is the database being away or too slow, rather than a fault of ours:
// no connection could be made, whatever the server's reason for refusing it (down, starting, too many
// connections, the database closed to connections, no server of the URL accepting writes), the connection
// was lost, the server is shutting down or became a standby, or the statement or the request ran out of
// time.
func unavailable(err error) bool {
	var connectErr *pgconn.ConnectError
	if errors.As(err, &connectErr) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch {
		case strings.HasPrefix(pgErr.Code, "08"), // connection exception
			pgErr.Code == "57P01", pgErr.Code == "57P02", pgErr.Code == "57P03", // shutting down, cannot connect now
			pgErr.Code == "53300",             // too many connections
			pgErr.Code == readOnlyTransaction, // a standby now: a failover is under way
			pgErr.Code == "57014":             // statement timeout
			return true
		}
		return false
	}
	var netErr net.Error
	return errors.As(err, &netErr) || pgconn.Timeout(err) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed)
}

// noOverlap is the name of the exclusion constraint that keeps two blocking bookings of one resource apart.
const noOverlap = "bookings_no_overlap"

// isExclusionViolation reports whether err is the no-overlap constraint refusing a booking: the resource is
// booked during part of the time. Any other exclusion constraint is not this refusal.
func isExclusionViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23P01" && pgErr.ConstraintName == noOverlap
}

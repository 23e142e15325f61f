package booking

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
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

	tokenKey tokenKey    // encrypts the identity provider's tokens stored for users
	resolver TXTResolver // looks up the DNS records that prove e-mail domains
	// deactivations counts the deactivations this instance made or may have made (imports), so that the
	// bearer tokens it has cached are checked again at once (DeactivationCount).
	deactivations *atomic.Uint64
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

// WithReadPool sends reads that may lag slightly behind writes to pool, which is a standby's pool
// (DATABASE_READ_URL). Only a resource's status and the free and busy listings use it. Anything a person
// must see right after their own write, such as the booking answer or their own bookings, is still read
// from the primary.
func WithReadPool(pool *pgxpool.Pool) Option { return func(s *Service) { s.reads = queries.New(pool) } }

// NewService returns a Service that uses pool.
func NewService(pool *pgxpool.Pool, opts ...Option) *Service {
	s := &Service{pool: pool, q: queries.New(pool), now: time.Now, layouts: newLayouts(), counts: &counters{},
		deactivations: &atomic.Uint64{}, resolver: net.DefaultResolver}
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
	return retried(func() error { return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return fn(s.q.WithTx(tx)) }) })
}

// retried runs op up to three times. It retries only errors after which PostgreSQL has written nothing:
// a deadlock, a serialization failure, or a booking whose resource moved to another floor meanwhile
// (bookings_resource_fkey refused the old floor). In that last case op must read the resource again.
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

// transient reports whether err is one that retried retries.
func transient(err *pgconn.PgError) bool {
	const serializationFailure, deadlockDetected = "40001", "40P01"
	return err.Code == serializationFailure || err.Code == deadlockDetected || movedFloor(err)
}

// movedFloor reports whether err is bookings_resource_fkey refusing a booking because its resource is no
// longer on the floor the booking was written with.
func movedFloor(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23503" && pgErr.ConstraintName == "bookings_resource_fkey"
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

var errUnstorableText = Errorf(CodeInvalidRequest, "the request holds text that cannot be stored: a NUL character, or bytes that are not UTF-8")

// Interpret turns a database error that is not a bug in the service into a domain error. Text that
// PostgreSQL cannot store (a NUL character, or bytes that are not UTF-8) becomes 2000. A database that
// cannot be reached, is shutting down or did not answer in time becomes 5030. Other errors are returned
// unchanged.
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

// unavailable reports whether err means the database is down or too slow: no connection could be made
// (for any reason, including no server accepting writes), the connection was lost, the server is shutting
// down or has become a standby, or the statement or the request timed out.
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

// isExclusionViolation reports whether err is the no-overlap constraint refusing a booking because the
// resource is already booked during part of the time. Other exclusion constraints do not count.
func isExclusionViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23P01" && pgErr.ConstraintName == noOverlap
}

package booking

import (
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Stats holds the domain counters that the metrics report, counted since the service started.
type Stats struct {
	BookingsCreated  int64 // bookings created; a request with several bookings counts each one
	BookingConflicts int64 // bookings refused because another blocking booking holds the resource (4001)
	BookingsExpired  int64 // no-shows expired by this instance's sweeps
	BookingsFinished int64 // checked-in bookings finished by this instance's sweeps
}

type counters struct {
	created, conflicts, expired, finished atomic.Int64
}

// Stats returns the counters so far.
func (s *Service) Stats() Stats {
	return Stats{
		BookingsCreated: s.counts.created.Load(), BookingConflicts: s.counts.conflicts.Load(), BookingsExpired: s.counts.expired.Load(),
		BookingsFinished: s.counts.finished.Load(),
	}
}

// PoolStat describes the service's database connections.
func (s *Service) PoolStat() *pgxpool.Stat { return s.pool.Stat() }

package booking

import (
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Stats counts, since the service started, what the metrics report of the domain.
type Stats struct {
	BookingsCreated  int64 // bookings made (a request of several counts each)
	BookingConflicts int64 // bookings refused because a blocking booking holds the resource then (4001)
	BookingsExpired  int64 // no-shows expired by this instance's sweeps
	BookingsFinished int64 // stays finished by this instance's sweeps
}

type counters struct {
	created, conflicts, expired, finished atomic.Int64
}

// Stats returns the counts so far.
func (s *Service) Stats() Stats {
	return Stats{
		BookingsCreated: s.counts.created.Load(), BookingConflicts: s.counts.conflicts.Load(), BookingsExpired: s.counts.expired.Load(),
		BookingsFinished: s.counts.finished.Load(),
	}
}

// PoolStat describes the service's database connections.
func (s *Service) PoolStat() *pgxpool.Stat { return s.pool.Stat() }

package layout

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// Service imports, exports and changes organizations' layouts: the layout document, the demo office,
// and the admin operations on one object at a time or on several resources at once. It opens its own
// transactions on the pool, and after every change it commits it tells the domain
// (booking.Service.LayoutChanged), whose cached layouts are then read again. The admin methods refuse
// anyone but an admin (1001) and treat another organization's objects as unknown (1013).
type Service struct {
	pool *pgxpool.Pool
	q    *queries.Queries
	svc  *booking.Service
}

// New returns a Service that reads and writes through pool, and tells svc of its changes. svc also
// reads people and resources for LoadDemo, and gives the clock.
func New(pool *pgxpool.Pool, svc *booking.Service) *Service {
	return &Service{pool: pool, q: queries.New(pool), svc: svc}
}

// change runs write in one transaction, run again when PostgreSQL refused it in a way that wrote nothing
// (booking.Retried). The events write adds (bookings a closure or a deactivation cancelled) are recorded
// in the outbox in the same transaction. After the commit, it clears the domain's cached layouts.
func (s *Service) change(ctx context.Context, write func(q *queries.Queries, ev *outbox.Batch) error) error {
	err := booking.Retried(func() error {
		return outbox.InTx(ctx, s.pool, func(tx pgx.Tx, ev *outbox.Batch) error { return write(s.q.WithTx(tx), ev) })
	})
	if err != nil {
		return err
	}
	s.svc.LayoutChanged()
	return nil
}

// read runs read in one read-only transaction that sees a single snapshot, so that everything it reads
// belongs together (an export, an object and its ETag).
func (s *Service) read(ctx context.Context, read func(q *queries.Queries) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		return read(s.q.WithTx(tx))
	})
}

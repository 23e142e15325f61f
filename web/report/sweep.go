package report

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// sweepLock is the key of the advisory lock that lets one instance at a time roll up and anonymise
// ("report" in ASCII).
const sweepLock = 0x7265706f7274

// sweepBatch is the most building-days one round rolls up, and the most bookings it anonymises.
const sweepBatch = 200

// SweepResult says what one sweep did.
type SweepResult struct {
	RolledUp   int // building-days rolled up
	Anonymised int // bookings taken out of their people
	Skipped    bool
}

// Sweep rolls up every building's closed days not rolled up yet (at most the last 400), then anonymises
// the bookings that ended before their organization's retention. Days are rolled up before they can be
// anonymised (a retention is at least a month), so the reports keep their figures. An advisory lock lets
// one instance sweep while the others skip.
func (s *Service) Sweep(ctx context.Context) (SweepResult, error) {
	var res SweepResult
	for {
		rolled, anonymised, locked, err := s.sweepRound(ctx)
		if err != nil {
			return res, err
		}
		if !locked {
			res.Skipped = res.RolledUp == 0 && res.Anonymised == 0
			return res, nil
		}
		res.RolledUp += rolled
		res.Anonymised += anonymised
		if rolled < sweepBatch && anonymised < sweepBatch {
			return res, nil
		}
	}
}

// sweepRound does at most one batch of each in one transaction, and reports false when another
// instance holds the lock.
func (s *Service) sweepRound(ctx context.Context) (rolled, anonymised int, locked bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		rolled, anonymised = 0, 0
		if locked, err = q.SweepLockTry(ctx, sweepLock); err != nil || !locked {
			return err
		}
		now := s.now()
		todo, err := q.ReportDaysToRollUp(ctx, queries.ReportDaysToRollUpParams{At: now, MaxRows: sweepBatch})
		if err != nil {
			return fmt.Errorf("find days to roll up: %w", err)
		}
		for _, d := range todo {
			if err := q.ReportRollUp(ctx, queries.ReportRollUpParams{OrganizationID: d.OrganizationID, BuildingID: d.BuildingID, Day: d.Day}); err != nil {
				return fmt.Errorf("roll up %s: %w", d.Day.Time.Format(time.DateOnly), err)
			}
		}
		if len(todo) == sweepBatch {
			// Days are left to roll up: anonymise once they are, never before.
			rolled = len(todo)
			return nil
		}
		done, err := q.ReportAnonymise(ctx, queries.ReportAnonymiseParams{At: now, MaxRows: sweepBatch})
		if err != nil {
			return fmt.Errorf("anonymise bookings: %w", err)
		}
		for _, b := range done {
			if err := q.ReportAnonymiseAttendees(ctx, queries.ReportAnonymiseAttendeesParams{OrganizationID: b.OrganizationID, BookingIds: []uuid.UUID{b.ID}}); err != nil {
				return fmt.Errorf("remove attendees: %w", err)
			}
			if err := q.ReportAnonymiseOrders(ctx, queries.ReportAnonymiseOrdersParams{OrganizationID: b.OrganizationID, BookingIds: []uuid.UUID{b.ID}}); err != nil {
				return fmt.Errorf("empty order comments: %w", err)
			}
		}
		rolled, anonymised = len(todo), len(done)
		return nil
	})
	return rolled, anonymised, locked, err
}

// RunSweeps sweeps at once, then every interval until ctx is done, logging what it did and any
// failure; a failed sweep is tried again next time.
func (s *Service) RunSweeps(ctx context.Context, every time.Duration, log *slog.Logger) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		res, err := s.Sweep(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.ErrorContext(ctx, "report sweep failed", slog.Any("error", err))
		case res.RolledUp > 0 || res.Anonymised > 0:
			log.InfoContext(ctx, "report sweep", slog.Int("rolledUp", res.RolledUp), slog.Int("anonymised", res.Anonymised))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// CancelSeries cancels the occurrences of a series from a day on: from (in the building's zone), or
// today when from is earlier. With from nil the whole series is cancelled (its occurrences from today
// on). An occurrence that can no longer be cancelled (checked in, past its check-in, or with a service
// inside its minimum cancellation time) is left as it is; the others become CANCELLED. From the
// series' first day or earlier the series is cancelled too; from a later day it ends the day before.
// The cancellations record no event of their own: the series is told as one, by a series.cancelled
// event (series.changed when it ends from a later day). It returns the series as it is afterwards.
// Codes: 1011 no such series the actor may act on.
func (s *Service) CancelSeries(ctx context.Context, actor User, id uuid.UUID, from *Date) (Series, error) {
	var out Series
	err := s.inTxSavepoints(ctx, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, loc, err := lockSeries(ctx, q, actor, id)
		if err != nil {
			return err
		}
		now := s.now()
		day := DateOf(now.In(loc))
		if from != nil && from.After(day) {
			day = *from
		}
		bs, err := s.seriesBookingsFrom(ctx, q, row, LocalTime(day, 0, loc))
		if err != nil {
			return err
		}
		for _, b := range bs {
			if !s.cancellable(b, now) {
				continue
			}
			if _, err := setStatus(ctx, q, b, StatusCancelled, now); err != nil {
				return err
			}
		}
		if row, err = endSeries(ctx, q, row, day, from == nil); err != nil {
			return err
		}
		kind := outbox.SeriesChanged
		if row.Status == SeriesCancelled {
			kind = outbox.SeriesCancelled
		}
		if err := s.recordSeries(ctx, tx, kind, row, now); err != nil {
			return err
		}
		out, err = s.seriesWithOccurrences(ctx, q, row)
		return err
	})
	return out, err
}

// cancellable reports whether Cancel would cancel b now.
func (s *Service) cancellable(b Booking, now time.Time) bool {
	return (b.Status == StatusPending || b.Status == StatusWaitingApproval) &&
		s.notOverdue(b, now) == nil && reservablesCancellable(b, now) == nil
}

// endSeries cancels the series of row when whole is set or day is its first day or earlier, and
// otherwise ends it the day before day (a series that ends earlier already keeps its end). It returns
// the series' row as it is afterwards.
func endSeries(ctx context.Context, q *queries.Queries, row queries.BookingSeries, day Date, whole bool) (queries.BookingSeries, error) {
	var err error
	switch first, until := dateOfPg(row.FirstDate), dateOfPg(row.UntilDate); {
	case whole || !day.After(first):
		row, err = q.SeriesCancel(ctx, queries.SeriesCancelParams{OrganizationID: row.OrganizationID, ID: row.ID})
	case !day.After(until):
		row, err = q.SeriesEndBefore(ctx, queries.SeriesEndBeforeParams{OrganizationID: row.OrganizationID, ID: row.ID, UntilDate: pgDate(day.AddDays(-1))})
	}
	if err != nil {
		return row, fmt.Errorf("end series: %w", err)
	}
	return row, nil
}

// lockSeries reads and locks the series id for a change by actor, and returns its building's zone.
// Codes: 1011 no such series the actor may act on.
func lockSeries(ctx context.Context, q *queries.Queries, actor User, id uuid.UUID) (queries.BookingSeries, *time.Location, error) {
	row, err := q.SeriesGetForUpdate(ctx, queries.SeriesGetForUpdateParams{OrganizationID: actor.OrganizationID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !mayAct(actor, row.OrganizationID, row.OrganizerID, row.CreatorID)) {
		return row, nil, seriesNotFound(id)
	}
	if err != nil {
		return row, nil, fmt.Errorf("get series: %w", err)
	}
	loc, err := Location(row.Timezone)
	return row, loc, err
}

// seriesBookingsFrom locks and returns the blocking bookings of the series of row that start at since
// or later.
func (s *Service) seriesBookingsFrom(ctx context.Context, q *queries.Queries, row queries.BookingSeries, since time.Time) ([]Booking, error) {
	rows, err := q.SeriesBookingsForUpdate(ctx, queries.SeriesBookingsForUpdateParams{OrganizationID: row.OrganizationID, SeriesID: row.ID, Since: since})
	if err != nil {
		return nil, fmt.Errorf("get the bookings of a series: %w", err)
	}
	return s.hydrate(ctx, q, row.OrganizationID, rows)
}

// skipOccurrence records that the day of b, an occurrence of a series, was cancelled on its own: the
// series' invitation will leave that day out.
func skipOccurrence(ctx context.Context, q *queries.Queries, b Booking) error {
	if b.SeriesID == nil {
		return nil
	}
	loc, err := Location(b.Resource.Floor.Building.Timezone)
	if err != nil {
		return err
	}
	err = q.SeriesDayPut(ctx, queries.SeriesDayPutParams{
		OrganizationID: b.OrganizationID, SeriesID: *b.SeriesID, Day: pgDate(DateOf(b.Start.In(loc))), Kind: "SKIPPED",
	})
	if err != nil {
		return fmt.Errorf("record a skipped day: %w", err)
	}
	return nil
}

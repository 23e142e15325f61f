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

// A series is told as one: one event per operation on it (made, changed, cancelled), recorded in the
// transaction of the operation, from which package notify sends one invitation that repeats. Its
// occurrences record no created, changed or cancelled event of their own; an occurrence cancelled on
// its own gives its series a new revision and a series.changed event (its invitation gains an EXDATE).

// seriesEvent returns the event of kind k about the series as row holds it: its revision and status,
// its first day's times, and its resource.
func seriesEvent(k outbox.Kind, row queries.BookingSeries, now time.Time) (outbox.Event, error) {
	loc, err := Location(row.Timezone)
	if err != nil {
		return outbox.Event{}, err
	}
	first := dateOfPg(row.FirstDate)
	return outbox.New(k, row.OrganizationID, row.ID, now, outbox.State{
		Revision: row.Revision, Status: row.Status, ResourceID: row.ResourceID,
		Start: LocalTime(first, int(row.StartMinute), loc), End: LocalTime(first, int(row.EndMinute), loc),
	}), nil
}

// recordSeries records in tx the event of kind k about the series of row, unless the service records
// no events (WithoutEvents).
func (s *Service) recordSeries(ctx context.Context, tx pgx.Tx, k outbox.Kind, row queries.BookingSeries, now time.Time) error {
	if s.silent {
		return nil
	}
	e, err := seriesEvent(k, row, now)
	if err != nil {
		return err
	}
	return outbox.Record(ctx, tx, e)
}

// tellSkipped gives the series of after, an occurrence just cancelled on its own, a new revision and
// adds its series.changed event to ev.
func tellSkipped(ctx context.Context, q *queries.Queries, ev *outbox.Batch, before, after Booking, now time.Time) error {
	if after.SeriesID == nil || after.Revision == before.Revision || after.Status != StatusCancelled {
		return nil
	}
	row, err := q.SeriesBump(ctx, queries.SeriesBumpParams{OrganizationID: after.OrganizationID, ID: *after.SeriesID})
	if err != nil {
		return fmt.Errorf("change series: %w", err)
	}
	e, err := seriesEvent(outbox.SeriesChanged, row, now)
	if err != nil {
		return err
	}
	ev.Add(e)
	return nil
}

// SeriesToTell returns a series of the organization with its occurrences, whatever its status, for
// telling its organizer about an event. Nobody's rights are checked: the outbox's workers call it.
// Codes: 1011 no such series.
func (s *Service) SeriesToTell(ctx context.Context, org, id uuid.UUID) (Series, error) {
	row, err := s.q.SeriesGet(ctx, queries.SeriesGetParams{OrganizationID: org, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return Series{}, seriesNotFound(id)
	}
	if err != nil {
		return Series{}, fmt.Errorf("get series: %w", err)
	}
	return s.seriesWithOccurrences(ctx, s.q, row)
}

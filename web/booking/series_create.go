package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// createSeries checks r against layout and makes the series and its occurrences in one transaction.
// It returns errLayoutChanged, having written nothing, when the layout changed since it was read.
func (s *Service) createSeries(ctx context.Context, r SeriesRequest, layout *orgLayout) (Series, error) {
	res, loc, err := seriesResource(layout, r.ResourceID)
	if err != nil {
		return Series{}, err
	}
	now := s.now()
	if r.Rule.First.Before(DateOf(now.In(loc))) {
		return Series{}, FieldRefuse(CodeInvalidRequest, "firstDate", "refusal.series.firstDayPast")
	}
	days, err := r.Rule.Expand(loc)
	if err != nil {
		return Series{}, err
	}
	elements := make([]NewBooking, len(days))
	for i, d := range days {
		elements[i] = NewBooking{ResourceID: res.ID, Start: d.Interval.Start, End: d.Interval.End, Subject: r.Subject}
	}
	out := Series{
		ID: uuid.Must(uuid.NewV7()), OrganizationID: r.Creator.OrganizationID, Organizer: r.Organizer, Creator: r.Creator,
		Resource: res, Rule: r.Rule, Timezone: res.Floor.Building.Timezone, Subject: r.Subject, Mode: r.Mode, Status: SeriesActive,
	}
	tz := out.Timezone
	err = s.inTxSavepoints(ctx, func(tx pgx.Tx) error {
		out.Occurrences = make([]SeriesOccurrence, len(days))
		c := &creation{
			CreateRequest: CreateRequest{Creator: r.Creator, Organizer: r.Organizer, Category: res.Subcategory.Category, Bookings: elements},
			elements:      append([]NewBooking(nil), elements...), layout: layout, known: map[uuid.UUID]bool{}, now: now, series: &out.ID,
		}
		if err := s.q.WithTx(tx).SeriesInsert(ctx, seriesInsertParams(out)); err != nil {
			return fmt.Errorf("insert series: %w", err)
		}
		made := 0
		for i, d := range days {
			out.Occurrences[i].Date = d.Date
			b, err := s.placeOccurrence(ctx, tx, c, i, r.Mode == SeriesFree)
			switch {
			case err == nil:
				out.Occurrences[i].Booking, made = &b, made+1
			case !refusedDay(err):
				return err
			case r.Mode == SeriesAll:
				e := asError(err)
				return Refuse(e.Code, "refusal.series.allOrNone", dayWords(e, d.Interval, tz, now))
			default:
				refused := plain(asError(err))
				out.Occurrences[i].Refused = refused
				if err := putRefusedDay(ctx, s.q.WithTx(tx), out, d.Date, refused); err != nil {
					return err
				}
			}
		}
		if made == 0 {
			first := out.Occurrences[0].Refused
			return Refuse(first.Code, "refusal.series.noFreeDay", dayWords(first, days[0].Interval, tz, now))
		}
		row, err := s.q.WithTx(tx).SeriesGet(ctx, queries.SeriesGetParams{OrganizationID: out.OrganizationID, ID: out.ID})
		if err != nil {
			return fmt.Errorf("get series: %w", err)
		}
		return s.recordSeries(ctx, tx, outbox.SeriesCreated, row, now)
	})
	return out, err
}

// placeOccurrence checks and inserts element i of c, as CreateBookings does. With free set it runs in
// a savepoint, so that a refused day undoes only its own writes. A held workstation is named.
func (s *Service) placeOccurrence(ctx context.Context, tx pgx.Tx, c *creation, i int, free bool) (Booking, error) {
	var b Booking
	err := s.attempt(ctx, tx, free, func(q *queries.Queries) error {
		var err error
		b, err = s.createElement(ctx, q, c, i)
		return err
	})
	return b, s.nameHeldWorkstation(ctx, err)
}

// attempt runs fn in tx: in a savepoint of it when alone is set, rolled back if fn fails.
func (s *Service) attempt(ctx context.Context, tx pgx.Tx, alone bool, fn func(q *queries.Queries) error) error {
	if !alone {
		return fn(s.q.WithTx(tx))
	}
	sp, err := tx.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin savepoint: %w", err)
	}
	if err := fn(s.q.WithTx(sp)); err != nil {
		if rbErr := sp.Rollback(ctx); rbErr != nil {
			return fmt.Errorf("roll back savepoint: %w", rbErr)
		}
		return err
	}
	return sp.Commit(ctx)
}

// inTxSavepoints runs fn in one transaction, as inTx does, giving it the transaction itself so that it
// can open savepoints. It records no event itself: fn records its own (recordSeries).
func (s *Service) inTxSavepoints(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return Retried(func() error { return pgx.BeginFunc(ctx, s.pool, fn) })
}

// asError returns err as an *Error; refusedDay has checked that it is one.
func asError(err error) *Error {
	var e *Error
	if !errors.As(err, &e) {
		return Errorf(CodeInternal, "%v", err)
	}
	return e
}

// putRefusedDay records that day of series sr has no booking because of refused.
func putRefusedDay(ctx context.Context, q *queries.Queries, sr Series, day Date, refused *Error) error {
	code := int32(refused.Code)
	err := q.SeriesDayPut(ctx, queries.SeriesDayPutParams{
		OrganizationID: sr.OrganizationID, SeriesID: sr.ID, Day: pgDate(day), Kind: "REFUSED", Code: &code,
		Detail: truncate(refused.Message, 1000),
	})
	if err != nil {
		return fmt.Errorf("record a refused day: %w", err)
	}
	return nil
}

// seriesInsertParams returns the row of a new series.
func seriesInsertParams(sr Series) queries.SeriesInsertParams {
	r := sr.Rule
	return queries.SeriesInsertParams{
		OrganizationID: sr.OrganizationID, ID: sr.ID, OrganizerID: sr.Organizer.ID, CreatorID: sr.Creator.ID,
		ResourceID: sr.Resource.ID, Weekdays: weekdayMask(r.Weekdays), EveryWeeks: int16(r.EveryWeeks),
		FirstDate: pgDate(r.First), UntilDate: pgDate(r.Until), StartMinute: int16(r.Start), EndMinute: int16(r.End),
		Timezone: sr.Timezone, Subject: sr.Subject, Mode: string(sr.Mode),
	}
}

// pgDate returns d as the database's date.
func pgDate(d Date) pgtype.Date {
	return pgtype.Date{Time: time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC), Valid: true}
}

// dateOfPg returns the database's date as a Date.
func dateOfPg(d pgtype.Date) Date { return DateOf(d.Time.UTC()) }

package booking

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// SeriesChange gives a series new times of day (minutes after local midnight) from a day on: From, or
// today when From is zero or earlier. Mode says what happens when some occurrences cannot move.
type SeriesChange struct {
	From       Date
	Start, End int
	Mode       SeriesMode
}

// ChangeSeries moves each occurrence of the series on From or later that waits for check-in or approval
// to the new times on its own day, checking each move as Change checks one. With SeriesAll every move is
// made or none, and the refusal names the first day that cannot move; with SeriesFree the others move
// and each one that cannot keeps its old times and is returned with the reason in Refused. Checked-in
// occurrences stay as they are. The series keeps the new times as its own from then on. The moves
// record no event of their own: the series is told as one, by a series.changed event.
// Codes: 1011 no such series the actor may act on; 2000 times out of the day, an end not after the
// start, or a mode other than ALL or FREE; with SeriesAll, the code of the first refused move (those
// of Change).
func (s *Service) ChangeSeries(ctx context.Context, actor User, id uuid.UUID, c SeriesChange) (Series, error) {
	if err := checkTimesOfDay(c.Start, c.End); err != nil {
		return Series{}, err
	}
	if err := checkMode(c.Mode); err != nil {
		return Series{}, err
	}
	var out Series
	err := s.inTxSavepoints(ctx, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		row, loc, err := lockSeries(ctx, q, actor, id)
		if err != nil {
			return err
		}
		now := s.now()
		day := DateOf(now.In(loc))
		if c.From.After(day) {
			day = c.From
		}
		bs, err := s.seriesBookingsFrom(ctx, q, row, LocalTime(day, 0, loc))
		if err != nil {
			return err
		}
		refused := map[uuid.UUID]*Error{}
		for _, b := range bs {
			if b.Status == StatusActive {
				continue
			}
			d := DateOf(b.Start.In(loc))
			m := move{res: b.Resource, iv: Interval{Start: LocalTime(d, c.Start, loc), End: LocalTime(d, c.End, loc)}}
			err := s.attempt(ctx, tx, c.Mode == SeriesFree, func(q *queries.Queries) error { return s.moveOccurrence(ctx, q, b, m) })
			err = s.nameHeldWorkstation(ctx, err)
			switch {
			case err == nil:
			case !refusedDay(err):
				return err
			case c.Mode == SeriesAll:
				e := asError(err)
				return Refuse(e.Code, "refusal.series.changeAllOrNone", dayWords(e, m.iv, row.Timezone, now))
			default:
				refused[b.ID] = plain(asError(err))
			}
		}
		if row, err = q.SeriesSetTimes(ctx, queries.SeriesSetTimesParams{
			OrganizationID: row.OrganizationID, ID: row.ID, StartMinute: int16(c.Start), EndMinute: int16(c.End), Mode: string(c.Mode),
		}); err != nil {
			return fmt.Errorf("change series: %w", err)
		}
		if err := s.recordSeries(ctx, tx, outbox.SeriesChanged, row, now); err != nil {
			return err
		}
		if out, err = s.seriesWithOccurrences(ctx, q, row); err != nil {
			return err
		}
		for i, o := range out.Occurrences {
			if o.Booking != nil {
				out.Occurrences[i].Refused = refused[o.Booking.ID]
			}
		}
		return nil
	})
	return out, err
}

// moveOccurrence moves b, an occurrence of a series, to m, with every check Change makes.
func (s *Service) moveOccurrence(ctx context.Context, q *queries.Queries, b Booking, m move) error {
	now := s.now()
	if err := s.notOverdue(b, now); err != nil {
		return err
	}
	if m.iv.Start.Equal(b.Start) && m.iv.End.Equal(b.End) {
		return nil
	}
	if err := s.checkMove(ctx, q, b, &m, now); err != nil {
		return err
	}
	if err := checkMoveClosures(ctx, q, b, m, now); err != nil {
		return err
	}
	if err := moveReservables(ctx, q, b, m.res, m.iv, now); err != nil {
		return err
	}
	_, err := s.writeMove(ctx, q, b, m, now)
	return err
}

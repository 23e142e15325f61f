package booking_test

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// madeWeek makes Alice's desk series of Tue 1 Dec to Fri 4 Dec, or fails the test.
func (b *seriesBundle) madeWeek(t *testing.T) booking.Series {
	t.Helper()
	sr, err := b.Service.CreateSeries(t.Context(), b.deskWeek(booking.SeriesAll))
	if err != nil {
		t.Fatalf("CreateSeries: %v", err)
	}
	return sr
}

func pending(d, times string) shown {
	return shown{Date: d, Times: times, Status: booking.StatusPending}
}

func cancelled(d string) shown {
	return shown{Date: d, Times: "09:00–18:00", Status: booking.StatusCancelled}
}

func TestSeriesCancel(t *testing.T) {
	t.Parallel()
	t.Run("Whole", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		got, err := b.Service.CancelSeries(t.Context(), b.alice, sr.ID, nil)
		if err != nil {
			t.Fatalf("CancelSeries: %v", err)
		}
		wantShown(t, got, []shown{cancelled("2026-12-01"), cancelled("2026-12-02"), cancelled("2026-12-03"), cancelled("2026-12-04")})
		if got.Status != booking.SeriesCancelled || got.Revision != 1 {
			t.Errorf("status, revision = %s, %d; want CANCELLED, 1", got.Status, got.Revision)
		}
	})
	t.Run("FromADate", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		from := day(2026, 12, 3)
		got, err := b.Service.CancelSeries(t.Context(), b.alice, sr.ID, &from)
		if err != nil {
			t.Fatalf("CancelSeries: %v", err)
		}
		wantShown(t, got, []shown{pending("2026-12-01", "09:00–18:00"), pending("2026-12-02", "09:00–18:00"), cancelled("2026-12-03"), cancelled("2026-12-04")})
		if got.Status != booking.SeriesActive || got.Rule.Until != day(2026, 12, 2) {
			t.Errorf("status, until = %s, %s; want ACTIVE, 2026-12-02", got.Status, got.Rule.Until)
		}
	})
	t.Run("ADayReleasedIsToldOfThatDay", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		b.Clock.Set(fx.At(8, 9, 30)) // Tue 1 Dec, during its occurrence
		day := sr.Occurrences[0].Booking.ID
		if _, err := b.Service.CheckIn(t.Context(), b.alice, day); err != nil {
			t.Fatalf("CheckIn: %v", err)
		}
		if _, err := b.Service.CheckOut(t.Context(), b.alice, day); err != nil {
			t.Fatalf("CheckOut: %v", err)
		}
		var kinds []string
		rows, err := b.Pool.Query(t.Context(), `SELECT kind FROM outbox_events WHERE booking_id = $1 ORDER BY id`, day)
		if err != nil {
			t.Fatal(err)
		}
		if kinds, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(kinds, ","); got != "booking.released" {
			t.Errorf("events of the day = %q, want booking.released alone", got)
		}
	})
	t.Run("KeepsACheckedInOccurrence", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		b.Clock.Set(fx.At(8, 9, 30)) // Tue 1 Dec, during its occurrence
		if _, err := b.Service.CheckIn(t.Context(), b.alice, sr.Occurrences[0].Booking.ID); err != nil {
			t.Fatalf("CheckIn: %v", err)
		}
		got, err := b.Service.CancelSeries(t.Context(), b.alice, sr.ID, nil)
		if err != nil {
			t.Fatalf("CancelSeries: %v", err)
		}
		wantShown(t, got, []shown{{Date: "2026-12-01", Times: "09:00–18:00", Status: booking.StatusActive},
			cancelled("2026-12-02"), cancelled("2026-12-03"), cancelled("2026-12-04")})
	})
	t.Run("OneOccurrence", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		if _, err := b.Service.Cancel(t.Context(), b.alice, sr.Occurrences[1].Booking.ID); err != nil {
			t.Fatalf("Cancel: %v", err)
		}
		got, err := b.Service.Series(t.Context(), b.alice, sr.ID)
		if err != nil {
			t.Fatalf("Series: %v", err)
		}
		skipped := cancelled("2026-12-02")
		skipped.Skipped = true
		wantShown(t, got, []shown{pending("2026-12-01", "09:00–18:00"), skipped, pending("2026-12-03", "09:00–18:00"), pending("2026-12-04", "09:00–18:00")})
		// No booking.cancelled of the day: its series changes, and tells so with a new revision.
		id := sr.ID.String()
		wantSeriesEvents(t, b, "series.created "+id+" 0 ACTIVE", "series.changed "+id+" 1 ACTIVE")
		if _, err := b.Service.CancelSeries(t.Context(), b.alice, sr.ID, nil); err != nil {
			t.Fatalf("CancelSeries: %v", err)
		}
		wantSeriesEvents(t, b, "series.created "+id+" 0 ACTIVE", "series.changed "+id+" 1 ACTIVE", "series.cancelled "+id+" 2 CANCELLED")
	})
}

func TestSeriesChange(t *testing.T) {
	t.Parallel()
	change := booking.SeriesChange{From: day(2026, 12, 3), Start: 12 * 60, End: 20 * 60}
	t.Run("TimesFromADate", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		c := change
		c.Mode = booking.SeriesAll
		got, err := b.Service.ChangeSeries(t.Context(), b.alice, sr.ID, c)
		if err != nil {
			t.Fatalf("ChangeSeries: %v", err)
		}
		wantShown(t, got, []shown{pending("2026-12-01", "09:00–18:00"), pending("2026-12-02", "09:00–18:00"),
			pending("2026-12-03", "12:00–20:00"), pending("2026-12-04", "12:00–20:00")})
		if got.Rule.Start != 12*60 || got.Rule.End != 20*60 || got.Revision != 1 {
			t.Errorf("rule times, revision = %d–%d, %d", got.Rule.Start, got.Rule.End, got.Revision)
		}
	})
	t.Run("AllRefusedChangesNothing", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		b.book(t, b.bob, booking.CategoryWorkstation, fx.DeskOne, fx.At(11, 19, 0), fx.At(11, 20, 0)) // Fri 4 Dec
		c := change
		c.Mode = booking.SeriesAll
		_, err := b.Service.ChangeSeries(t.Context(), b.alice, sr.ID, c)
		fx.WantCode(t, err, booking.CodeResourceNotAvailable)
		wantWords(t, err, "Fri 4 Dec, 12:00–20:00: Desk 1 is already booked during part of that time. Nothing was changed: "+
			"a series changed all or none keeps its times when one of its days cannot move; choose “move the free days” to move the others")
		again, err := b.Service.Series(t.Context(), b.alice, sr.ID)
		if err != nil {
			t.Fatalf("Series: %v", err)
		}
		wantShown(t, again, []shown{pending("2026-12-01", "09:00–18:00"), pending("2026-12-02", "09:00–18:00"),
			pending("2026-12-03", "09:00–18:00"), pending("2026-12-04", "09:00–18:00")})
	})
	t.Run("FreeMovesTheRest", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		b.book(t, b.bob, booking.CategoryWorkstation, fx.DeskOne, fx.At(11, 19, 0), fx.At(11, 20, 0))
		c := change
		c.Mode = booking.SeriesFree
		got, err := b.Service.ChangeSeries(t.Context(), b.alice, sr.ID, c)
		if err != nil {
			t.Fatalf("ChangeSeries: %v", err)
		}
		kept := pending("2026-12-04", "09:00–18:00")
		kept.Refused = booking.CodeResourceNotAvailable
		wantShown(t, got, []shown{pending("2026-12-01", "09:00–18:00"), pending("2026-12-02", "09:00–18:00"),
			pending("2026-12-03", "12:00–20:00"), kept})
	})
	t.Run("TimesOutOfTheDay", func(t *testing.T) {
		b := setupSeries(t)
		sr := b.madeWeek(t)
		_, err := b.Service.ChangeSeries(t.Context(), b.alice, sr.ID, booking.SeriesChange{Start: 600, End: 1500, Mode: booking.SeriesAll})
		fx.WantCode(t, err, booking.CodeInvalidRequest)
		wantWords(t, err, "endTime: the end must come after the start, at 24:00 at the latest")
	})
}

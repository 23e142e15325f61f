package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// seriesBundle is a fixture with its people at hand.
type seriesBundle struct {
	*fx.Bundle
	alice, bob, boris booking.User
}

func setupSeries(t *testing.T) *seriesBundle {
	t.Helper()
	b := fx.Setup(t)
	return &seriesBundle{Bundle: b, alice: b.User(t, fx.OrgA, fx.Alice), bob: b.User(t, fx.OrgA, fx.Bob), boris: b.User(t, fx.OrgB, fx.Boris)}
}

// deskWeek asks for Desk 1 for Alice, Tue 1 Dec to Fri 4 Dec, 09:00–18:00.
func (b *seriesBundle) deskWeek(mode booking.SeriesMode) booking.SeriesRequest {
	return booking.SeriesRequest{
		Creator: b.alice, Organizer: b.alice, ResourceID: fx.DeskOne, Mode: mode, Subject: "Focus",
		Rule: booking.SeriesRule{Weekdays: booking.EveryWeekday, EveryWeeks: 1, First: day(2026, 12, 1), Until: day(2026, 12, 4), Start: 9 * 60, End: 18 * 60},
	}
}

// book makes one booking of res for who, or fails the test.
func (b *seriesBundle) book(t *testing.T, who booking.User, cat booking.Category, res uuid.UUID, start, end time.Time) booking.Booking {
	t.Helper()
	bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: who, Organizer: who, Category: cat,
		Bookings: []booking.NewBooking{fx.Request(res, start, end)}})
	if err != nil {
		t.Fatalf("CreateBookings: %v", err)
	}
	return bs[0]
}

// shown is an occurrence as a person reads it: its day, its local times and status, or its refusal.
type shown struct {
	Date    string
	Times   string
	Status  booking.Status
	Refused booking.Code
	Skipped bool
}

func show(sr booking.Series) []shown {
	loc, _ := booking.Location(sr.Timezone)
	out := make([]shown, len(sr.Occurrences))
	for i, o := range sr.Occurrences {
		out[i] = shown{Date: o.Date.String(), Skipped: o.Skipped}
		if o.Booking != nil {
			out[i].Times = o.Booking.Start.In(loc).Format("15:04") + "–" + o.Booking.End.In(loc).Format("15:04")
			out[i].Status = o.Booking.Status
		}
		if o.Refused != nil {
			out[i].Refused = o.Refused.Code
		}
	}
	return out
}

func wantShown(t *testing.T, sr booking.Series, want []shown) {
	t.Helper()
	if diff := cmp.Diff(want, show(sr)); diff != "" {
		t.Errorf("occurrences (-want +got):\n%s", diff)
	}
}

func wantWords(t *testing.T, err error, want string) {
	t.Helper()
	if got := err.(*booking.Error).Message; got != want {
		t.Errorf("message = %q\nwant      %q", got, want)
	}
}

func TestSeriesCreate(t *testing.T) {
	t.Parallel()
	t.Run("AllRefusedOnOneTakenDayMakesNothing", func(t *testing.T) {
		b := setupSeries(t)
		b.book(t, b.bob, booking.CategoryWorkstation, fx.DeskOne, fx.At(9, 9, 0), fx.At(9, 10, 0)) // Wed 2 Dec
		_, err := b.Service.CreateSeries(t.Context(), b.deskWeek(booking.SeriesAll))
		fx.WantCode(t, err, booking.CodeResourceNotAvailable)
		wantWords(t, err, "Wed 2 Dec, 09:00–18:00: Desk 1 is already booked during part of that time. Nothing was booked: "+
			"a series booked all or none is refused when one of its days is; choose “book the free days” to book the others")
		if got := fx.TableCount(t, b.Bundle, "booking_series") + fx.TableCount(t, b.Bundle, "booking_series_days"); got != 0 {
			t.Errorf("series rows = %d, want 0", got)
		}
		if got := fx.TableCount(t, b.Bundle, "bookings"); got != 1 {
			t.Errorf("bookings = %d, want only Bob's", got)
		}
	})
	t.Run("FreeMakesTheRestAndNamesTheRefusedDay", func(t *testing.T) {
		b := setupSeries(t)
		b.book(t, b.bob, booking.CategoryWorkstation, fx.DeskOne, fx.At(9, 9, 0), fx.At(9, 10, 0))
		sr, err := b.Service.CreateSeries(t.Context(), b.deskWeek(booking.SeriesFree))
		if err != nil {
			t.Fatalf("CreateSeries: %v", err)
		}
		want := []shown{
			{Date: "2026-12-01", Times: "09:00–18:00", Status: booking.StatusPending},
			{Date: "2026-12-02", Refused: booking.CodeResourceNotAvailable},
			{Date: "2026-12-03", Times: "09:00–18:00", Status: booking.StatusPending},
			{Date: "2026-12-04", Times: "09:00–18:00", Status: booking.StatusPending},
		}
		wantShown(t, sr, want)
		if got, want := sr.Occurrences[1].Refused.Message, "Desk 1 is already booked during part of that time"; got != want {
			t.Errorf("refusal = %q, want %q", got, want)
		}
		again, err := b.Service.Series(t.Context(), b.alice, sr.ID)
		if err != nil {
			t.Fatalf("Series: %v", err)
		}
		wantShown(t, again, want)
		if got := again.Occurrences[1].Refused.Message; got != "Desk 1 is already booked during part of that time" {
			t.Errorf("kept refusal = %q", got)
		}
	})
	t.Run("OneOutboxEventForTheSeries", func(t *testing.T) {
		b := setupSeries(t)
		sr, err := b.Service.CreateSeries(t.Context(), b.deskWeek(booking.SeriesAll))
		if err != nil {
			t.Fatalf("CreateSeries: %v", err)
		}
		wantSeriesEvents(t, b, "series.created "+sr.ID.String()+" 0 ACTIVE")
		// A series refused all or none records nothing.
		ask := b.deskWeek(booking.SeriesAll)
		ask.Organizer, ask.Creator = b.bob, b.bob
		if _, err := b.Service.CreateSeries(t.Context(), ask); err == nil {
			t.Fatalf("a second series of the same desk was made")
		}
		wantSeriesEvents(t, b, "series.created "+sr.ID.String()+" 0 ACTIVE")
		b.book(t, b.bob, booking.CategoryWorkstation, fx.DeskTwo, fx.At(8, 9, 0), fx.At(8, 10, 0))
		if got := fx.TableCount(t, b.Bundle, "outbox_events"); got != 2 {
			t.Errorf("outbox events after one booking more = %d, want 2", got)
		}
	})
}

// wantSeriesEvents checks the outbox's events of series, oldest first, as "kind id revision status".
func wantSeriesEvents(t *testing.T, b *seriesBundle, want ...string) {
	t.Helper()
	rows, err := b.Pool.Query(t.Context(), `SELECT kind || ' ' || booking_id || ' ' || revision || ' ' || status FROM outbox_events ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("outbox events (-want +got):\n%s", diff)
	}
}

// TestSeriesMaximumAdvance books Goya (at most 30 days ahead of Mon 23 Nov 09:00) every Tuesday from
// 1 Dec to 29 Dec: 29 Dec is too far.
func TestSeriesMaximumAdvance(t *testing.T) {
	t.Parallel()
	b := setupSeries(t)
	r := booking.SeriesRequest{Creator: b.alice, Organizer: b.alice, ResourceID: fx.RoomGoya, Mode: booking.SeriesAll,
		Rule: booking.SeriesRule{Weekdays: []time.Weekday{time.Tuesday}, EveryWeeks: 1, First: day(2026, 12, 1), Until: day(2026, 12, 29), Start: 9 * 60, End: 11 * 60}}
	_, err := b.Service.CreateSeries(t.Context(), r)
	fx.WantCode(t, err, booking.CodeDateExceedsMaximumAdvance)
	wantWords(t, err, "Tue 29 Dec, 09:00–11:00: bookings of this resource may start at most 30 days ahead. Nothing was booked: "+
		"a series booked all or none is refused when one of its days is; choose “book the free days” to book the others")
	r.Mode = booking.SeriesFree
	sr, err := b.Service.CreateSeries(t.Context(), r)
	if err != nil {
		t.Fatalf("CreateSeries: %v", err)
	}
	ok := func(d string) shown { return shown{Date: d, Times: "09:00–11:00", Status: booking.StatusPending} }
	wantShown(t, sr, []shown{ok("2026-12-01"), ok("2026-12-08"), ok("2026-12-15"), ok("2026-12-22"),
		{Date: "2026-12-29", Refused: booking.CodeDateExceedsMaximumAdvance}})
	r.Rule.First = day(2026, 12, 29)
	_, err = b.Service.CreateSeries(t.Context(), r)
	fx.WantCode(t, err, booking.CodeDateExceedsMaximumAdvance)
	wantWords(t, err, "no day of the series could be booked. The first: Tue 29 Dec, 09:00–11:00: bookings of this resource may start at most 30 days ahead")
}

// TestSeriesAcrossDST books across the autumn changes of 2026 in both zones: every booking keeps its
// local times.
func TestSeriesAcrossDST(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		room  uuid.UUID
		first booking.Date
		want  []string
	}{
		{"Madrid", fx.RoomGoya, day(2026, 10, 23), []string{"2026-10-23", "2026-10-26", "2026-10-27"}},
		{"NewYork", fx.RoomHudson, day(2026, 10, 30), []string{"2026-10-30", "2026-11-02", "2026-11-03"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := setupSeries(t)
			b.Clock.Set(time.Date(2026, 10, 20, 9, 0, 0, 0, time.UTC))
			r := booking.SeriesRequest{Creator: b.alice, Organizer: b.alice, ResourceID: tt.room, Mode: booking.SeriesAll,
				Rule: booking.SeriesRule{Weekdays: booking.EveryWeekday, EveryWeeks: 1, First: tt.first, Until: tt.first.AddDays(4), Start: 9 * 60, End: 12 * 60}}
			sr, err := b.Service.CreateSeries(t.Context(), r)
			if err != nil {
				t.Fatalf("CreateSeries: %v", err)
			}
			var want []shown
			for _, d := range tt.want {
				want = append(want, shown{Date: d, Times: "09:00–12:00", Status: booking.StatusPending})
			}
			wantShown(t, sr, want)
			if a, c := sr.Occurrences[0].Booking.Start, sr.Occurrences[1].Booking.Start; c.Sub(a) != 3*24*time.Hour+time.Hour {
				t.Errorf("from %v to %v is %v, want 73h: the clocks went back an hour", a, c, c.Sub(a))
			}
		})
	}
}

func TestSeriesRefusals(t *testing.T) {
	t.Parallel()
	b := setupSeries(t)
	ctx := t.Context()
	tests := []struct {
		name string
		fn   func(*booking.SeriesRequest)
		code booking.Code
		want string
	}{
		{"FirstDayPast", func(r *booking.SeriesRequest) { r.Rule.First = day(2026, 11, 20) }, booking.CodeInvalidRequest, "firstDate: the first day has passed; choose today or a later day"},
		{"SixMonths", func(r *booking.SeriesRequest) { r.Rule.Until = day(2027, 6, 2) }, booking.CodeInvalidRequest, "untilDate: a series lasts at most 6 months; choose an earlier last day"},
		{"NoWeekdays", func(r *booking.SeriesRequest) { r.Rule.Weekdays = nil }, booking.CodeInvalidRequest, "weekdays: choose at least one day of the week"},
		{"EveryWeeksOutOfRange", func(r *booking.SeriesRequest) { r.Rule.EveryWeeks = 5 }, booking.CodeInvalidRequest, "everyWeeks: repeat every 1 to 4 weeks"},
		{"Mode", func(r *booking.SeriesRequest) { r.Mode = "SOME" }, booking.CodeInvalidRequest, "mode: must be one of ALL, FREE"},
		{"OtherOrganizationsResource", func(r *booking.SeriesRequest) { r.ResourceID = fx.RoomB }, booking.CodeResourceNotFound, "resource.id: no bookable resource " + fx.RoomB.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := b.deskWeek(booking.SeriesAll)
			tt.fn(&r)
			_, err := b.Service.CreateSeries(ctx, r)
			fx.WantCode(t, err, tt.code)
			wantWords(t, err, tt.want)
		})
	}
	if got := fx.TableCount(t, b.Bundle, "booking_series") + fx.TableCount(t, b.Bundle, "bookings"); got != 0 {
		t.Errorf("rows after refusals = %d, want 0", got)
	}
}

// TestSeriesOtherOrganization checks that another organization's person cannot see or change a series.
func TestSeriesOtherOrganization(t *testing.T) {
	t.Parallel()
	b := setupSeries(t)
	ctx := t.Context()
	sr, err := b.Service.CreateSeries(ctx, b.deskWeek(booking.SeriesAll))
	if err != nil {
		t.Fatalf("CreateSeries: %v", err)
	}
	for name, call := range map[string]func(context.Context) error{
		"Series": func(ctx context.Context) error { _, err := b.Service.Series(ctx, b.boris, sr.ID); return err },
		"CancelSeries": func(ctx context.Context) error {
			_, err := b.Service.CancelSeries(ctx, b.boris, sr.ID, nil)
			return err
		},
		"ChangeSeries": func(ctx context.Context) error {
			_, err := b.Service.ChangeSeries(ctx, b.boris, sr.ID, booking.SeriesChange{Start: 600, End: 700, Mode: booking.SeriesAll})
			return err
		},
		"AnotherEmployee": func(ctx context.Context) error { _, err := b.Service.Series(ctx, b.bob, sr.ID); return err },
	} {
		err := call(ctx)
		fx.WantCode(t, err, booking.CodeBookingNotFound)
		if got, want := err.(*booking.Error).Message, "no series "+sr.ID.String(); got != want {
			t.Errorf("%s: message = %q, want %q", name, got, want)
		}
	}
	if got := fx.RowCount(t, b.Bundle, "SELECT count(*) FROM bookings WHERE status = 'PENDING'"); got != 4 {
		t.Errorf("pending bookings = %d, want 4", got)
	}
}

package views

import (
	"context"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// TestKioskEndLabels: the last end offered is called "as long as possible" only when nothing later may be
// chosen; a late walk-up whose last choice is two hours past midnight names it by its length.
func TestKioskEndLabels(t *testing.T) {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, h, m int) time.Time { return time.Date(2026, 11, 24+day, h, m, 0, 0, madrid) }
	status := func(from, freeUntil, bookUntil time.Time) booking.PosterStatus {
		return booking.PosterStatus{
			ResourceStatus: booking.ResourceStatus{IsFree: true, FreeUntil: &freeUntil},
			State:          booking.PosterFree, Location: madrid, BookFrom: from, BookUntil: &bookUntil,
			Window: booking.Interval{Start: at(0, 0, 0), End: at(1, 0, 0)},
		}
	}
	en, es := context.Background(), lang.With(context.Background(), language.Spanish)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		st   booking.PosterStatus
		want []string
	}{
		{"Morning", en, status(at(0, 9, 0), at(1, 0, 0), at(1, 9, 0)), []string{
			"30 minutes, until 09:30", "1 hour, until 10:00", "2 hours, until 11:00", "15 hours, until midnight"}},
		{"LateEvening", en, status(at(0, 23, 20), at(1, 0, 0), at(1, 8, 0)), []string{
			"30 minutes, until 23:50", "1 hour, until Wed 25 Nov 00:20", "2 hours, until Wed 25 Nov 01:20"}},
		{"UntilTheNextBooking", en, status(at(0, 9, 0), at(0, 10, 0), at(0, 10, 0)), []string{
			"30 minutes, until 09:30", "As long as possible, until 10:00"}},
		{"MorningInSpanish", es, status(at(0, 9, 0), at(1, 0, 0), at(1, 9, 0)), []string{
			"30 minutos, hasta las 09:30", "1 hora, hasta las 10:00", "2 horas, hasta las 11:00", "15 horas, hasta la medianoche"}},
		{"LateEveningInSpanish", es, status(at(0, 23, 20), at(1, 0, 0), at(1, 8, 0)), []string{
			"30 minutos, hasta las 23:50", "1 hora, hasta el mié 25 nov a las 00:20", "2 horas, hasta el mié 25 nov a la 01:20"}},
		{"UntilTheNextBookingInSpanish", es, status(at(0, 9, 0), at(0, 10, 0), at(0, 10, 0)), []string{
			"30 minutos, hasta las 09:30", "Lo máximo posible, hasta las 10:00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ends := tc.st.EndChoices()
			var got []string
			for i, end := range ends {
				got = append(got, kioskEndLabel(tc.ctx, tc.st, end, i == len(ends)-1))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("labels = %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("label %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestKioskWords: the kiosk's and the poster page's sentences, in English as booking writes them and in
// Spanish with its own dates, articles and plurals.
func TestKioskWords(t *testing.T) {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, h, m int) time.Time { return time.Date(2026, 11, 23+day, h, m, 0, 0, madrid) }
	en, es := context.Background(), lang.With(context.Background(), language.Spanish)
	now := at(0, 9, 0)

	for _, c := range []struct{ got, want string }{
		{kioskDuration(en, 150*time.Minute), "2 hours 30 minutes"},
		{kioskDuration(es, 150*time.Minute), "2 horas y 30 minutos"},
		{kioskDuration(es, 61*time.Minute), "1 hora y 1 minuto"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}

	freeUntil, bookUntil := at(0, 20, 0), at(0, 13, 0)
	st := booking.PosterStatus{
		ResourceStatus: booking.ResourceStatus{IsFree: true, FreeUntil: &freeUntil},
		State:          booking.PosterFree, Location: madrid, Now: now, BookFrom: now, BookUntil: &bookUntil,
		Window: booking.Interval{Start: at(0, 8, 0), End: at(0, 20, 0)},
	}
	st.Resource.Rule.MaximumDuration = 4 * time.Hour
	viewer := booking.User{Name: "Lucía", Surname: "Fernández"}
	busyUntil := at(0, 10, 30)
	busy := st
	busy.State, busy.BusyUntil, busy.BookedBy = booking.PosterBusy, &busyUntil, &booking.User{Name: "bob", Surname: "Baker"}
	closed := st
	closed.State = booking.PosterClosed
	for _, c := range []struct{ got, want string }{
		{PosterStatusWords(en, st), "Free until 20:00 Madrid time"},
		{PosterStatusWords(es, st), "Libre hasta las 20:00 hora de Madrid"},
		{PosterStatusWords(en, busy), "Busy until 10:30 Madrid time — booked by bob Baker"},
		{PosterStatusWords(es, busy), "Ocupado hasta las 10:30 hora de Madrid — reservado por bob Baker"},
		{PosterStatusWords(en, closed), "Closed now: it can be booked from 08:00 to 20:00 Madrid time"},
		{PosterStatusWords(es, closed), "Cerrado ahora: se puede reservar desde las 08:00 hasta las 20:00 hora de Madrid"},
		{posterBookHint(en, st, viewer), "For you, Lucía Fernández, from 09:00; you are checked in at once. It is free until 20:00, but bookings here last at most 4 hours."},
		{posterBookHint(es, st, viewer), "Para ti, Lucía Fernández, desde las 09:00; tu llegada se registra en el acto. Está libre hasta las 20:00, pero aquí las reservas duran como máximo 4 horas."},
		{PosterOwnWords(es, st, booking.OwnBooking{Start: at(0, 12, 0), End: at(0, 13, 0), Status: booking.StatusPending,
			CheckIn: booking.Interval{Start: at(0, 11, 50), End: at(0, 12, 15)}}), "Tu reserva, desde las 12:00 hasta las 13:00 — registra la llegada desde las 11:50"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}

	b := booking.Booking{Start: at(0, 9, 0), End: at(0, 11, 0), Organizer: booking.User{Name: "bob", Surname: "Baker"}}
	b.Resource.Name = "Goya"
	b.Resource.Floor.Building.Timezone = "Europe/Madrid"
	for _, c := range []struct {
		got  KioskOutcome
		want string
	}{
		{BookedOutcome(en, b, false), "Booked for bob Baker until 11:00 Madrid time."},
		{BookedOutcome(es, b, false), "Reservado para bob Baker hasta las 11:00 hora de Madrid."},
		{CheckedInOutcome(en, b, false), "bob Baker is checked in to Goya until 11:00 Madrid time."},
		{CheckedInOutcome(es, b, true), "Se ha registrado tu llegada a Goya, con reserva hasta las 11:00 hora de Madrid."},
		{BookedCheckedInOutcome(es, b), "Reservado para ti hasta las 11:00 hora de Madrid, con la llegada ya registrada."},
	} {
		if c.got.Message != c.want {
			t.Errorf("outcome %q, want %q", c.got.Message, c.want)
		}
	}
}

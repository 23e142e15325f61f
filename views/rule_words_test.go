package views

import (
	"context"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

const (
	ruleHour = time.Hour
	ruleMin  = time.Minute
	ruleDay  = 24 * time.Hour
)

// ruleExamples are rules of every shape the sentences tell apart.
func ruleExamples() []booking.ResourceRule {
	room := booking.ResourceRule{StartTime: 8 * ruleHour, EndTime: 20 * ruleHour, MaximumDuration: 4 * ruleHour,
		MaximumAdvance: 30 * ruleDay, AdvanceCheckIn: 15 * ruleMin, ExpirationMargin: 15 * ruleMin, RequiresApproval: true}
	onlyBefore, onlyAfter, mixed := room, room, room
	onlyBefore.ExpirationMargin, onlyBefore.RequiresApproval = 0, false
	onlyAfter.AdvanceCheckIn = 0
	mixed.MaximumDuration, mixed.MaximumAdvance, mixed.AdvanceCheckIn = 90*ruleMin, 36*ruleHour, ruleHour
	return []booking.ResourceRule{
		room, onlyBefore, onlyAfter, mixed, {},
		{StartTime: 7*ruleHour + 30*ruleMin, EndTime: 24 * ruleHour},
		{StartTime: 9 * ruleHour},
		{AllDayBookings: true, AllDayBookingsCheckIn: 11 * ruleHour, MaximumAdvance: ruleDay},
		{AllDayBookings: true, MaximumAdvance: 2*ruleDay + 3*ruleHour, MaximumDuration: 45 * time.Second},
	}
}

// In English the console's rule sentence is the domain's, word for word.
func TestRuleSentenceInEnglishIsTheDomains(t *testing.T) {
	t.Parallel()
	en := lang.With(context.Background(), language.English)
	for _, zones := range [][]string{nil, {"Europe/Madrid"}, {"Europe/Madrid", "America/New_York", "Europe/Madrid"}} {
		for _, r := range ruleExamples() {
			if got, want := RuleSentence(en, r, zones), booking.RuleSentence(r, zones); got != want {
				t.Errorf("RuleSentence(%+v, %v) =\n %q\nwant\n %q", r, zones, got, want)
			}
		}
	}
	for _, d := range []time.Duration{0, 30 * time.Second, ruleMin, 15 * ruleMin, ruleHour, 90 * ruleMin, 36 * ruleHour,
		ruleDay, ruleDay + 90*ruleMin, 2 * ruleDay, 2*ruleDay + 3*ruleHour + 5*ruleMin, 30 * ruleDay} {
		if got, want := DurationWords(en, d), booking.DurationWords(d); got != want {
			t.Errorf("DurationWords(%v) = %q, want %q", d, got, want)
		}
	}
}

// The rule's words on a resource's page, in English as they were and in Spanish.
func TestRuleWords(t *testing.T) {
	t.Parallel()
	en := lang.With(context.Background(), language.English)
	es := lang.With(context.Background(), language.Spanish)
	room := ruleExamples()[0]
	room.AllDayBookings = true
	anyTime := booking.ResourceRule{EndTime: 24 * ruleHour, MaximumAdvance: 7 * ruleDay}
	for _, tc := range []struct {
		name       string
		ctx        context.Context
		r          booking.ResourceRule
		zone       string
		words, chk string
	}{
		{"English", en, room, "Madrid time",
			"Bookable 08:00–20:00 Madrid time, up to 4 h, up to 30 days ahead, all-day bookings allowed, needs approval",
			"Check in from 15 min before the start to 15 min after the start, or the booking is released"},
		{"EnglishAnyTime", en, anyTime, "Madrid time",
			"Bookable at any time of day (Madrid time), up to 7 days ahead", "Check in from at the start until the end"},
		{"Spanish", es, room, "hora de Madrid",
			"Reservable de 08:00 a 20:00 (hora de Madrid), máximo 4 h, hasta 30 días de antelación, se permiten reservas de día completo, requiere aprobación",
			"Registra la llegada desde 15 min antes del inicio hasta 15 min después; si no, la reserva se libera"},
		{"SpanishAnyTime", es, anyTime, "hora de Madrid",
			"Reservable a cualquier hora del día (hora de Madrid), hasta 7 días de antelación", "Registra la llegada desde el inicio hasta el final"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RuleWords(tc.ctx, tc.r, tc.zone); got != tc.words {
				t.Errorf("RuleWords =\n %q\nwant\n %q", got, tc.words)
			}
			if got := CheckInWords(tc.ctx, tc.r); got != tc.chk {
				t.Errorf("CheckInWords =\n %q\nwant\n %q", got, tc.chk)
			}
		})
	}
}

// In Spanish the rule sentence and durations are in Spanish words and forms.
func TestRuleSentenceInSpanish(t *testing.T) {
	t.Parallel()
	es := lang.With(context.Background(), language.Spanish)
	rules := ruleExamples()
	for _, tc := range []struct {
		r     booking.ResourceRule
		zones []string
		want  string
	}{
		{rules[0], []string{"Europe/Madrid"},
			"Reservable de 08:00 a 20:00 hora de Madrid, máximo 4 h, hasta 30 días de antelación; registro de llegada desde 15 min antes hasta 15 min después del inicio; requiere aprobación."},
		{rules[4], nil, "Reservable a cualquier hora, sin límite de duración, sin límite de antelación; registro de llegada desde el inicio hasta el final."},
		{rules[7], []string{"Europe/Madrid", "America/New_York"},
			"Reservable a cualquier hora, sin límite de duración, hasta 1 día de antelación; registro de llegada desde el inicio hasta el final; se permiten reservas de día completo, con registro de llegada hasta las 11:00."},
		{rules[1], []string{"Europe/Madrid", "America/New_York"},
			"Reservable de 08:00 a 20:00 hora local (Madrid, New York), máximo 4 h, hasta 30 días de antelación; registro de llegada desde 15 min antes del inicio hasta el final."},
	} {
		if got := RuleSentence(es, tc.r, tc.zones); got != tc.want {
			t.Errorf("RuleSentence =\n %q\nwant\n %q", got, tc.want)
		}
	}
	for d, want := range map[time.Duration]string{ruleDay: "1 día", 2*ruleDay + 3*ruleHour: "2 días 3 h", 90 * ruleMin: "1 h 30 min"} {
		if got := DurationWords(es, d); got != want {
			t.Errorf("DurationWords(%v) = %q, want %q", d, got, want)
		}
	}
}

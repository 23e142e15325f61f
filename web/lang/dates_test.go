package lang_test

import (
	"context"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/lang"
)

func TestDates(t *testing.T) {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	es := lang.With(context.Background(), language.Spanish)
	en := lang.With(context.Background(), language.English)
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, madrid)
	mon := time.Date(2026, 11, 30, 9, 0, 0, 0, madrid)
	next := time.Date(2027, 1, 5, 9, 0, 0, 0, madrid)
	for _, c := range []struct{ got, want string }{
		{lang.Day(en, mon, now), "Mon 30 Nov"},
		{lang.Day(es, mon, now), "lun 30 nov"},
		{lang.Day(es, next, now), "mar 5 ene 2027"},
		{lang.DayLong(en, mon), "Monday 30 November 2026"},
		{lang.DayLong(es, mon), "lunes, 30 de noviembre de 2026"},
		{lang.Weekday(es, time.Wednesday), "mié"},
		{lang.Span(es, mon, mon.Add(time.Hour), now), "lun 30 nov, 09:00–10:00"},
		{lang.Span(en, mon, mon.Add(26*time.Hour), now), "Mon 30 Nov 09:00 – Tue 1 Dec 11:00"},
		{lang.Zone(es, "America/New_York"), "hora de New York"},
		{lang.Zone(en, "Europe/Madrid"), "Madrid time"},
		{lang.Zone(es, "UTC"), "UTC"},
		{lang.Moment(es, now.Add(time.Hour), "Europe/Madrid", now), "11:00 hora de Madrid"},
		{lang.Moment(en, mon, "Europe/Madrid", now), "Mon 30 Nov 09:00 Madrid time"},
		{lang.Moment(en, mon, "America/New_York", now), "Mon 30 Nov 03:00 New York time"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

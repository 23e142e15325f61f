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

// TestIntervals: an interval and a closure's time in the building's zone, in both languages: one day, a
// day closed by its midnight (24:00), two days, whole days by their dates, another year's date, and a
// night across the spring clock change in Madrid.
func TestIntervals(t *testing.T) {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, h, m int) time.Time { return time.Date(2026, 11, 23+day, h, m, 0, 0, madrid) }
	es := lang.With(context.Background(), language.Spanish)
	en := lang.With(context.Background(), language.English)
	now := at(0, 9, 0)
	spring := time.Date(2027, 3, 28, 0, 0, 0, 0, madrid) // 02:00 does not exist that night
	for _, c := range []struct{ got, want string }{
		{lang.Interval(en, at(0, 9, 0), at(0, 18, 0), now), "from 09:00 to 18:00 Madrid time on Mon 23 Nov"},
		{lang.Interval(es, at(0, 9, 0), at(0, 18, 0), now), "de 09:00 a 18:00 hora de Madrid el lun 23 nov"},
		{lang.Interval(en, at(0, 20, 0), at(1, 0, 0), now), "from 20:00 to 24:00 Madrid time on Mon 23 Nov"},
		{lang.Interval(en, at(0, 20, 0), at(1, 8, 0), now), "from Mon 23 Nov 20:00 to Tue 24 Nov 08:00 Madrid time"},
		{lang.Interval(es, at(0, 20, 0), at(1, 8, 0), now), "del lun 23 nov a las 20:00 al mar 24 nov a las 08:00 hora de Madrid"},
		{lang.Interval(es, at(40, 8, 0), at(40, 9, 0), now), "de 08:00 a 09:00 hora de Madrid el sáb 2 ene 2027"},
		{lang.Interval(en, at(0, 9, 0).UTC(), at(0, 10, 0).UTC(), now), "from 08:00 to 09:00 UTC on Mon 23 Nov"},
		{lang.Period(en, at(0, 0, 0), at(1, 0, 0), now), "on Mon 23 Nov"},
		{lang.Period(es, at(0, 0, 0), at(1, 0, 0), now), "el lun 23 nov"},
		{lang.Period(en, at(0, 0, 0), at(2, 0, 0), now), "from Mon 23 Nov to Tue 24 Nov"},
		{lang.Period(es, at(0, 0, 0), at(2, 0, 0), now), "del lun 23 nov al mar 24 nov"},
		{lang.Period(es, at(40, 0, 0), at(41, 0, 0), now), "el sáb 2 ene 2027"},
		{lang.Period(en, spring, spring.AddDate(0, 0, 1), now), "on Sun 28 Mar 2027"},
		{lang.Period(en, at(0, 0, 0), at(0, 12, 0), now), "from 00:00 to 12:00 Madrid time on Mon 23 Nov"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

package calendar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/workspacebooking/booking/web/notify/calendar"
	"github.com/workspacebooking/booking/web/notify/calendar/caltest"
)

// TestICALJSReads: ical.js reads back every property given, times as the same instants, from
// invitations and feeds.
func TestICALJSReads(t *testing.T) {
	t.Parallel()
	check := func(t *testing.T, want caltest.Doc, doc []byte) {
		t.Helper()
		if d := cmp.Diff(want, caltest.Read(t, doc), cmpopts.EquateEmpty()); d != "" {
			t.Errorf("ical.js read (-want +got):\n%s", d)
		}
	}
	t.Run("Request", func(t *testing.T) {
		t.Parallel()
		ev := meeting(t)
		want := published("", []string{"Europe/Madrid"}, ev)
		want.Method = "REQUEST"
		check(t, want, invite(t, calendar.Request, ev))
	})
	t.Run("Cancel", func(t *testing.T) {
		t.Parallel()
		ev := meeting(t)
		ev.Sequence, ev.Transparent, ev.URL = 4, true, ""
		want := published("", []string{"Europe/Madrid"}, ev)
		want.Method, want.Events[0].Status = "CANCEL", "CANCELLED"
		check(t, want, invite(t, calendar.Cancel, ev))
	})
	t.Run("FeedInTwoZonesAndUTC", func(t *testing.T) {
		t.Parallel()
		madrid, ny, utc := meeting(t), in(t, "America/New_York", 2026, time.November, 2), meeting(t)
		ny.UID, ny.Status, ny.Description = "ny@booking.example", "TENTATIVE", ""
		utc.UID, utc.Zone = "utc@booking.example", nil
		utc.Start, utc.End = time.Date(2027, 1, 4, 23, 0, 0, 0, time.UTC), time.Date(2027, 1, 5, 1, 0, 0, 0, time.UTC)
		check(t, published("Ana's bookings", []string{"Europe/Madrid", "America/New_York"}, madrid, ny, utc),
			feed(t, "Ana's bookings", madrid, ny, utc))
	})
	t.Run("Texts", func(t *testing.T) {
		t.Parallel()
		ev := meeting(t)
		ev.Summary = `Réunion: "Q3", budget; plan \ review 🎉`
		ev.Description = "Agenda:\n1. Café, croissants; 🥐\n2. Ñandú \\n is not a newline\n\nThanks,\nAna"
		ev.Location = "Edificio Añil, Planta 2; Sala \"Tajo\", Madrid"
		ev.URL = "https://meet.example/j/123?pwd=a,b;c&x=%C3%B1"
		ev.Organizer.Name = "Reservas: Añil, HQ"
		ev.Attendees = []calendar.Person{
			{Name: "Doe, Jane", Email: "jane@acme.test"},
			{Name: "José Núñez 🎉", Email: "jose@acme.test"},
			{Name: "Smith; John: Jr", Email: "john+desk@acme.test"},
		}
		check(t, published("Café, ñ; \\ 🎉", []string{"Europe/Madrid"}, ev), feed(t, "Café, ñ; \\ 🎉", ev))
	})
	t.Run("QuotesInNames", func(t *testing.T) {
		t.Parallel()
		ev := meeting(t)
		ev.Attendees = []calendar.Person{{Name: `Jane "JJ" Doe, PhD`, Email: "jane@acme.test"}}
		want := published("", []string{"Europe/Madrid"}, ev)
		want.Method, want.Events[0].Attendees[0].Name = "REQUEST", "Jane 'JJ' Doe, PhD"
		check(t, want, invite(t, calendar.Request, ev))
	})
	t.Run("LongSummary", func(t *testing.T) {
		t.Parallel()
		ev := meeting(t)
		ev.Summary = strings.Repeat("Sala añil 🎉, xy", 20)
		if n := len([]rune(ev.Summary)); n != 300 {
			t.Fatalf("summary of %d characters, want 300", n)
		}
		want := published("", []string{"Europe/Madrid"}, ev)
		want.Method = "REQUEST"
		check(t, want, invite(t, calendar.Request, ev))
	})
	t.Run("EmptyFeed", func(t *testing.T) {
		t.Parallel()
		check(t, published("Nothing booked", nil), feed(t, "Nothing booked"))
	})
}

// TestICALJSReadsTimesAroundTheChanges: ical.js, using only the VTIMEZONEs written, reads each time
// around the changes of offset in Madrid and New York as the instant given, including a local time
// the clocks show twice.
func TestICALJSReadsTimesAroundTheChanges(t *testing.T) {
	t.Parallel()
	madrid, ny := zone(t, "Europe/Madrid"), zone(t, "America/New_York")
	starts := []time.Time{
		time.Date(2026, 3, 28, 10, 0, 0, 0, madrid),
		time.Date(2026, 3, 29, 1, 30, 0, 0, madrid),
		time.Date(2026, 3, 29, 3, 30, 0, 0, madrid),
		time.Date(2026, 10, 24, 10, 0, 0, 0, madrid),
		time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC), // 02:30 CEST
		time.Date(2026, 10, 25, 1, 30, 0, 0, time.UTC), // 02:30 CET, the second 02:30
		time.Date(2026, 10, 25, 10, 0, 0, 0, madrid),
		time.Date(2026, 3, 7, 10, 0, 0, 0, ny),
		time.Date(2026, 3, 8, 1, 30, 0, 0, ny),
		time.Date(2026, 3, 8, 3, 30, 0, 0, ny),
		time.Date(2026, 10, 31, 10, 0, 0, 0, ny),
		time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), // 01:30 EDT
		time.Date(2026, 11, 1, 6, 30, 0, 0, time.UTC), // 01:30 EST, the second 01:30
		time.Date(2026, 11, 1, 10, 0, 0, 0, ny),
	}
	var events []calendar.Event
	var want [][2]string
	for i, s := range starts {
		ev := meeting(t)
		ev.UID = strings.Repeat("x", i+1)
		ev.Start, ev.End = s, s.Add(30*time.Minute)
		if s.Location() == ny || s.Location() == time.UTC && i > 7 {
			ev.Zone = ny
		}
		events = append(events, ev)
		want = append(want, [2]string{instant(ev.Start), instant(ev.End)})
	}
	var got [][2]string
	for _, e := range caltest.Read(t, feed(t, "changes", events...)).Events {
		got = append(got, [2]string{e.Start, e.End})
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ical.js read instants (-want +got):\n%s", d)
	}
}

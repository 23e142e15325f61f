package calendar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/workspacebooking/booking/web/notify/calendar"
)

// observance is a STANDARD or DAYLIGHT component of a VTIMEZONE, read from the output.
type observance struct{ Kind, Start, From, To, Name string }

// observances reads the observances of the VTIMEZONE with tzid in doc, in order.
func observances(t *testing.T, doc []byte, tzid string) []observance {
	t.Helper()
	var out []observance
	for _, z := range components(doc, "VTIMEZONE") {
		if z[0] != "TZID:"+tzid {
			continue
		}
		var o *observance
		for _, l := range z[1:] {
			name, value, _ := strings.Cut(l, ":")
			switch name {
			case "BEGIN":
				out = append(out, observance{Kind: value})
				o = &out[len(out)-1]
			case "DTSTART":
				o.Start = value
			case "TZOFFSETFROM":
				o.From = value
			case "TZOFFSETTO":
				o.To = value
			case "TZNAME":
				o.Name = value
			case "END":
			default:
				t.Errorf("unexpected line in VTIMEZONE: %q", l)
			}
		}
		return out
	}
	t.Fatalf("no VTIMEZONE %s in\n%s", tzid, doc)
	return nil
}

// in returns meeting moved to the zone name, on the day given, from 09:00 to 10:00.
func in(t *testing.T, name string, year int, month time.Month, day int) calendar.Event {
	ev := meeting(t)
	ev.Zone = zone(t, name)
	ev.Start = time.Date(year, month, day, 9, 0, 0, 0, ev.Zone)
	ev.End = ev.Start.Add(time.Hour)
	return ev
}

// TestTimezoneOffsets: the VTIMEZONE has the right offsets, names and local start times around the
// March and October/November changes, from a year before the event to a year after.
func TestTimezoneOffsets(t *testing.T) {
	t.Parallel()
	std := func(start, from, to, name string) observance { return observance{"STANDARD", start, from, to, name} }
	dst := func(start, from, to, name string) observance { return observance{"DAYLIGHT", start, from, to, name} }
	for _, tc := range []struct {
		name string
		ev   calendar.Event
		want []observance
	}{
		{"MadridInWinter", in(t, "Europe/Madrid", 2026, time.January, 15), []observance{
			std("20241027T030000", "+0200", "+0100", "CET"), // in force on 2025-01-15
			dst("20250330T020000", "+0100", "+0200", "CEST"),
			std("20251026T030000", "+0200", "+0100", "CET"),
			dst("20260329T020000", "+0100", "+0200", "CEST"),
			std("20261025T030000", "+0200", "+0100", "CET"),
		}},
		{"NewYorkInWinter", in(t, "America/New_York", 2026, time.December, 1), []observance{
			std("20251102T020000", "-0400", "-0500", "EST"), // in force on 2025-12-01
			dst("20260308T020000", "-0500", "-0400", "EDT"),
			std("20261101T020000", "-0400", "-0500", "EST"),
			dst("20270314T020000", "-0500", "-0400", "EDT"),
			std("20271107T020000", "-0400", "-0500", "EST"),
		}},
		{"TokyoHasNoChanges", in(t, "Asia/Tokyo", 2026, time.June, 1), []observance{
			std("19510909T010000", "+1000", "+0900", "JST"),
		}},
		{"KolkataHasHalfHours", in(t, "Asia/Kolkata", 2026, time.June, 1), []observance{
			std("19451015T000000", "+0630", "+0530", "IST"),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := invite(t, calendar.Request, tc.ev)
			got := observances(t, doc, tc.ev.Zone.String())
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestTimesInUTC: without a zone, or in UTC, DTSTART and DTEND are UTC with a Z and no TZID, and
// there is no VTIMEZONE; DTSTAMP is UTC whatever the zone of Stamp.
func TestTimesInUTC(t *testing.T) {
	t.Parallel()
	for name, z := range map[string]*time.Location{
		"Nil": nil, "UTC": time.UTC, "FixedUTC": time.FixedZone("UTC", 0),
	} {
		t.Run(name, func(t *testing.T) {
			ev := meeting(t)
			ev.Stamp = ev.Stamp.In(zone(t, "Asia/Tokyo"))
			ev.Zone = z
			doc := invite(t, calendar.Request, ev)
			got := []string{prop(t, doc, "DTSTAMP"), prop(t, doc, "DTSTART"), prop(t, doc, "DTEND")}
			want := []string{"DTSTAMP:20260520T081500Z", "DTSTART:20260601T070000Z", "DTEND:20260601T083000Z"}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if n := len(components(doc, "VTIMEZONE")); n != 0 {
				t.Errorf("%d VTIMEZONE, want none", n)
			}
		})
	}
}

// TestTimezoneCoversEveryEvent: a feed's VTIMEZONE runs from a year before its zone's first event
// to a year after the last, whatever their order.
func TestTimezoneCoversEveryEvent(t *testing.T) {
	t.Parallel()
	late, early := in(t, "Europe/Madrid", 2028, time.February, 1), in(t, "Europe/Madrid", 2026, time.June, 1)
	got := observances(t, feed(t, "x", late, early), "Europe/Madrid")
	first := observance{"DAYLIGHT", "20250330T020000", "+0100", "+0200", "CEST"}
	last := observance{"STANDARD", "20281029T030000", "+0200", "+0100", "CET"}
	if len(got) != 8 || got[0] != first || got[7] != last {
		t.Errorf("got %d observances from %v to %v, want 8 from %v to %v", len(got), got[0], got[len(got)-1], first, last)
	}
}

// TestAmbiguousLocalTime: on the night clocks go back, 02:00 to 02:59 happen twice in Madrid. RFC
// 5545 reads such a local time as the first, ical.js as the second, so both are written in UTC; the
// times next to them keep their TZID.
func TestAmbiguousLocalTime(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, dtstart, dtend string
		start, end           time.Time
	}{
		{"Before", "DTSTART;TZID=Europe/Madrid:20261025T013000", "DTEND;TZID=Europe/Madrid:20261025T015959",
			time.Date(2026, 10, 24, 23, 30, 0, 0, time.UTC), time.Date(2026, 10, 24, 23, 59, 59, 0, time.UTC)},
		{"First", "DTSTART:20261025T000000Z", "DTEND:20261025T005959Z",
			time.Date(2026, 10, 25, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 25, 0, 59, 59, 0, time.UTC)},
		{"Second", "DTSTART:20261025T010000Z", "DTEND:20261025T015959Z",
			time.Date(2026, 10, 25, 1, 0, 0, 0, time.UTC), time.Date(2026, 10, 25, 1, 59, 59, 0, time.UTC)},
		{"After", "DTSTART;TZID=Europe/Madrid:20261025T030000", "DTEND;TZID=Europe/Madrid:20261025T040000",
			time.Date(2026, 10, 25, 2, 0, 0, 0, time.UTC), time.Date(2026, 10, 25, 3, 0, 0, 0, time.UTC)},
		{"SpringForwardIsNot", "DTSTART;TZID=Europe/Madrid:20260329T015959", "DTEND;TZID=Europe/Madrid:20260329T030000",
			time.Date(2026, 3, 29, 0, 59, 59, 0, time.UTC), time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := meeting(t)
			ev.Start, ev.End = tc.start, tc.end
			doc := invite(t, calendar.Request, ev)
			got := []string{prop(t, doc, "DTSTART"), prop(t, doc, "DTEND")}
			if d := cmp.Diff([]string{tc.dtstart, tc.dtend}, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

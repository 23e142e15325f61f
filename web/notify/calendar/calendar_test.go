package calendar_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/workspacebooking/booking/web/notify/calendar"
)

// madridSummer is the VTIMEZONE of Europe/Madrid for events in June 2026: the offset in force a year
// before, then each change up to a year after.
var madridSummer = []string{
	"BEGIN:VTIMEZONE",
	"TZID:Europe/Madrid",
	"BEGIN:DAYLIGHT", "DTSTART:20250330T020000", "TZNAME:CEST", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT",
	"BEGIN:STANDARD", "DTSTART:20251026T030000", "TZNAME:CET", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
	"BEGIN:DAYLIGHT", "DTSTART:20260329T020000", "TZNAME:CEST", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT",
	"BEGIN:STANDARD", "DTSTART:20261025T030000", "TZNAME:CET", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
	"BEGIN:DAYLIGHT", "DTSTART:20270328T020000", "TZNAME:CEST", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT",
	"END:VTIMEZONE",
}

// meetingEvent is the VEVENT of meeting, with the status given.
func meetingEvent(status string) []string {
	return []string{
		"BEGIN:VEVENT",
		"ATTENDEE;CN=Ana Ruiz;PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:ana@acme.test",
		`ATTENDEE;CN="Doe, Jane";PARTSTAT=NEEDS-ACTION;ROLE=REQ-PARTICIPANT;RSVP=FALSE:mailto:jane@acme.test`,
		"DESCRIPTION:Quarterly planning",
		"DTEND;TZID=Europe/Madrid:20260601T103000",
		"DTSTAMP:20260520T081500Z",
		"DTSTART;TZID=Europe/Madrid:20260601T090000",
		`LOCATION:HQ\, Floor 2\, Room Tajo`,
		"ORGANIZER;CN=Workspace Booking:mailto:noreply@booking.example",
		"SEQUENCE:3",
		"STATUS:" + status,
		"SUMMARY:Planning",
		"TRANSP:OPAQUE",
		"UID:4b0c9c1e-2f4f-4d3c-9a55-0e0b7a1f6c21@booking.example",
		"URL:https://meet.example/abc",
		"END:VEVENT",
	}
}

// document is a VCALENDAR with the properties head, then the components.
func document(head []string, components ...[]string) []string {
	out := append([]string{"BEGIN:VCALENDAR"}, head...)
	for _, c := range components {
		out = append(out, c...)
	}
	return append(out, "END:VCALENDAR")
}

func TestInvite(t *testing.T) {
	t.Parallel()
	head := func(method string) []string {
		return []string{"CALSCALE:GREGORIAN", "METHOD:" + method, "PRODID:-//Workspace Booking//Booking//EN", "VERSION:2.0"}
	}
	t.Run("Request", func(t *testing.T) {
		got := unfold(invite(t, calendar.Request, meeting(t)))
		want := document(head("REQUEST"), madridSummer, meetingEvent("CONFIRMED"))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("Invite(Request) (-want +got):\n%s", d)
		}
	})
	t.Run("CancelIsCancelledWhateverTheStatus", func(t *testing.T) {
		ev := meeting(t)
		ev.Status = "CONFIRMED"
		got := unfold(invite(t, calendar.Cancel, ev))
		want := document(head("CANCEL"), madridSummer, meetingEvent("CANCELLED"))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("Invite(Cancel) (-want +got):\n%s", d)
		}
	})
	t.Run("SequenceIsAPlainInteger", func(t *testing.T) {
		for _, n := range []int{0, 7, 1234} {
			ev := meeting(t)
			ev.Sequence = n
			if got, want := prop(t, invite(t, calendar.Request, ev), "SEQUENCE"), fmt.Sprintf("SEQUENCE:%d", n); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		}
	})
	t.Run("DeskIsTransparentWithoutDescriptionOrURL", func(t *testing.T) {
		ev := meeting(t)
		ev.Transparent, ev.Description, ev.URL, ev.Status = true, "", "", "TENTATIVE"
		doc := invite(t, calendar.Request, ev)
		got := []string{prop(t, doc, "TRANSP"), prop(t, doc, "STATUS")}
		if d := cmp.Diff([]string{"TRANSP:TRANSPARENT", "STATUS:TENTATIVE"}, got); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
		if l := append(props(doc, "DESCRIPTION"), props(doc, "URL")...); len(l) != 0 {
			t.Errorf("empty Description and URL wrote %q", l)
		}
	})
}

func TestFeed(t *testing.T) {
	t.Parallel()
	t.Run("OneTimezonePerZoneEventsInOrder", func(t *testing.T) {
		ny := zone(t, "America/New_York")
		first, second, third := meeting(t), meeting(t), meeting(t)
		second.UID, second.Zone = "b@booking.example", ny
		second.Start, second.End = time.Date(2026, 7, 1, 9, 0, 0, 0, ny), time.Date(2026, 7, 1, 10, 0, 0, 0, ny)
		third.UID = "c@booking.example"
		third.Start, third.End = third.Start.AddDate(0, 0, 1), third.End.AddDate(0, 0, 1)
		doc := feed(t, "Ana's bookings", first, second, third)

		var got []string
		for _, l := range unfold(doc) {
			if strings.HasPrefix(l, "TZID:") || strings.HasPrefix(l, "UID:") || strings.HasPrefix(l, "X-WR-CALNAME:") {
				got = append(got, l)
			}
		}
		want := []string{"X-WR-CALNAME:Ana's bookings", "TZID:Europe/Madrid", "TZID:America/New_York",
			"UID:" + first.UID, "UID:b@booking.example", "UID:c@booking.example"}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
		if l := props(doc, "METHOD"); len(l) != 0 {
			t.Errorf("a feed has %q", l)
		}
	})
	t.Run("Empty", func(t *testing.T) {
		got := string(feed(t, "Nothing booked"))
		want := crlf("BEGIN:VCALENDAR", "CALSCALE:GREGORIAN", "PRODID:-//Workspace Booking//Booking//EN",
			"VERSION:2.0", "X-WR-CALNAME:Nothing booked", "END:VCALENDAR")
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("(-want +got):\n%s", d)
		}
	})
}

func TestContentType(t *testing.T) {
	t.Parallel()
	for method, want := range map[calendar.Method]string{
		calendar.Request: "text/calendar; method=REQUEST; charset=UTF-8",
		calendar.Cancel:  "text/calendar; method=CANCEL; charset=UTF-8",
	} {
		if got := calendar.ContentType(method); got != want {
			t.Errorf("ContentType(%s) = %q, want %q", method, got, want)
		}
	}
}

// TestRefused: Invite and Feed refuse what would make a wrong or unreadable document.
func TestRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		method calendar.Method
		change func(*calendar.Event)
	}{
		{"UnknownMethod", "PUBLISH", func(*calendar.Event) {}},
		{"NoUID", calendar.Request, func(e *calendar.Event) { e.UID = "" }},
		{"NegativeSequence", calendar.Request, func(e *calendar.Event) { e.Sequence = -1 }},
		{"NoStamp", calendar.Request, func(e *calendar.Event) { e.Stamp = time.Time{} }},
		{"NoStart", calendar.Request, func(e *calendar.Event) { e.Start = time.Time{} }},
		{"EndAtStart", calendar.Request, func(e *calendar.Event) { e.End = e.Start }},
		{"EndBeforeStart", calendar.Request, func(e *calendar.Event) { e.End = e.Start.Add(-time.Hour) }},
		{"UnknownStatus", calendar.Request, func(e *calendar.Event) { e.Status = "BOOKED" }},
		{"NoStatus", calendar.Request, func(e *calendar.Event) { e.Status = "" }},
		{"RelativeURL", calendar.Request, func(e *calendar.Event) { e.URL = "/meet/abc" }},
		{"URLWithSpaceInQuery", calendar.Request, func(e *calendar.Event) { e.URL = "https://m.example/?a=b c" }},
		{"NoOrganizer", calendar.Request, func(e *calendar.Event) { e.Organizer = calendar.Person{Name: "X"} }},
		{"BadOrganizerEmail", calendar.Request, func(e *calendar.Event) { e.Organizer.Email = "no-at-sign" }},
		{"NoAttendee", calendar.Request, func(e *calendar.Event) { e.Attendees = nil }},
		{"AttendeeEmailWithLF", calendar.Request, func(e *calendar.Event) { e.Attendees[0].Email = "a@b\n.test" }},
		{"AttendeeEmailWithQuote", calendar.Request, func(e *calendar.Event) { e.Attendees[0].Email = `"a b"@c.test` }},
		{"RequestWithoutSummary", calendar.Request, func(e *calendar.Event) { e.Summary = "" }},
		{"ZoneWithoutName", calendar.Request, func(e *calendar.Event) { e.Zone = time.FixedZone("", 3600) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := meeting(t)
			tc.change(&ev)
			if doc, err := calendar.Invite(tc.method, ev); err == nil {
				t.Errorf("Invite gave no error:\n%s", doc)
			}
		})
	}
	t.Run("FeedRefusesABadEvent", func(t *testing.T) {
		bad := meeting(t)
		bad.End = bad.Start
		if _, err := calendar.Feed("x", []calendar.Event{meeting(t), bad}); err == nil ||
			!strings.Contains(err.Error(), "event 1") {
			t.Errorf("Feed error = %v, want one naming event 1", err)
		}
	})
}

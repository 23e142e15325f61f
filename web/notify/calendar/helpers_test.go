package calendar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/notify/calendar"
)

// zone loads a zone of the tz database or fails the test.
func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	z, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// meeting is a room booking in Madrid on 2026-06-01 from 09:00 to 10:30, with an organizer and two
// attendees.
func meeting(t *testing.T) calendar.Event {
	madrid := zone(t, "Europe/Madrid")
	return calendar.Event{
		UID:         "4b0c9c1e-2f4f-4d3c-9a55-0e0b7a1f6c21@booking.example",
		Sequence:    3,
		Stamp:       time.Date(2026, 5, 20, 8, 15, 0, 0, time.UTC),
		Start:       time.Date(2026, 6, 1, 9, 0, 0, 0, madrid),
		End:         time.Date(2026, 6, 1, 10, 30, 0, 0, madrid),
		Zone:        madrid,
		Summary:     "Planning",
		Description: "Quarterly planning",
		Location:    "HQ, Floor 2, Room Tajo",
		URL:         "https://meet.example/abc",
		Status:      "CONFIRMED",
		Organizer:   calendar.Person{Name: "Workspace Booking", Email: "noreply@booking.example"},
		Attendees: []calendar.Person{
			{Name: "Ana Ruiz", Email: "ana@acme.test"},
			{Name: "Doe, Jane", Email: "jane@acme.test"},
		},
	}
}

// invite returns the invitation of ev or fails the test.
func invite(t *testing.T, method calendar.Method, ev calendar.Event) []byte {
	t.Helper()
	doc, err := calendar.Invite(method, ev)
	if err != nil {
		t.Fatalf("Invite: %v", err)
	}
	return doc
}

// feed returns the feed of events or fails the test.
func feed(t *testing.T, name string, events ...calendar.Event) []byte {
	t.Helper()
	doc, err := calendar.Feed(name, events)
	if err != nil {
		t.Fatalf("Feed: %v", err)
	}
	return doc
}

// unfold returns the content lines of doc, unfolded (RFC 5545 §3.1), without their CRLF.
func unfold(doc []byte) []string {
	s := strings.ReplaceAll(string(doc), "\r\n ", "")
	return strings.Split(strings.TrimSuffix(s, "\r\n"), "\r\n")
}

// props returns the unfolded lines of doc for the property name, whatever their parameters, outside
// the VTIMEZONEs.
func props(doc []byte, name string) []string {
	var out []string
	inZone := false
	for _, l := range unfold(doc) {
		switch {
		case l == "BEGIN:VTIMEZONE" || l == "END:VTIMEZONE":
			inZone = l == "BEGIN:VTIMEZONE"
		case !inZone && (strings.HasPrefix(l, name+":") || strings.HasPrefix(l, name+";")):
			out = append(out, l)
		}
	}
	return out
}

// prop returns the one unfolded line of doc for the property name, or fails the test.
func prop(t *testing.T, doc []byte, name string) string {
	t.Helper()
	l := props(doc, name)
	if len(l) != 1 {
		t.Fatalf("%d %s lines, want 1:\n%s", len(l), name, doc)
	}
	return l[0]
}

// components returns the unfolded lines inside each component name of doc, BEGIN and END left out.
func components(doc []byte, name string) [][]string {
	var out [][]string
	var cur []string
	in := false
	for _, l := range unfold(doc) {
		switch {
		case l == "BEGIN:"+name:
			in, cur = true, nil
		case l == "END:"+name:
			in = false
			out = append(out, cur)
		case in:
			cur = append(cur, l)
		}
	}
	return out
}

// crlf joins lines as a document: each ends in CRLF.
func crlf(lines ...string) string {
	return strings.Join(lines, "\r\n") + "\r\n"
}

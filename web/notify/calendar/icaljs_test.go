package calendar_test

import (
	"time"

	"github.com/workspacebooking/booking/web/notify/calendar"
	"github.com/workspacebooking/booking/web/notify/calendar/caltest"
)

// These tests have ical.js (an independent RFC 5545 parser, run with node from testdata/icaljs) read
// the documents, and compare what it read with the events given. ical.js works out local times
// with the document's own VTIMEZONEs, so the instants check the offsets written too.

// instant writes t as JavaScript's toISOString does.
func instant(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// readAs is what ical.js should read of ev, as written by the package with texts that need no
// cleaning.
func readAs(ev calendar.Event) caltest.Event {
	zone := "UTC"
	if ev.Zone != nil && ev.Zone.String() != "UTC" {
		zone = ev.Zone.String()
	}
	transp := "OPAQUE"
	if ev.Transparent {
		transp = "TRANSPARENT"
	}
	seq := ev.Sequence
	want := caltest.Event{
		UID: ev.UID, Sequence: &seq, Stamp: instant(ev.Stamp),
		Start: instant(ev.Start), StartZone: zone, End: instant(ev.End), EndZone: zone,
		Summary: ev.Summary, Description: ev.Description, Location: ev.Location, URL: ev.URL,
		Status: ev.Status, Transp: transp,
		Organizer: &caltest.Person{Name: ev.Organizer.Name, Address: "mailto:" + ev.Organizer.Email},
	}
	for _, p := range ev.Attendees {
		want.Attendees = append(want.Attendees, caltest.Person{Name: p.Name, Address: "mailto:" + p.Email,
			Role: "REQ-PARTICIPANT", Partstat: "NEEDS-ACTION", Rsvp: "FALSE"})
	}
	return want
}

// published is what ical.js should read of a feed of events.
func published(name string, zones []string, events ...calendar.Event) caltest.Doc {
	want := caltest.Doc{ProdID: "-//Workspace Booking//Booking//EN", Version: "2.0", CalScale: "GREGORIAN",
		Name: name, Timezones: zones, Events: []caltest.Event{}}
	for _, ev := range events {
		want.Events = append(want.Events, readAs(ev))
	}
	return want
}

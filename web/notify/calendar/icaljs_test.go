package calendar_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/notify/calendar"
)

// These tests have ical.js (an independent RFC 5545 parser, run with node from testdata/icaljs) read
// the documents, and compare what it read with the events given. ical.js works out local times
// with the document's own VTIMEZONEs, so the instants check the offsets written too.

// errNoNode says that node, which runs ical.js, is not installed.
var errNoNode = errors.New("node is not installed, so ical.js cannot check the calendars " +
	"(.ci/run installs it; elsewhere apt-get install -y nodejs npm)")

// icaljsDir holds check.mjs and the lockfile of ical.js.
var icaljsDir = filepath.Join("testdata", "icaljs")

// icaljsOnce installs ical.js (testdata/icaljs/package-lock.json) once per run when it is missing.
var icaljsOnce = sync.OnceValue(func() error {
	if _, err := exec.LookPath("node"); err != nil {
		return errNoNode
	}
	if _, err := os.Stat(filepath.Join(icaljsDir, "node_modules", "ical.js")); err == nil {
		return nil
	}
	out, err := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--prefix", icaljsDir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ical.js, which checks the calendars, cannot be installed: npm ci: %w\n%s", err, out)
	}
	return nil
})

// icalDoc is what check.mjs read in a document.
type icalDoc struct {
	Method    string      `json:"method"`
	ProdID    string      `json:"prodid"`
	Version   string      `json:"version"`
	CalScale  string      `json:"calscale"`
	Name      string      `json:"name"`
	Timezones []string    `json:"timezones"`
	Events    []icalEvent `json:"events"`
}

// icalEvent is a VEVENT as ical.js read it, times as UTC instants in the form of JavaScript's
// toISOString, each with the zone ical.js read it in ("UTC", a TZID, or "floating" when lost).
type icalEvent struct {
	UID         string       `json:"uid"`
	Sequence    *int         `json:"sequence"`
	Stamp       string       `json:"stamp"`
	Start       string       `json:"start"`
	StartZone   string       `json:"startZone"`
	End         string       `json:"end"`
	EndZone     string       `json:"endZone"`
	Summary     string       `json:"summary"`
	Description string       `json:"description"`
	Location    string       `json:"location"`
	URL         string       `json:"url"`
	Status      string       `json:"status"`
	Transp      string       `json:"transp"`
	Organizer   *icalPerson  `json:"organizer"`
	Attendees   []icalPerson `json:"attendees"`
}

type icalPerson struct {
	Name     string `json:"name"`
	Address  string `json:"address"`
	Role     string `json:"role"`
	Partstat string `json:"partstat"`
	Rsvp     string `json:"rsvp"`
}

// readWithICALJS has check.mjs read doc with ical.js, and fails the test when node is missing or
// ical.js cannot parse doc.
func readWithICALJS(t *testing.T, doc []byte) icalDoc {
	t.Helper()
	if err := icaljsOnce(); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", filepath.Join(icaljsDir, "check.mjs"))
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdin = bytes.NewReader(doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ical.js cannot read the document: %v\n%s\n%s", err, stderr.String(), doc)
	}
	var got icalDoc
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("check.mjs answered %q: %v", out, err)
	}
	return got
}

// instant writes t as JavaScript's toISOString does.
func instant(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// readAs is what ical.js should read of ev, as written by the package with texts that need no
// cleaning.
func readAs(ev calendar.Event) icalEvent {
	zone := "UTC"
	if ev.Zone != nil && ev.Zone.String() != "UTC" {
		zone = ev.Zone.String()
	}
	transp := "OPAQUE"
	if ev.Transparent {
		transp = "TRANSPARENT"
	}
	seq := ev.Sequence
	want := icalEvent{
		UID: ev.UID, Sequence: &seq, Stamp: instant(ev.Stamp),
		Start: instant(ev.Start), StartZone: zone, End: instant(ev.End), EndZone: zone,
		Summary: ev.Summary, Description: ev.Description, Location: ev.Location, URL: ev.URL,
		Status: ev.Status, Transp: transp,
		Organizer: &icalPerson{Name: ev.Organizer.Name, Address: "mailto:" + ev.Organizer.Email},
	}
	for _, p := range ev.Attendees {
		want.Attendees = append(want.Attendees, icalPerson{Name: p.Name, Address: "mailto:" + p.Email,
			Role: "REQ-PARTICIPANT", Partstat: "NEEDS-ACTION", Rsvp: "FALSE"})
	}
	return want
}

// published is what ical.js should read of a feed of events.
func published(name string, zones []string, events ...calendar.Event) icalDoc {
	want := icalDoc{ProdID: "-//Workspace Booking//Booking//EN", Version: "2.0", CalScale: "GREGORIAN",
		Name: name, Timezones: zones, Events: []icalEvent{}}
	for _, ev := range events {
		want.Events = append(want.Events, readAs(ev))
	}
	return want
}

// Package caltest has ical.js, an independent RFC 5545 parser run with node, read iCalendar documents
// in tests, so that tests can compare what it read with what they expect. ical.js is installed from
// web/notify/calendar/testdata/icaljs/package-lock.json (npm ci) the first time it is needed.
package caltest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
)

// errNoNode says that node, which runs ical.js, is not installed.
var errNoNode = errors.New("node is not installed, so ical.js cannot check the calendars " +
	"(.ci/run installs it; elsewhere apt-get install -y nodejs npm)")

// icaljsDir holds check.mjs and the lockfile of ical.js: testdata/icaljs beside package calendar.
var icaljsDir = func() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "icaljs")
}()

// icaljsOnce installs ical.js (testdata/icaljs/package-lock.json) once per run when it is missing.
var icaljsOnce = sync.OnceValue(func() error {
	if _, err := exec.LookPath("node"); err != nil {
		return errNoNode
	}
	// The test binaries of several packages read calendars and run at once: one installs while the
	// others wait on the lock, then find ical.js there.
	lock, err := os.OpenFile(filepath.Join(os.TempDir(), "workspace-booking-icaljs.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock the ical.js install: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing the file unlocks it too
	if _, err := os.Stat(filepath.Join(icaljsDir, "node_modules", "ical.js")); err == nil {
		return nil
	}
	out, err := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--prefix", icaljsDir).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ical.js, which checks the calendars, cannot be installed: npm ci: %w\n%s", err, out)
	}
	return nil
})

// Doc is what check.mjs read in a document.
type Doc struct {
	Method    string   `json:"method"`
	ProdID    string   `json:"prodid"`
	Version   string   `json:"version"`
	CalScale  string   `json:"calscale"`
	Name      string   `json:"name"`
	Timezones []string `json:"timezones"`
	Events    []Event  `json:"events"`
}

// Event is a VEVENT as ical.js read it, times as UTC instants in the form of JavaScript's
// toISOString, each with the zone ical.js read it in ("UTC", a TZID, or "floating" when lost).
type Event struct {
	UID         string   `json:"uid"`
	Sequence    *int     `json:"sequence"`
	Stamp       string   `json:"stamp"`
	Start       string   `json:"start"`
	StartZone   string   `json:"startZone"`
	End         string   `json:"end"`
	EndZone     string   `json:"endZone"`
	Summary     string   `json:"summary"`
	Description string   `json:"description"`
	Location    string   `json:"location"`
	URL         string   `json:"url"`
	Status      string   `json:"status"`
	Transp      string   `json:"transp"`
	Organizer   *Person  `json:"organizer"`
	Attendees   []Person `json:"attendees"`
	// RRule is the event's RRULE as ical.js writes it back, "" for none; Exdates its EXDATEs as
	// "instant zone"; Occurrences the starts of the occurrences ical.js expands from them, nil for an
	// event that does not repeat.
	RRule       string   `json:"rrule"`
	Exdates     []string `json:"exdates"`
	Occurrences []string `json:"occurrences"`
}

// Person is an ORGANIZER or ATTENDEE as ical.js read it.
type Person struct {
	Name     string `json:"name"`
	Address  string `json:"address"`
	Role     string `json:"role"`
	Partstat string `json:"partstat"`
	Rsvp     string `json:"rsvp"`
}

// Read has check.mjs read doc with ical.js, and fails the test when node is missing or
// ical.js cannot parse doc.
func Read(t testing.TB, doc []byte) Doc {
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
	var got Doc
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("check.mjs answered %q: %v", out, err)
	}
	for i := range got.Events {
		if len(got.Events[i].Exdates) == 0 {
			got.Events[i].Exdates = nil // an event without EXDATEs reads the same whether ical.js lists none or omits them
		}
	}
	return got
}

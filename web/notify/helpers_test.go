package notify_test

import (
	"context"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify"
)

// teller is a booking service on the fixture with a notify service working its outbox into a sink.
type teller struct {
	*bookingtest.Bundle
	sink   *sink
	notify *notify.Service
}

// base is the BASE_URL of the tests' notify services.
const base = "https://book.acme.test"

// newTeller sets up the fixture, a sink and a started notify service sending to it.
func newTeller(t *testing.T) *teller {
	t.Helper()
	b := bookingtest.Setup(t)
	s := newSink(t)
	return &teller{Bundle: b, sink: s, notify: startNotify(t, b, s)}
}

// startNotify starts a notify service on b's database that sends to s, and stops it when the test ends.
func startNotify(t *testing.T, b *bookingtest.Bundle, s *sink) *notify.Service {
	t.Helper()
	n, err := notify.New(b.Pool, b.Service, notify.Config{SMTPURL: s.URL(), From: "booking@acme.test", BaseURL: base})
	if err != nil {
		t.Fatalf("notify: %v", err)
	}
	if err := n.Start(context.Background()); err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		n.Stop(ctx) //nolint:errcheck // the test is over
	})
	return n
}

// book makes a booking for the fixture user who, failing the test on an error.
func (tl *teller) book(t *testing.T, who uuid.UUID, nb booking.NewBooking) booking.Booking {
	t.Helper()
	u := tl.User(t, bookingtest.OrgA, who)
	cat := booking.CategorySpace
	if nb.ResourceID == bookingtest.DeskOne || nb.ResourceID == bookingtest.DeskTwo {
		cat = booking.CategoryWorkstation
	}
	bs, err := tl.Service.CreateBookings(context.Background(), booking.CreateRequest{Creator: u, Organizer: u, Category: cat, Bookings: []booking.NewBooking{nb}})
	if err != nil {
		t.Fatalf("book: %v", err)
	}
	return bs[0]
}

// waitFor waits until the sink holds messages to every address of want (address → count), and fails
// on a message to anyone else or more than want says. It returns the messages by address, each list in
// the order of arrival.
func (tl *teller) waitFor(t *testing.T, want map[string]int) map[string][]parsed {
	t.Helper()
	total := 0
	for _, n := range want {
		total += n
	}
	bookingtest.WaitFor(t, "e-mails to "+keys(want), func() bool { return len(tl.sink.all()) >= total })
	time.Sleep(500 * time.Millisecond) // so that an unexpected extra message shows too
	got := map[string][]parsed{}
	counts := map[string]int{}
	for _, r := range tl.sink.all() {
		p := parse(t, r)
		got[p.To] = append(got[p.To], p)
		counts[p.To]++
	}
	if !equalCounts(counts, want) {
		var subjects []string
		for to, ps := range got {
			for _, p := range ps {
				subjects = append(subjects, to+": "+p.Subject)
			}
		}
		sort.Strings(subjects)
		t.Fatalf("e-mails by recipient = %v, want %v:\n%s", counts, want, strings.Join(subjects, "\n"))
	}
	return got
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func keys(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ", ")
}

// prop returns the value of an iCalendar property in an unfolded document, "" when it is missing.
func prop(doc, name string) string {
	for _, l := range unfold(doc) {
		if n, v, ok := strings.Cut(l, ":"); ok && (n == name || strings.HasPrefix(n, name+";")) {
			return v
		}
	}
	return ""
}

// unfold undoes the folding of an iCalendar document and returns its lines.
func unfold(doc string) []string {
	return strings.Split(strings.TrimSuffix(strings.ReplaceAll(doc, "\r\n ", ""), "\r\n"), "\r\n")
}

// sequence is the document's SEQUENCE.
func sequence(t *testing.T, doc string) int {
	t.Helper()
	n, err := strconv.Atoi(prop(doc, "SEQUENCE"))
	if err != nil {
		t.Fatalf("SEQUENCE %q: %v", prop(doc, "SEQUENCE"), err)
	}
	return n
}

var bareLF = regexp.MustCompile(`[^\r]\n`)

// checkICS checks the structural rules that lenient parsers let pass: CRLF line ends, lines of at
// most 75 octets, and a VTIMEZONE for the TZID the times use.
func checkICS(t *testing.T, doc string) {
	t.Helper()
	if bareLF.MatchString(doc) || !strings.HasSuffix(doc, "\r\n") {
		t.Errorf("calendar has a line not ended by CRLF:\n%q", doc)
	}
	for _, l := range strings.Split(doc, "\r\n") {
		if len(l) > 75 {
			t.Errorf("line of %d octets, longer than 75: %q", len(l), l)
		}
	}
	if !strings.Contains(doc, "DTSTART;TZID=Europe/Madrid:") || !strings.Contains(doc, "BEGIN:VTIMEZONE\r\nTZID:Europe/Madrid\r\n") {
		t.Errorf("calendar lacks the building's TZID or its VTIMEZONE:\n%s", doc)
	}
}

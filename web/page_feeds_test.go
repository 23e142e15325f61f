package web_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify/calendar/caltest"
)

// The calendar feeds: a person's own at the secret address of their settings, and a room's for the
// signed-in people of its organization. Each feed is read by ical.js, an independent RFC 5545 parser
// (web/notify/calendar's tests use it too), and its lines are checked here, since ical.js accepts bare
// LF line ends.

// feedReply is a feed's answer.
type feedReply struct {
	status int
	header http.Header
	body   string
}

// feedGet fetches a feed without a session, as a calendar app does, with the extra headers.
func feedGet(t *testing.T, address string, header http.Header) feedReply {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, address, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	return feedDo(t, http.DefaultClient, req)
}

func feedDo(t *testing.T, client *http.Client, req *http.Request) feedReply {
	t.Helper()
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return feedReply{status: res.StatusCode, header: res.Header, body: string(body)}
}

// readFeed checks a feed's lines and has ical.js read it.
func readFeed(t *testing.T, body string) caltest.Doc {
	t.Helper()
	wantCalendarLines(t, body)
	return caltest.Read(t, []byte(body))
}

// sequence is an event's SEQUENCE as ical.js read it, -1 when it has none.
func sequence(e caltest.Event) int {
	if e.Sequence == nil {
		return -1
	}
	return *e.Sequence
}

// wantCalendarLines checks what ical.js lets pass: every line ends with CRLF and is at most 75 octets,
// and the calendar is one VCALENDAR whose BEGINs and ENDs pair up.
func wantCalendarLines(t *testing.T, body string) {
	t.Helper()
	if !strings.HasPrefix(body, "BEGIN:VCALENDAR\r\n") || !strings.HasSuffix(body, "END:VCALENDAR\r\n") {
		t.Errorf("the feed is not one VCALENDAR: starts %.30q, ends %.30q", body, body[max(0, len(body)-30):])
	}
	var open []string
	for i, line := range strings.SplitAfter(body, "\r\n") {
		if line == "" {
			continue
		}
		if !strings.HasSuffix(line, "\r\n") || strings.ContainsAny(strings.TrimSuffix(line, "\r\n"), "\r\n") {
			t.Errorf("line %d %q does not end with CRLF alone", i+1, line)
		}
		if n := len(strings.TrimSuffix(line, "\r\n")); n > 75 {
			t.Errorf("line %d is %d octets, more than 75", i+1, n)
		}
		if name, ok := strings.CutPrefix(strings.TrimSpace(line), "BEGIN:"); ok {
			open = append(open, name)
		} else if name, ok := strings.CutPrefix(strings.TrimSpace(line), "END:"); ok {
			if len(open) == 0 || open[len(open)-1] != name {
				t.Errorf("line %d ends %s, but %v are open", i+1, name, open)
				return
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) != 0 {
		t.Errorf("%v never end", open)
	}
}

// eventOf returns the event with the UID, failing the test when there is none.
func eventOf(t *testing.T, doc caltest.Doc, uid string) caltest.Event {
	t.Helper()
	for _, e := range doc.Events {
		if e.UID == uid {
			return e
		}
	}
	t.Fatalf("no event %s in the feed; it has %d", uid, len(doc.Events))
	return caltest.Event{}
}

// instant writes t as JavaScript's toISOString does.
func instant(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func TestPersonalFeed(t *testing.T) {
	t.Parallel()
	pb := setupPagesMeetings(t)
	ctx := t.Context()
	alice := pb.mbUser(t, fx.Alice)
	room := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), func(nb *booking.NewBooking) {
		nb.Subject, nb.CreateOnlineMeeting = "Quarterly review", true
	})
	desk := pb.mbCreate(t, fx.Alice, fx.DeskOne, fx.At(2, 9, 0), fx.At(2, 17, 0))
	invited := pb.mbCreate(t, fx.Bob, fx.RoomVelazquez, fx.At(3, 10, 0), fx.At(3, 11, 0), func(nb *booking.NewBooking) {
		nb.Subject = "Bob invites"
		nb.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: fx.Alice}}
	})
	bobsOwn := pb.mbCreate(t, fx.Bob, fx.RoomVelazquez, fx.At(4, 10, 0), fx.At(4, 11, 0), func(nb *booking.NewBooking) {
		nb.Subject = "Bob's private one-to-one"
	})
	address := pb.srv.URL + "/ical/" + pb.noticeSettings(t, fx.Alice).FeedSecret + ".ics"
	host := strings.TrimPrefix(strings.Split(pb.srv.URL, ":")[1], "//")
	uid := func(b booking.Booking) string { return b.ID.String() + "@" + host }

	first := feedGet(t, address, nil)
	if first.status != http.StatusOK {
		t.Fatalf("status %d, want 200: %s", first.status, first.body)
	}
	for name, want := range map[string]string{
		"Content-Type": "text/calendar; charset=utf-8", "Cache-Control": "private, max-age=300",
	} {
		if got := first.header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	etag := first.header.Get("ETag")
	if !strings.HasPrefix(etag, `W/"`) || len(etag) < 20 {
		t.Errorf("ETag = %q, want a weak tag of the body's hash", etag)
	}
	doc := readFeed(t, first.body)

	t.Run("Events", func(t *testing.T) {
		if doc.Method != "" || doc.Name != "Workspace Booking: alice Archer" || !cmp.Equal(doc.Timezones, []string{"Europe/Madrid"}) {
			t.Errorf("calendar: method %v, name %q, zones %v", doc.Method, doc.Name, doc.Timezones)
		}
		got := eventOf(t, doc, uid(room))
		want := caltest.Event{
			UID: uid(room), Start: instant(room.Start), StartZone: "Europe/Madrid", End: instant(room.End),
			Summary: "Quarterly review", Location: "Madrid HQ, madrid-1, Goya", URL: room.OnlineMeetingURL,
			Description: "Online meeting: " + room.OnlineMeetingURL + "\nDetails: " + pb.srv.URL + "/bookings/" + room.ID.String(),
			Status:      "CONFIRMED", Transp: "OPAQUE",
		}
		// The fields a feed's event is checked on here; the calendar package's tests check the rest.
		unchecked := cmpopts.IgnoreFields(caltest.Event{}, "Sequence", "Stamp", "EndZone", "Organizer", "Attendees")
		if diff := cmp.Diff(want, got, unchecked); diff != "" {
			t.Errorf("the room's event (-want +got):\n%s", diff)
		}
		if e := eventOf(t, doc, uid(desk)); e.Transp != "TRANSPARENT" || e.Summary != desk.Resource.Name {
			t.Errorf("the desk's event: %+v, want it transparent and named after the desk", e)
		}
		if e := eventOf(t, doc, uid(invited)); !strings.Contains(e.Description, "Organized by bob Baker.") {
			t.Errorf("the invitation's description %q does not name its organizer", e.Description)
		}
	})

	t.Run("NeverOthersBookings", func(t *testing.T) {
		if len(doc.Events) != 3 || strings.Contains(first.body, bobsOwn.ID.String()) || strings.Contains(first.body, "one-to-one") {
			t.Errorf("Alice's feed has %d events or shows Bob's own booking", len(doc.Events))
		}
	})

	t.Run("NotModified", func(t *testing.T) {
		again := feedGet(t, address, http.Header{"If-None-Match": {etag}})
		if again.status != http.StatusNotModified || again.body != "" || again.header.Get("ETag") != etag {
			t.Errorf("with If-None-Match: %d, %d bytes, ETag %q; want 304, empty, the same tag", again.status, len(again.body), again.header.Get("ETag"))
		}
		if stale := feedGet(t, address, http.Header{"If-None-Match": {`W/"0123", "abc"`}}); stale.status != http.StatusOK {
			t.Errorf("with another tag: %d, want 200", stale.status)
		}
	})

	t.Run("ChangesGrowTheSequenceAndCancelledStays", func(t *testing.T) {
		before := sequence(eventOf(t, doc, uid(room)))
		end := fx.At(1, 11, 30)
		if _, err := pb.Service.Change(ctx, alice, room.ID, booking.BookingChange{End: &end}); err != nil {
			t.Fatal(err)
		}
		changed := feedGet(t, address, http.Header{"If-None-Match": {etag}})
		if changed.status != http.StatusOK || changed.header.Get("ETag") == etag {
			t.Fatalf("after a change: %d with ETag %q, want 200 with a new tag", changed.status, changed.header.Get("ETag"))
		}
		moved := eventOf(t, readFeed(t, changed.body), uid(room))
		if sequence(moved) <= before || moved.End != instant(end) {
			t.Errorf("after a change: SEQUENCE %d (before %d), end %s; want a higher sequence and the new end", sequence(moved), before, moved.End)
		}
		if _, err := pb.Service.Cancel(ctx, alice, room.ID); err != nil {
			t.Fatal(err)
		}
		cancelled := eventOf(t, readFeed(t, feedGet(t, address, nil).body), uid(room))
		if cancelled.Status != "CANCELLED" || sequence(cancelled) <= sequence(moved) {
			t.Errorf("after cancelling: STATUS %s, SEQUENCE %d (before %d); want CANCELLED and higher", cancelled.Status, sequence(cancelled), sequence(moved))
		}
	})

	t.Run("UnknownSecretsAreNotFound", func(t *testing.T) {
		for _, path := range []string{
			"/ical/" + strings.Repeat("A", 43) + ".ics", "/ical/short.ics", "/ical/" + pb.noticeSettings(t, fx.Alice).FeedSecret,
			"/ical/" + pb.noticeSettings(t, fx.Alice).UnsubscribeSecret + ".ics",
		} {
			if got := feedGet(t, pb.srv.URL+path, nil); got.status != http.StatusNotFound || strings.Contains(got.body, "VCALENDAR") {
				t.Errorf("%s: %d, want 404", path, got.status)
			}
		}
	})
}

func TestRoomFeed(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	pb.mbCreate(t, fx.Bob, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), func(nb *booking.NewBooking) {
		nb.Subject = "Bob's secret project"
		nb.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: fx.Rita}}
	})
	pb.mbCreate(t, fx.Alice, fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)) // another room
	alice := pb.signedIn(t, fx.Alice)
	get := func(b *browser, path string) feedReply {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, pb.srv.URL+path, nil)
		return feedDo(t, b.noRedirects(), req)
	}
	goya := "/ical/rooms/" + fx.RoomGoya.String() + ".ics"

	r := get(alice, goya)
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/calendar; charset=utf-8" || r.header.Get("ETag") == "" {
		t.Fatalf("Goya's feed: %d, %q, ETag %q", r.status, r.header.Get("Content-Type"), r.header.Get("ETag"))
	}
	doc := readFeed(t, r.body)
	if len(doc.Events) != 1 || doc.Events[0].Summary != "Booked" || doc.Events[0].Location != "Madrid HQ, madrid-1, Goya" {
		t.Errorf("Goya's feed: %+v, want one event called Booked", doc.Events)
	}
	for _, private := range []string{"secret project", "bob", "Baker", "rita", "Reyes", "@acme.test"} {
		if strings.Contains(r.body, private) {
			t.Errorf("Goya's feed shows %q", private)
		}
	}
	if again := feedDo(t, alice.noRedirects(), withHeader(t, pb.srv.URL+goya, "If-None-Match", r.header.Get("ETag"))); again.status != http.StatusNotModified {
		t.Errorf("with If-None-Match: %d, want 304", again.status)
	}
	boris := pb.signedIn(t, fx.Boris)
	for name, c := range map[string]struct {
		b    *browser
		path string
	}{
		"AnotherOrganizationsRoom": {boris, goya},
		"ADesk":                    {alice, "/ical/rooms/" + fx.DeskOne.String() + ".ics"},
		"AHiddenRoom":              {alice, "/ical/rooms/" + fx.RoomHidden.String() + ".ics"},
		"NotAnID":                  {alice, "/ical/rooms/goya.ics"},
		"NoSuffix":                 {alice, "/ical/rooms/" + fx.RoomGoya.String()},
	} {
		if got := get(c.b, c.path); got.status != http.StatusNotFound || strings.Contains(got.body, "VCALENDAR") {
			t.Errorf("%s: %d, want 404", name, got.status)
		}
	}
	if got := get(pb.browser(t), goya); got.status != http.StatusSeeOther && got.status != http.StatusFound {
		t.Errorf("signed out: %d, want a redirect to sign in", got.status)
	}
}

// withHeader returns a GET of address with one header.
func withHeader(t *testing.T, address, name, value string) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, address, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(name, value)
	return req
}

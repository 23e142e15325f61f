package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify/calendar/caltest"
)

// tuesdays is a series of Desk 1 (or RoomB for Boris) on Tuesdays 16, 23 and 30 March 2027, 09:00–18:00
// Madrid time: clocks go forward on Sunday 28 March, so the last day is an hour earlier in UTC.
func tuesdays(who booking.User, resource uuid.UUID) booking.SeriesRequest {
	return booking.SeriesRequest{
		Creator: who, Organizer: who, ResourceID: resource, Mode: booking.SeriesFree,
		Rule: booking.SeriesRule{
			Weekdays: []time.Weekday{time.Tuesday}, EveryWeeks: 1, Start: 9 * 60, End: 18 * 60,
			First: booking.Date{Year: 2027, Month: 3, Day: 16}, Until: booking.Date{Year: 2027, Month: 3, Day: 30},
		},
	}
}

// wantOccurrences checks, with ical.js, the days the invitation's one VEVENT repeats on.
func wantOccurrences(t *testing.T, p parsed, want ...string) caltest.Event {
	t.Helper()
	doc := caltest.Read(t, []byte(p.Calendar))
	if len(doc.Events) != 1 {
		t.Fatalf("%s: %d VEVENTs, want one for the series", p.Subject, len(doc.Events))
	}
	if d := cmp.Diff(want, doc.Events[0].Occurrences); d != "" {
		t.Errorf("%s: days ical.js expands (-want +got):\n%s", p.Subject, d)
	}
	return doc.Events[0]
}

// A series is told to its organizer as one e-mail with one invitation that repeats, from its making to
// its cancellation; a day refused or cancelled on its own is an EXDATE, and each change grows SEQUENCE
// under one UID.
func TestMailsOfASeries(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	ctx := context.Background()
	ana := tl.User(t, bookingtest.OrgA, bookingtest.Alice)
	madrid, _ := time.LoadLocation("Europe/Madrid")
	tl.book(t, bookingtest.Bob, booking.NewBooking{ResourceID: bookingtest.DeskOne,
		Start: time.Date(2027, 3, 30, 9, 0, 0, 0, madrid), End: time.Date(2027, 3, 30, 10, 0, 0, 0, madrid)})
	tl.waitFor(t, map[string]int{bob: 1})
	tl.sink.reset()

	sr, err := tl.Service.CreateSeries(ctx, tuesdays(ana, bookingtest.DeskOne))
	if err != nil {
		t.Fatalf("create series: %v", err)
	}
	made := only(t, tl.waitFor(t, map[string]int{alice: 1})[alice], "Repeated booking made · Desk 1")
	wantCalendar(t, made, "REQUEST", "CONFIRMED")
	if got, want := prop(made.Calendar, "RRULE"), "FREQ=WEEKLY;INTERVAL=1;BYDAY=TU;WKST=MO;UNTIL=20270330T070000Z"; got != want {
		t.Errorf("RRULE = %s, want %s", got, want)
	}
	uid := prop(made.Calendar, "UID")
	if uid != sr.ID.String()+".series@book.acme.test" || sequence(t, made.Calendar) != 0 {
		t.Errorf("UID %s SEQUENCE %d, want the series' UID and 0", uid, sequence(t, made.Calendar))
	}
	ev := wantOccurrences(t, made, "2027-03-16T08:00:00.000Z", "2027-03-23T08:00:00.000Z")
	if d := cmp.Diff([]string{"2027-03-30T07:00:00.000Z Europe/Madrid"}, ev.Exdates); d != "" {
		t.Errorf("EXDATE of the refused day, after the change of offset (-want +got):\n%s", d)
	}
	for _, want := range []string{"Every Tue until Tue 30 Mar 2027 · 09:00–18:00 · Desk 1", "Not booked: Tue 30 Mar 2027: it is already booked at that time", base + "/bookings/series/" + sr.ID.String()} {
		if !strings.Contains(made.Text, want) {
			t.Errorf("the mail lacks %q:\n%s", want, made.Text)
		}
	}
	if !strings.Contains(made.HTML, "it is already booked at that time") {
		t.Errorf("the HTML part does not name the refused day")
	}
	// Each day booked has its check-in reminder waiting for its day (Bob's one day has one too).
	var reminders int
	if err := tl.Pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'booking_event' AND state = 'scheduled' AND args->>'kind' = 'booking.check_in_opened'`).Scan(&reminders); err != nil {
		t.Fatal(err)
	}
	if reminders != 3 {
		t.Errorf("%d check-in reminders scheduled, want 3: two days of the series and Bob's", reminders)
	}

	// One day cancelled on its own: the same invitation, with one more EXDATE and SEQUENCE 1.
	tl.sink.reset()
	if _, err := tl.Service.Cancel(ctx, ana, sr.Occurrences[1].Booking.ID); err != nil {
		t.Fatalf("cancel one day: %v", err)
	}
	changed := only(t, tl.waitFor(t, map[string]int{alice: 1})[alice], "Repeated booking changed")
	wantCalendar(t, changed, "REQUEST", "CONFIRMED")
	if prop(changed.Calendar, "UID") != uid || sequence(t, changed.Calendar) != 1 {
		t.Errorf("UID %s SEQUENCE %d, want %s and 1", prop(changed.Calendar, "UID"), sequence(t, changed.Calendar), uid)
	}
	wantOccurrences(t, changed, "2027-03-16T08:00:00.000Z")

	// The whole series: METHOD:CANCEL of the one UID.
	tl.sink.reset()
	if _, err := tl.Service.CancelSeries(ctx, ana, sr.ID, nil); err != nil {
		t.Fatalf("cancel series: %v", err)
	}
	gone := only(t, tl.waitFor(t, map[string]int{alice: 1})[alice], "Repeated booking cancelled")
	wantCalendar(t, gone, "CANCEL", "CANCELLED")
	if prop(gone.Calendar, "UID") != uid || sequence(t, gone.Calendar) != 2 {
		t.Errorf("UID %s SEQUENCE %d, want %s and 2", prop(gone.Calendar, "UID"), sequence(t, gone.Calendar), uid)
	}

	// Another organization's series mails its own organizer and nobody of the first.
	tl.sink.reset()
	boris := tl.User(t, bookingtest.OrgB, bookingtest.Boris)
	other := tuesdays(boris, bookingtest.RoomB) // B's room: at most 30 days ahead, 4 hours long
	other.Rule.First, other.Rule.Until = booking.Date{Year: 2026, Month: 12, Day: 1}, booking.Date{Year: 2026, Month: 12, Day: 15}
	other.Rule.Start, other.Rule.End = 10*60, 11*60
	if _, err := tl.Service.CreateSeries(ctx, other); err != nil {
		t.Fatalf("Boris's series: %v", err)
	}
	only(t, tl.waitFor(t, map[string]int{"boris@globex.test": 1})["boris@globex.test"], "Repeated booking made")
}

package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify/calendar/caltest"
)

const (
	alice    = "alice@acme.test"
	bob      = "bob@acme.test"
	adam     = "adam@acme.test"
	guest    = "guest@example.org"
	catering = "catering@acme.test"
)

// A room booked with a colleague, a guest and coffee: each hears of it being made, moved and cancelled,
// and the invitations keep one UID while their SEQUENCE grows.
func TestMailsOfABookingsLife(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	ctx := context.Background()
	three, half := int32(3), 30*time.Minute
	b := tl.book(t, bookingtest.Alice, booking.NewBooking{
		ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(1, 10, 0), End: bookingtest.At(1, 11, 0), Subject: "Budget, Q1; final",
		InternalAttendees: []booking.InternalAttendee{{Type: "REQUIRED", UserID: bookingtest.Bob}},
		ExternalAttendees: []booking.ExternalAttendee{{Type: "OPTIONAL", Email: guest}},
		Reservables:       []booking.ReservableOrder{{ReservableID: bookingtest.ReservableCoffee, Quantity: &three, DeliveryTime: &half, Comment: "No nuts, please"}},
	})
	// The fixture's clock is days behind the real one, so the check-in reminder is due at once.
	made := tl.waitFor(t, map[string]int{alice: 2, bob: 1, guest: 1, catering: 1})
	confirmation := only(t, made[alice], "Booking confirmed")
	reminder := only(t, made[alice], "Check-in is open")
	if reminder.Calendar != "" || !strings.Contains(reminder.Text, base+"/bookings") {
		t.Errorf("reminder: calendar %q, text %q; want no calendar and a link to My bookings", reminder.Calendar, reminder.Text)
	}
	wantCalendar(t, confirmation, "REQUEST", "CONFIRMED")
	wantCalendar(t, made[bob][0], "REQUEST", "CONFIRMED")
	wantCalendar(t, made[guest][0], "REQUEST", "CONFIRMED")
	order := made[catering][0]
	if order.Subject != "New order: Coffee · Goya" || order.Calendar != "" {
		t.Errorf("order: subject %q, calendar %d bytes; want New order: Coffee · Goya and no calendar", order.Subject, len(order.Calendar))
	}
	for _, want := range []string{"quantity 3", "delivered at 10:30", "No nuts, please", "Goya, madrid-1, Madrid HQ"} {
		if !strings.Contains(order.Text, want) || !strings.Contains(order.HTML, want) {
			t.Errorf("order lacks %q:\n%s", want, order.Text)
		}
	}
	if got := confirmation.Header.Get("From"); got != `"Acme" <booking@acme.test>` {
		t.Errorf("From = %q, want the organization's name and SMTP_FROM", got)
	}
	if confirmation.Header.Get("List-Unsubscribe") == "" || confirmation.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("a confirmation is optional: want List-Unsubscribe with one-click POST, got %v", confirmation.Header)
	}
	if order.Header.Get("List-Unsubscribe") != "" || made[guest][0].Header.Get("List-Unsubscribe") != "" {
		t.Errorf("orders and guests' invitations carry no unsubscribe link")
	}

	tl.sink.reset()
	alicePerson := tl.User(t, bookingtest.OrgA, bookingtest.Alice)
	start, end := bookingtest.At(1, 12, 0), bookingtest.At(1, 13, 0)
	if _, err := tl.Service.Change(ctx, alicePerson, b.ID, booking.BookingChange{Start: &start, End: &end}); err != nil {
		t.Fatalf("change: %v", err)
	}
	moved := tl.waitFor(t, map[string]int{alice: 2, bob: 1, guest: 1, catering: 1})
	change := only(t, moved[alice], "Booking changed")
	wantCalendar(t, change, "REQUEST", "CONFIRMED")
	wantCalendar(t, moved[guest][0], "REQUEST", "CONFIRMED")
	only(t, moved[catering], "Order changed: Coffee")

	tl.sink.reset()
	if _, err := tl.Service.Cancel(ctx, alicePerson, b.ID); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	gone := tl.waitFor(t, map[string]int{alice: 1, bob: 1, guest: 1, catering: 1})
	cancel := only(t, gone[alice], "Booking cancelled")
	wantCalendar(t, cancel, "CANCEL", "CANCELLED")
	wantCalendar(t, gone[bob][0], "CANCEL", "CANCELLED")
	only(t, gone[catering], "Order cancelled: Coffee")

	uid := prop(confirmation.Calendar, "UID")
	if uid != b.ID.String()+"@book.acme.test" || prop(change.Calendar, "UID") != uid || prop(cancel.Calendar, "UID") != uid {
		t.Errorf("UIDs %q, %q, %q: want %s@book.acme.test in all three", uid, prop(change.Calendar, "UID"), prop(cancel.Calendar, "UID"), b.ID)
	}
	if s0, s1, s2 := sequence(t, confirmation.Calendar), sequence(t, change.Calendar), sequence(t, cancel.Calendar); !(s0 < s1 && s1 < s2) {
		t.Errorf("SEQUENCE %d, %d, %d: want it to grow with the change and the cancellation", s0, s1, s2)
	}
	ids := map[string]bool{}
	for _, ps := range [][]parsed{made[alice], made[bob], made[guest], made[catering], moved[alice], gone[alice]} {
		for _, p := range ps {
			id := p.Header.Get("Message-Id")
			if id == "" || ids[id] {
				t.Errorf("Message-ID %q missing or sent twice", id)
			}
			ids[id] = true
		}
	}
}

// only returns the one message whose subject starts with subject.
func only(t *testing.T, ps []parsed, subject string) parsed {
	t.Helper()
	var found []parsed
	for _, p := range ps {
		if strings.HasPrefix(p.Subject, subject) {
			found = append(found, p)
		}
	}
	if len(found) != 1 {
		var subjects []string
		for _, p := range ps {
			subjects = append(subjects, p.Subject)
		}
		t.Fatalf("%d messages with subject %q among %q, want 1", len(found), subject, subjects)
	}
	return found[0]
}

// wantCalendar checks the invitation p carries: its MIME type, METHOD and STATUS, the structural rules,
// and what ical.js reads in it.
func wantCalendar(t *testing.T, p parsed, method, status string) {
	t.Helper()
	if want := "text/calendar; method=" + method + "; charset=UTF-8"; p.CalendarType != want {
		t.Errorf("%s: calendar part %q, want %q", p.Subject, p.CalendarType, want)
	}
	if prop(p.Calendar, "METHOD") != method || prop(p.Calendar, "STATUS") != status {
		t.Errorf("%s: METHOD %q STATUS %q, want %s %s", p.Subject, prop(p.Calendar, "METHOD"), prop(p.Calendar, "STATUS"), method, status)
	}
	checkICS(t, p.Calendar)
	doc := caltest.Read(t, []byte(p.Calendar))
	if doc.Method != method || len(doc.Events) != 1 || doc.Events[0].Status != status {
		t.Errorf("%s: ical.js read %+v", p.Subject, doc)
	}
}

// A booking with an online meeting carries its link in the invitation's URL and DESCRIPTION and in both
// parts of the e-mail; LOCATION stays the room's place: building, floor, room.
func TestOnlineMeetingInTheInvitation(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t, booking.WithOnlineMeetings("https://meet.acme.test/{bookingId}"))
	s := newSink(t)
	tl := &teller{Bundle: b, sink: s, notify: startNotify(t, b, s)}
	bk := tl.book(t, bookingtest.Alice, booking.NewBooking{ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(1, 10, 0),
		End: bookingtest.At(1, 11, 0), CreateOnlineMeeting: true})
	got := tl.waitFor(t, map[string]int{alice: 2})
	p := only(t, got[alice], "Booking confirmed")
	link := "https://meet.acme.test/" + bk.ID.String()
	if prop(p.Calendar, "URL") != link || !strings.Contains(strings.ReplaceAll(prop(p.Calendar, "DESCRIPTION"), `\n`, "\n"), link) {
		t.Errorf("invitation URL %q, DESCRIPTION %q: want the meeting's link %s", prop(p.Calendar, "URL"), prop(p.Calendar, "DESCRIPTION"), link)
	}
	if loc := prop(p.Calendar, "LOCATION"); loc != `Madrid HQ\, madrid-1\, Goya` {
		t.Errorf("LOCATION = %q, want the room's building, floor and name", loc)
	}
	if !strings.Contains(p.Text, link) || !strings.Contains(p.HTML, `href="`+link+`"`) {
		t.Errorf("the e-mail's parts lack the meeting's link")
	}
}

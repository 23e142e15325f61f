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

// speaks sets the userLanguage of a fixture person of organization A.
func speaks(t *testing.T, b *bookingtest.Bundle, who any, code string) {
	t.Helper()
	if _, err := b.Pool.Exec(context.Background(), `UPDATE users SET user_language = $1 WHERE organization_id = $2 AND id = $3`,
		code, bookingtest.OrgA, who); err != nil {
		t.Fatal(err)
	}
}

// wantMail checks that an e-mail is written in the language code: its Content-Language, its <html lang>,
// and that its subject starts with subject and both its parts hold every one of texts ("Label: value" for
// a fact).
func wantMail(t *testing.T, p parsed, code, subject string, texts ...string) {
	t.Helper()
	if got := p.Header.Get("Content-Language"); got != code {
		t.Errorf("%s: Content-Language %q, want %q", p.Subject, got, code)
	}
	if !strings.Contains(p.HTML, `<html lang="`+code+`">`) {
		t.Errorf("%s: the HTML part lacks <html lang=%q>", p.Subject, code)
	}
	if !strings.HasPrefix(p.Subject, subject) {
		t.Errorf("subject %q, want it to start with %q", p.Subject, subject)
	}
	for _, want := range texts {
		// The HTML part puts a fact's label and value in cells of their own.
		_, value, fact := strings.Cut(want, ": ")
		if !fact {
			value = want
		}
		if !strings.Contains(p.Text, want) || !strings.Contains(p.HTML, value) {
			t.Errorf("%s lacks %q:\n%s", p.Subject, want, p.Text)
		}
	}
}

// Each person reads their e-mails in their own language, and a guest or a service's contact, who have no
// account, in the organizer's: the subject, the sentences, the dates and the invitation's words.
func TestMailsInTheRecipientsLanguage(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	speaks(t, tl.Bundle, bookingtest.Alice, "es")
	three, half := int32(3), 30*time.Minute

	// Monday 23 November 2026, organized by Alice, who speaks Spanish; Bob speaks English. The check-in
	// reminders are due at once: the fixture's clock is behind the real one.
	tl.book(t, bookingtest.Alice, booking.NewBooking{
		ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(0, 12, 0), End: bookingtest.At(0, 13, 0),
		InternalAttendees: []booking.InternalAttendee{{Type: "REQUIRED", UserID: bookingtest.Bob}},
		ExternalAttendees: []booking.ExternalAttendee{{Type: "OPTIONAL", Email: guest}},
		Reservables:       []booking.ReservableOrder{{ReservableID: bookingtest.ReservableCoffee, Quantity: &three, DeliveryTime: &half}},
	})
	got := tl.waitFor(t, map[string]int{alice: 2, bob: 1, guest: 1, catering: 1})
	confirmation := only(t, got[alice], "Reserva confirmada · Goya")
	wantMail(t, confirmation, "es", "Reserva confirmada · Goya", "Has reservado Goya.", "Cuándo: lun 23 nov, 12:00–13:00 hora de Madrid",
		"Estado: Confirmada", "Recibes esto porque organizas esta reserva en Acme.", "Dejar de recibir estos correos")
	wantMail(t, only(t, got[alice], "Plazo de registro abierto"), "es", "Plazo de registro abierto · Goya", "Registrar llegada")
	wantCalendar(t, confirmation, "REQUEST", "CONFIRMED")
	if s := prop(confirmation.Calendar, "SUMMARY"); s != "Reserva de sala · Goya" {
		t.Errorf("the invitation's SUMMARY %q, want it in Spanish", s)
	}
	if d := caltest.Read(t, []byte(confirmation.Calendar)).Events[0].Description; !strings.Contains(d, "Cuándo: lun 23 nov, 12:00–13:00 hora de Madrid") {
		t.Errorf("the invitation's DESCRIPTION %q, want its facts in Spanish", d)
	}
	wantMail(t, got[bob][0], "en", "Invitation · Goya", "alice Archer invites you to a booking of Goya.",
		"When: Mon 23 Nov, 12:00–13:00 Madrid time", "You get this because you were invited to a booking at Acme.")
	if s := prop(got[bob][0].Calendar, "SUMMARY"); s != "Room booking · Goya" {
		t.Errorf("Bob's invitation's SUMMARY %q, want it in English", s)
	}
	wantMail(t, got[guest][0], "es", "Invitación · Goya", "alice Archer te invita a una reserva de Goya.", "lun 23 nov, 12:00–13:00")
	wantMail(t, got[catering][0], "es", "Nuevo pedido: Coffee · Goya", "Una reserva pide tu servicio.",
		"cantidad 3, entrega a las 12:30", "Recibes esto porque eres el contacto de un servicio")

	// Organized by Bob, who speaks English: his guest reads English, Alice, invited, Spanish.
	waitQuiet(t, tl)
	tl.sink.reset()
	tl.book(t, bookingtest.Bob, booking.NewBooking{
		ResourceID: bookingtest.RoomVelazquez, Start: bookingtest.At(0, 14, 0), End: bookingtest.At(0, 15, 0), Subject: "Budget",
		InternalAttendees: []booking.InternalAttendee{{Type: "REQUIRED", UserID: bookingtest.Alice}},
		ExternalAttendees: []booking.ExternalAttendee{{Type: "OPTIONAL", Email: guest}},
	})
	got = tl.waitFor(t, map[string]int{bob: 2, alice: 1, guest: 1})
	wantMail(t, only(t, got[bob], "Booking confirmed"), "en", "Booking confirmed · Velázquez", "You have booked Velázquez.",
		"When: Mon 23 Nov, 14:00–15:00 Madrid time", "Status: Confirmed: check in when you arrive", "Stop these e-mails")
	wantMail(t, got[alice][0], "es", "Invitación · Velázquez", "bob Baker te invita a “Budget”.", "Cuándo: lun 23 nov, 14:00–15:00 hora de Madrid")
	wantMail(t, got[guest][0], "en", "Invitation · Velázquez", "bob Baker invites you to “Budget”.", "Mon 23 Nov, 14:00–15:00 Madrid time")
}

// A calendar feed is read by a calendar app, not a person: its words are in the language of the person it
// belongs to, or of the person who subscribes to a room's.
func TestFeedsInTheOwnersLanguage(t *testing.T) {
	t.Parallel()
	tb := setup(t, "https://book.example.org")
	speaks(t, tb.Bundle, bookingtest.Alice, "es")
	bob := tb.User(t, bookingtest.OrgA, bookingtest.Bob)
	if _, err := tb.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: bob, Organizer: bob, Category: booking.CategorySpace,
		Bookings: []booking.NewBooking{{ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(3, 10, 0), End: bookingtest.At(3, 11, 0),
			InternalAttendees: []booking.InternalAttendee{{Type: "REQUIRED", UserID: bookingtest.Alice}}}}}); err != nil {
		t.Fatal(err)
	}
	alice := tb.User(t, bookingtest.OrgA, bookingtest.Alice)
	feed, err := tb.svc.PersonalFeed(t.Context(), tb.settings(t, alice).FeedSecret)
	if err != nil {
		t.Fatal(err)
	}
	doc := caltest.Read(t, feed)
	if len(doc.Events) != 1 || !strings.Contains(doc.Events[0].Description, "Organizada por bob Baker.") ||
		!strings.Contains(doc.Events[0].Description, "Detalles: https://book.example.org/bookings/") {
		t.Errorf("Alice's feed: %+v, want its description in Spanish", doc.Events)
	}
	for who, want := range map[*booking.User]string{&alice: "Reservado", &bob: "Booked"} {
		feed, err := tb.svc.RoomFeed(t.Context(), *who, bookingtest.RoomGoya)
		if err != nil {
			t.Fatal(err)
		}
		if doc := caltest.Read(t, feed); len(doc.Events) != 1 || doc.Events[0].Summary != want {
			t.Errorf("Goya's feed for %s: %+v, want one event called %q", who.Name, doc.Events, want)
		}
	}
}

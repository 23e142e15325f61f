package booking_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/lang"
)

// wantRefusalEs fails the test unless err is a domain error with the code whose message is english, and
// which In reads as spanish in Spanish while its Message stays English.
func wantRefusalEs(t *testing.T, err error, code booking.Code, english, spanish string) {
	t.Helper()
	bookingtest.WantCode(t, err, code)
	var e *booking.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v, want a *booking.Error", err)
	}
	if e.Message != english {
		t.Errorf("Message = %q, want %q", e.Message, english)
	}
	if got := e.In(lang.With(context.Background(), language.Spanish)); got != spanish {
		t.Errorf("In(es) = %q, want %q", got, spanish)
	}
	if got := e.In(context.Background()); got != english {
		t.Errorf("In(en) = %q, want %q", got, english)
	}
	if e.Message != english {
		t.Errorf("Message = %q after In, want %q", e.Message, english)
	}
}

// TestBookingRefusalsInSpanish makes refusals of booking, check-in and search for real and reads them in
// Spanish: words, dates and time zones in Spanish; names, ids and codes as they are; Message in English.
func TestBookingRefusalsInSpanish(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	es := lang.With(context.Background(), language.Spanish)

	// Check-in of Alice's Goya booking on Tue 24 Nov 10:00–11:00, whose window is 09:50–10:15.
	bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
	for _, tc := range []struct {
		name             string
		at               time.Time
		code             booking.Code
		english, spanish string
	}{
		{"OpensAnotherDay", at(0, 10, 0), booking.CodeCheckInNotOpenYet,
			"check-in opens at Tue 24 Nov 09:50 Madrid time",
			"el plazo de registro se abre el mar 24 nov a las 09:50 hora de Madrid"},
		{"OpensToday", at(1, 9, 0), booking.CodeCheckInNotOpenYet,
			"check-in opens at 09:50 Madrid time",
			"el plazo de registro se abre a las 09:50 hora de Madrid"},
		{"Closed", at(1, 10, 20), booking.CodeCheckInClosed,
			"check-in closed at 10:15 Madrid time",
			"el plazo de registro se cerró a las 10:15 hora de Madrid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b.Clock.Set(tc.at)
			_, err := b.Service.CheckIn(t.Context(), u.alice, bk.ID)
			wantRefusalEs(t, err, tc.code, tc.english, tc.spanish)
		})
	}
	b.Clock.Set(bookingtest.Now)

	t.Run("ResourceTaken", func(t *testing.T) {
		_, err := book(t, b, u.bob, u.bob, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 30), at(1, 11, 30)))
		wantRefusalEs(t, err, booking.CodeResourceNotAvailable,
			"Goya is already booked during part of that time",
			"Goya ya tiene una reserva durante parte de ese tiempo")
	})

	// Alice holds Desk 1 on Tue 24 Nov 09:00–18:00; a second desk then is refused, naming the first.
	mustBook(t, b, u.alice, u.alice, booking.CategoryWorkstation, bookingtest.Request(bookingtest.DeskOne, at(1, 9, 0), at(1, 18, 0)))
	t.Run("DeskHeld", func(t *testing.T) {
		_, err := book(t, b, u.alice, u.alice, booking.CategoryWorkstation, bookingtest.Request(bookingtest.DeskTwo, at(1, 17, 0), at(1, 19, 0)))
		wantRefusalEs(t, err, booking.CodeUserAlreadyHasWorkstation,
			booking.FullName(u.alice)+" already has Desk 1 from 09:00 to 18:00 Madrid time on Tue 24 Nov",
			booking.FullName(u.alice)+" ya tiene Desk 1 de 09:00 a 18:00 hora de Madrid el mar 24 nov")
	})
	t.Run("DeskHeldInTheSameRequest", func(t *testing.T) {
		_, err := book(t, b, u.bob, u.bob, booking.CategoryWorkstation,
			bookingtest.Request(bookingtest.DeskOne, at(2, 22, 0), at(3, 2, 0)),
			bookingtest.Request(bookingtest.DeskTwo, at(3, 1, 0), at(3, 3, 0)))
		wantRefusalEs(t, err, booking.CodeUserAlreadyHasWorkstation,
			booking.FullName(u.bob)+" already has Desk 1 from Wed 25 Nov 22:00 to Thu 26 Nov 02:00 Madrid time (element 0 of the same request)",
			booking.FullName(u.bob)+" ya tiene Desk 1 del mié 25 nov a las 22:00 al jue 26 nov a las 02:00 hora de Madrid (elemento 0 de la misma solicitud)")
	})

	t.Run("FieldRefusal", func(t *testing.T) {
		r := bookingtest.Request(bookingtest.RoomGoya, at(3, 10, 0), at(3, 11, 0))
		r.ExternalAttendees = []booking.ExternalAttendee{{Type: booking.AttendeeOptional, Email: "nobody"}}
		_, err := book(t, b, u.alice, u.alice, booking.CategorySpace, r)
		wantRefusalEs(t, err, booking.CodeInvalidRequest,
			`externalAttendees[0].email: "nobody" is not an e-mail address`,
			`externalAttendees[0].email: "nobody" no es una dirección de correo electrónico`)
	})

	t.Run("UnknownUser", func(t *testing.T) {
		nobody := uuid.MustParse("00000000-0000-4000-8000-000000000999")
		_, err := b.Service.ActingFor(t.Context(), u.rita, &nobody)
		wantRefusalEs(t, err, booking.CodeUserNotFound,
			"no user 00000000-0000-4000-8000-000000000999 in your organization",
			"no hay ningún usuario 00000000-0000-4000-8000-000000000999 en tu organización")
	})

	// A search day's refusal is a phrase: written in a message's language wherever it goes.
	mustSaveClosures(t, b, closure(1, "resource", bookingtest.RoomGoya, at(5, 0, 0), at(6, 0, 0), "Moqueta"))
	goya := bookingtest.RoomGoya
	for _, tc := range []struct {
		name             string
		day              time.Time
		from, to         time.Duration
		english, spanish string
	}{
		{"SearchClosed", at(5, 0, 0), 10 * time.Hour, 11 * time.Hour, "closed: Moqueta", "cerrado: Moqueta"},
		{"SearchOver", at(0, 0, 0), 7 * time.Hour, 8 * time.Hour, "that time is over", "esa hora ya ha pasado"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found, err := b.Service.Search(t.Context(), u.alice, booking.SearchQuery{
				ResourceID: &goya, Days: []time.Time{tc.day}, From: tc.from, To: tc.to,
			})
			if err != nil {
				t.Fatal(err)
			}
			d := found.Results[0].Days[0]
			if d.State != booking.SpotUnavailable || d.Why == nil {
				t.Fatalf("State %s, Why %v; want unavailable, with why", d.State, d.Why)
			}
			if d.Refusal != tc.english || d.Why.Message != tc.english {
				t.Errorf("Refusal %q, Why.Message %q; want %q", d.Refusal, d.Why.Message, tc.english)
			}
			var why lang.Phrase = d.Why
			if got := why.In(es); got != tc.spanish {
				t.Errorf("Why in Spanish = %q, want %q", got, tc.spanish)
			}
		})
	}
}

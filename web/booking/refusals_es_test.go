package booking_test

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/lang"
)

// wantSpanish fails the test unless err is a domain error with the code whose message is english, and
// which reads spanish in Spanish.
func wantSpanish(t *testing.T, err error, code booking.Code, english, spanish string) {
	t.Helper()
	wantMessage(t, err, code, english)
	var e *booking.Error
	errors.As(err, &e)
	es := lang.With(context.Background(), language.Spanish)
	if got := e.In(es); got != spanish {
		t.Errorf("In(es) = %q, want %q", got, spanish)
	}
	if got := e.In(context.Background()); got != english {
		t.Errorf("In(en) = %q, want the message %q", got, english)
	}
	if e.Message != english {
		t.Errorf("Message = %q after In, want %q", e.Message, english)
	}
}

// TestRefusalsInSpanish makes refusals of closures, rules and floor plans for real and reads them in
// Spanish: words, dates and time zones in Spanish, names and reasons as they are, Message in English.
func TestRefusalsInSpanish(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	adam := b.User(t, bookingtest.OrgA, bookingtest.Adam)
	goya := func(day, from, to int) booking.NewBooking {
		return bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(day, from, 0), bookingtest.At(day, to, 0))
	}

	// Two bookings, then a closure over them without a choice: 4016 names them, with their times.
	mustCreate(t, b, alice,
		goya(1, 10, 11),
		bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(2, 9, 0), bookingtest.At(2, 10, 30)))
	floorWorks := closure(1, "floor", bookingtest.FloorMadrid, bookingtest.At(1, 0, 0), bookingtest.At(3, 0, 0), "Obras")
	wantSpanish(t, saveClosures(t, b, floorWorks), booking.CodeClosureCoversBookings,
		"closures[0]: the closure covers 2 bookings: Goya for alice Archer from 10:00 to 11:00 Madrid time on Tue 24 Nov; "+
			"Velázquez for alice Archer from 09:00 to 10:30 Madrid time on Wed 25 Nov. "+
			"Choose to cancel them (overlapping CANCEL) or to keep them (overlapping KEEP)",
		"closures[0]: el cierre afecta a 2 reservas: Goya, de alice Archer, de 10:00 a 11:00 hora de Madrid el mar 24 nov; "+
			"Velázquez, de alice Archer, de 09:00 a 10:30 hora de Madrid el mié 25 nov. "+
			"Elige cancelarlas (overlapping CANCEL) o conservarlas (overlapping KEEP)")
	floorWorks.Overlapping = "KEEP"
	mustSaveClosures(t, b, floorWorks,
		closure(2, "resource", bookingtest.RoomGoya, bookingtest.At(4, 12, 0), bookingtest.At(4, 14, 0), "Ventanas"))

	for _, tc := range []struct {
		name             string
		req              booking.NewBooking
		code             booking.Code
		english, spanish string
	}{
		{"ClosedForDays", goya(2, 11, 12), booking.CodeResourceClosed,
			"Goya is closed from Tue 24 Nov to Wed 25 Nov: Obras",
			"Goya no está disponible del mar 24 nov al mié 25 nov por cierre: Obras"},
		{"ClosedForHours", goya(4, 13, 15), booking.CodeResourceClosed,
			"Goya is closed from 12:00 to 14:00 Madrid time on Fri 27 Nov: Ventanas",
			"Goya no está disponible de 12:00 a 14:00 hora de Madrid el vie 27 nov por cierre: Ventanas"},
		{"OutsideTheHours", goya(3, 20, 21), booking.CodeDateOutsideResourceHours,
			"the resource can be booked from 08:00 to 20:00 Madrid time on that day",
			"ese día el recurso se puede reservar de 08:00 a 20:00 hora de Madrid"},
		{"TooLong", goya(3, 9, 14), booking.CodeDurationExceedsMaximum,
			"the booking lasts 5h, longer than the maximum of 4h",
			"la reserva dura 5h, más que el máximo de 4h"},
		{"TooFarAhead", goya(40, 10, 11), booking.CodeDateExceedsMaximumAdvance,
			"bookings of this resource may start at most 30 days ahead",
			"las reservas de este recurso pueden empezar como máximo con 30 días de antelación"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := book(t, b, alice, alice, booking.CategorySpace, tc.req)
			wantSpanish(t, err, tc.code, tc.english, tc.spanish)
		})
	}

	t.Run("FloorPlan", func(t *testing.T) {
		_, err := b.Service.SetFloorPlan(t.Context(), adam, bookingtest.FloorMadrid, "image/svg+xml", nil)
		wantSpanish(t, err, booking.CodeInvalidRequest, "plan: the file is empty", "plan: el archivo está vacío")
		_, err = b.Service.SetFloorPlan(t.Context(), alice, bookingtest.FloorMadrid, "image/svg+xml", []byte("<svg/>"))
		wantSpanish(t, err, booking.CodeForbidden, "floor plans are uploaded by admins", "solo los administradores suben planos")
	})
}

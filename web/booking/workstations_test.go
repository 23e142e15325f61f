package booking_test

import (
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestImportRefusesASecondWorkstationOfOnePerson(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	first := layoutBooking(bookingtest.DeskOne, bookingtest.At(1, 9, 0), bookingtest.At(1, 18, 0), booking.StatusPending)
	second := layoutBooking(bookingtest.DeskTwo, bookingtest.At(1, 17, 0), bookingtest.At(1, 19, 0), booking.StatusPending)
	room := layoutBooking(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0), booking.StatusPending)
	_, err := b.Service.Import(t.Context(), booking.Layout{Bookings: []booking.LayoutBooking{first, room, second}})
	wantCode(t, err, booking.CodeInvalidRequest)
	wantMessagePrefix(t, err, "bookings[2].organizerId: already has another workstation during part of that time")
	wantNoBookings(t, b)
	// A cancelled one holds nothing.
	second.Status = string(booking.StatusCancelled)
	importBookings(t, b, first, room, second)
}

package booking_test

import (
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

func TestImportRefusesASecondWorkstationOfOnePerson(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	first := bookingtest.LayoutBooking(bookingtest.DeskOne, bookingtest.At(1, 9, 0), bookingtest.At(1, 18, 0), booking.StatusPending)
	second := bookingtest.LayoutBooking(bookingtest.DeskTwo, bookingtest.At(1, 17, 0), bookingtest.At(1, 19, 0), booking.StatusPending)
	room := bookingtest.LayoutBooking(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0), booking.StatusPending)
	_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Bookings: []layout.LayoutBooking{first, room, second}})
	bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
	bookingtest.WantMessagePrefix(t, err, "bookings[2].organizerId: already has another workstation during part of that time")
	wantNoBookings(t, b)
	// A cancelled booking holds nothing.
	second.Status = string(booking.StatusCancelled)
	importBookings(t, b, first, room, second)
}

// Only the resource-overlap constraint becomes 4001, and only the one-desk constraint becomes 4013. An
// exclusion constraint the service does not know is an unexpected error, not a refusal whose message
// would blame the wrong thing.
func TestOnlyKnownExclusionConstraintsAreRefusals(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	at := bookingtest.At
	if _, err := b.Pool.Exec(t.Context(), `
ALTER TABLE bookings ADD CONSTRAINT bookings_one_at_a_time EXCLUDE USING gist (
    organization_id WITH =, tstzrange(start_date, end_date, '[)') WITH &&
) WHERE (status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE'))`); err != nil {
		t.Fatal(err)
	}
	if _, err := book(t, b, u.alice, u.alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0))); err != nil {
		t.Fatalf("CreateBookings Goya: %v", err)
	}
	_, err := book(t, b, u.bob, u.bob, booking.CategorySpace, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 30), at(1, 11, 30)))
	if booking.ErrorCode(err) != booking.CodeInternal || !strings.Contains(err.Error(), "bookings_one_at_a_time") {
		t.Errorf("CreateBookings Velázquez = %v (code %d), want an unexpected error naming the constraint", err, booking.ErrorCode(err))
	}
}

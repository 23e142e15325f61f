package web_test

import (
	"net/http"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// codeUserAlreadyHasWorkstation is 4013: a person holds at most one workstation at any moment.
const codeUserAlreadyHasWorkstation = booking.Code(4013)

func TestOnePersonOneWorkstation(t *testing.T) {
	t.Parallel()

	t.Run("SecondDeskAtTheSameTimeIs4013NamingTheFirst", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 18, 0))}), 1)
		r := tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskTwo, fx.At(1, 12, 0), fx.At(1, 13, 0))})
		p := wantProblem(t, r, http.StatusConflict, codeUserAlreadyHasWorkstation, 0)
		wantValue(t, "detail", p["detail"], "alice Archer already has Desk 1 from 09:00 to 18:00 Madrid time on Tue 24 Nov")
		tb.wantRows(t, "bookings", 1)
	})

	t.Run("WhoeverBooksIt", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{allDay(fx.DeskOne, fx.At(1, 0, 0))}), 1)
		r := tb.call(t, fx.Rita, http.MethodPost, deskPath(fx.Alice.String()), []any{deskBooking(fx.DeskTwo, fx.At(1, 15, 0), fx.At(1, 16, 0))})
		p := wantProblem(t, r, http.StatusConflict, codeUserAlreadyHasWorkstation, 0)
		wantDetail(t, p, "alice Archer already has Desk 1")
		// Rita herself may have a desk then, and Bob the other one.
		created(t, tb.call(t, fx.Rita, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskTwo, fx.At(1, 15, 0), fx.At(1, 16, 0))}), 1)
		tb.wantRows(t, "bookings", 2)
	})

	t.Run("TwoDesksOfOneRequestIs4013AtTheSecond", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{
			deskBooking(fx.DeskOne, fx.At(2, 9, 0), fx.At(2, 12, 0)),
			deskBooking(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 12, 0)),
			deskBooking(fx.DeskTwo, fx.At(1, 11, 0), fx.At(1, 14, 0)),
		})
		p := wantProblem(t, r, http.StatusConflict, codeUserAlreadyHasWorkstation, 2)
		wantDetail(t, p, "alice Archer already has Desk 1 from 09:00 to 12:00 Madrid time on Tue 24 Nov")
		tb.wantRows(t, "bookings", 0)
	})

	t.Run("BackToBackAndRoomsAreFine", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{
			deskBooking(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 12, 0)),
			deskBooking(fx.DeskTwo, fx.At(1, 12, 0), fx.At(1, 14, 0)),
		}), 2)
		// Rooms are exempt: two at once for one person, beside a desk.
		created(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{
			spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0)),
			spaceBooking(fx.RoomVelazquez, fx.At(1, 10, 0), fx.At(1, 11, 0)),
		}), 2)
	})

	t.Run("ACancelledDeskHoldsNothing", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 18, 0))}), 1)[0]["id"].(string)
		detail(t, tb.call(t, fx.Alice, http.MethodDelete, bookingPath(id), nil), http.StatusOK)
		created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskTwo, fx.At(1, 9, 0), fx.At(1, 18, 0))}), 1)
	})

	t.Run("MovingOntoTheTimeOfAnotherDeskIs4013", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 12, 0))}), 1)
		id := created(t, tb.call(t, fx.Alice, http.MethodPost, deskPath("me"), []any{deskBooking(fx.DeskTwo, fx.At(1, 14, 0), fx.At(1, 16, 0))}), 1)[0]["id"].(string)
		r := tb.call(t, fx.Alice, http.MethodPatch, bookingPath(id), map[string]any{"startDate": fx.At(1, 11, 0).UnixMilli()})
		p := wantProblem(t, r, http.StatusConflict, codeUserAlreadyHasWorkstation, noIndex)
		wantValue(t, "detail", p["detail"], "alice Archer already has Desk 1 from 09:00 to 12:00 Madrid time on Tue 24 Nov")
		b := tb.get(t, fx.Alice, id)
		wantInt(t, "startDate", b["startDate"], fx.At(1, 14, 0).UnixMilli())
	})
}

package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// codeUserAlreadyHasWorkstation is code 4013: a person may hold at most one workstation at a time.
const codeUserAlreadyHasWorkstation = booking.Code(4013)

// TestOnePersonOneWorkstation checks the one-workstation rule through the API.
// TestPageOnePersonOneWorkstation below checks it through the pages.
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
		// Rita herself may have a desk at that time, and Bob the other desk.
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
		// Rooms are exempt: one person may hold two rooms at once, as well as a desk.
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

func TestPageOnePersonOneWorkstation(t *testing.T) {
	t.Parallel()

	t.Run("FindSaysWhichDeskIsAlreadyYours", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		findBook(t, pb, fx.Alice, fx.DeskOne, booking.CategoryWorkstation, fx.At(1, 9, 0), fx.At(1, 18, 0))
		b := pb.signedIn(t, fx.Alice)
		p := b.get(findPath("kind", "desk", "date", "2026-11-24", "from", "10:00", "to", "11:00"))
		p.wantStatus(t, http.StatusOK)
		if got, want := squash(p.text(".held")), "You already have Desk 1 then (from 09:00 to 18:00 Madrid time on Tue 24 Nov)."; got != want {
			t.Errorf("notice = %q, want %q", got, want)
		}
		for _, path := range []string{
			findPath("kind", "desk", "date", "2026-11-24", "from", "18:00", "to", "19:00"), // after the held desk's time
			findPath("kind", "desk", "date", "2026-11-25", "from", "10:00", "to", "11:00"), // another day
			findPath("kind", "room", "date", "2026-11-24", "from", "10:00", "to", "11:00"), // rooms are exempt
		} {
			if n := b.get(path).count(".held"); n != 0 {
				t.Errorf("%s: %d notices of a desk held, want none", path, n)
			}
		}
		if n := pb.signedIn(t, fx.Bob).get(findPath("kind", "desk", "date", "2026-11-24", "from", "10:00", "to", "11:00")).count(".held"); n != 0 {
			t.Errorf("Bob sees %d notices of Alice's desk, want none", n)
		}
		// With several days, a desk held on the second day is named too.
		findBook(t, pb, fx.Bob, fx.DeskOne, booking.CategoryWorkstation, fx.At(2, 9, 0), fx.At(2, 18, 0))
		p = pb.signedIn(t, fx.Bob).get(findPath("kind", "desk", "date", "2026-11-24", "date", "2026-11-25", "from", "10:00", "to", "11:00"))
		if got, want := squash(p.text(".held")), "You already have Desk 1 then (from 09:00 to 18:00 Madrid time on Wed 25 Nov)."; got != want {
			t.Errorf("two days: notice = %q, want %q", got, want)
		}
	})

	t.Run("TheFormRefusesASecondDeskNamingTheFirst", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		findBook(t, pb, fx.Alice, fx.DeskOne, booking.CategoryWorkstation, fx.At(1, 9, 0), fx.At(1, 18, 0))
		b := pb.signedIn(t, fx.Alice)
		p := b.hxPost("/bookings", bookForm([]uuid.UUID{fx.DeskTwo}, "2026-11-24"))
		p.wantStatus(t, http.StatusConflict)
		if got, want := p.text(".booking-error"), "alice Archer already has Desk 1 from 09:00 to 18:00 Madrid time on Tue 24 Nov"; !strings.Contains(got, want) {
			t.Errorf("refusal = %q, want it to say %q", got, want)
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 1 {
			t.Errorf("%d bookings, want 1", n)
		}
	})

	t.Run("TheFormRefusesTwoDesksAtOnce", func(t *testing.T) {
		t.Parallel()
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Alice)
		p := b.hxPost("/bookings", bookForm([]uuid.UUID{fx.DeskOne, fx.DeskTwo}, "2026-11-24"))
		p.wantStatus(t, http.StatusConflict)
		if got, want := p.text(".booking-error"), "alice Archer already has Desk 1 from 10:00 to 11:00 Madrid time on Tue 24 Nov"; !strings.Contains(got, want) {
			t.Errorf("refusal = %q, want it to say %q", got, want)
		}
		if n := len(findOwnBookings(t, pb, fx.Alice)); n != 0 {
			t.Errorf("%d bookings, want none", n)
		}
	})
}

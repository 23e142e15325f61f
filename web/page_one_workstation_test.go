package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

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
			findPath("kind", "desk", "date", "2026-11-24", "from", "18:00", "to", "19:00"), // after it
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
		// Several days: a desk held on the second of them is named too.
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

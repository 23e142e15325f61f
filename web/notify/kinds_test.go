package notify_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
)

// Each kind of event reaches the people it concerns, and no one else.
func TestMailsOfEachKind(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	room := func(day int) booking.NewBooking {
		return booking.NewBooking{ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(day, 10, 0), End: bookingtest.At(day, 11, 0),
			ExternalAttendees: []booking.ExternalAttendee{{Type: "REQUIRED", Email: guest}}}
	}
	board := booking.NewBooking{ResourceID: bookingtest.RoomBoard, Start: bookingtest.At(2, 10, 0), End: bookingtest.At(2, 11, 0)}
	cases := []struct {
		name string
		// act makes the event after the booking's own e-mails went out; nil: the booking is the event.
		make func(t *testing.T, tl *teller) booking.Booking
		act  func(t *testing.T, tl *teller, b booking.Booking)
		want map[string][]string // recipient → subjects, in any order
	}{{
		name: "WaitingForApproval",
		make: func(t *testing.T, tl *teller) booking.Booking { return tl.book(t, bookingtest.Alice, board) },
		want: map[string][]string{alice: {"Booking waiting for approval · Boardroom"}, adam: {"A booking waits for your approval · Boardroom"}},
	}, {
		name: "Approved",
		make: func(t *testing.T, tl *teller) booking.Booking { return tl.book(t, bookingtest.Alice, board) },
		act: func(t *testing.T, tl *teller, b booking.Booking) {
			if _, err := tl.Service.Decide(ctx, tl.User(t, bookingtest.OrgA, bookingtest.Adam), b.ID, true); err != nil {
				t.Fatal(err)
			}
		},
		want: map[string][]string{alice: {"Booking approved · Boardroom", "Check-in is open · Boardroom"}},
	}, {
		name: "Rejected",
		make: func(t *testing.T, tl *teller) booking.Booking { return tl.book(t, bookingtest.Alice, board) },
		act: func(t *testing.T, tl *teller, b booking.Booking) {
			if _, err := tl.Service.Decide(ctx, tl.User(t, bookingtest.OrgA, bookingtest.Adam), b.ID, false); err != nil {
				t.Fatal(err)
			}
		},
		want: map[string][]string{alice: {"Booking rejected · Boardroom"}},
	}, {
		name: "ExpiredNoShow",
		make: func(t *testing.T, tl *teller) booking.Booking { return tl.book(t, bookingtest.Alice, room(1)) },
		act: func(t *testing.T, tl *teller, b booking.Booking) {
			tl.Clock.Set(bookingtest.At(1, 10, 30))
			if _, err := tl.Service.Sweep(ctx); err != nil {
				t.Fatal(err)
			}
		},
		want: map[string][]string{alice: {"Booking expired · Goya"}, guest: {"Invitation cancelled · Goya"}},
	}, {
		name: "ClosedByAClosure",
		make: func(t *testing.T, tl *teller) booking.Booking { return tl.book(t, bookingtest.Alice, room(2)) },
		act: func(t *testing.T, tl *teller, b booking.Booking) {
			body := fmt.Appendf(nil, `{"buildingId": %q, "startDate": %d, "endDate": %d, "reason": "Holiday", "overlapping": "CANCEL"}`,
				bookingtest.BuildingMadrid, bookingtest.At(2, 0, 0).UnixMilli(), bookingtest.At(3, 0, 0).UnixMilli())
			admin := layout.New(tl.Pool, tl.Service)
			if _, _, err := admin.Put(ctx, tl.User(t, bookingtest.OrgA, bookingtest.Adam), "closures", uuid.New(), body, ""); err != nil {
				t.Fatal(err)
			}
		},
		want: map[string][]string{alice: {"Booking cancelled: closed · Goya"}, guest: {"Invitation cancelled · Goya"}},
	}, {
		name: "OrganizerDeactivated",
		make: func(t *testing.T, tl *teller) booking.Booking { return tl.book(t, bookingtest.Alice, room(2)) },
		act: func(t *testing.T, tl *teller, b booking.Booking) {
			people := identity.New(tl.Pool, tl.Service)
			if err := people.SetUserActive(ctx, tl.User(t, bookingtest.OrgA, bookingtest.Adam), bookingtest.Alice, false); err != nil {
				t.Fatal(err)
			}
		},
		want: map[string][]string{guest: {"Invitation cancelled · Goya"}},
	}, {
		name: "ServicesChanged",
		make: func(t *testing.T, tl *teller) booking.Booking {
			one := int32(1)
			nb := room(2)
			nb.Reservables = []booking.ReservableOrder{{ReservableID: bookingtest.ReservableCoffee, Quantity: &one}}
			return tl.book(t, bookingtest.Alice, nb)
		},
		act: func(t *testing.T, tl *teller, b booking.Booking) {
			if _, err := tl.Service.ContractReservables(ctx, tl.User(t, bookingtest.OrgA, bookingtest.Alice), b.ID, []booking.ReservableOrder{{ReservableID: bookingtest.ReservableAV}}); err != nil {
				t.Fatal(err)
			}
		},
		want: map[string][]string{catering: {"Order cancelled: Coffee · Goya"}},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tl := newTeller(t)
			b := c.make(t, tl)
			if c.act != nil {
				waitQuiet(t, tl)
				tl.sink.reset()
				c.act(t, tl, b)
			}
			want := map[string]int{}
			for to, subjects := range c.want {
				want[to] = len(subjects)
			}
			got := tl.waitFor(t, want)
			for to, subjects := range c.want {
				for _, s := range subjects {
					only(t, got[to], s)
				}
			}
		})
	}
}

// waitQuiet waits until the outbox has nothing left to do: every event moved to River, and every job
// due finished.
func waitQuiet(t *testing.T, tl *teller) {
	t.Helper()
	bookingtest.WaitFor(t, "the outbox to finish", func() bool {
		var n int
		err := tl.Pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM outbox_events) + (SELECT count(*) FROM river_job
			WHERE state NOT IN ('completed', 'cancelled', 'discarded') AND NOT (state = 'scheduled' AND scheduled_at > now()))`).Scan(&n)
		return err == nil && n == 0
	})
	time.Sleep(200 * time.Millisecond)
}

// A person who turned invitations off gets none, but still hears when a booking they were invited to is
// cancelled, since their calendar must drop it.
func TestTurnedOffInvitations(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	ctx := context.Background()
	if _, err := tl.Pool.Exec(ctx, `INSERT INTO notice_settings (organization_id, user_id, feed_secret, unsubscribe_secret, mail_off)
		VALUES ($1, $2, 'feed-secret-of-bob-0123456789abcdef', 'unsubscribe-secret-of-bob-0123456789', '{invitation}')`,
		bookingtest.OrgA, bookingtest.Bob); err != nil {
		t.Fatal(err)
	}
	b := tl.book(t, bookingtest.Alice, booking.NewBooking{ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(2, 10, 0), End: bookingtest.At(2, 11, 0),
		InternalAttendees: []booking.InternalAttendee{{Type: "REQUIRED", UserID: bookingtest.Bob}}})
	tl.waitFor(t, map[string]int{alice: 2})
	tl.sink.reset()
	if _, err := tl.Service.Cancel(ctx, tl.User(t, bookingtest.OrgA, bookingtest.Alice), b.ID); err != nil {
		t.Fatal(err)
	}
	got := tl.waitFor(t, map[string]int{alice: 1, bob: 1})
	only(t, got[bob], "Invitation cancelled")
}

// A refused booking and a rolled-back transaction record no event, so nobody hears of them.
func TestNothingForARefusedBooking(t *testing.T) {
	t.Parallel()
	tl := newTeller(t)
	ctx := context.Background()
	tl.book(t, bookingtest.Alice, booking.NewBooking{ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(2, 10, 0), End: bookingtest.At(2, 11, 0)})
	waitQuiet(t, tl)
	jobs := bookingtest.RowCount(t, tl.Bundle, "SELECT count(*) FROM river_job WHERE kind <> 'notify_cleanup'")
	bob := tl.User(t, bookingtest.OrgA, bookingtest.Bob)
	_, err := tl.Service.CreateBookings(ctx, booking.CreateRequest{Creator: bob, Organizer: bob, Category: booking.CategorySpace,
		Bookings: []booking.NewBooking{
			{ResourceID: bookingtest.RoomVelazquez, Start: bookingtest.At(2, 10, 0), End: bookingtest.At(2, 11, 0)},
			{ResourceID: bookingtest.RoomGoya, Start: bookingtest.At(2, 10, 30), End: bookingtest.At(2, 11, 30)}, // taken: all or none
		}})
	if err == nil || !strings.Contains(err.Error(), "4001") {
		t.Fatalf("booking a taken room: err = %v, want 4001", err)
	}
	time.Sleep(time.Second)
	if got := bookingtest.RowCount(t, tl.Bundle, "SELECT count(*) FROM river_job WHERE kind <> 'notify_cleanup'"); got != jobs {
		t.Errorf("river_job rows = %d after a refused request, want %d as before", got, jobs)
	}
	if n := len(tl.sink.all()); n != 2 {
		t.Errorf("%d e-mails, want only the 2 of the first booking", n)
	}
}

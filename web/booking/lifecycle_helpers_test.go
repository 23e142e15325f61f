package booking_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Helpers for the lifecycle tests: check-in, check-out, cancel, decide, change, the sweep, and listing a
// user's bookings.

// createOne books one space for u and fails the test on any error.
func createOne(t *testing.T, b *bookingtest.Bundle, u booking.User, r booking.NewBooking) booking.Booking {
	t.Helper()
	return mustCreate(t, b, u, r)[0]
}

// createDesk books one workstation for u and fails the test on any error.
func createDesk(t *testing.T, b *bookingtest.Bundle, u booking.User, r booking.NewBooking) booking.Booking {
	t.Helper()
	return mustBook(t, b, u, u, booking.CategoryWorkstation, r)[0]
}

// allDayReq returns a request for an all-day booking of the resource on day's local date.
func allDayReq(resource uuid.UUID, day time.Time) booking.NewBooking {
	return booking.NewBooking{ResourceID: resource, Start: day, AllDay: true, Subject: "Desk day"}
}

// reread returns the booking as stored, read as the admin.
func reread(t *testing.T, b *bookingtest.Bundle, id uuid.UUID) booking.Booking {
	t.Helper()
	bk, err := b.Service.Booking(t.Context(), b.User(t, bookingtest.OrgA, bookingtest.Adam), id)
	if err != nil {
		t.Fatalf("Booking %s: %v", id, err)
	}
	return bk
}

// storedStatus returns the status of a booking as the database holds it.
func storedStatus(t *testing.T, b *bookingtest.Bundle, id uuid.UUID) booking.Status {
	t.Helper()
	var st string
	if err := b.Pool.QueryRow(t.Context(), "SELECT status FROM bookings WHERE id = $1", id).Scan(&st); err != nil {
		t.Fatalf("read status of %s: %v", id, err)
	}
	return booking.Status(st)
}

func wantStored(t *testing.T, b *bookingtest.Bundle, id uuid.UUID, want booking.Status) {
	t.Helper()
	if got := storedStatus(t, b, id); got != want {
		t.Fatalf("stored status = %v, want %v", got, want)
	}
}

func wantStatus(t *testing.T, bk booking.Booking, want booking.Status) {
	t.Helper()
	if got := bk.Status; got != want {
		t.Fatalf("Status = %v, want %v", got, want)
	}
}

// span formats an interval in Madrid time, to the millisecond.
func span(iv booking.Interval) string {
	const f = "2006-01-02 15:04:05.000"
	return iv.Start.In(bookingtest.Madrid).Format(f) + " – " + iv.End.In(bookingtest.Madrid).Format(f)
}

func wantInterval(t *testing.T, name string, got, want booking.Interval) {
	t.Helper()
	if !got.Start.Equal(want.Start) || !got.End.Equal(want.End) {
		t.Errorf("%s = %s, want %s", name, span(got), span(want))
	}
}

func times(bk booking.Booking) booking.Interval {
	return booking.Interval{Start: bk.Start, End: bk.End}
}

// interval returns the interval [s, e).
func interval(s, e time.Time) booking.Interval { return booking.Interval{Start: s, End: e} }

// lifecycleView holds the fields of a booking that lifecycle operations change: status, resource, times,
// all-day flag, check-in window, and contracted reservables (name, delivery, quantity).
type lifecycleView struct {
	ID          uuid.UUID
	Status      booking.Status
	Times       booking.Interval
	Resource    string
	AllDay      bool
	CheckIn     booking.Interval
	Reservables []string
}

func viewOf(bk booking.Booking) lifecycleView {
	rs := []string{}
	for _, br := range bk.Reservables {
		rs = append(rs, fmt.Sprintf("%s@%s×%d", br.Reservable.Name, br.DeliveryTime, br.Quantity))
	}
	return lifecycleView{ID: bk.ID, Status: bk.Status, Times: times(bk), Resource: bk.Resource.Name, AllDay: bk.AllDay,
		CheckIn: bk.CheckIn, Reservables: rs}
}

// wantSame fails the test unless got and want have the same lifecycleView.
func wantSame(t *testing.T, got, want booking.Booking) {
	t.Helper()
	wantEqual(t, "booking", viewOf(want), viewOf(got))
}

// checkIn moves the clock to at and checks u in to the booking, failing the test on any error.
func checkIn(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, at time.Time) booking.Booking {
	t.Helper()
	b.Clock.Set(at)
	bk, err := b.Service.CheckIn(t.Context(), u, id)
	if err != nil {
		t.Fatalf("CheckIn at %s: %v", at.In(bookingtest.Madrid).Format(time.TimeOnly), err)
	}
	return bk
}

// sweep sweeps once and fails the test on any error.
func sweep(t *testing.T, b *bookingtest.Bundle) booking.SweepResult {
	t.Helper()
	res, err := b.Service.Sweep(t.Context())
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	return res
}

// inStatus returns a booking of u in the given status, reached through the service's own operations. The
// booking is 10:00–11:00, day days after Now's date, in Goya (or the Boardroom for the approval
// statuses). The clock is back at Now afterwards. Reaching EXPIRED runs a sweep, which also expires
// anything else due by 10:15 that day.
func inStatus(t *testing.T, b *bookingtest.Bundle, u users, st booking.Status, day int) booking.Booking {
	t.Helper()
	at := bookingtest.At
	ctx := t.Context()
	defer b.Clock.Set(bookingtest.Now)
	room := bookingtest.RoomGoya
	if st == booking.StatusWaitingApproval || st == booking.StatusRejected {
		room = bookingtest.RoomBoard
	}
	bk := createOne(t, b, u.alice, bookingtest.Request(room, at(day, 10, 0), at(day, 11, 0)))
	var err error
	switch st {
	case booking.StatusPending, booking.StatusWaitingApproval:
	case booking.StatusActive:
		bk = checkIn(t, b, u.alice, bk.ID, at(day, 9, 55))
	case booking.StatusFinished:
		checkIn(t, b, u.alice, bk.ID, at(day, 9, 55))
		b.Clock.Set(at(day, 10, 30))
		bk, err = b.Service.CheckOut(ctx, u.alice, bk.ID)
	case booking.StatusCancelled:
		bk, err = b.Service.Cancel(ctx, u.alice, bk.ID)
	case booking.StatusRejected:
		bk, err = b.Service.Decide(ctx, u.adam, bk.ID, false)
	case booking.StatusExpired:
		b.Clock.Set(at(day, 10, 15))
		if res := sweep(t, b); res.Expired < 1 {
			t.Fatalf("Sweep = %+v, want the booking expired", res)
		}
		bk = reread(t, b, bk.ID)
	default:
		t.Fatalf("no way to reach %v", st)
	}
	if err != nil {
		t.Fatalf("reach %v: %v", st, err)
	}
	wantStatus(t, bk, st)
	return bk
}

// settled are the final statuses: a booking in one of them can no longer be checked in, cancelled or
// changed.
var settled = []booking.Status{booking.StatusActive, booking.StatusExpired, booking.StatusFinished,
	booking.StatusCancelled, booking.StatusRejected}

// setupStatuses returns a bundle with one booking of Alice in every status, each on its own day.
func setupStatuses(t *testing.T) (*bookingtest.Bundle, users, map[booking.Status]booking.Booking) {
	t.Helper()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	out := map[booking.Status]booking.Booking{}
	// Make the EXPIRED booking first, so that its sweep finds nothing else due.
	for i, st := range []booking.Status{booking.StatusExpired, booking.StatusActive, booking.StatusFinished,
		booking.StatusCancelled, booking.StatusRejected, booking.StatusWaitingApproval, booking.StatusPending} {
		out[st] = inStatus(t, b, u, st, i+1)
	}
	return b, u, out
}

func aliceOf(u users) booking.User { return u.alice }
func bobOf(u users) booking.User   { return u.bob }
func ritaOf(u users) booking.User  { return u.rita }
func adamOf(u users) booking.User  { return u.adam }
func borisOf(u users) booking.User { return u.boris }

// goyaTomorrow books Goya tomorrow 10:00–11:00 for Alice.
func goyaTomorrow(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
	t.Helper()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	return b, u, createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))
}

// contract contracts the reservables on the booking as u and fails the test on any error.
func contract(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, orders ...booking.ReservableOrder) []booking.BookingReservable {
	t.Helper()
	got, err := b.Service.ContractReservables(t.Context(), u, id, orders)
	if err != nil {
		t.Fatalf("ContractReservables: %v", err)
	}
	return got
}

// wantNotModifiable calls do on bs's booking in each status, and fails the test unless every call is
// refused with 4007 and leaves the booking unchanged.
func wantNotModifiable(t *testing.T, b *bookingtest.Bundle, bs map[booking.Status]booking.Booking, statuses []booking.Status,
	do func(bk booking.Booking) error) {
	t.Helper()
	for _, st := range statuses {
		bk := bs[st]
		if got, want := booking.ErrorCode(do(bk)), booking.CodeBookingNotModifiable; got != want {
			t.Errorf("%s: ErrorCode = %v, want %v", st, got, want)
		}
		wantSame(t, reread(t, b, bk.ID), bk)
	}
}

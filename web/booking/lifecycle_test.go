package booking_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layoutimport"
)

// The helpers of the lifecycle tests (lifecycle, bookings, expiry).

// createOne books one space for u and fails the test on any error.
func createOne(t *testing.T, b *bookingtest.Bundle, u booking.User, r booking.NewBooking) booking.Booking {
	t.Helper()
	return mustCreate(t, b, u, r)[0]
}

// createDesk books one workstation for u and fails the test on any error.
func createDesk(t *testing.T, b *bookingtest.Bundle, u booking.User, r booking.NewBooking) booking.Booking {
	t.Helper()
	bs, err := b.Service.CreateBookings(t.Context(), u, u, booking.CategoryWorkstation, []booking.NewBooking{r}, "", "")
	if err != nil {
		t.Fatalf("CreateBookings (workstation): %v", err)
	}
	return bs[0]
}

// allDayReq asks for an all-day booking of the resource on day's local day.
func allDayReq(resource uuid.UUID, day time.Time) booking.NewBooking {
	return booking.NewBooking{ResourceID: resource, Start: day, AllDay: true, Subject: "Desk day"}
}

// reread returns the booking as stored, read by the admin.
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

// span writes an interval in Madrid time, to the millisecond.
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

// wantSame fails the test unless got is want as far as the lifecycle goes: status, resource, times,
// all-day flag, check-in window and contracted reservables.
func wantSame(t *testing.T, got, want booking.Booking) {
	t.Helper()
	describe := func(bk booking.Booking) string {
		rs := ""
		for _, br := range bk.Reservables {
			rs += fmt.Sprintf(" %s@%s", br.Reservable.Name, br.DeliveryTime)
		}
		return fmt.Sprintf("%s %s %s on %s all-day=%v check-in %s reservables[%s]",
			bk.ID, bk.Status, span(times(bk)), bk.Resource.Name, bk.AllDay, span(bk.CheckIn), rs)
	}
	if g, w := describe(got), describe(want); g != w {
		t.Fatalf("booking =\n%s\nwant\n%s", g, w)
	}
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

// inStatus returns a booking of u in the status, reached the way the service reaches it: on the given day
// after Now's, 10:00–11:00 (Goya, or the Boardroom for the approval statuses). The clock ends at Now.
// Reaching EXPIRED sweeps, which expires whatever else is due by 10:15 that day.
func inStatus(t *testing.T, b *bookingtest.Bundle, u users, st booking.Status, day int) booking.Booking {
	t.Helper()
	at := bookingtest.At
	ctx := t.Context()
	defer b.Clock.Set(bookingtest.Now)
	room := bookingtest.RoomGoya
	if st == booking.StatusWaitingApproval || st == booking.StatusRejected {
		room = bookingtest.RoomBoard
	}
	bk := createOne(t, b, u.alice, req(room, at(day, 10, 0), at(day, 11, 0)))
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

// settled are the statuses a booking leaves the check-in flow for, and a booking can neither be checked
// in, cancelled nor changed in.
var settled = []booking.Status{booking.StatusActive, booking.StatusExpired, booking.StatusFinished,
	booking.StatusCancelled, booking.StatusRejected}

// setupStatuses returns a bundle with one booking of Alice in every status, each on its own day.
func setupStatuses(t *testing.T) (*bookingtest.Bundle, users, map[booking.Status]booking.Booking) {
	t.Helper()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	out := map[booking.Status]booking.Booking{}
	// EXPIRED first: its sweep must find nothing else due.
	for i, st := range []booking.Status{booking.StatusExpired, booking.StatusActive, booking.StatusFinished,
		booking.StatusCancelled, booking.StatusRejected, booking.StatusWaitingApproval, booking.StatusPending} {
		out[st] = inStatus(t, b, u, st, i+1)
	}
	return b, u, out
}

func TestCheckIn(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	// setup books Goya tomorrow 10:00–11:00 for Alice: check-in from 09:50 until (not including) 10:15.
	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		return b, u, createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
	}

	for _, tc := range []struct {
		name string
		at   time.Time
	}{
		{"WhenWindowOpensBecomesActive", at(1, 9, 50)},
		{"InsideWindowBecomesActive", at(1, 10, 5)},
		{"LastMillisecondBecomesActive", at(1, 10, 15).Add(-time.Millisecond)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			got := checkIn(t, b, u.alice, bk.ID, tc.at)
			wantStatus(t, got, booking.StatusActive)
			if got.ID != bk.ID || !got.Start.Equal(bk.Start) || !got.End.Equal(bk.End) {
				t.Errorf("CheckIn returned %s %s, want %s %s", got.ID, span(times(got)), bk.ID, span(times(bk)))
			}
			wantStored(t, b, bk.ID, booking.StatusActive)
			if n := rowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND checked_in_at = $2", bk.ID, tc.at); n != 1 {
				t.Errorf("rows with checked_in_at = %v: %d, want 1", tc.at, n)
			}
		})
	}

	for _, tc := range []struct {
		name string
		at   time.Time
		want booking.Code
	}{
		{"BeforeWindowIs4010", at(1, 9, 50).Add(-time.Millisecond), booking.CodeCheckInNotOpenYet},
		{"DayBeforeIs4010", at(0, 10, 0), booking.CodeCheckInNotOpenYet},
		{"WhenWindowClosesIs4011", at(1, 10, 15), booking.CodeCheckInClosed},
		{"AfterEndIs4011", at(1, 12, 0), booking.CodeCheckInClosed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			b.Clock.Set(tc.at)
			_, err := b.Service.CheckIn(t.Context(), u.alice, bk.ID)
			wantCode(t, err, tc.want)
			wantStored(t, b, bk.ID, booking.StatusPending)
		})
	}

	t.Run("RepeatOnActiveReturnsItUnchanged", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		first := checkIn(t, b, u.alice, bk.ID, at(1, 9, 55))
		// Later, even after the window closed, a retry answers the booking as it is.
		again := checkIn(t, b, u.alice, bk.ID, at(1, 10, 30))
		wantSame(t, again, first)
		if n := rowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND checked_in_at = $2", bk.ID, at(1, 9, 55)); n != 1 {
			t.Errorf("checked_in_at moved on the repeat; want it to stay 09:55")
		}
	})

	t.Run("NotPendingIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bs := setupStatuses(t)
		for _, st := range []booking.Status{booking.StatusCancelled, booking.StatusWaitingApproval, booking.StatusExpired,
			booking.StatusFinished, booking.StatusRejected} {
			bk := bs[st]
			b.Clock.Set(bk.Start)
			_, err := b.Service.CheckIn(t.Context(), u.alice, bk.ID)
			if got, want := booking.ErrorCode(err), booking.CodeBookingNotModifiable; got != want {
				t.Errorf("%s: ErrorCode = %v, want %v (err: %v)", st, got, want, err)
			}
			wantStored(t, b, bk.ID, st)
		}
	})

	for _, tc := range []struct {
		name  string
		actor func(users) booking.User
	}{
		{"ReceptionistMay", func(u users) booking.User { return u.rita }},
		{"AdminMay", func(u users) booking.User { return u.adam }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			wantStatus(t, checkIn(t, b, tc.actor(u), bk.ID, at(1, 10, 0)), booking.StatusActive)
			wantStored(t, b, bk.ID, booking.StatusActive)
		})
	}

	t.Run("CreatorMay", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bs, err := b.Service.CreateBookings(t.Context(), u.bob, u.alice, booking.CategorySpace,
			[]booking.NewBooking{req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0))}, "", "")
		if err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		wantStatus(t, checkIn(t, b, u.bob, bs[0].ID, at(1, 10, 0)), booking.StatusActive)
	})

	t.Run("OtherEmployeeIs1011", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 10, 0))
		_, err := b.Service.CheckIn(t.Context(), u.bob, bk.ID)
		wantCode(t, err, booking.CodeBookingNotFound)
		wantStored(t, b, bk.ID, booking.StatusPending)
	})

	t.Run("InternalAttendeeIs1011", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		r := req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0))
		r.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: bookingtest.Bob}}
		bk := createOne(t, b, u.alice, r)
		b.Clock.Set(at(1, 10, 0))
		_, err := b.Service.CheckIn(t.Context(), u.bob, bk.ID)
		wantCode(t, err, booking.CodeBookingNotFound)
		wantStored(t, b, bk.ID, booking.StatusPending)
	})

	t.Run("OtherOrganizationIs1011", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 10, 0))
		_, err := b.Service.CheckIn(t.Context(), u.boris, bk.ID)
		wantCode(t, err, booking.CodeBookingNotFound)
		wantStored(t, b, bk.ID, booking.StatusPending)
	})

	t.Run("UnknownIs1011", func(t *testing.T) {
		t.Parallel()
		b, u, _ := setup(t)
		_, err := b.Service.CheckIn(t.Context(), u.adam, uuid.New())
		wantCode(t, err, booking.CodeBookingNotFound)
	})
}

// TestCheckInWindow checks the window stored with each booking, and that check-in follows it.
func TestCheckInWindow(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	iv := func(s, e time.Time) booking.Interval { return booking.Interval{Start: s, End: e} }

	for _, tc := range []struct {
		name       string
		now        time.Time
		start, end time.Time
		want       booking.Interval
	}{
		// Opens AdvanceCheckIn (10 min) before the start, closes ExpirationMargin (15 min) after it.
		{"Room", bookingtest.Now, at(1, 10, 0), at(1, 11, 0), iv(at(1, 9, 50), at(1, 10, 15))},
		// Never after the end.
		{"ShortRoomClosesAtEnd", bookingtest.Now, at(1, 10, 0), at(1, 10, 10), iv(at(1, 9, 50), at(1, 10, 10))},
		// A walk-up made at 09:00 for 08:56: not less than 15 min after it was made.
		{"WalkUp", bookingtest.Now, at(0, 8, 56), at(0, 10, 0), iv(at(0, 8, 46), at(0, 9, 15))},
		// A walk-up shorter than the margin still closes at its end.
		{"ShortWalkUpClosesAtEnd", bookingtest.Now, at(0, 8, 56), at(0, 9, 10), iv(at(0, 8, 46), at(0, 9, 10))},
		// Made just before its start: the margin counts from when it was made.
		{"MadeJustBeforeStart", at(0, 9, 55), at(0, 10, 0), at(0, 11, 0), iv(at(0, 9, 50), at(0, 10, 15))},
		{"MadeAfterStart", at(0, 10, 3), at(0, 10, 0), at(0, 11, 0), iv(at(0, 9, 50), at(0, 10, 18))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			b.Clock.Set(tc.now)
			bk := createOne(t, b, u.alice, req(bookingtest.RoomGoya, tc.start, tc.end))
			wantInterval(t, "CheckIn", bk.CheckIn, tc.want)
			wantInterval(t, "stored CheckIn", reread(t, b, bk.ID).CheckIn, tc.want)
			// Check-in follows the window: closed at its end, open on its last millisecond.
			b.Clock.Set(tc.want.End)
			_, err := b.Service.CheckIn(t.Context(), u.alice, bk.ID)
			wantCode(t, err, booking.CodeCheckInClosed)
			checkIn(t, b, u.alice, bk.ID, tc.want.End.Add(-time.Millisecond))
		})
	}

	for _, tc := range []struct {
		name string
		now  time.Time
		day  time.Time
		want booking.Interval // the booking
		win  booking.Interval // its check-in window
	}{
		// The desk rule's day is 00:00–24:00; all-day check-in closes at 11:00 local.
		{"AllDayDesk", bookingtest.Now, at(1, 15, 0), iv(at(1, 0, 0), at(2, 0, 0)), iv(at(1, 0, 0), at(1, 11, 0))},
		{"AllDayDeskToday", bookingtest.Now, at(0, 0, 0), iv(at(0, 9, 0), at(1, 0, 0)), iv(at(0, 9, 0), at(0, 11, 0))},
		// Made after 11:00 (a walk-up): check-in stays open MinCheckInTime after it was made.
		{"AllDayDeskAfterDeadline", at(0, 12, 0), at(0, 12, 0), iv(at(0, 12, 0), at(1, 0, 0)), iv(at(0, 12, 0), at(0, 12, 15))},
		// A day of 23 hours (summer time begins): 11:00 is read on the wall clock.
		{"AllDayDeskOnDaylightSavingDay", bookingtest.Now,
			time.Date(2027, 3, 28, 12, 0, 0, 0, bookingtest.Madrid),
			iv(time.Date(2027, 3, 28, 0, 0, 0, 0, bookingtest.Madrid), time.Date(2027, 3, 29, 0, 0, 0, 0, bookingtest.Madrid)),
			iv(time.Date(2027, 3, 28, 0, 0, 0, 0, bookingtest.Madrid), time.Date(2027, 3, 28, 11, 0, 0, 0, bookingtest.Madrid))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			b.Clock.Set(tc.now)
			bk := createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, tc.day))
			if !bk.AllDay {
				t.Errorf("AllDay = false, want true")
			}
			wantInterval(t, "booking", times(bk), tc.want)
			wantInterval(t, "CheckIn", bk.CheckIn, tc.win)
			stored := reread(t, b, bk.ID)
			wantInterval(t, "stored booking", times(stored), tc.want)
			wantInterval(t, "stored CheckIn", stored.CheckIn, tc.win)
		})
	}
}

func TestCreateBookingsAllDay(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("CoversWindowOfTheDay", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		r := allDayReq(bookingtest.DeskOne, at(1, 23, 30))
		r.End = at(0, 1, 0) // not read
		bk := createDesk(t, b, u.alice, r)
		wantInterval(t, "booking", times(bk), booking.Interval{Start: at(1, 0, 0), End: at(2, 0, 0)})
		if got, want := bk.ResourceType, booking.CategoryWorkstation; got != want {
			t.Errorf("ResourceType = %v, want %v", got, want)
		}
		wantStatus(t, bk, booking.StatusPending)
		if n := rowCount(t, b, `SELECT count(*) FROM bookings WHERE id = $1 AND all_day AND resource_type = 'WORKSTATION'
			AND start_date = $2 AND end_date = $3`, bk.ID, at(1, 0, 0), at(2, 0, 0)); n != 1 {
			t.Errorf("matching rows = %d, want 1", n)
		}
	})

	t.Run("TodayStartsNowToTheMinute", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		b.Clock.Set(at(0, 9, 37).Add(42*time.Second + 500*time.Millisecond))
		bk := createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, at(0, 0, 0)))
		wantInterval(t, "booking", times(bk), booking.Interval{Start: at(0, 9, 37), End: at(1, 0, 0)})
	})

	t.Run("SecondOnSameDeskAndDayIs4001", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, at(1, 9, 0)))
		_, err := b.Service.CreateBookings(t.Context(), u.bob, u.bob, booking.CategoryWorkstation,
			[]booking.NewBooking{allDayReq(bookingtest.DeskOne, at(1, 18, 0))}, "", "")
		wantCode(t, err, booking.CodeResourceNotAvailable)
		createDesk(t, b, u.bob, allDayReq(bookingtest.DeskTwo, at(1, 18, 0)))
	})

	t.Run("RuleWithoutAllDayIs4012", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		_, err := b.Service.CreateBookings(t.Context(), u.alice, u.alice, booking.CategorySpace,
			[]booking.NewBooking{allDayReq(bookingtest.RoomGoya, at(1, 0, 0))}, "", "")
		wantCode(t, err, booking.CodeAllDayNotAllowed)
		wantNoBookings(t, b)
	})

	t.Run("DayOverIs4002", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		_, err := b.Service.CreateBookings(t.Context(), u.alice, u.alice, booking.CategoryWorkstation,
			[]booking.NewBooking{allDayReq(bookingtest.DeskOne, at(-1, 12, 0))}, "", "")
		wantCode(t, err, booking.CodeDateInThePast)
		wantNoBookings(t, b)
	})

	t.Run("MissingStartIs2000", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		_, err := b.Service.CreateBookings(t.Context(), u.alice, u.alice, booking.CategoryWorkstation,
			[]booking.NewBooking{{ResourceID: bookingtest.DeskOne, AllDay: true}}, "", "")
		wantCode(t, err, booking.CodeInvalidRequest)
		wantNoBookings(t, b)
	})

	t.Run("CheckInClosesAt11Local", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		late := createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, at(1, 0, 0)))
		onTime := createDesk(t, b, u.bob, allDayReq(bookingtest.DeskTwo, at(1, 0, 0)))
		b.Clock.Set(at(1, 11, 0))
		_, err := b.Service.CheckIn(t.Context(), u.alice, late.ID)
		wantCode(t, err, booking.CodeCheckInClosed)
		wantStatus(t, checkIn(t, b, u.bob, onTime.ID, at(1, 11, 0).Add(-time.Millisecond)), booking.StatusActive)
	})
}

func aliceOf(u users) booking.User { return u.alice }
func bobOf(u users) booking.User   { return u.bob }
func borisOf(u users) booking.User { return u.boris }

func TestCheckInByPosterCode(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		return b, u, createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
	}
	scan := func(t *testing.T, b *bookingtest.Bundle, actor, user booking.User, code string, now time.Time) (booking.Booking, error) {
		t.Helper()
		b.Clock.Set(now)
		return b.Service.CheckInByPosterCode(t.Context(), actor, user, code)
	}

	t.Run("ChecksInBookingWhoseWindowIsOpen", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got, err := scan(t, b, u.alice, u.alice, "MAD-R1", at(1, 9, 55))
		if err != nil {
			t.Fatalf("CheckInByPosterCode: %v", err)
		}
		if got.ID != bk.ID {
			t.Errorf("ID = %v, want %v", got.ID, bk.ID)
		}
		wantStatus(t, got, booking.StatusActive)
		wantStored(t, b, bk.ID, booking.StatusActive)
	})

	t.Run("PicksBookingOfThatResource", func(t *testing.T) {
		t.Parallel()
		b, u, goya := setup(t)
		velazquez := createOne(t, b, u.alice, req(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0)))
		got, err := scan(t, b, u.alice, u.alice, "MAD-R2", at(1, 10, 0))
		if err != nil {
			t.Fatalf("CheckInByPosterCode: %v", err)
		}
		if got.ID != velazquez.ID {
			t.Errorf("ID = %v, want the Velázquez booking %v", got.ID, velazquez.ID)
		}
		wantStored(t, b, goya.ID, booking.StatusPending)
	})

	// Refusals: Alice's Goya booking stays PENDING.
	for _, tc := range []struct {
		name        string
		actor, user func(users) booking.User
		code        string
		at          time.Time
		want        booking.Code
	}{
		{"UnknownCodeIs1002", aliceOf, aliceOf, "NOPE", at(1, 10, 0), booking.CodeResourceNotFound},
		{"BeforeWindowIs1012", aliceOf, aliceOf, "MAD-R1", at(1, 9, 50).Add(-time.Millisecond), booking.CodeNoBookingToCheckIn},
		{"AfterWindowIs1012", aliceOf, aliceOf, "MAD-R1", at(1, 10, 15), booking.CodeNoBookingToCheckIn},
		{"AnotherUsersBookingIsNotFound", bobOf, bobOf, "MAD-R1", at(1, 10, 0), booking.CodeNoBookingToCheckIn},
		{"EmployeeScanningForAliceIs1011", bobOf, aliceOf, "MAD-R1", at(1, 10, 0), booking.CodeBookingNotFound},
		// Globex's room has the poster code MAD-R1 too; Boris has no booking of it.
		{"CodeIsReadInActorsOrganization", borisOf, borisOf, "MAD-R1", at(1, 10, 0), booking.CodeNoBookingToCheckIn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			_, err := scan(t, b, tc.actor(u), tc.user(u), tc.code, tc.at)
			wantCode(t, err, tc.want)
			wantStored(t, b, bk.ID, booking.StatusPending)
		})
	}

	t.Run("ActiveCoveringNowIsReturned", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		first := checkIn(t, b, u.alice, bk.ID, at(1, 9, 55))
		got, err := scan(t, b, u.alice, u.alice, "MAD-R1", at(1, 10, 40))
		if err != nil {
			t.Fatalf("CheckInByPosterCode: %v", err)
		}
		wantSame(t, got, first)
	})

	t.Run("BackToBackChecksInTheNextBooking", func(t *testing.T) {
		t.Parallel()
		b, u, next := setup(t)
		// Alice is in Goya 09:00–10:00 and scans the door at 09:55 for her 10:00 meeting there, whose
		// check-in is open: that is the booking to check in, not the one she is already checked in to.
		current := createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 9, 0), at(1, 10, 0)))
		checkIn(t, b, u.alice, current.ID, at(1, 9, 0))
		got, err := scan(t, b, u.alice, u.alice, "MAD-R1", at(1, 9, 55))
		if err != nil {
			t.Fatalf("CheckInByPosterCode: %v", err)
		}
		if got.ID != next.ID {
			t.Errorf("checked in %s %s, want the 10:00 booking %s", got.ID, span(times(got)), next.ID)
		}
		wantStored(t, b, next.ID, booking.StatusActive)
	})

	t.Run("ReceptionistChecksInAlice", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got, err := scan(t, b, u.rita, u.alice, "MAD-R1", at(1, 10, 0))
		if err != nil {
			t.Fatalf("CheckInByPosterCode: %v", err)
		}
		if got.ID != bk.ID {
			t.Errorf("ID = %v, want %v", got.ID, bk.ID)
		}
		wantStored(t, b, bk.ID, booking.StatusActive)
	})
}

func TestCheckOut(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	// setup books Goya tomorrow 10:00–11:00 for Alice and checks her in at 09:55.
	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		return b, u, checkIn(t, b, u.alice, bk.ID, at(1, 9, 55))
	}
	checkOut := func(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, now time.Time) booking.Booking {
		t.Helper()
		b.Clock.Set(now)
		bk, err := b.Service.CheckOut(t.Context(), u, id)
		if err != nil {
			t.Fatalf("CheckOut: %v", err)
		}
		return bk
	}

	t.Run("InsideEndsNowToTheMillisecondAndFreesTheRest", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		now := at(1, 10, 30).Add(123456789 * time.Nanosecond)
		b.Clock.Set(now)
		rest := req(bookingtest.RoomGoya, at(1, 10, 35), at(1, 11, 0))
		_, err := b.Service.CreateBookings(t.Context(), u.bob, u.bob, booking.CategorySpace, []booking.NewBooking{rest}, "", "")
		wantCode(t, err, booking.CodeResourceNotAvailable)

		got := checkOut(t, b, u.alice, bk.ID, now)
		wantStatus(t, got, booking.StatusFinished)
		end := at(1, 10, 30).Add(123 * time.Millisecond)
		wantInterval(t, "booking", times(got), booking.Interval{Start: at(1, 10, 0), End: end})
		wantInterval(t, "stored booking", times(reread(t, b, bk.ID)), booking.Interval{Start: at(1, 10, 0), End: end})
		wantStored(t, b, bk.ID, booking.StatusFinished)
		createOne(t, b, u.bob, rest)
	})

	t.Run("AfterEndKeepsEnd", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := checkOut(t, b, u.alice, bk.ID, at(1, 11, 30))
		wantStatus(t, got, booking.StatusFinished)
		wantInterval(t, "booking", times(got), booking.Interval{Start: at(1, 10, 0), End: at(1, 11, 0)})
	})

	for _, tc := range []struct {
		name string
		at   time.Time
	}{
		{"BeforeStartCancels", at(1, 9, 58)},
		{"AtStartCancels", at(1, 10, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			got := checkOut(t, b, u.alice, bk.ID, tc.at)
			wantStatus(t, got, booking.StatusCancelled)
			wantInterval(t, "booking", times(got), booking.Interval{Start: at(1, 10, 0), End: at(1, 11, 0)})
			wantStored(t, b, bk.ID, booking.StatusCancelled)
			createOne(t, b, u.bob, req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		})
	}

	t.Run("RepeatOnFinishedReturnsIt", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		first := checkOut(t, b, u.alice, bk.ID, at(1, 10, 30))
		again := checkOut(t, b, u.alice, bk.ID, at(1, 10, 45))
		wantSame(t, again, first)
		wantInterval(t, "booking", times(again), booking.Interval{Start: at(1, 10, 0), End: at(1, 10, 30)})
	})

	t.Run("PendingIs4007", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		b.Clock.Set(at(1, 10, 5))
		_, err := b.Service.CheckOut(t.Context(), u.alice, bk.ID)
		wantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusPending)
	})

	t.Run("ReceptionistMay", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		wantStatus(t, checkOut(t, b, u.rita, bk.ID, at(1, 10, 30)), booking.StatusFinished)
	})

	t.Run("OtherEmployeeIs1011", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 10, 30))
		_, err := b.Service.CheckOut(t.Context(), u.bob, bk.ID)
		wantCode(t, err, booking.CodeBookingNotFound)
		wantStored(t, b, bk.ID, booking.StatusActive)
	})
}

func TestCancel(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		return b, u, createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 12, 0)))
	}
	cancel := func(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID) booking.Booking {
		t.Helper()
		bk, err := b.Service.Cancel(t.Context(), u, id)
		if err != nil {
			t.Fatalf("Cancel: %v", err)
		}
		return bk
	}
	contract := func(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, rvs ...uuid.UUID) {
		t.Helper()
		orders := make([]booking.ReservableOrder, len(rvs))
		for i, rv := range rvs {
			orders[i] = booking.ReservableOrder{ReservableID: rv}
		}
		if _, err := b.Service.ContractReservables(t.Context(), u, id, orders); err != nil {
			t.Fatalf("ContractReservables: %v", err)
		}
	}

	t.Run("PendingIsCancelledKeptAndFreesTheSlot", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		slot := req(bookingtest.RoomGoya, at(1, 11, 0), at(1, 12, 0))
		_, err := b.Service.CreateBookings(t.Context(), u.bob, u.bob, booking.CategorySpace, []booking.NewBooking{slot}, "", "")
		wantCode(t, err, booking.CodeResourceNotAvailable)
		got := cancel(t, b, u.alice, bk.ID)
		wantStatus(t, got, booking.StatusCancelled)
		wantInterval(t, "booking", times(got), times(bk))
		wantStored(t, b, bk.ID, booking.StatusCancelled)
		if got, want := tableCount(t, b, "bookings"), 1; got != want {
			t.Errorf("bookings = %d rows, want %d", got, want)
		}
		createOne(t, b, u.bob, slot)
	})

	t.Run("WaitingApprovalIsCancelled", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		wantStatus(t, bk, booking.StatusWaitingApproval)
		wantStatus(t, cancel(t, b, u.alice, bk.ID), booking.StatusCancelled)
		wantStored(t, b, bk.ID, booking.StatusCancelled)
		createOne(t, b, u.bob, req(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
	})

	t.Run("RepeatReturnsIt", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		first := cancel(t, b, u.alice, bk.ID)
		b.Clock.Set(at(1, 11, 0))
		wantSame(t, cancel(t, b, u.alice, bk.ID), first)
	})

	t.Run("SettledIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bs := setupStatuses(t)
		for _, st := range settled {
			if st == booking.StatusCancelled {
				continue
			}
			_, err := b.Service.Cancel(t.Context(), u.alice, bs[st].ID)
			if got, want := booking.ErrorCode(err), booking.CodeBookingNotModifiable; got != want {
				t.Errorf("%s: ErrorCode = %v, want %v (err: %v)", st, got, want, err)
			}
			wantStored(t, b, bs[st].ID, st)
		}
	})

	// Coffee may be cancelled until 2 h before the start (08:00), the AV setup until 1 h before (09:00).
	for _, tc := range []struct {
		name        string
		reservables []uuid.UUID
		at          time.Time
		want        booking.Code
	}{
		{"CoffeeAtItsMinimumCancellationIsAllowed", []uuid.UUID{bookingtest.ReservableCoffee}, at(1, 8, 0), 0},
		{"CoffeeInsideItsMinimumCancellationIs4072", []uuid.UUID{bookingtest.ReservableCoffee}, at(1, 8, 0).Add(time.Millisecond),
			booking.CodeMinCancellationOfReservable},
		{"AVOutsideItsMinimumCancellationIsAllowed", []uuid.UUID{bookingtest.ReservableAV}, at(1, 8, 30), 0},
		{"CoffeeAndAVInsideCoffeesIs4072", []uuid.UUID{bookingtest.ReservableCoffee, bookingtest.ReservableAV}, at(1, 8, 30),
			booking.CodeMinCancellationOfReservable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			contract(t, b, u.alice, bk.ID, tc.reservables...)
			b.Clock.Set(tc.at)
			_, err := b.Service.Cancel(t.Context(), u.alice, bk.ID)
			wantCode(t, err, tc.want)
			want := booking.StatusCancelled
			if tc.want != 0 {
				want = booking.StatusPending
			}
			wantStored(t, b, bk.ID, want)
		})
	}

	t.Run("ReceptionistMay", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		wantStatus(t, cancel(t, b, u.rita, bk.ID), booking.StatusCancelled)
	})

	for _, tc := range []struct {
		name  string
		actor func(users) booking.User
	}{
		{"OtherEmployeeIs1011", func(u users) booking.User { return u.bob }},
		{"OtherOrganizationIs1011", func(u users) booking.User { return u.boris }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			_, err := b.Service.Cancel(t.Context(), tc.actor(u), bk.ID)
			wantCode(t, err, booking.CodeBookingNotFound)
			wantStored(t, b, bk.ID, booking.StatusPending)
		})
	}
}

func TestDecide(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	// setup asks for the Boardroom tomorrow 10:00–11:00 for Alice: it waits for approval.
	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		wantStatus(t, bk, booking.StatusWaitingApproval)
		return b, u, bk
	}
	decide := func(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, approved bool) booking.Booking {
		t.Helper()
		bk, err := b.Service.Decide(t.Context(), u, id, approved)
		if err != nil {
			t.Fatalf("Decide: %v", err)
		}
		return bk
	}

	t.Run("OnlyAdminsDecide", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		for _, actor := range []booking.User{u.alice, u.bob, u.rita, u.boris} {
			for _, approved := range []bool{true, false} {
				_, err := b.Service.Decide(t.Context(), actor, bk.ID, approved)
				if got, want := booking.ErrorCode(err), booking.CodeForbidden; got != want {
					t.Errorf("Decide by %s (approved %v): ErrorCode = %v, want %v", actor.Name, approved, got, want)
				}
			}
		}
		wantStored(t, b, bk.ID, booking.StatusWaitingApproval)
	})

	t.Run("ApprovedIsPendingWithWindowFromNow", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 10, 10))
		got := decide(t, b, u.adam, bk.ID, true)
		wantStatus(t, got, booking.StatusPending)
		want := booking.Interval{Start: at(1, 9, 50), End: at(1, 10, 25)}
		wantInterval(t, "CheckIn", got.CheckIn, want)
		wantInterval(t, "stored CheckIn", reread(t, b, bk.ID).CheckIn, want)
		wantStored(t, b, bk.ID, booking.StatusPending)
		// The fresh window lets Alice check in after the one the booking was made with had closed.
		wantStatus(t, checkIn(t, b, u.alice, bk.ID, at(1, 10, 20)), booking.StatusActive)
	})

	t.Run("ApprovedAheadKeepsRulesWindow", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := decide(t, b, u.adam, bk.ID, true)
		wantInterval(t, "CheckIn", got.CheckIn, booking.Interval{Start: at(1, 9, 50), End: at(1, 10, 15)})
	})

	t.Run("RejectedFreesTheSlot", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		slot := req(bookingtest.RoomBoard, at(1, 10, 30), at(1, 11, 30))
		_, err := b.Service.CreateBookings(t.Context(), u.bob, u.bob, booking.CategorySpace, []booking.NewBooking{slot}, "", "")
		wantCode(t, err, booking.CodeResourceNotAvailable)
		wantStatus(t, decide(t, b, u.adam, bk.ID, false), booking.StatusRejected)
		wantStored(t, b, bk.ID, booking.StatusRejected)
		wantStatus(t, createOne(t, b, u.bob, slot), booking.StatusWaitingApproval)
	})

	t.Run("ApprovingEndedIs4007RejectingIsFine", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		// Not swept yet: still waiting at its end.
		b.Clock.Set(at(1, 11, 0))
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		wantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusWaitingApproval)
		wantStatus(t, decide(t, b, u.adam, bk.ID, false), booking.StatusRejected)
	})

	t.Run("ApprovingAfterCheckInClosedIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 10, 15))
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		wantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusWaitingApproval)
	})

	t.Run("ApprovingJustBeforeCheckInClosesGivesTimeToCheckIn", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		now := at(1, 10, 15).Add(-time.Millisecond)
		b.Clock.Set(now)
		got := decide(t, b, u.adam, bk.ID, true)
		wantStatus(t, got, booking.StatusPending)
		wantInterval(t, "CheckIn", got.CheckIn, booking.Interval{Start: at(1, 9, 50), End: now.Add(booking.MinCheckInTime)})
	})

	t.Run("PendingIs4007", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		wantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusPending)
	})

	t.Run("DecidedIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		decide(t, b, u.adam, bk.ID, false)
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		wantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusRejected)
	})

	t.Run("UnknownIs1011", func(t *testing.T) {
		t.Parallel()
		b, u, _ := setup(t)
		_, err := b.Service.Decide(t.Context(), u.adam, uuid.New(), true)
		wantCode(t, err, booking.CodeBookingNotFound)
	})
}

func TestChange(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	iv := func(s, e time.Time) booking.Interval { return booking.Interval{Start: s, End: e} }
	goya, velazquez, board := bookingtest.RoomGoya, bookingtest.RoomVelazquez, bookingtest.RoomBoard
	move := func(res *uuid.UUID, start, end *time.Time) booking.BookingChange {
		return booking.BookingChange{ResourceID: res, Start: start, End: end}
	}
	contract := func(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, orders ...booking.ReservableOrder) {
		t.Helper()
		if _, err := b.Service.ContractReservables(t.Context(), u, id, orders); err != nil {
			t.Fatalf("ContractReservables: %v", err)
		}
	}
	change := func(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, c booking.BookingChange) booking.Booking {
		t.Helper()
		bk, err := b.Service.Change(t.Context(), u, id, c)
		if err != nil {
			t.Fatalf("Change: %v", err)
		}
		return bk
	}

	// setup books Goya tomorrow 10:00–11:00 for Alice.
	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		return b, u, createOne(t, b, u.alice, req(goya, at(1, 10, 0), at(1, 11, 0)))
	}

	t.Run("MovesTime", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := change(t, b, u.alice, bk.ID, move(nil, ptr(at(1, 14, 0)), ptr(at(1, 15, 0))))
		wantStatus(t, got, booking.StatusPending)
		wantInterval(t, "booking", times(got), iv(at(1, 14, 0), at(1, 15, 0)))
		wantInterval(t, "CheckIn", got.CheckIn, iv(at(1, 13, 50), at(1, 14, 15)))
		wantSame(t, reread(t, b, bk.ID), got)
		// The old slot is free, the new one taken.
		createOne(t, b, u.bob, req(goya, at(1, 10, 0), at(1, 11, 0)))
		_, err := b.Service.CreateBookings(t.Context(), u.bob, u.bob, booking.CategorySpace,
			[]booking.NewBooking{req(goya, at(1, 14, 30), at(1, 15, 30))}, "", "")
		wantCode(t, err, booking.CodeResourceNotAvailable)
	})

	t.Run("MovesEndOnly", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := change(t, b, u.alice, bk.ID, move(nil, nil, ptr(at(1, 12, 0))))
		wantInterval(t, "booking", times(got), iv(at(1, 10, 0), at(1, 12, 0)))
	})

	t.Run("MovesResource", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := change(t, b, u.alice, bk.ID, move(&velazquez, nil, nil))
		if got, want := got.Resource.ID, velazquez; got != want {
			t.Errorf("Resource.ID = %v, want %v", got, want)
		}
		wantInterval(t, "booking", times(got), times(bk))
		wantStatus(t, got, booking.StatusPending)
		wantSame(t, reread(t, b, bk.ID), got)
	})

	t.Run("TakenSlotIs4001AndNothingChanges", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		createOne(t, b, u.bob, req(velazquez, at(1, 14, 0), at(1, 15, 0)))
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(&velazquez, ptr(at(1, 14, 30)), ptr(at(1, 15, 30))))
		wantCode(t, err, booking.CodeResourceNotAvailable)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("OverlappingItsOwnSlotIsFine", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := change(t, b, u.alice, bk.ID, move(nil, ptr(at(1, 10, 30)), ptr(at(1, 11, 30))))
		wantInterval(t, "booking", times(got), iv(at(1, 10, 30), at(1, 11, 30)))
	})

	// The refusals change nothing: they share one booking.
	rb, ru, rbk := setup(t)
	for _, tc := range []struct {
		name string
		c    func() booking.BookingChange
		want booking.Code
	}{
		{"OutsideHoursIs4003", func() booking.BookingChange { return move(nil, ptr(at(1, 19, 0)), ptr(at(1, 21, 0))) },
			booking.CodeDateOutsideResourceHours},
		{"TooLongIs4004", func() booking.BookingChange { return move(nil, nil, ptr(at(1, 14, 30))) },
			booking.CodeDurationExceedsMaximum},
		{"TooFarAheadIs4005", func() booking.BookingChange { return move(nil, ptr(at(31, 10, 0)), ptr(at(31, 11, 0))) },
			booking.CodeDateExceedsMaximumAdvance},
		{"PastIs4002", func() booking.BookingChange { return move(nil, ptr(at(0, 8, 0)), ptr(at(0, 9, 30))) },
			booking.CodeDateInThePast},
		{"UnknownResourceIs1002", func() booking.BookingChange { return move(ptr(uuid.New()), nil, nil) },
			booking.CodeResourceNotFound},
		{"HiddenResourceIs1002", func() booking.BookingChange { return move(ptr(bookingtest.RoomHidden), nil, nil) },
			booking.CodeResourceNotFound},
		{"OtherOrganizationsResourceIs1002", func() booking.BookingChange { return move(ptr(bookingtest.RoomB), nil, nil) },
			booking.CodeResourceNotFound},
		{"DeskIs4006", func() booking.BookingChange { return move(ptr(bookingtest.DeskOne), nil, nil) },
			booking.CodeResourceNotASpace},
		{"EndEqualToStartIs2000", func() booking.BookingChange { return move(nil, nil, ptr(at(1, 10, 0))) },
			booking.CodeInvalidRequest},
		{"EndBeforeStartIs2000", func() booking.BookingChange { return move(nil, ptr(at(1, 12, 0)), nil) },
			booking.CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := rb.Service.Change(t.Context(), ru.alice, rbk.ID, tc.c())
			wantCode(t, err, tc.want)
			wantSame(t, reread(t, rb, rbk.ID), rbk)
		})
	}

	t.Run("SettledIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bs := setupStatuses(t)
		for _, st := range settled {
			bk := bs[st]
			_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, ptr(at(9, 14, 0)), ptr(at(9, 15, 0))))
			if got, want := booking.ErrorCode(err), booking.CodeBookingNotModifiable; got != want {
				t.Errorf("%s: ErrorCode = %v, want %v (err: %v)", st, got, want, err)
			}
			wantSame(t, reread(t, b, bk.ID), bk)
		}
	})

	for _, tc := range []struct {
		name  string
		actor func(users) booking.User
		want  booking.Code
	}{
		{"OtherEmployeeIs1011", func(u users) booking.User { return u.bob }, booking.CodeBookingNotFound},
		{"OtherOrganizationIs1011", func(u users) booking.User { return u.boris }, booking.CodeBookingNotFound},
		{"ReceptionistMay", func(u users) booking.User { return u.rita }, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			_, err := b.Service.Change(t.Context(), tc.actor(u), bk.ID, move(nil, ptr(at(1, 14, 0)), ptr(at(1, 15, 0))))
			wantCode(t, err, tc.want)
			want := iv(at(1, 10, 0), at(1, 11, 0))
			if tc.want == 0 {
				want = iv(at(1, 14, 0), at(1, 15, 0))
			}
			wantInterval(t, "stored booking", times(reread(t, b, bk.ID)), want)
		})
	}

	t.Run("ToBoardroomWaitsForApproval", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := change(t, b, u.alice, bk.ID, move(&board, nil, nil))
		wantStatus(t, got, booking.StatusWaitingApproval)
		wantStored(t, b, bk.ID, booking.StatusWaitingApproval)
	})

	t.Run("FromBoardroomToGoyaIsPending", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(board, at(1, 10, 0), at(1, 11, 0)))
		got := change(t, b, u.alice, bk.ID, move(&goya, nil, nil))
		wantStatus(t, got, booking.StatusPending)
		wantStored(t, b, bk.ID, booking.StatusPending)
		createOne(t, b, u.bob, req(board, at(1, 10, 0), at(1, 11, 0)))
	})

	// An ongoing booking: Goya today 09:00–10:00, made at 09:00, changed at 09:10.
	ongoing := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(goya, at(0, 9, 0), at(0, 10, 0)))
		b.Clock.Set(at(0, 9, 10))
		return b, u, bk
	}

	t.Run("OngoingMayBeLengthened", func(t *testing.T) {
		t.Parallel()
		b, u, bk := ongoing(t)
		got := change(t, b, u.alice, bk.ID, move(nil, nil, ptr(at(0, 11, 0))))
		wantStatus(t, got, booking.StatusPending)
		wantInterval(t, "booking", times(got), iv(at(0, 9, 0), at(0, 11, 0)))
		// Lengthening does not postpone the check-in deadline.
		wantInterval(t, "CheckIn", got.CheckIn, iv(at(0, 8, 50), at(0, 9, 15)))
	})

	t.Run("OngoingMayMoveToAnotherRoom", func(t *testing.T) {
		t.Parallel()
		b, u, bk := ongoing(t)
		got := change(t, b, u.alice, bk.ID, move(&velazquez, nil, nil))
		if got.Resource.ID != velazquez {
			t.Errorf("Resource.ID = %v, want Velázquez", got.Resource.ID)
		}
	})

	t.Run("OngoingStartMovedIntoThePastIs4002", func(t *testing.T) {
		t.Parallel()
		b, u, bk := ongoing(t)
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, ptr(at(0, 9, 1)), nil))
		wantCode(t, err, booking.CodeDateInThePast)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	// Reservables: Goya tomorrow 10:00–12:00 with coffee delivered at 11:30.
	withCoffee := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, req(goya, at(1, 10, 0), at(1, 12, 0)))
		contract(t, b, u.alice, bk.ID, booking.ReservableOrder{
			ReservableID: bookingtest.ReservableCoffee, DeliveryTime: ptr(90 * time.Minute), Quantity: ptr(int32(3)),
		})
		return b, u, reread(t, b, bk.ID)
	}

	t.Run("ReservableFollowsToRoomOfferingIt", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		got := change(t, b, u.alice, bk.ID, move(&velazquez, nil, nil))
		if got.Resource.ID != velazquez {
			t.Errorf("Resource.ID = %v, want Velázquez", got.Resource.ID)
		}
		if len(got.Reservables) != 1 || got.Reservables[0].Reservable.ID != bookingtest.ReservableCoffee ||
			got.Reservables[0].DeliveryTime != 90*time.Minute || got.Reservables[0].Quantity != 3 {
			t.Errorf("Reservables = %+v, want the coffee as contracted", got.Reservables)
		}
	})

	t.Run("ReservableNotOfferedIs1043", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		// The Boardroom offers no coffee.
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(&board, nil, nil))
		wantCode(t, err, booking.CodeResourceReservableNotFound)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("ShorterThanDeliveryIs4077", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, nil, ptr(at(1, 11, 0))))
		wantCode(t, err, booking.CodeReservableDeliveryTime)
		wantSame(t, reread(t, b, bk.ID), bk)
		change(t, b, u.alice, bk.ID, move(nil, nil, ptr(at(1, 11, 30))))
	})

	t.Run("NewStartInsideMinimumCancellationIs4072", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		// Coffee may change until 2 h before the start: moving to 10:30 today at 09:00 is too late.
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, ptr(at(0, 10, 30)), ptr(at(0, 12, 30))))
		wantCode(t, err, booking.CodeMinCancellationOfReservable)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("OldStartInsideMinimumCancellationIs4072", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		b.Clock.Set(at(1, 8, 0).Add(time.Millisecond))
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, ptr(at(1, 15, 0)), ptr(at(1, 17, 0))))
		wantCode(t, err, booking.CodeMinCancellationOfReservable)
		wantSame(t, reread(t, b, bk.ID), bk)
		b.Clock.Set(at(1, 8, 0))
		change(t, b, u.alice, bk.ID, move(nil, ptr(at(1, 15, 0)), ptr(at(1, 17, 0))))
	})

	t.Run("NoChangeReturnsItUnchanged", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 9, 55))
		wantSame(t, change(t, b, u.alice, bk.ID, booking.BookingChange{}), bk)
		wantSame(t, change(t, b, u.alice, bk.ID, move(&goya, nil, nil)), bk)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("SameTimesAreNoChange", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		// Inside the coffee's minimum cancellation: a real move would be 4072, sending the times the booking
		// already has is no move at all.
		b.Clock.Set(at(1, 9, 0))
		wantSame(t, change(t, b, u.alice, bk.ID, move(&goya, ptr(at(1, 10, 0)), ptr(at(1, 12, 0)))), bk)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("AllDayMovedToOtherDeskStaysAllDay", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, at(1, 0, 0)))
		got := change(t, b, u.alice, bk.ID, move(ptr(bookingtest.DeskTwo), nil, nil))
		if !got.AllDay || got.Resource.ID != bookingtest.DeskTwo {
			t.Errorf("AllDay, Resource = %v, %s, want true, Desk 2", got.AllDay, got.Resource.Name)
		}
		wantInterval(t, "booking", times(got), iv(at(1, 0, 0), at(2, 0, 0)))
		wantInterval(t, "CheckIn", got.CheckIn, iv(at(1, 0, 0), at(1, 11, 0)))
		createDesk(t, b, u.bob, allDayReq(bookingtest.DeskOne, at(1, 0, 0)))
	})

	t.Run("AllDayWithNewTimesIsOrdinary", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, at(1, 0, 0)))
		got := change(t, b, u.alice, bk.ID, move(nil, ptr(at(1, 9, 0)), ptr(at(1, 17, 0))))
		if got.AllDay {
			t.Errorf("AllDay = true, want false")
		}
		wantInterval(t, "booking", times(got), iv(at(1, 9, 0), at(1, 17, 0)))
	})

	t.Run("DeskToRoomIs2000", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, at(1, 0, 0)))
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(&goya, ptr(at(1, 10, 0)), ptr(at(1, 11, 0))))
		wantCode(t, err, booking.CodeInvalidRequest)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("NewRoomsMaximumAdvanceApplies", func(t *testing.T) {
		t.Parallel()
		b, u := setupWeekRoom(t)
		// Goya may be booked 30 days ahead, Sorolla only 7: a booking 20 days ahead may not move there.
		bk := createOne(t, b, u.alice, req(goya, at(20, 10, 0), at(20, 11, 0)))
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(ptr(roomSorolla), nil, nil))
		wantCode(t, err, booking.CodeDateExceedsMaximumAdvance)
		wantSame(t, reread(t, b, bk.ID), bk)
	})
}

// roomSorolla is a room of Madrid whose rule lets it be booked at most 7 days ahead.
var (
	roomSorolla = uuid.MustParse("00000000-0000-4000-8000-000000020001")
	ruleWeek    = uuid.MustParse("00000000-0000-4000-8000-000000020002")
)

func setupWeekRoom(t *testing.T) (*bookingtest.Bundle, users) {
	t.Helper()
	b := bookingtest.Setup(t)
	org := bookingtest.OrgA.String()
	const hour = int64(time.Hour / time.Millisecond)
	l := layoutimport.Layout{
		ResourceRules: []layoutimport.LayoutResourceRule{{
			ID: ruleWeek.String(), OrganizationID: org, StartTime: 8 * hour, EndTime: 20 * hour,
			MaximumDuration: 4 * hour, MaximumAdvance: 7 * 24 * hour, ExpirationMargin: hour / 4,
		}},
		Resources: []layoutimport.LayoutResource{{
			ID: roomSorolla.String(), OrganizationID: org, FloorID: bookingtest.FloorMadrid.String(),
			SubcategoryID: bookingtest.SubRoom.String(), ResourceRuleID: ruleWeek.String(), Name: "Sorolla",
			PosterCode: "MAD-R7", Capacity: ptr(int32(6)),
		}},
	}
	if _, err := layoutimport.Import(t.Context(), b.Service, l); err != nil {
		t.Fatalf("Import: %v", err)
	}
	return b, fixtureUsers(t, b)
}

// TestChangeRace moves a booking to a slot while someone else books that slot, many times: exactly one of
// the two wins, and a move that loses leaves the booking as it was.
func TestChangeRace(t *testing.T) {
	t.Parallel()
	const rounds = 20
	at := bookingtest.At
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	ctx := t.Context()
	changed, created := 0, 0
	for i := range rounds {
		day := 1 + i
		a := createOne(t, b, u.alice, req(bookingtest.RoomGoya, at(day, 10, 0), at(day, 11, 0)))
		// Slot X: Velázquez 14:00–15:00 for the move, 14:30–15:30 for the new booking.
		var (
			wg        sync.WaitGroup
			moved     booking.Booking
			changeErr error
			createErr error
			start     = make(chan struct{})
		)
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			moved, changeErr = b.Service.Change(ctx, u.alice, a.ID, booking.BookingChange{
				ResourceID: ptr(bookingtest.RoomVelazquez), Start: ptr(at(day, 14, 0)), End: ptr(at(day, 15, 0)),
			})
		}()
		go func() {
			defer wg.Done()
			<-start
			_, createErr = b.Service.CreateBookings(ctx, u.bob, u.bob, booking.CategorySpace,
				[]booking.NewBooking{req(bookingtest.RoomVelazquez, at(day, 14, 30), at(day, 15, 30))}, "", "")
		}()
		close(start)
		wg.Wait()

		switch {
		case changeErr == nil && createErr == nil:
			t.Fatalf("round %d: both the move and the new booking succeeded", i)
		case changeErr == nil:
			changed++
			wantCode(t, createErr, booking.CodeResourceNotAvailable)
			if moved.Resource.ID != bookingtest.RoomVelazquez || !moved.Start.Equal(at(day, 14, 0)) {
				t.Errorf("round %d: moved to %s %s, want Velázquez 14:00–15:00", i, moved.Resource.Name, span(times(moved)))
			}
			wantSame(t, reread(t, b, a.ID), moved)
		case createErr == nil:
			created++
			wantCode(t, changeErr, booking.CodeResourceNotAvailable)
			wantSame(t, reread(t, b, a.ID), a)
		default:
			t.Fatalf("round %d: both failed: move %v; create %v", i, changeErr, createErr)
		}
	}
	t.Logf("moves won %d rounds, new bookings %d", changed, created)
	if n := rowCount(t, b, `SELECT count(*) FROM bookings x JOIN bookings y
		ON x.organization_id = y.organization_id AND x.resource_id = y.resource_id AND x.id < y.id
		AND tstzrange(x.start_date, x.end_date, '[)') && tstzrange(y.start_date, y.end_date, '[)')
		WHERE x.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE') AND y.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')`); n != 0 {
		t.Errorf("overlapping blocking bookings = %d pairs, want 0", n)
	}
	if got, want := rowCount(t, b, "SELECT count(*) FROM bookings"), rounds+created; got != want {
		t.Errorf("bookings = %d rows, want %d", got, want)
	}
}

package booking_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestCheckIn checks in Alice's Goya booking for tomorrow 10:00–11:00. Its check-in window runs from
// 09:50 up to, but not including, 10:15.
func TestCheckIn(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	setup := goyaTomorrow

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
			want := bk
			want.Status = booking.StatusActive
			wantSame(t, got, want)
			wantStored(t, b, bk.ID, booking.StatusActive)
			if n := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND checked_in_at = $2", bk.ID, tc.at); n != 1 {
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
			bookingtest.WantCode(t, err, tc.want)
			wantStored(t, b, bk.ID, booking.StatusPending)
		})
	}

	t.Run("RepeatOnActiveReturnsItUnchanged", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		first := checkIn(t, b, u.alice, bk.ID, at(1, 9, 55))
		// A retry later, even after the window has closed, returns the booking unchanged.
		again := checkIn(t, b, u.alice, bk.ID, at(1, 10, 30))
		wantSame(t, again, first)
		if n := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND checked_in_at = $2", bk.ID, at(1, 9, 55)); n != 1 {
			t.Errorf("checked_in_at moved on the repeat; want it to stay 09:55")
		}
	})

	t.Run("NotPendingIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bs := setupStatuses(t)
		wantNotModifiable(t, b, bs, []booking.Status{booking.StatusCancelled, booking.StatusWaitingApproval,
			booking.StatusExpired, booking.StatusFinished, booking.StatusRejected}, func(bk booking.Booking) error {
			b.Clock.Set(bk.Start)
			_, err := b.Service.CheckIn(t.Context(), u.alice, bk.ID)
			return err
		})
	})

	for _, tc := range []struct {
		name  string
		actor func(users) booking.User
	}{
		{"ReceptionistMay", ritaOf},
		{"AdminMay", adamOf},
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
		bs := mustBook(t, b, u.bob, u.alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		wantStatus(t, checkIn(t, b, u.bob, bs[0].ID, at(1, 10, 0)), booking.StatusActive)
	})

	// Bob is invited to the booking but does not hold it; Boris belongs to the other organization.
	for _, tc := range []struct {
		name    string
		actor   func(users) booking.User
		inviteB bool // invite Bob
	}{
		{"OtherEmployeeIs1011", bobOf, false},
		{"InternalAttendeeIs1011", bobOf, true},
		{"OtherOrganizationIs1011", borisOf, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			r := bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0))
			if tc.inviteB {
				r.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: bookingtest.Bob}}
			}
			bk := createOne(t, b, u.alice, r)
			b.Clock.Set(at(1, 10, 0))
			_, err := b.Service.CheckIn(t.Context(), tc.actor(u), bk.ID)
			bookingtest.WantCode(t, err, booking.CodeBookingNotFound)
			wantStored(t, b, bk.ID, booking.StatusPending)
		})
	}

	t.Run("UnknownIs1011", func(t *testing.T) {
		t.Parallel()
		b, u, _ := setup(t)
		_, err := b.Service.CheckIn(t.Context(), u.adam, uuid.New())
		bookingtest.WantCode(t, err, booking.CodeBookingNotFound)
	})
}

// TestCheckInWindow checks the window stored with each booking, and that check-in follows it.
func TestCheckInWindow(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	iv := interval

	for _, tc := range []struct {
		name       string
		now        time.Time
		start, end time.Time
		want       booking.Interval
	}{
		// It opens AdvanceCheckIn (10 min) before the start and closes ExpirationMargin (15 min) after it.
		{"Room", bookingtest.Now, at(1, 10, 0), at(1, 11, 0), iv(at(1, 9, 50), at(1, 10, 15))},
		// It never closes after the end.
		{"ShortRoomClosesAtEnd", bookingtest.Now, at(1, 10, 0), at(1, 10, 10), iv(at(1, 9, 50), at(1, 10, 10))},
		// A walk-up made at 09:00 for 08:56: it closes no sooner than 15 min after it was made.
		{"WalkUp", bookingtest.Now, at(0, 8, 56), at(0, 10, 0), iv(at(0, 8, 46), at(0, 9, 15))},
		// A walk-up shorter than the margin still closes at its end.
		{"ShortWalkUpClosesAtEnd", bookingtest.Now, at(0, 8, 56), at(0, 9, 10), iv(at(0, 8, 46), at(0, 9, 10))},
		// Made just before its start: the margin counts from when the booking was made.
		{"MadeJustBeforeStart", at(0, 9, 55), at(0, 10, 0), at(0, 11, 0), iv(at(0, 9, 50), at(0, 10, 15))},
		{"MadeAfterStart", at(0, 10, 3), at(0, 10, 0), at(0, 11, 0), iv(at(0, 9, 50), at(0, 10, 18))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			b.Clock.Set(tc.now)
			bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, tc.start, tc.end))
			wantInterval(t, "CheckIn", bk.CheckIn, tc.want)
			wantInterval(t, "stored CheckIn", reread(t, b, bk.ID).CheckIn, tc.want)
			// Check-in follows the window: open on its last millisecond, closed at its end.
			b.Clock.Set(tc.want.End)
			_, err := b.Service.CheckIn(t.Context(), u.alice, bk.ID)
			bookingtest.WantCode(t, err, booking.CodeCheckInClosed)
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
		// On a 23-hour day (summer time begins), 11:00 is clock time.
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
		if n := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings WHERE id = $1 AND all_day AND resource_type = 'WORKSTATION'
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
		_, err := book(t, b, u.bob, u.bob, booking.CategoryWorkstation, allDayReq(bookingtest.DeskOne, at(1, 18, 0)))
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		createDesk(t, b, u.bob, allDayReq(bookingtest.DeskTwo, at(1, 18, 0)))
	})

	t.Run("RuleWithoutAllDayIs4012", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		_, err := book(t, b, u.alice, u.alice, booking.CategorySpace, allDayReq(bookingtest.RoomGoya, at(1, 0, 0)))
		bookingtest.WantCode(t, err, booking.CodeAllDayNotAllowed)
		wantNoBookings(t, b)
	})

	t.Run("DayOverIs4002", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		_, err := book(t, b, u.alice, u.alice, booking.CategoryWorkstation, allDayReq(bookingtest.DeskOne, at(-1, 12, 0)))
		bookingtest.WantCode(t, err, booking.CodeDateInThePast)
		wantNoBookings(t, b)
	})

	t.Run("MissingStartIs2000", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		_, err := book(t, b, u.alice, u.alice, booking.CategoryWorkstation, booking.NewBooking{ResourceID: bookingtest.DeskOne, AllDay: true})
		bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
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
		bookingtest.WantCode(t, err, booking.CodeCheckInClosed)
		wantStatus(t, checkIn(t, b, u.bob, onTime.ID, at(1, 11, 0).Add(-time.Millisecond)), booking.StatusActive)
	})
}

func TestCheckInByPosterCode(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	setup := goyaTomorrow
	scan := func(t *testing.T, b *bookingtest.Bundle, actor, user booking.User, code string, now time.Time) (booking.Booking, error) {
		t.Helper()
		b.Clock.Set(now)
		return b.Service.CheckInByPosterCode(t.Context(), actor, user, code)
	}

	// Alice scans for herself, or the receptionist scans the door for her.
	for _, tc := range []struct {
		name  string
		actor func(users) booking.User
		at    time.Time
	}{
		{"ChecksInBookingWhoseWindowIsOpen", aliceOf, at(1, 9, 55)},
		{"ReceptionistChecksInAlice", ritaOf, at(1, 10, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			got, err := scan(t, b, tc.actor(u), u.alice, "MAD-R1", tc.at)
			if err != nil {
				t.Fatalf("CheckInByPosterCode: %v", err)
			}
			want := bk
			want.Status = booking.StatusActive
			wantSame(t, got, want)
			wantStored(t, b, bk.ID, booking.StatusActive)
		})
	}

	t.Run("PicksBookingOfThatResource", func(t *testing.T) {
		t.Parallel()
		b, u, goya := setup(t)
		velazquez := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0)))
		got, err := scan(t, b, u.alice, u.alice, "MAD-R2", at(1, 10, 0))
		if err != nil {
			t.Fatalf("CheckInByPosterCode: %v", err)
		}
		if got.ID != velazquez.ID {
			t.Errorf("ID = %v, want the Velázquez booking %v", got.ID, velazquez.ID)
		}
		wantStored(t, b, goya.ID, booking.StatusPending)
	})

	// In each refusal below, Alice's Goya booking stays PENDING.
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
		// Globex's room also has the poster code MAD-R1; Boris has no booking of it.
		{"CodeIsReadInActorsOrganization", borisOf, borisOf, "MAD-R1", at(1, 10, 0), booking.CodeNoBookingToCheckIn},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			_, err := scan(t, b, tc.actor(u), tc.user(u), tc.code, tc.at)
			bookingtest.WantCode(t, err, tc.want)
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
		// check-in is open. The scan must check in the 10:00 booking, not the one she is already in.
		current := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 9, 0), at(1, 10, 0)))
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

}

func TestCheckOut(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	// setup books Goya tomorrow 10:00–11:00 for Alice and checks her in at 09:55.
	setup := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b, u, bk := goyaTomorrow(t)
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
		rest := bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 35), at(1, 11, 0))
		_, err := book(t, b, u.bob, u.bob, booking.CategorySpace, rest)
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)

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
			createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
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
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		b.Clock.Set(at(1, 10, 5))
		_, err := b.Service.CheckOut(t.Context(), u.alice, bk.ID)
		bookingtest.WantCode(t, err, booking.CodeBookingNotModifiable)
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
		bookingtest.WantCode(t, err, booking.CodeBookingNotFound)
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
		return b, u, createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 12, 0)))
	}
	cancel := func(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID) booking.Booking {
		t.Helper()
		bk, err := b.Service.Cancel(t.Context(), u, id)
		if err != nil {
			t.Fatalf("Cancel: %v", err)
		}
		return bk
	}

	t.Run("PendingIsCancelledKeptAndFreesTheSlot", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		slot := bookingtest.Request(bookingtest.RoomGoya, at(1, 11, 0), at(1, 12, 0))
		_, err := book(t, b, u.bob, u.bob, booking.CategorySpace, slot)
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		got := cancel(t, b, u.alice, bk.ID)
		wantStatus(t, got, booking.StatusCancelled)
		wantInterval(t, "booking", times(got), times(bk))
		wantStored(t, b, bk.ID, booking.StatusCancelled)
		if got, want := bookingtest.TableCount(t, b, "bookings"), 1; got != want {
			t.Errorf("bookings = %d rows, want %d", got, want)
		}
		createOne(t, b, u.bob, slot)
	})

	t.Run("WaitingApprovalIsCancelled", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		wantStatus(t, bk, booking.StatusWaitingApproval)
		wantStatus(t, cancel(t, b, u.alice, bk.ID), booking.StatusCancelled)
		wantStored(t, b, bk.ID, booking.StatusCancelled)
		createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
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
		others := slices.DeleteFunc(slices.Clone(settled), func(st booking.Status) bool { return st == booking.StatusCancelled })
		wantNotModifiable(t, b, bs, others, func(bk booking.Booking) error {
			_, err := b.Service.Cancel(t.Context(), u.alice, bk.ID)
			return err
		})
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
			orders := make([]booking.ReservableOrder, len(tc.reservables))
			for i, rv := range tc.reservables {
				orders[i] = booking.ReservableOrder{ReservableID: rv}
			}
			contract(t, b, u.alice, bk.ID, orders...)
			b.Clock.Set(tc.at)
			_, err := b.Service.Cancel(t.Context(), u.alice, bk.ID)
			bookingtest.WantCode(t, err, tc.want)
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
		{"OtherEmployeeIs1011", bobOf},
		{"OtherOrganizationIs1011", borisOf},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, u, bk := setup(t)
			_, err := b.Service.Cancel(t.Context(), tc.actor(u), bk.ID)
			bookingtest.WantCode(t, err, booking.CodeBookingNotFound)
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
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
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
		// The new window lets Alice check in even though the booking's original window has closed.
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
		slot := bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 30), at(1, 11, 30))
		_, err := book(t, b, u.bob, u.bob, booking.CategorySpace, slot)
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		wantStatus(t, decide(t, b, u.adam, bk.ID, false), booking.StatusRejected)
		wantStored(t, b, bk.ID, booking.StatusRejected)
		wantStatus(t, createOne(t, b, u.bob, slot), booking.StatusWaitingApproval)
	})

	t.Run("ApprovingEndedIs4007RejectingIsFine", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		// Not swept yet, so it is still waiting at its end.
		b.Clock.Set(at(1, 11, 0))
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		bookingtest.WantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusWaitingApproval)
		wantStatus(t, decide(t, b, u.adam, bk.ID, false), booking.StatusRejected)
	})

	t.Run("ApprovingAfterCheckInClosedIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 10, 15))
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		bookingtest.WantCode(t, err, booking.CodeBookingNotModifiable)
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
		bk := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		bookingtest.WantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusPending)
	})

	t.Run("DecidedIs4007", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		decide(t, b, u.adam, bk.ID, false)
		_, err := b.Service.Decide(t.Context(), u.adam, bk.ID, true)
		bookingtest.WantCode(t, err, booking.CodeBookingNotModifiable)
		wantStored(t, b, bk.ID, booking.StatusRejected)
	})

	t.Run("UnknownIs1011", func(t *testing.T) {
		t.Parallel()
		b, u, _ := setup(t)
		_, err := b.Service.Decide(t.Context(), u.adam, uuid.New(), true)
		bookingtest.WantCode(t, err, booking.CodeBookingNotFound)
	})
}

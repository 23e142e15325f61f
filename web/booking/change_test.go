package booking_test

import (
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// move returns a change to the given resource and times; a nil field keeps the booking's value.
func move(res *uuid.UUID, start, end *time.Time) booking.BookingChange {
	return booking.BookingChange{ResourceID: res, Start: start, End: end}
}

// change changes the booking as u and fails the test on any error.
func change(t *testing.T, b *bookingtest.Bundle, u booking.User, id uuid.UUID, c booking.BookingChange) booking.Booking {
	t.Helper()
	bk, err := b.Service.Change(t.Context(), u, id, c)
	if err != nil {
		t.Fatalf("Change: %v", err)
	}
	return bk
}

// TestChange moves Alice's Goya booking for tomorrow 10:00–11:00 to another time or another room.
func TestChange(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	iv := interval
	goya, velazquez, board := bookingtest.RoomGoya, bookingtest.RoomVelazquez, bookingtest.RoomBoard
	setup := goyaTomorrow

	t.Run("MovesTime", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := change(t, b, u.alice, bk.ID, move(nil, ptr(at(1, 14, 0)), ptr(at(1, 15, 0))))
		want := bk
		want.Start, want.End, want.CheckIn = at(1, 14, 0), at(1, 15, 0), iv(at(1, 13, 50), at(1, 14, 15))
		wantSame(t, got, want)
		wantSame(t, reread(t, b, bk.ID), want)
		// The old slot is free and the new one is taken.
		createOne(t, b, u.bob, bookingtest.Request(goya, at(1, 10, 0), at(1, 11, 0)))
		_, err := book(t, b, u.bob, u.bob, booking.CategorySpace, bookingtest.Request(goya, at(1, 14, 30), at(1, 15, 30)))
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
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
		createOne(t, b, u.bob, bookingtest.Request(velazquez, at(1, 14, 0), at(1, 15, 0)))
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(&velazquez, ptr(at(1, 14, 30)), ptr(at(1, 15, 30))))
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("OverlappingItsOwnSlotIsFine", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		got := change(t, b, u.alice, bk.ID, move(nil, ptr(at(1, 10, 30)), ptr(at(1, 11, 30))))
		wantInterval(t, "booking", times(got), iv(at(1, 10, 30), at(1, 11, 30)))
	})

	t.Run("NoChangeReturnsItUnchanged", func(t *testing.T) {
		t.Parallel()
		b, u, bk := setup(t)
		b.Clock.Set(at(1, 9, 55))
		wantSame(t, change(t, b, u.alice, bk.ID, booking.BookingChange{}), bk)
		wantSame(t, change(t, b, u.alice, bk.ID, move(&goya, nil, nil)), bk)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

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
		bk := createOne(t, b, u.alice, bookingtest.Request(board, at(1, 10, 0), at(1, 11, 0)))
		got := change(t, b, u.alice, bk.ID, move(&goya, nil, nil))
		wantStatus(t, got, booking.StatusPending)
		wantStored(t, b, bk.ID, booking.StatusPending)
		createOne(t, b, u.bob, bookingtest.Request(board, at(1, 10, 0), at(1, 11, 0)))
	})
}

// TestChangeRefused checks the moves that are refused, and that each leaves the booking unchanged.
func TestChangeRefused(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	iv := interval
	goya := bookingtest.RoomGoya
	setup := goyaTomorrow

	// The refusals change nothing, so they can all use one booking.
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
			bookingtest.WantCode(t, err, tc.want)
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
			bookingtest.WantCode(t, err, tc.want)
			want := iv(at(1, 10, 0), at(1, 11, 0))
			if tc.want == 0 {
				want = iv(at(1, 14, 0), at(1, 15, 0))
			}
			wantInterval(t, "stored booking", times(reread(t, b, bk.ID)), want)
		})
	}

	t.Run("NewRoomsMaximumAdvanceApplies", func(t *testing.T) {
		t.Parallel()
		b, u := setupWeekRoom(t)
		// Goya may be booked 30 days ahead but Sorolla only 7, so a booking 20 days ahead cannot move there.
		bk := createOne(t, b, u.alice, bookingtest.Request(goya, at(20, 10, 0), at(20, 11, 0)))
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(ptr(roomSorolla), nil, nil))
		bookingtest.WantCode(t, err, booking.CodeDateExceedsMaximumAdvance)
		wantSame(t, reread(t, b, bk.ID), bk)
	})
}

// TestChangeOngoing changes a booking that has begun.
func TestChangeOngoing(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	iv := interval
	goya, velazquez := bookingtest.RoomGoya, bookingtest.RoomVelazquez

	// An ongoing booking: Goya today 09:00–10:00, made at 09:00, changed at 09:10.
	ongoing := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(goya, at(0, 9, 0), at(0, 10, 0)))
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
		bookingtest.WantCode(t, err, booking.CodeDateInThePast)
		wantSame(t, reread(t, b, bk.ID), bk)
	})
}

// TestChangeWithReservables changes a booking with coffee contracted. The coffee moves with it, or the
// move is refused if the coffee cannot move.
func TestChangeWithReservables(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	goya, velazquez, board := bookingtest.RoomGoya, bookingtest.RoomVelazquez, bookingtest.RoomBoard

	// Reservables: Goya tomorrow 10:00–12:00 with coffee delivered at 11:30.
	withCoffee := func(t *testing.T) (*bookingtest.Bundle, users, booking.Booking) {
		t.Helper()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk := createOne(t, b, u.alice, bookingtest.Request(goya, at(1, 10, 0), at(1, 12, 0)))
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
		bookingtest.WantCode(t, err, booking.CodeResourceReservableNotFound)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("ShorterThanDeliveryIs4077", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, nil, ptr(at(1, 11, 0))))
		bookingtest.WantCode(t, err, booking.CodeReservableDeliveryTime)
		wantSame(t, reread(t, b, bk.ID), bk)
		change(t, b, u.alice, bk.ID, move(nil, nil, ptr(at(1, 11, 30))))
	})

	t.Run("NewStartInsideMinimumCancellationIs4072", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		// Coffee may change until 2 h before the start, so moving to 10:30 today at 09:00 is too late.
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, ptr(at(0, 10, 30)), ptr(at(0, 12, 30))))
		bookingtest.WantCode(t, err, booking.CodeMinCancellationOfReservable)
		wantSame(t, reread(t, b, bk.ID), bk)
	})

	t.Run("OldStartInsideMinimumCancellationIs4072", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		b.Clock.Set(at(1, 8, 0).Add(time.Millisecond))
		_, err := b.Service.Change(t.Context(), u.alice, bk.ID, move(nil, ptr(at(1, 15, 0)), ptr(at(1, 17, 0))))
		bookingtest.WantCode(t, err, booking.CodeMinCancellationOfReservable)
		wantSame(t, reread(t, b, bk.ID), bk)
		b.Clock.Set(at(1, 8, 0))
		change(t, b, u.alice, bk.ID, move(nil, ptr(at(1, 15, 0)), ptr(at(1, 17, 0))))
	})

	t.Run("SameTimesAreNoChange", func(t *testing.T) {
		t.Parallel()
		b, u, bk := withCoffee(t)
		// Inside the coffee's minimum cancellation time a real move gets 4072, but sending the times the
		// booking already has is no move at all.
		b.Clock.Set(at(1, 9, 0))
		wantSame(t, change(t, b, u.alice, bk.ID, move(&goya, ptr(at(1, 10, 0)), ptr(at(1, 12, 0)))), bk)
		wantSame(t, reread(t, b, bk.ID), bk)
	})
}

// TestChangeAllDay changes an all-day desk booking.
func TestChangeAllDay(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	iv := interval
	goya := bookingtest.RoomGoya

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
		bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		wantSame(t, reread(t, b, bk.ID), bk)
	})
}

// roomSorolla is a Madrid room whose rule allows bookings at most 7 days ahead.
var (
	roomSorolla = uuid.MustParse("00000000-0000-4000-8000-000000020001")
	ruleWeek    = uuid.MustParse("00000000-0000-4000-8000-000000020002")
)

func setupWeekRoom(t *testing.T) (*bookingtest.Bundle, users) {
	t.Helper()
	b := bookingtest.Setup(t)
	org := bookingtest.OrgA.String()
	const hour = int64(time.Hour / time.Millisecond)
	l := layout.Layout{
		ResourceRules: []layout.LayoutResourceRule{{
			ID: ruleWeek.String(), OrganizationID: org, StartTime: 8 * hour, EndTime: 20 * hour,
			MaximumDuration: 4 * hour, MaximumAdvance: 7 * 24 * hour, ExpirationMargin: hour / 4,
		}},
		Resources: []layout.LayoutResource{{
			ID: roomSorolla.String(), OrganizationID: org, FloorID: bookingtest.FloorMadrid.String(),
			SubcategoryID: bookingtest.SubRoom.String(), ResourceRuleID: ruleWeek.String(), Name: "Sorolla",
			PosterCode: "MAD-R7", Capacity: ptr(int32(6)),
		}},
	}
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
		t.Fatalf("Import: %v", err)
	}
	return b, fixtureUsers(t, b)
}

// TestChangeRace repeatedly moves a booking to a slot while someone else books that slot. Exactly one of
// the two wins each time, and a move that loses leaves the booking unchanged.
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
		a := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(day, 10, 0), at(day, 11, 0)))
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
			_, createErr = b.Service.CreateBookings(ctx, booking.CreateRequest{Creator: u.bob, Organizer: u.bob, Category: booking.CategorySpace, Bookings: []booking.NewBooking{bookingtest.Request(bookingtest.RoomVelazquez, at(day, 14, 30), at(day, 15, 30))}})
		}()
		close(start)
		wg.Wait()

		switch {
		case changeErr == nil && createErr == nil:
			t.Fatalf("round %d: both the move and the new booking succeeded", i)
		case changeErr == nil:
			changed++
			bookingtest.WantCode(t, createErr, booking.CodeResourceNotAvailable)
			if moved.Resource.ID != bookingtest.RoomVelazquez || !moved.Start.Equal(at(day, 14, 0)) {
				t.Errorf("round %d: moved to %s %s, want Velázquez 14:00–15:00", i, moved.Resource.Name, span(times(moved)))
			}
			wantSame(t, reread(t, b, a.ID), moved)
		case createErr == nil:
			created++
			bookingtest.WantCode(t, changeErr, booking.CodeResourceNotAvailable)
			wantSame(t, reread(t, b, a.ID), a)
		default:
			t.Fatalf("round %d: both failed: move %v; create %v", i, changeErr, createErr)
		}
	}
	t.Logf("moves won %d rounds, new bookings %d", changed, created)
	if n := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings x JOIN bookings y
		ON x.organization_id = y.organization_id AND x.resource_id = y.resource_id AND x.id < y.id
		AND tstzrange(x.start_date, x.end_date, '[)') && tstzrange(y.start_date, y.end_date, '[)')
		WHERE x.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE') AND y.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')`); n != 0 {
		t.Errorf("overlapping blocking bookings = %d pairs, want 0", n)
	}
	if got, want := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings"), rounds+created; got != want {
		t.Errorf("bookings = %d rows, want %d", got, want)
	}
}

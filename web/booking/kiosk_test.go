package booking_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// posterStatus returns what the poster with the given code shows u, and fails the test on any error.
func posterStatus(t *testing.T, b *bookingtest.Bundle, u booking.User, code string) booking.PosterStatus {
	t.Helper()
	ps, err := b.Service.PosterStatus(t.Context(), u, code)
	if err != nil {
		t.Fatalf("PosterStatus(%q): %v", code, err)
	}
	return ps
}

func wantState(t *testing.T, ps booking.PosterStatus, want booking.PosterState) {
	t.Helper()
	if ps.State != want {
		t.Fatalf("State = %v, want %v", ps.State, want)
	}
}

func wantTime(t *testing.T, name string, got *time.Time, want time.Time) {
	t.Helper()
	wantEqual(t, name, &want, got)
}

func wantEndChoices(t *testing.T, ps booking.PosterStatus, want ...time.Time) {
	t.Helper()
	if want == nil {
		want = []time.Time{}
	}
	got := ps.EndChoices()
	if got == nil {
		got = []time.Time{}
	}
	wantEqual(t, "EndChoices", want, got)
}

// posterView holds what a poster shows about a resource's state.
type posterView struct {
	State                           booking.PosterState
	IsFree                          bool
	FreeUntil, BookUntil, BusyUntil *time.Time
	BookFrom                        time.Time
	Location                        string
	Window                          booking.Interval
	BookedBy                        *uuid.UUID
	BookingStatus                   booking.Status
}

func posterViewOf(ps booking.PosterStatus) posterView {
	v := posterView{State: ps.State, IsFree: ps.IsFree, FreeUntil: ps.FreeUntil, BookUntil: ps.BookUntil, BusyUntil: ps.BusyUntil,
		BookFrom: ps.BookFrom, Location: ps.Location.String(), Window: ps.Window, BookingStatus: ps.BookingStatus}
	if ps.BookedBy != nil {
		v.BookedBy = &ps.BookedBy.ID
	}
	return v
}

// TestPosterStatus checks what the poster of a free resource shows.
func TestPosterStatus(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	status := posterStatus

	t.Run("FreeUntilEndOfWindowBookableForTheMaximumDuration", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		ps := status(t, b, fixtureUsers(t, b).alice, "MAD-R1")
		// Goya's rule allows at most 4 hours; nobody holds it.
		wantEqual(t, "poster", posterView{
			State: booking.PosterFree, IsFree: true, FreeUntil: ptr(at(0, 20, 0)), BookFrom: at(0, 9, 0),
			BookUntil: ptr(at(0, 13, 0)), Location: "Europe/Madrid", Window: interval(at(0, 8, 0), at(0, 20, 0)),
		}, posterViewOf(ps))
		wantEndChoices(t, ps, at(0, 9, 30), at(0, 10, 0), at(0, 11, 0), at(0, 13, 0))
	})

	t.Run("BookFromIsNowToTheMinute", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 9, 7).Add(42 * time.Second))
		ps := status(t, b, fixtureUsers(t, b).alice, "MAD-R1")
		if got, want := ps.BookFrom, at(0, 9, 7); !got.Equal(want) {
			t.Errorf("BookFrom = %v, want %v", got, want)
		}
		wantTime(t, "BookUntil", ps.BookUntil, at(0, 13, 7))
	})

	t.Run("NextBookingCapsTheChoices", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 10, 0), at(0, 11, 0)))
		ps := status(t, b, u.alice, "MAD-R1")
		wantState(t, ps, booking.PosterFree)
		wantTime(t, "FreeUntil", ps.FreeUntil, at(0, 10, 0))
		wantTime(t, "BookUntil", ps.BookUntil, at(0, 10, 0))
		wantEndChoices(t, ps, at(0, 9, 30), at(0, 10, 0))
	})

	// A desk that is open all day, every day, can be booked across midnight, for at most a day.
	t.Run("WholeDayDeskBookableForADay", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		ps := status(t, b, fixtureUsers(t, b).alice, "MAD-D1")
		wantState(t, ps, booking.PosterFree)
		wantTime(t, "FreeUntil", ps.FreeUntil, at(1, 0, 0))
		wantTime(t, "BookUntil", ps.BookUntil, at(1, 9, 0))
		// Offered: 30 minutes, 1 hour, 2 hours, then midnight. A booking runs overnight only if asked.
		wantEndChoices(t, ps, at(0, 9, 30), at(0, 10, 0), at(0, 11, 0), at(1, 0, 0))
	})

	t.Run("LateWalkUpCrossesMidnight", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		b.Clock.Set(at(0, 23, 20))
		ps := status(t, b, u.alice, "MAD-D1")
		wantState(t, ps, booking.PosterFree)
		wantTime(t, "FreeUntil", ps.FreeUntil, at(1, 0, 0))
		wantTime(t, "BookUntil", ps.BookUntil, at(1, 23, 20))
		wantEndChoices(t, ps, at(0, 23, 50), at(1, 0, 20), at(1, 1, 20))
		// The next morning's booking limits it.
		if _, err := book(t, b, u.bob, u.bob, booking.CategoryWorkstation, bookingtest.Request(bookingtest.DeskOne, at(1, 8, 0), at(1, 10, 0))); err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		ps = status(t, b, u.alice, "MAD-D1")
		wantTime(t, "BookUntil", ps.BookUntil, at(1, 8, 0))
		bk, err := b.Service.BookNow(t.Context(), u.alice, u.alice, "MAD-D1", *ps.BookUntil, "")
		if err != nil {
			t.Fatalf("BookNow until 08:00 tomorrow: %v", err)
		}
		if !bk.Start.Equal(at(0, 23, 20)) || !bk.End.Equal(at(1, 8, 0)) {
			t.Errorf("booked %v–%v, want 23:20–08:00", bk.Start, bk.End)
		}
	})

	t.Run("RoomClosedAtNightStopsAtItsHours", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 19, 40))
		ps := status(t, b, fixtureUsers(t, b).alice, "MAD-R1")
		wantTime(t, "BookUntil", ps.BookUntil, at(0, 20, 0))
	})
}

// TestPosterStatusBusy checks what the poster of a resource that is held now shows.
func TestPosterStatusBusy(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	status := posterStatus

	t.Run("BusyUntilEndOfBackToBackBookingsByItsOrganizer", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		// Made by Rita for Bob: the poster names Bob, the organizer.
		mustBook(t, b, u.rita, u.bob, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 10, 0), at(0, 11, 0)),
			bookingtest.Request(bookingtest.RoomGoya, at(0, 11, 0), at(0, 11, 30)),
			bookingtest.Request(bookingtest.RoomGoya, at(0, 12, 0), at(0, 13, 0))) // after a gap: not part of the run
		ps := status(t, b, u.alice, "MAD-R1")
		wantEqual(t, "poster", posterView{
			State: booking.PosterBusy, BusyUntil: ptr(at(0, 11, 30)), BookFrom: ps.BookFrom, Location: "Europe/Madrid",
			Window: interval(at(0, 8, 0), at(0, 20, 0)), BookedBy: ptr(bookingtest.Bob), BookingStatus: booking.StatusPending,
		}, posterViewOf(ps))
		wantEndChoices(t, ps)
		// Half-way through the second booking, Alice holds it.
		b.Clock.Set(at(0, 10, 30))
		ps = status(t, b, u.alice, "MAD-R1")
		wantTime(t, "BusyUntil", ps.BusyUntil, at(0, 11, 30))
		if ps.BookedBy == nil || ps.BookedBy.ID != bookingtest.Alice {
			t.Fatalf("BookedBy = %+v, want alice", ps.BookedBy)
		}
	})

	t.Run("BusyUntilEndOfALoneBooking", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 9, 45)))
		b.Clock.Set(at(0, 9, 20))
		ps := status(t, b, u.alice, "MAD-R1")
		wantState(t, ps, booking.PosterBusy)
		wantTime(t, "BusyUntil", ps.BusyUntil, at(0, 9, 45))
	})

	t.Run("CancelledBookingBackToBackDoesNotExtend", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		importBookings(t, b,
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(0, 8, 30), at(0, 10, 0), booking.StatusActive),
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(0, 10, 0), at(0, 11, 0), booking.StatusCancelled),
		)
		ps := status(t, b, u.alice, "MAD-R1")
		wantState(t, ps, booking.PosterBusy)
		wantTime(t, "BusyUntil", ps.BusyUntil, at(0, 10, 0))
		if got, want := ps.BookingStatus, booking.StatusActive; got != want {
			t.Errorf("BookingStatus = %v, want %v", got, want)
		}
	})

	t.Run("WaitingApprovalIsBusy", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(0, 9, 0), at(0, 10, 0)))
		ps := status(t, b, u.alice, "MAD-R3")
		wantState(t, ps, booking.PosterBusy)
		if got, want := ps.BookingStatus, booking.StatusWaitingApproval; got != want {
			t.Errorf("BookingStatus = %v, want %v", got, want)
		}
	})

	t.Run("HiddenBookingsNameNobody", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		l := bookingtest.Layout()
		for i := range l.Subcategories {
			if l.Subcategories[i].ID == bookingtest.SubRoom.String() {
				l.Subcategories[i].HideBookings = true
			}
		}
		importLayout(t, b, l)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.bob, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		ps := status(t, b, u.alice, "MAD-R1")
		wantState(t, ps, booking.PosterBusy)
		wantTime(t, "BusyUntil", ps.BusyUntil, at(0, 10, 0))
		if ps.BookedBy != nil {
			t.Errorf("BookedBy = %+v, want nil when the subcategory hides bookings", ps.BookedBy)
		}
	})

}

// TestPosterStatusClosed checks the posters of resources that are closed now, hidden, unknown, or in
// another organization.
func TestPosterStatusClosed(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	status := posterStatus

	t.Run("ClosedOutsideTheWindow", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 7, 0))
		ps := status(t, b, fixtureUsers(t, b).alice, "MAD-R1")
		wantState(t, ps, booking.PosterClosed)
		if ps.IsFree || ps.BookUntil != nil || ps.BusyUntil != nil {
			t.Errorf("IsFree = %v, BookUntil = %v, BusyUntil = %v, want false, nil, nil", ps.IsFree, ps.BookUntil, ps.BusyUntil)
		}
		if got, want := ps.Window.Start, at(0, 8, 0); !got.Equal(want) {
			t.Errorf("Window.Start = %v, want %v", got, want)
		}
		b.Clock.Set(at(0, 20, 0))
		wantState(t, status(t, b, fixtureUsers(t, b).alice, "MAD-R1"), booking.PosterClosed)
	})

	for _, code := range []string{"MAD-RH", "MAD-RF"} {
		t.Run("UnavailableWhenHidden"+code, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			ps := status(t, b, fixtureUsers(t, b).alice, code)
			wantState(t, ps, booking.PosterUnavailable)
			if ps.IsFree || ps.BookUntil != nil {
				t.Errorf("IsFree = %v, BookUntil = %v, want false, nil", ps.IsFree, ps.BookUntil)
			}
		})
	}

	t.Run("UnknownCodeIs1002", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		_, err := b.Service.PosterStatus(t.Context(), fixtureUsers(t, b).alice, "NOPE-1")
		bookingtest.WantCode(t, err, booking.CodeResourceNotFound)
	})

	t.Run("OtherOrganizationsResourceIsNotSeen", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		ps := status(t, b, u.boris, "MAD-R1")
		wantState(t, ps, booking.PosterFree)
		if got, want := ps.Resource.ID, bookingtest.RoomB; got != want {
			t.Errorf("Resource.ID = %v, want %v", got, want)
		}
	})
}

func TestBookNow(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("ReceptionistBooksForAnEmployee", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		b.Clock.Set(at(0, 9, 2).Add(30 * time.Second))
		bk, err := b.Service.BookNow(t.Context(), u.rita, u.bob, "MAD-R1", at(0, 10, 0), "token")
		if err != nil {
			t.Fatalf("BookNow: %v", err)
		}
		if bk.Organizer.ID != bookingtest.Bob || bk.Creator.ID != bookingtest.Rita {
			t.Errorf("Organizer, Creator = %s, %s, want bob, rita", bk.Organizer.Name, bk.Creator.Name)
		}
		if !bk.Start.Equal(at(0, 9, 2)) || !bk.End.Equal(at(0, 10, 0)) {
			t.Errorf("Start, End = %v, %v, want 09:02, 10:00", bk.Start, bk.End)
		}
		if got, want := bk.Resource.ID, bookingtest.RoomGoya; got != want {
			t.Errorf("Resource.ID = %v, want %v", got, want)
		}
		if got, want := bk.Status, booking.StatusPending; got != want {
			t.Errorf("Status = %v, want %v", got, want)
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE organizer_id = $1 AND creator_id = $2",
			bookingtest.Bob, bookingtest.Rita); got != 1 {
			t.Errorf("stored bookings of bob made by rita = %d, want 1", got)
		}
		ps, err := b.Service.PosterStatus(t.Context(), u.alice, "MAD-R1")
		if err != nil {
			t.Fatalf("PosterStatus: %v", err)
		}
		if ps.State != booking.PosterBusy || ps.BookedBy == nil || ps.BookedBy.ID != bookingtest.Bob {
			t.Errorf("after booking: State = %v, BookedBy = %+v, want BUSY by bob", ps.State, ps.BookedBy)
		}
	})

	t.Run("DeskIsBookedAsAWorkstation", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk, err := b.Service.BookNow(t.Context(), u.alice, u.alice, "MAD-D1", at(1, 0, 0), "")
		if err != nil {
			t.Fatalf("BookNow: %v", err)
		}
		if got, want := bk.ResourceType, booking.CategoryWorkstation; got != want {
			t.Errorf("ResourceType = %v, want %v", got, want)
		}
	})

	t.Run("ApprovalNeededWaits", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bk, err := b.Service.BookNow(t.Context(), u.rita, u.bob, "MAD-R3", at(0, 10, 0), "")
		if err != nil {
			t.Fatalf("BookNow: %v", err)
		}
		if got, want := bk.Status, booking.StatusWaitingApproval; got != want {
			t.Errorf("Status = %v, want %v", got, want)
		}
	})

	for _, tc := range []struct {
		name  string
		code  string
		until time.Time
		busy  bool
		want  booking.Code
	}{
		{"BusyIs4001", "MAD-R1", at(0, 10, 0), true, booking.CodeResourceNotAvailable},
		{"LongerThanTheMaximumIs4004", "MAD-R1", at(0, 13, 1), false, booking.CodeDurationExceedsMaximum},
		{"PastMidnightForMoreThanADayIs4004", "MAD-D1", at(1, 9, 1), false, booking.CodeDurationExceedsMaximum},
		{"EndPassedIs2000", "MAD-R1", at(0, 9, 0), false, booking.CodeInvalidRequest},
		{"UnknownCodeIs1002", "NOPE", at(0, 10, 0), false, booking.CodeResourceNotFound},
		{"HiddenResourceIs1002", "MAD-RH", at(0, 10, 0), false, booking.CodeResourceNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			if tc.busy {
				mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 30), at(0, 10, 30)))
			}
			before := bookingtest.TableCount(t, b, "bookings")
			_, err := b.Service.BookNow(t.Context(), u.rita, u.bob, tc.code, tc.until, "")
			bookingtest.WantCode(t, err, tc.want)
			wantIndex(t, err, -1)
			if got := bookingtest.TableCount(t, b, "bookings"); got != before {
				t.Errorf("bookings = %d, want %d: nothing written", got, before)
			}
		})
	}
}

func TestKioskRoles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		role          booking.Role
		kiosk, poster booking.Code
	}{
		{booking.RoleEmployee, booking.CodeForbidden, booking.CodeForbidden},
		{booking.RoleReceptionist, 0, booking.CodeForbidden},
		{booking.RoleAdmin, 0, 0},
	} {
		u := booking.User{Role: tc.role}
		if got := booking.ErrorCode(booking.UsesKiosk(u)); got != tc.kiosk {
			t.Errorf("UsesKiosk(%s) = %v, want %v", tc.role, got, tc.kiosk)
		}
		if got := booking.ErrorCode(booking.PrintsPosters(u)); got != tc.poster {
			t.Errorf("PrintsPosters(%s) = %v, want %v", tc.role, got, tc.poster)
		}
	}
}

func TestPosterResources(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	floor, resource := bookingtest.FloorMadrid, bookingtest.RoomGoya

	t.Run("EveryBookableResourceOfTheFloorByName", func(t *testing.T) {
		f, rs, err := b.Service.PosterResources(t.Context(), u.adam, booking.PosterQuery{FloorID: &floor})
		if err != nil {
			t.Fatalf("PosterResources: %v", err)
		}
		if f.ID != floor || f.Building.ID != bookingtest.BuildingMadrid || f.Building.Name != "Madrid HQ" {
			t.Errorf("Floor = %s of %s, want madrid-1 of Madrid HQ", f.Name, f.Building.Name)
		}
		var names, codes []string
		for _, r := range rs {
			names, codes = append(names, r.Name), append(codes, r.PosterCode)
			if r.Floor.Building.Name != "Madrid HQ" {
				t.Errorf("%s: Building = %q, want Madrid HQ", r.Name, r.Floor.Building.Name)
			}
		}
		if want := []string{"Boardroom", "Desk 1", "Desk 2", "Goya", "Velázquez"}; !slices.Equal(names, want) {
			t.Errorf("names = %v, want %v (not the hidden room)", names, want)
		}
		if want := []string{"MAD-R3", "MAD-D1", "MAD-D2", "MAD-R1", "MAD-R2"}; !slices.Equal(codes, want) {
			t.Errorf("codes = %v, want %v", codes, want)
		}
	})

	t.Run("OneResource", func(t *testing.T) {
		f, rs, err := b.Service.PosterResources(t.Context(), u.adam, booking.PosterQuery{ResourceID: &resource})
		if err != nil {
			t.Fatalf("PosterResources: %v", err)
		}
		if len(rs) != 1 || rs[0].ID != resource || rs[0].PosterCode != "MAD-R1" || f.ID != floor {
			t.Fatalf("resources = %+v on floor %s, want Goya on madrid-1", rs, f.Name)
		}
	})

	hiddenFloor, hiddenRoom, otherFloor, otherRoom := bookingtest.FloorHidden, bookingtest.RoomHidden, bookingtest.FloorB, bookingtest.RoomB
	for _, tc := range []struct {
		name  string
		actor booking.User
		q     booking.PosterQuery
		want  booking.Code
	}{
		{"ReceptionistIs1001", u.rita, booking.PosterQuery{FloorID: &floor}, booking.CodeForbidden},
		{"EmployeeIs1001", u.alice, booking.PosterQuery{ResourceID: &resource}, booking.CodeForbidden},
		{"NeitherIs2000", u.adam, booking.PosterQuery{}, booking.CodeInvalidRequest},
		{"BothIs2000", u.adam, booking.PosterQuery{FloorID: &floor, ResourceID: &resource}, booking.CodeInvalidRequest},
		{"HiddenFloorIs1006", u.adam, booking.PosterQuery{FloorID: &hiddenFloor}, booking.CodeFloorNotFound},
		{"OtherOrganizationsFloorIs1006", u.adam, booking.PosterQuery{FloorID: &otherFloor}, booking.CodeFloorNotFound},
		{"HiddenResourceIs1002", u.adam, booking.PosterQuery{ResourceID: &hiddenRoom}, booking.CodeResourceNotFound},
		{"OtherOrganizationsResourceIs1002", u.adam, booking.PosterQuery{ResourceID: &otherRoom}, booking.CodeResourceNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := b.Service.PosterResources(t.Context(), tc.actor, tc.q)
			bookingtest.WantCode(t, err, tc.want)
		})
	}
}

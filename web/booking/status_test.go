package booking_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// wantFree fails the test unless st is free until want.
func wantFree(t *testing.T, st booking.ResourceStatus, want time.Time) {
	t.Helper()
	wantEqual(t, "free until", freeUntil{IsFree: true, FreeUntil: &want}, freeUntil{st.IsFree, st.FreeUntil})
}

// wantBusy fails the test unless st is not free and has no FreeUntil.
func wantBusy(t *testing.T, st booking.ResourceStatus) {
	t.Helper()
	wantEqual(t, "free until", freeUntil{}, freeUntil{st.IsFree, st.FreeUntil})
}

type freeUntil struct {
	IsFree    bool
	FreeUntil *time.Time
}

// resourceStatus returns the status of the resource with the poster code, and fails the test on any
// error.
func resourceStatus(t *testing.T, b *bookingtest.Bundle, u booking.User, code string) booking.ResourceStatus {
	t.Helper()
	st, err := b.Service.StatusByPosterCode(t.Context(), u, code)
	if err != nil {
		t.Fatalf("StatusByPosterCode(%q): %v", code, err)
	}
	return st
}

// TestStatusByPosterCode checks that a booking makes its resource busy, and that a resource is free until
// its next booking starts.
func TestStatusByPosterCode(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	status := resourceStatus

	t.Run("FreeUntilEndOfWindow", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		st := status(t, b, fixtureUsers(t, b).alice, "MAD-R1")
		wantFree(t, st, at(0, 20, 0))
		r := st.Resource
		wantEqual(t, "Goya", resourceView{
			ID: bookingtest.RoomGoya, Floor: bookingtest.FloorMadrid, Subcategory: bookingtest.SubRoom,
			Category: booking.CategorySpace, Capacity: ptr(int32(8)), PosterCode: "MAD-R1", Phone: "+34 910 000 001", Visible: true,
		}, resourceViewOf(r))
		if r.Rule.ID != bookingtest.RuleRoom || r.Rule.EndTime != 20*time.Hour {
			t.Errorf("Rule = %v ending at %v, want %v ending at 20:00", r.Rule.ID, r.Rule.EndTime, bookingtest.RuleRoom)
		}
	})

	t.Run("FreeUntilNextBookingToday", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 16, 0), at(0, 17, 0)),
			bookingtest.Request(bookingtest.RoomGoya, at(0, 14, 0), at(0, 15, 0)))
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 14, 0))
	})

	t.Run("BookingTomorrowDoesNotShortenToday", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 8, 0), at(1, 9, 0)))
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 20, 0))
	})

	t.Run("BookingEndingNowDoesNotBlock", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		b.Clock.Set(at(0, 10, 0))
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 20, 0))
	})

	t.Run("NotFreeWhileBlockingBookingCoversNow", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		wantBusy(t, status(t, b, u.alice, "MAD-R1"))
		b.Clock.Set(at(0, 9, 10))
		wantBusy(t, status(t, b, u.alice, "MAD-R1"))
		// Another room is not affected.
		wantFree(t, status(t, b, u.alice, "MAD-R2"), at(0, 20, 0))
	})

	t.Run("WaitingApprovalBlocks", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bs := mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(0, 9, 0), at(0, 10, 0)))
		if got, want := bs[0].Status, booking.StatusWaitingApproval; got != want {
			t.Fatalf("Status = %v, want %v", got, want)
		}
		wantBusy(t, status(t, b, u.alice, "MAD-R3"))
	})

	t.Run("CancelledOrFinishedBookingDoesNotBlock", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		importBookings(t, b,
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(0, 8, 30), at(0, 10, 0), booking.StatusCancelled),
			bookingtest.LayoutBooking(bookingtest.RoomVelazquez, at(0, 8, 30), at(0, 10, 0), booking.StatusFinished),
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(0, 12, 0), at(0, 13, 0), booking.StatusRejected),
		)
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 20, 0))
		wantFree(t, status(t, b, u.alice, "MAD-R2"), at(0, 20, 0))
	})

	t.Run("ImportedActiveBookingBlocks", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		importBookings(t, b, bookingtest.LayoutBooking(bookingtest.RoomGoya, at(0, 8, 30), at(0, 10, 0), booking.StatusActive))
		wantBusy(t, status(t, b, u.alice, "MAD-R1"))
	})

}

// TestStatusByPosterCodeWindow checks that a resource is free only inside its rule's window for the day.
func TestStatusByPosterCodeWindow(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	status := resourceStatus

	for _, tc := range []struct {
		name string
		code string
		now  time.Time
		want *time.Time // free until; nil: not free
	}{
		{"NotFreeBeforeWindow", "MAD-R1", at(0, 7, 0), nil},
		{"NotFreeAfterWindow", "MAD-R1", at(0, 21, 0), nil},
		{"NotFreeAtWindowEnd", "MAD-R1", at(0, 20, 0), nil},
		{"FreeAtWindowStart", "MAD-R1", at(0, 8, 0), ptr(at(0, 20, 0))},
		{"WholeDayFreeUntilNextMidnight", "MAD-D1", at(0, 23, 30), ptr(at(1, 0, 0))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			b.Clock.Set(tc.now)
			st := status(t, b, fixtureUsers(t, b).alice, tc.code)
			if tc.want == nil {
				wantBusy(t, st)
			} else {
				wantFree(t, st, *tc.want)
			}
		})
	}

	t.Run("WindowReadInBuildingTimeZone", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		// 09:00 in Madrid is 03:00 in New York: Hudson's window has not opened.
		wantBusy(t, status(t, b, alice, "NYC-R1"))
		// 15:00 in Madrid is 09:00 in New York.
		b.Clock.Set(at(0, 15, 0))
		wantFree(t, status(t, b, alice, "NYC-R1"), time.Date(2026, 11, 23, 20, 0, 0, 0, bookingtest.NewYork))
		// At 21:00 in Madrid, Goya is closed and Hudson is still open.
		b.Clock.Set(at(0, 21, 0))
		wantBusy(t, status(t, b, alice, "MAD-R1"))
		wantFree(t, status(t, b, alice, "NYC-R1"), time.Date(2026, 11, 23, 20, 0, 0, 0, bookingtest.NewYork))
	})

}

// TestStatusByPosterCodeHidden checks that hidden or deactivated resources are never free, and that poster
// codes are looked up in the caller's organization.
func TestStatusByPosterCodeHidden(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	status := resourceStatus

	t.Run("HiddenResourceNotFree", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		st := status(t, b, fixtureUsers(t, b).alice, "MAD-RH")
		wantBusy(t, st)
		if got, want := st.Resource.ID, bookingtest.RoomHidden; got != want {
			t.Errorf("Resource.ID = %v, want %v", got, want)
		}
		if st.Resource.Visible {
			t.Errorf("Visible = true, want false")
		}
	})

	t.Run("ResourceOnHiddenFloorNotFree", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		st := status(t, b, fixtureUsers(t, b).alice, "MAD-RF")
		wantBusy(t, st)
		if got, want := st.Resource.ID, bookingtest.RoomOnHidden; got != want {
			t.Errorf("Resource.ID = %v, want %v", got, want)
		}
	})

	// The resource is free only if its floor and building are also activated and visible.
	for _, tc := range []struct {
		name   string
		change func(l *layout.Layout)
	}{
		{"ResourceOnDeactivatedFloorNotFree", func(l *layout.Layout) { l.Floors[0].Status = "DEACTIVATED" }},
		{"ResourceInHiddenBuildingNotFree", func(l *layout.Layout) { l.Buildings[0].Visible = ptr(false) }},
		{"ResourceInDeactivatedBuildingNotFree", func(l *layout.Layout) { l.Buildings[0].Status = "DEACTIVATED" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			l := bookingtest.Layout()
			if l.Floors[0].ID != bookingtest.FloorMadrid.String() || l.Buildings[0].ID != bookingtest.BuildingMadrid.String() {
				t.Fatalf("the fixture's first floor and building are not Madrid's")
			}
			tc.change(&l)
			importLayout(t, b, l)
			st := status(t, b, fixtureUsers(t, b).alice, "MAD-R1")
			wantBusy(t, st)
			if got, want := st.Resource.ID, bookingtest.RoomGoya; got != want {
				t.Errorf("Resource.ID = %v, want %v", got, want)
			}
		})
	}

	t.Run("UnknownCodeIs1002", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		_, err := b.Service.StatusByPosterCode(t.Context(), fixtureUsers(t, b).alice, "NOPE-1")
		bookingtest.WantCode(t, err, booking.CodeResourceNotFound)
	})

	t.Run("OtherOrganizationsCodeIs1002", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		// MAD-D1 exists only in organization A.
		_, err := b.Service.StatusByPosterCode(t.Context(), fixtureUsers(t, b).boris, "MAD-D1")
		bookingtest.WantCode(t, err, booking.CodeResourceNotFound)
	})

	t.Run("PosterCodeResolvesWithinOrganization", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		if got, want := status(t, b, u.alice, "MAD-R1").Resource.ID, bookingtest.RoomGoya; got != want {
			t.Errorf("Alice: Resource.ID = %v, want %v (Goya)", got, want)
		}
		st := status(t, b, u.boris, "MAD-R1")
		if got, want := st.Resource.ID, bookingtest.RoomB; got != want {
			t.Errorf("Boris: Resource.ID = %v, want %v (Globex room)", got, want)
		}
		// A booking of Goya does not make Globex's room busy.
		mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		wantFree(t, status(t, b, u.boris, "MAD-R1"), at(0, 20, 0))
		wantBusy(t, status(t, b, u.alice, "MAD-R1"))
	})
}

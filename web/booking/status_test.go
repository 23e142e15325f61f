package booking_test

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layoutimport"
)

func TestStatusByPosterCode(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	// wantFree fails unless st is free until want.
	wantFree := func(t *testing.T, st booking.ResourceStatus, want time.Time) {
		t.Helper()
		if !st.IsFree {
			t.Fatalf("IsFree = false, want true")
		}
		if st.FreeUntil == nil {
			t.Fatalf("FreeUntil = nil, want %v", want)
		}
		if got := *st.FreeUntil; !got.Equal(want) {
			t.Fatalf("FreeUntil = %v, want %v", got, want)
		}
	}
	wantBusy := func(t *testing.T, st booking.ResourceStatus) {
		t.Helper()
		if st.IsFree {
			t.Fatalf("IsFree = true, want false")
		}
		if st.FreeUntil != nil {
			t.Fatalf("FreeUntil = %v, want nil when not free", *st.FreeUntil)
		}
	}
	status := func(t *testing.T, b *bookingtest.Bundle, u booking.User, code string) booking.ResourceStatus {
		t.Helper()
		st, err := b.Service.StatusByPosterCode(t.Context(), u, code)
		if err != nil {
			t.Fatalf("StatusByPosterCode(%q): %v", code, err)
		}
		return st
	}

	t.Run("FreeUntilEndOfWindow", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		st := status(t, b, fixtureUsers(t, b).alice, "MAD-R1")
		wantFree(t, st, at(0, 20, 0))
		r := st.Resource
		if got, want := r.ID, bookingtest.RoomGoya; got != want {
			t.Errorf("Resource.ID = %v, want %v", got, want)
		}
		if got, want := r.Floor.ID, bookingtest.FloorMadrid; got != want {
			t.Errorf("Floor.ID = %v, want %v", got, want)
		}
		if got, want := r.Subcategory.Category, booking.CategorySpace; got != want {
			t.Errorf("Subcategory.Category = %v, want %v", got, want)
		}
		if got, want := r.Rule.ID, bookingtest.RuleRoom; got != want {
			t.Errorf("Rule.ID = %v, want %v", got, want)
		}
		if got, want := r.Rule.EndTime, 20*time.Hour; got != want {
			t.Errorf("Rule.EndTime = %v, want %v", got, want)
		}
		if !r.Visible {
			t.Errorf("Visible = false, want true")
		}
	})

	t.Run("FreeUntilNextBookingToday", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, req(bookingtest.RoomGoya, at(0, 16, 0), at(0, 17, 0)),
			req(bookingtest.RoomGoya, at(0, 14, 0), at(0, 15, 0)))
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 14, 0))
	})

	t.Run("BookingTomorrowDoesNotShortenToday", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, req(bookingtest.RoomGoya, at(1, 8, 0), at(1, 9, 0)))
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 20, 0))
	})

	t.Run("BookingEndingNowDoesNotBlock", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, req(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		b.Clock.Set(at(0, 10, 0))
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 20, 0))
	})

	t.Run("NotFreeWhileBlockingBookingCoversNow", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		mustCreate(t, b, u.alice, req(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
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
		bs := mustCreate(t, b, u.alice, req(bookingtest.RoomBoard, at(0, 9, 0), at(0, 10, 0)))
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
			layoutBooking(bookingtest.RoomGoya, at(0, 8, 30), at(0, 10, 0), booking.StatusCancelled),
			layoutBooking(bookingtest.RoomVelazquez, at(0, 8, 30), at(0, 10, 0), booking.StatusFinished),
			layoutBooking(bookingtest.RoomGoya, at(0, 12, 0), at(0, 13, 0), booking.StatusRejected),
		)
		wantFree(t, status(t, b, u.alice, "MAD-R1"), at(0, 20, 0))
		wantFree(t, status(t, b, u.alice, "MAD-R2"), at(0, 20, 0))
	})

	t.Run("ImportedActiveBookingBlocks", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		importBookings(t, b, layoutBooking(bookingtest.RoomGoya, at(0, 8, 30), at(0, 10, 0), booking.StatusActive))
		wantBusy(t, status(t, b, u.alice, "MAD-R1"))
	})

	t.Run("NotFreeBeforeWindow", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 7, 0))
		wantBusy(t, status(t, b, fixtureUsers(t, b).alice, "MAD-R1"))
	})

	t.Run("NotFreeAfterWindow", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 21, 0))
		wantBusy(t, status(t, b, fixtureUsers(t, b).alice, "MAD-R1"))
	})

	t.Run("NotFreeAtWindowEnd", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 20, 0))
		wantBusy(t, status(t, b, fixtureUsers(t, b).alice, "MAD-R1"))
	})

	t.Run("FreeAtWindowStart", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 8, 0))
		wantFree(t, status(t, b, fixtureUsers(t, b).alice, "MAD-R1"), at(0, 20, 0))
	})

	t.Run("WholeDayFreeUntilNextMidnight", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		b.Clock.Set(at(0, 23, 30))
		wantFree(t, status(t, b, fixtureUsers(t, b).alice, "MAD-D1"), at(1, 0, 0))
	})

	t.Run("WindowReadInBuildingTimeZone", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		// 09:00 in Madrid is 03:00 in New York: Hudson's window has not opened.
		wantBusy(t, status(t, b, alice, "NYC-R1"))
		// 15:00 in Madrid is 09:00 in New York.
		b.Clock.Set(at(0, 15, 0))
		wantFree(t, status(t, b, alice, "NYC-R1"), time.Date(2026, 11, 23, 20, 0, 0, 0, bookingtest.NewYork))
		// At 21:00 Madrid Goya is closed, Hudson still open.
		b.Clock.Set(at(0, 21, 0))
		wantBusy(t, status(t, b, alice, "MAD-R1"))
		wantFree(t, status(t, b, alice, "NYC-R1"), time.Date(2026, 11, 23, 20, 0, 0, 0, bookingtest.NewYork))
	})

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

	// The resource is free only when its floor and building are activated and visible too.
	for _, tc := range []struct {
		name   string
		change func(l *layoutimport.Layout)
	}{
		{"ResourceOnDeactivatedFloorNotFree", func(l *layoutimport.Layout) { l.Floors[0].Status = "DEACTIVATED" }},
		{"ResourceInHiddenBuildingNotFree", func(l *layoutimport.Layout) { l.Buildings[0].Visible = ptr(false) }},
		{"ResourceInDeactivatedBuildingNotFree", func(l *layoutimport.Layout) { l.Buildings[0].Status = "DEACTIVATED" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			l := bookingtest.Layout()
			if l.Floors[0].ID != bookingtest.FloorMadrid.String() || l.Buildings[0].ID != bookingtest.BuildingMadrid.String() {
				t.Fatalf("the fixture's first floor and building are not Madrid's")
			}
			tc.change(&l)
			if _, err := layoutimport.Import(t.Context(), b.Service, l); err != nil {
				t.Fatalf("Import: %v", err)
			}
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
		wantCode(t, err, booking.CodeResourceNotFound)
	})

	t.Run("OtherOrganizationsCodeIs1002", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		// MAD-D1 exists only in organization A.
		_, err := b.Service.StatusByPosterCode(t.Context(), fixtureUsers(t, b).boris, "MAD-D1")
		wantCode(t, err, booking.CodeResourceNotFound)
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
		mustCreate(t, b, u.alice, req(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
		wantFree(t, status(t, b, u.boris, "MAD-R1"), at(0, 20, 0))
		wantBusy(t, status(t, b, u.alice, "MAD-R1"))
	})
}

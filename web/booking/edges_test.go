package booking_test

import (
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// searchOne searches Madrid's rooms on Tuesday during [from, to) as Alice, and returns the result for the
// room with the given name.
func searchOne(t *testing.T, b *fx.Bundle, name string, from, to time.Duration) booking.SearchResult {
	t.Helper()
	space := booking.CategorySpace
	f, err := b.Service.Search(t.Context(), b.User(t, fx.OrgA, fx.Alice), booking.SearchQuery{
		BuildingID: fx.BuildingMadrid, Category: &space, Days: []time.Time{date(2026, 11, 24)}, From: from, To: to,
	})
	if err != nil {
		t.Fatalf("Search: %v", err)
	}
	for _, r := range f.Results {
		if r.Resource.Name == name {
			return r
		}
	}
	t.Fatalf("no %s in the results", name)
	return booking.SearchResult{}
}

func TestSearchEdges(t *testing.T) {
	t.Parallel()

	t.Run("ABookingStartingAtTheEndOfTheHoursIsWhenFreeEnds", func(t *testing.T) {
		t.Parallel()
		b := fx.Setup(t)
		searchBook(t, b, fx.Bob, fx.RoomVelazquez, booking.CategorySpace, fx.At(1, 11, 0), fx.At(1, 12, 0))
		r := searchOne(t, b, "Velázquez", 10*time.Hour, 11*time.Hour)
		if r.State != booking.SpotFree || !r.Days[0].FreeUntil.Equal(fx.At(1, 11, 0)) {
			t.Errorf("Velázquez = %s until %s, want free until 11:00", r.State, r.Days[0].FreeUntil)
		}
	})

	// During 10:00–12:00, of two back-to-back bookings one is Alice's and the other Bob's. The state is mine,
	// in either order.
	for _, tt := range []struct {
		name          string
		first, second uuid.UUID
	}{
		{"MineFirstThenSomeoneElse", fx.Alice, fx.Bob},
		{"SomeoneElseFirstThenMine", fx.Bob, fx.Alice},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := fx.Setup(t)
			searchBook(t, b, tt.first, fx.RoomGoya, booking.CategorySpace, fx.At(1, 10, 0), fx.At(1, 11, 0))
			searchBook(t, b, tt.second, fx.RoomGoya, booking.CategorySpace, fx.At(1, 11, 0), fx.At(1, 12, 0))
			if got := searchOne(t, b, "Goya", 10*time.Hour, 12*time.Hour).State; got != booking.SpotMine {
				t.Errorf("Goya = %s, want mine", got)
			}
		})
	}
}

// Moving a booking to another resource at the same start gives it the check-in window of the new
// resource's rule, not the old one's.
func TestMoveToAnotherResourceTakesItsCheckInWindow(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	const minute, hour = int64(time.Minute / time.Millisecond), int64(time.Hour / time.Millisecond)
	wide := uuid.New()
	l := fx.LayoutWith(t, fx.RoomVelazquez, func(r *layout.LayoutResource) { r.ResourceRuleID = wide.String() })
	l.ResourceRules = append(l.ResourceRules, layout.LayoutResourceRule{
		ID: wide.String(), OrganizationID: fx.OrgA.String(), AdvanceCheckIn: 30 * minute, ExpirationMargin: hour,
		StartTime: 8 * hour, EndTime: 20 * hour, MaximumDuration: 4 * hour,
	})
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
		t.Fatalf("Import: %v", err)
	}
	alice := b.User(t, fx.OrgA, fx.Alice)
	bk := mustCreate(t, b, alice, fx.Request(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 12, 0)))[0]
	if want := (booking.Interval{Start: fx.At(1, 9, 50), End: fx.At(1, 10, 15)}); !bk.CheckIn.Start.Equal(want.Start) || !bk.CheckIn.End.Equal(want.End) {
		t.Fatalf("check-in on Goya = %v, want %v", bk.CheckIn, want)
	}
	to := fx.RoomVelazquez
	moved, err := b.Service.Change(t.Context(), alice, bk.ID, booking.BookingChange{ResourceID: &to})
	if err != nil {
		t.Fatalf("Change: %v", err)
	}
	want := booking.Interval{Start: fx.At(1, 9, 30), End: fx.At(1, 11, 0)}
	if !moved.CheckIn.Start.Equal(want.Start) || !moved.CheckIn.End.Equal(want.End) {
		t.Errorf("check-in on Velázquez = %v–%v, want %v–%v (its rule's window)", moved.CheckIn.Start, moved.CheckIn.End, want.Start, want.End)
	}
	read, err := b.Service.Booking(t.Context(), alice, bk.ID)
	if err != nil {
		t.Fatalf("Booking: %v", err)
	}
	if !read.CheckIn.Start.Equal(want.Start) || !read.CheckIn.End.Equal(want.End) {
		t.Errorf("check-in read back = %v–%v, want %v–%v", read.CheckIn.Start, read.CheckIn.End, want.Start, want.End)
	}
}

// 25 October 2026 lasts 25 hours in Madrid (03:00 CEST becomes 02:00 CET). An all-day desk booking covers
// all of them, and every busy lookup still sees it in its last half hour, 23:30–24:00.
func TestBusyAcrossTheFallBackDay(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	madrid := fx.Madrid
	b.Clock.Set(time.Date(2026, 10, 24, 12, 0, 0, 0, madrid))
	alice, bob := b.User(t, fx.OrgA, fx.Alice), b.User(t, fx.OrgA, fx.Bob)
	day := time.Date(2026, 10, 25, 0, 0, 0, 0, madrid)
	next := time.Date(2026, 10, 26, 0, 0, 0, 0, madrid)
	bs, err := book(t, b, alice, alice, booking.CategoryWorkstation, booking.NewBooking{ResourceID: fx.DeskOne, Start: day.Add(10 * time.Hour), AllDay: true})
	if err != nil {
		t.Fatalf("book the day: %v", err)
	}
	if got := bs[0].End.Sub(bs[0].Start); got != 25*time.Hour || !bs[0].Start.Equal(day) {
		t.Fatalf("all-day booking from %s lasts %s, want 25h from midnight", bs[0].Start, got)
	}
	last := booking.Interval{Start: time.Date(2026, 10, 25, 23, 30, 0, 0, madrid), End: next}
	desk := booking.CategoryWorkstation

	t.Run("Availability", func(t *testing.T) {
		as, err := b.Service.Availability(t.Context(), bob, booking.AvailabilityQuery{
			BuildingID: fx.BuildingMadrid, From: last.Start, To: last.End, Category: &desk,
		})
		if err != nil {
			t.Fatalf("Availability: %v", err)
		}
		seen := map[uuid.UUID]bool{}
		for _, a := range as {
			seen[a.Resource.ID] = true
			busy := a.Resource.ID == fx.DeskOne
			if a.Free == busy || (busy && (len(a.Busy) != 1 || !a.Busy[0].Start.Equal(last.Start) || !a.Busy[0].End.Equal(last.End))) {
				t.Errorf("%s: free %v, busy %v; want Desk 1 busy 23:30–24:00 and Desk 2 free", a.Resource.Name, a.Free, a.Busy)
			}
		}
		if !seen[fx.DeskOne] || !seen[fx.DeskTwo] {
			t.Errorf("availability has %d resources, want Desk 1 and Desk 2 among them", len(as))
		}
	})
	t.Run("FreeListing", func(t *testing.T) {
		rs, err := b.Service.FreeResources(t.Context(), bob, booking.FreeQuery{
			BuildingID: fx.BuildingMadrid, SubcategoryID: fx.SubDesk, Category: desk, Intervals: []booking.Interval{last},
		})
		if err != nil {
			t.Fatalf("FreeResources: %v", err)
		}
		if got := slices.Collect(func(yield func(string) bool) {
			for _, r := range rs {
				yield(r.Name)
			}
		}); !slices.Equal(got, []string{"Desk 2"}) {
			t.Errorf("free desks = %v, want only Desk 2", got)
		}
	})
	t.Run("Search", func(t *testing.T) {
		f, err := b.Service.Search(t.Context(), bob, booking.SearchQuery{
			BuildingID: fx.BuildingMadrid, Category: &desk, Days: []time.Time{date(2026, 10, 25)},
			From: 23*time.Hour + 30*time.Minute, To: 24 * time.Hour,
		})
		if err != nil {
			t.Fatalf("Search: %v", err)
		}
		seen := map[uuid.UUID]bool{}
		for _, r := range f.Results {
			seen[r.Resource.ID] = true
			if want := map[bool]booking.SpotState{true: booking.SpotBusy, false: booking.SpotFree}[r.Resource.ID == fx.DeskOne]; r.State != want {
				t.Errorf("%s = %s, want %s", r.Resource.Name, r.State, want)
			}
		}
		if !seen[fx.DeskOne] || !seen[fx.DeskTwo] {
			t.Errorf("search found %d resources, want Desk 1 and Desk 2 among them", len(f.Results))
		}
	})
	t.Run("StatusAt2345", func(t *testing.T) {
		b.Clock.Set(time.Date(2026, 10, 25, 23, 45, 0, 0, madrid))
		defer b.Clock.Set(time.Date(2026, 10, 24, 12, 0, 0, 0, madrid))
		st, err := b.Service.StatusByPosterCode(t.Context(), bob, "MAD-D1")
		if err != nil {
			t.Fatalf("StatusByPosterCode: %v", err)
		}
		if st.IsFree {
			t.Errorf("Desk 1 is free at 23:45, want busy (the all-day booking ends at midnight)")
		}
	})
	t.Run("BookingTheLastHalfHour", func(t *testing.T) {
		_, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: bob, Organizer: bob, Category: desk, Bookings: []booking.NewBooking{{ResourceID: fx.DeskOne, Start: last.Start, End: last.End}}})
		fx.WantCode(t, err, booking.CodeResourceNotAvailable)
	})
}

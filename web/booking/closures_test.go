package booking_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// closure returns a closure of the fixture's organization A over [start, end) for reason, of the
// building, floor or resource target (which field is given by kind: "building", "floor" or "resource").
func closure(n int, kind string, target uuid.UUID, start, end time.Time, reason string) layout.LayoutClosure {
	c := layout.LayoutClosure{
		ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", 9000+n), OrganizationID: bookingtest.OrgA.String(),
		StartDate: start.UnixMilli(), EndDate: end.UnixMilli(), Reason: reason,
	}
	switch kind {
	case "building":
		c.BuildingID = target.String()
	case "floor":
		c.FloorID = target.String()
	default:
		c.ResourceID = target.String()
	}
	return c
}

// saveClosures imports closures and returns the error.
func saveClosures(t *testing.T, b *bookingtest.Bundle, cs ...layout.LayoutClosure) error {
	t.Helper()
	_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Closures: cs})
	return err
}

func mustSaveClosures(t *testing.T, b *bookingtest.Bundle, cs ...layout.LayoutClosure) {
	t.Helper()
	if err := saveClosures(t, b, cs...); err != nil {
		t.Fatalf("import closures: %v", err)
	}
}

// wantMessage fails the test unless err is a domain error with the code and message.
func wantMessage(t *testing.T, err error, code booking.Code, message string) {
	t.Helper()
	bookingtest.WantCode(t, err, code)
	var e *booking.Error
	if errors.As(err, &e); e.Message != message {
		t.Fatalf("message = %q, want %q", e.Message, message)
	}
}

func TestClosureRefusesBookings(t *testing.T) {
	t.Parallel()
	tuesday, wednesday := bookingtest.At(1, 0, 0), bookingtest.At(2, 0, 0)
	for _, tc := range []struct {
		name   string
		kind   string
		target uuid.UUID
	}{
		{"OfTheResource", "resource", bookingtest.RoomGoya},
		{"OfItsFloor", "floor", bookingtest.FloorMadrid},
		{"OfItsBuilding", "building", bookingtest.BuildingMadrid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
			// Cache the layout first, so that the closure must be seen through the layout version.
			mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(0, 10, 0), bookingtest.At(0, 11, 0)))
			mustSaveClosures(t, b, closure(1, tc.kind, tc.target, tuesday, wednesday, "Painting"))

			_, err := book(t, b, alice, alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))
			wantMessage(t, err, booking.CodeResourceClosed, "Goya is closed on Tue 24 Nov: Painting")
			wantIndex(t, err, 0)

			// The day after is open, and so is the building in New York.
			mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(2, 10, 0), bookingtest.At(2, 11, 0)))
			mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomHudson, bookingtest.At(1, 16, 0), bookingtest.At(1, 17, 0)))

			// Moving a booking into the closure is refused too.
			bs := mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(3, 10, 0), bookingtest.At(3, 11, 0)))
			_, err = b.Service.Change(t.Context(), alice, bs[0].ID, booking.BookingChange{Start: ptr(bookingtest.At(1, 10, 0)), End: ptr(bookingtest.At(1, 11, 0))})
			wantMessage(t, err, booking.CodeResourceClosed, "Goya is closed on Tue 24 Nov: Painting")
		})
	}

	t.Run("PartOfADay", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
		mustSaveClosures(t, b, closure(1, "resource", bookingtest.RoomGoya, bookingtest.At(1, 12, 0), bookingtest.At(1, 14, 0), "Window repair"))
		_, err := book(t, b, alice, alice, booking.CategorySpace,
			bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(1, 13, 0), bookingtest.At(1, 14, 0)),
			bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 13, 0), bookingtest.At(1, 15, 0)))
		wantMessage(t, err, booking.CodeResourceClosed, "Goya is closed from 12:00 to 14:00 Madrid time on Tue 24 Nov: Window repair")
		wantIndex(t, err, 1)
		wantNoBookings(t, b)
		mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 14, 0), bookingtest.At(1, 15, 0)))
	})
}

func TestClosureOverBookings(t *testing.T) {
	t.Parallel()
	// setup books Goya on Tuesday 10:00–11:00 and Velázquez on Wednesday for Alice, and returns a closure
	// of the Madrid floor over both days.
	setup := func(t *testing.T) (*bookingtest.Bundle, booking.User, []booking.Booking, layout.LayoutClosure) {
		b := bookingtest.Setup(t)
		alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
		bs := mustCreate(t, b, alice,
			bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)),
			bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(2, 9, 0), bookingtest.At(2, 10, 30)))
		return b, alice, bs, closure(1, "floor", bookingtest.FloorMadrid, bookingtest.At(1, 0, 0), bookingtest.At(3, 0, 0), "Floor works")
	}
	status := func(t *testing.T, b *bookingtest.Bundle, id uuid.UUID) string {
		t.Helper()
		var st string
		if err := b.Pool.QueryRow(t.Context(), `SELECT status FROM bookings WHERE id = $1`, id).Scan(&st); err != nil {
			t.Fatal(err)
		}
		return st
	}

	t.Run("WithoutAChoiceIs4016AndSavesNothing", func(t *testing.T) {
		t.Parallel()
		b, _, bs, c := setup(t)
		wantMessage(t, saveClosures(t, b, c), booking.CodeClosureCoversBookings,
			"closures[0]: the closure covers 2 bookings: Goya for alice Archer from 10:00 to 11:00 Madrid time on Tue 24 Nov; "+
				"Velázquez for alice Archer from 09:00 to 10:30 Madrid time on Wed 25 Nov. "+
				"Choose to cancel them (overlapping CANCEL) or to keep them (overlapping KEEP)")
		if got := bookingtest.TableCount(t, b, "closures"); got != 0 {
			t.Errorf("closures = %d rows, want 0", got)
		}
		for _, bk := range bs {
			if got := status(t, b, bk.ID); got != "PENDING" {
				t.Errorf("booking %s is %s, want PENDING", bk.Resource.Name, got)
			}
		}
	})

	t.Run("CancelCancelsThem", func(t *testing.T) {
		t.Parallel()
		b, alice, bs, c := setup(t)
		c.Overlapping = "CANCEL"
		mustSaveClosures(t, b, c)
		for _, bk := range bs {
			if got := status(t, b, bk.ID); got != "CANCELLED" {
				t.Errorf("booking %s is %s, want CANCELLED", bk.Resource.Name, got)
			}
		}
		_, err := book(t, b, alice, alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))
		bookingtest.WantCode(t, err, booking.CodeResourceClosed)
		// Saving it again finds nothing left to cancel or keep.
		c.Overlapping = ""
		mustSaveClosures(t, b, c)
	})

	t.Run("KeepKeepsThemAndStillRefusesNewOnes", func(t *testing.T) {
		t.Parallel()
		b, alice, bs, c := setup(t)
		c.Overlapping = "KEEP"
		mustSaveClosures(t, b, c)
		for _, bk := range bs {
			if got := status(t, b, bk.ID); got != "PENDING" {
				t.Errorf("booking %s is %s, want PENDING", bk.Resource.Name, got)
			}
		}
		var kept []uuid.UUID
		if err := b.Pool.QueryRow(t.Context(), `SELECT kept_booking_ids FROM closures`).Scan(&kept); err != nil {
			t.Fatal(err)
		}
		wantEqual(t, "kept_booking_ids", []uuid.UUID{bs[0].ID, bs[1].ID}, kept)

		// A new booking at the same time, in the next room, is refused; so is one later that day in Goya.
		for _, r := range []booking.NewBooking{
			bookingtest.Request(bookingtest.RoomBoard, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)),
			bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 12, 0), bookingtest.At(1, 13, 0)),
		} {
			_, err := book(t, b, alice, alice, booking.CategorySpace, r)
			bookingtest.WantCode(t, err, booking.CodeResourceClosed)
		}
		// A kept booking may get shorter, but not longer.
		_, err := b.Service.Change(t.Context(), alice, bs[0].ID, booking.BookingChange{End: ptr(bookingtest.At(1, 12, 0))})
		wantMessage(t, err, booking.CodeResourceClosed, "Goya is closed from Tue 24 Nov to Wed 25 Nov: Floor works")
		if _, err := b.Service.Change(t.Context(), alice, bs[0].ID, booking.BookingChange{End: ptr(bookingtest.At(1, 10, 30))}); err != nil {
			t.Fatalf("shortening a kept booking: %v", err)
		}
		// Saving the closure again without a choice is fine: it already keeps them.
		c.Overlapping = ""
		mustSaveClosures(t, b, c)
	})

	t.Run("OverlapsListsThemForAdmins", func(t *testing.T) {
		t.Parallel()
		b, alice, bs, c := setup(t)
		adam := b.User(t, bookingtest.OrgA, bookingtest.Adam)
		floor := bookingtest.FloorMadrid
		spec := booking.ClosureSpec{Closure: booking.Closure{
			ID: uuid.MustParse(c.ID), FloorID: &floor, Start: time.UnixMilli(c.StartDate), End: time.UnixMilli(c.EndDate), Reason: c.Reason,
		}}
		got, err := b.Service.ClosureOverlaps(t.Context(), adam, spec)
		if err != nil {
			t.Fatal(err)
		}
		ids := make([]uuid.UUID, len(got))
		for i, g := range got {
			ids[i] = g.ID
		}
		wantEqual(t, "covered bookings", []uuid.UUID{bs[0].ID, bs[1].ID}, ids)
		_, err = b.Service.ClosureOverlaps(t.Context(), alice, spec)
		bookingtest.WantCode(t, err, booking.CodeForbidden)
	})
}

func TestClosureImportRefusals(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	day := bookingtest.At(1, 0, 0)
	good := closure(1, "building", bookingtest.BuildingMadrid, day, day.Add(24*time.Hour), "Holiday")
	for _, tc := range []struct {
		name string
		edit func(*layout.LayoutClosure)
		want string
	}{
		{"NoTarget", func(c *layout.LayoutClosure) { c.BuildingID = "" },
			"closures[0].buildingId: exactly one of buildingId, floorId and resourceId is required"},
		{"TwoTargets", func(c *layout.LayoutClosure) { c.FloorID = bookingtest.FloorMadrid.String() },
			"closures[0].buildingId: exactly one of buildingId, floorId and resourceId is required"},
		{"UnknownFloor", func(c *layout.LayoutClosure) { c.BuildingID, c.FloorID = "", bookingtest.FloorB.String() },
			"closures[0].floorId: refers to an object that is neither in the document nor in the database"},
		{"EndBeforeStart", func(c *layout.LayoutClosure) { c.EndDate = c.StartDate },
			"closures[0].endDate: must be after startDate"},
		{"TooLong", func(c *layout.LayoutClosure) { c.EndDate = c.StartDate + 401*24*3600*1000 },
			"closures[0].endDate: a closure lasts at most 400 days"},
		{"NoReason", func(c *layout.LayoutClosure) { c.Reason = "  " },
			"closures[0].reason: is required"},
		{"NULInReason", func(c *layout.LayoutClosure) { c.Reason = string(make([]byte, 201)) },
			"closures[0].reason: holds a NUL character or bytes that are not UTF-8"},
		{"BadChoice", func(c *layout.LayoutClosure) { c.Overlapping = "DROP" },
			`closures[0].overlapping: "DROP" is not one of "", CANCEL, KEEP`},
		{"BadID", func(c *layout.LayoutClosure) { c.ResourceID, c.BuildingID = "desk", "" },
			`closures[0].resourceId: "desk" is not a UUID`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := good
			tc.edit(&c)
			wantMessage(t, saveClosures(t, b, c), booking.CodeInvalidRequest, tc.want)
		})
	}
	if got := bookingtest.TableCount(t, b, "closures"); got != 0 {
		t.Errorf("closures = %d rows, want 0", got)
	}
	c := good
	c.Reason = string([]rune("ñ" + fmt.Sprintf("%0200d", 0))[:201])
	wantMessage(t, saveClosures(t, b, c), booking.CodeInvalidRequest, "closures[0].reason: at most 200 characters")
	c.Reason = " Holiday "
	mustSaveClosures(t, b, c)
	var reason string
	if err := b.Pool.QueryRow(t.Context(), `SELECT reason FROM closures`).Scan(&reason); err != nil {
		t.Fatal(err)
	}
	if reason != "Holiday" {
		t.Errorf("reason = %q, want %q", reason, "Holiday")
	}
}

// A closed resource is not free: the free listing leaves it out, availability shows the closure as busy,
// a search shows it unavailable with the reason, and its status is closed.
func TestClosureShowsResourcesClosed(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	mustSaveClosures(t, b, closure(1, "resource", bookingtest.RoomGoya, bookingtest.At(0, 8, 0), bookingtest.At(0, 12, 0), "Carpet cleaning"))

	t.Run("Free", func(t *testing.T) {
		got, err := b.Service.FreeResources(t.Context(), alice, booking.FreeQuery{
			BuildingID: bookingtest.BuildingMadrid, SubcategoryID: bookingtest.SubRoom, Category: booking.CategorySpace,
			Intervals: []booking.Interval{{Start: bookingtest.At(0, 11, 0), End: bookingtest.At(0, 13, 0)}},
		})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range got {
			names = append(names, r.Name)
		}
		wantEqual(t, "free rooms", []string{"Boardroom", "Velázquez"}, names)
	})

	t.Run("Availability", func(t *testing.T) {
		as, err := b.Service.Availability(t.Context(), alice, booking.AvailabilityQuery{
			BuildingID: bookingtest.BuildingMadrid, From: bookingtest.At(0, 10, 0), To: bookingtest.At(0, 20, 0),
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range as {
			if a.Resource.ID != bookingtest.RoomGoya {
				continue
			}
			wantEqual(t, "Goya's busy time", []booking.Interval{{Start: bookingtest.At(0, 10, 0), End: bookingtest.At(0, 12, 0)}}, a.Busy)
			if a.Free || len(a.Closures) != 1 || a.Closures[0].Reason != "Carpet cleaning" {
				t.Errorf("Free = %v, Closures = %v; want not free, closed for carpet cleaning", a.Free, a.Closures)
			}
			return
		}
		t.Fatal("Goya is not listed")
	})

	t.Run("Search", func(t *testing.T) {
		goya := bookingtest.RoomGoya
		found, err := b.Service.Search(t.Context(), alice, booking.SearchQuery{
			ResourceID: &goya, Days: []time.Time{bookingtest.At(0, 0, 0)}, From: 10 * time.Hour, To: 11 * time.Hour,
		})
		if err != nil {
			t.Fatal(err)
		}
		d := found.Results[0].Days[0]
		if found.Results[0].State != booking.SpotUnavailable || d.Refusal != "closed: Carpet cleaning" || d.RefusalCode != booking.CodeResourceClosed {
			t.Errorf("State %s, Refusal %q, code %v; want unavailable, closed: Carpet cleaning, 4014", found.Results[0].State, d.Refusal, d.RefusalCode)
		}
		found, err = b.Service.Search(t.Context(), alice, booking.SearchQuery{
			ResourceID: &goya, Days: []time.Time{bookingtest.At(0, 0, 0)}, From: 12 * time.Hour, To: 13 * time.Hour,
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := found.Results[0].State; got != booking.SpotFree {
			t.Errorf("State after the closure = %s, want free", got)
		}
	})

	t.Run("Status", func(t *testing.T) {
		st, err := b.Service.StatusByPosterCode(t.Context(), alice, "MAD-R1")
		if err != nil {
			t.Fatal(err)
		}
		if st.IsFree || st.ClosedBy == nil || st.ClosedBy.Reason != "Carpet cleaning" {
			t.Errorf("IsFree = %v, ClosedBy = %v; want closed for carpet cleaning", st.IsFree, st.ClosedBy)
		}
		ps, err := b.Service.PosterStatus(t.Context(), alice, "MAD-R1")
		if err != nil {
			t.Fatal(err)
		}
		if ps.State != booking.PosterClosed {
			t.Errorf("poster state = %s, want CLOSED", ps.State)
		}
		// Velázquez is free now, until Goya's closure does not matter to it.
		st, err = b.Service.StatusByPosterCode(t.Context(), alice, "MAD-R2")
		if err != nil {
			t.Fatal(err)
		}
		if !st.IsFree || st.ClosedBy != nil {
			t.Errorf("Velázquez: IsFree = %v, ClosedBy = %v; want free", st.IsFree, st.ClosedBy)
		}
	})

	t.Run("FreeUntilTheClosure", func(t *testing.T) {
		mustSaveClosures(t, b, closure(2, "resource", bookingtest.RoomVelazquez, bookingtest.At(0, 15, 0), bookingtest.At(0, 16, 0), "Inspection"))
		st, err := b.Service.StatusByPosterCode(t.Context(), alice, "MAD-R2")
		if err != nil {
			t.Fatal(err)
		}
		if !st.IsFree || st.FreeUntil == nil || !st.FreeUntil.Equal(bookingtest.At(0, 15, 0)) {
			t.Errorf("IsFree = %v, FreeUntil = %v; want free until 15:00", st.IsFree, st.FreeUntil)
		}
	})
}

func TestClosureExport(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	bs := mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))
	c := closure(1, "resource", bookingtest.RoomGoya, bookingtest.At(1, 0, 0), bookingtest.At(2, 0, 0), "Painting")
	c.Overlapping = "KEEP"
	mustSaveClosures(t, b, c)
	got, err := layout.New(b.Pool, b.Service).Export(t.Context(), b.User(t, bookingtest.OrgA, bookingtest.Adam))
	if err != nil {
		t.Fatal(err)
	}
	want := c
	want.Overlapping, want.KeptBookingIDs = "", []string{bs[0].ID.String()}
	wantEqual(t, "exported closures", []layout.LayoutClosure{want}, got.Closures)
}

// moveResult is what a change of a booking came to: the refusal's code and message, or the resource
// and times the booking has afterwards.
type moveResult struct {
	Code     booking.Code
	Message  string
	Resource uuid.UUID
	Times    booking.Interval
}

func moveResultOf(t *testing.T, bk booking.Booking, err error) moveResult {
	t.Helper()
	var e *booking.Error
	switch {
	case err == nil:
		return moveResult{Resource: bk.Resource.ID, Times: interval(bk.Start, bk.End)}
	case errors.As(err, &e):
		return moveResult{Code: e.Code, Message: e.Message}
	}
	t.Fatalf("Change: %v", err)
	return moveResult{}
}

// A booking that a closure of its floor or building keeps may move inside the time it had on its own
// room, and nowhere else the closure covers: not to another room at the same time, nor to more of the
// closure in its own room.
func TestClosureKeptBookingMoves(t *testing.T) {
	t.Parallel()
	goya, velazquez := bookingtest.RoomGoya, bookingtest.RoomVelazquez
	closedVelazquez := moveResult{Code: booking.CodeResourceClosed, Message: "Velázquez is closed on Tue 24 Nov: Works"}
	for _, scope := range []struct {
		kind   string
		target uuid.UUID
	}{
		{"floor", bookingtest.FloorMadrid},
		{"building", bookingtest.BuildingMadrid},
	} {
		for _, tc := range []struct {
			name   string
			change booking.BookingChange
			want   moveResult
		}{
			{"ToAnotherRoomAtTheSameTime", booking.BookingChange{ResourceID: &velazquez}, closedVelazquez},
			{"ToAnotherRoomInsideItsTime",
				booking.BookingChange{ResourceID: &velazquez, Start: ptr(bookingtest.At(1, 10, 15)), End: ptr(bookingtest.At(1, 10, 45))},
				closedVelazquez},
			{"ToAnotherRoomAfterTheClosure",
				booking.BookingChange{ResourceID: &velazquez, Start: ptr(bookingtest.At(2, 10, 0)), End: ptr(bookingtest.At(2, 11, 0))},
				moveResult{Resource: velazquez, Times: interval(bookingtest.At(2, 10, 0), bookingtest.At(2, 11, 0))}},
			{"InsideItsTime",
				booking.BookingChange{Start: ptr(bookingtest.At(1, 10, 15)), End: ptr(bookingtest.At(1, 10, 45))},
				moveResult{Resource: goya, Times: interval(bookingtest.At(1, 10, 15), bookingtest.At(1, 10, 45))}},
			{"EarlierInItsRoom",
				booking.BookingChange{Start: ptr(bookingtest.At(1, 9, 30))},
				moveResult{Code: booking.CodeResourceClosed, Message: "Goya is closed on Tue 24 Nov: Works"}},
			{"LaterInItsRoom",
				booking.BookingChange{Start: ptr(bookingtest.At(1, 12, 0)), End: ptr(bookingtest.At(1, 13, 0))},
				moveResult{Code: booking.CodeResourceClosed, Message: "Goya is closed on Tue 24 Nov: Works"}},
		} {
			t.Run(scope.kind+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				b := bookingtest.Setup(t)
				alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
				bk := mustCreate(t, b, alice, bookingtest.Request(goya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))[0]
				c := closure(1, scope.kind, scope.target, bookingtest.At(1, 0, 0), bookingtest.At(2, 0, 0), "Works")
				c.Overlapping = "KEEP"
				mustSaveClosures(t, b, c)

				got, err := b.Service.Change(t.Context(), alice, bk.ID, tc.change)
				wantEqual(t, "change", tc.want, moveResultOf(t, got, err))
			})
		}
	}
}

// Saving a closure again, with a new reason, the same or another choice, or over more time, keeps the
// bookings it kept before: they stay PENDING and movable inside their time, the closure lists them as
// kept, and nothing is left for the admin to choose about.
func TestClosureSavedAgainStillKeeps(t *testing.T) {
	t.Parallel()
	type state struct {
		Kept       []uuid.UUID // as the cached layout's closure has them
		Status     map[string]booking.Status
		Overlaps   int          // bookings ClosureOverlaps still lists
		NewInSlot  booking.Code // Bob booking the kept booking's slot
		MoveWithin moveResult   // the kept booking moved inside its time
	}
	tuesday, wednesday, thursday := bookingtest.At(1, 0, 0), bookingtest.At(2, 0, 0), bookingtest.At(3, 0, 0)
	moved := moveResult{Resource: bookingtest.RoomGoya, Times: interval(bookingtest.At(1, 10, 15), bookingtest.At(1, 10, 45))}
	for _, tc := range []struct {
		name    string
		edit    func(*layout.LayoutClosure)
		kept    []string // the names of the bookings kept afterwards
		cancels bool     // whether Wednesday's booking is cancelled
	}{
		{"NewReasonWithoutAChoice", func(c *layout.LayoutClosure) { c.Reason, c.Overlapping = "Works, phase 2", "" }, []string{"tue"}, false},
		{"KeepAgain", func(c *layout.LayoutClosure) { c.Overlapping = "KEEP" }, []string{"tue"}, false},
		{"NewReasonAndCancel", func(c *layout.LayoutClosure) { c.Reason, c.Overlapping = "Works, phase 2", "CANCEL" }, []string{"tue"}, false},
		{"LongerKeepingMore", func(c *layout.LayoutClosure) { c.EndDate, c.Overlapping = thursday.UnixMilli(), "KEEP" }, []string{"tue", "wed"}, false},
		{"LongerCancellingTheRest", func(c *layout.LayoutClosure) { c.EndDate, c.Overlapping = thursday.UnixMilli(), "CANCEL" }, []string{"tue"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			alice, bob := b.User(t, bookingtest.OrgA, bookingtest.Alice), b.User(t, bookingtest.OrgA, bookingtest.Bob)
			adam := b.User(t, bookingtest.OrgA, bookingtest.Adam)
			bs := mustCreate(t, b, alice,
				bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)),
				bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(2, 10, 0), bookingtest.At(2, 11, 0)))
			ids := map[string]uuid.UUID{"tue": bs[0].ID, "wed": bs[1].ID}
			c := closure(1, "floor", bookingtest.FloorMadrid, tuesday, wednesday, "Works")
			c.Overlapping = "KEEP"
			mustSaveClosures(t, b, c)
			tc.edit(&c)
			mustSaveClosures(t, b, c)

			want := state{
				Status:     map[string]booking.Status{"tue": booking.StatusPending, "wed": booking.StatusPending},
				NewInSlot:  booking.CodeResourceClosed,
				MoveWithin: moved,
			}
			for _, name := range tc.kept {
				want.Kept = append(want.Kept, ids[name])
			}
			if tc.cancels {
				want.Status["wed"] = booking.StatusCancelled
			}

			var got state
			cs, err := b.Service.Closures(t.Context(), bs[0].Resource, interval(tuesday, wednesday))
			if err != nil || len(cs) != 1 {
				t.Fatalf("Closures = %v, %v; want the closure", cs, err)
			}
			got.Kept = cs[0].Kept
			got.Status = map[string]booking.Status{"tue": storedStatus(t, b, ids["tue"]), "wed": storedStatus(t, b, ids["wed"])}
			floor := bookingtest.FloorMadrid
			over, err := b.Service.ClosureOverlaps(t.Context(), adam, booking.ClosureSpec{Closure: booking.Closure{
				ID: uuid.MustParse(c.ID), FloorID: &floor, Start: time.UnixMilli(c.StartDate), End: time.UnixMilli(c.EndDate), Reason: c.Reason,
			}})
			if err != nil {
				t.Fatal(err)
			}
			got.Overlaps = len(over)
			_, err = book(t, b, bob, bob, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))
			got.NewInSlot = booking.ErrorCode(err)
			mv, err := b.Service.Change(t.Context(), alice, ids["tue"], booking.BookingChange{Start: ptr(bookingtest.At(1, 10, 15)), End: ptr(bookingtest.At(1, 10, 45))})
			got.MoveWithin = moveResultOf(t, mv, err)
			wantEqual(t, "after the second save", want, got)
		})
	}
}

// A closure covers [start, end): a booking that ends as it starts, or starts as it ends, is not in it,
// whether it is made or moved there; one a minute into it is. Moving into a room closed on its own is
// refused like booking it.
func TestClosureEdges(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	mustSaveClosures(t, b, closure(1, "resource", bookingtest.RoomGoya, bookingtest.At(1, 12, 0), bookingtest.At(1, 14, 0), "Window repair"),
		closure(2, "resource", bookingtest.RoomVelazquez, bookingtest.At(2, 0, 0), bookingtest.At(3, 0, 0), "Painting"))
	// moving is a booking of Goya on Thursday, moved by each case that names a change.
	moving := mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(3, 10, 0), bookingtest.At(3, 11, 0)))[0]
	velazquez := bookingtest.RoomVelazquez
	const closedGoya = "Goya is closed from 12:00 to 14:00 Madrid time on Tue 24 Nov: Window repair"
	for _, tc := range []struct {
		name   string
		book   *booking.NewBooking
		move   *booking.BookingChange
		want   booking.Code
		reason string
	}{
		{"BookEndingAsItStarts", ptr(bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 11, 0), bookingtest.At(1, 12, 0))), nil, 0, ""},
		{"BookStartingAsItEnds", ptr(bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 14, 0), bookingtest.At(1, 15, 0))), nil, 0, ""},
		{"BookAMinuteIntoItsStart", ptr(bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 12, 1))), nil,
			booking.CodeResourceClosed, closedGoya},
		{"BookAMinuteBeforeItsEnd", ptr(bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 13, 59), bookingtest.At(1, 15, 0))), nil,
			booking.CodeResourceClosed, closedGoya},
		{"MoveEndingAsItStarts", nil, &booking.BookingChange{Start: ptr(bookingtest.At(1, 8, 0)), End: ptr(bookingtest.At(1, 9, 0))}, 0, ""},
		{"MoveIntoIt", nil, &booking.BookingChange{Start: ptr(bookingtest.At(1, 13, 0)), End: ptr(bookingtest.At(1, 15, 0))},
			booking.CodeResourceClosed, closedGoya},
		{"MoveToAClosedRoom", nil, &booking.BookingChange{ResourceID: &velazquez, Start: ptr(bookingtest.At(2, 10, 0)), End: ptr(bookingtest.At(2, 11, 0))},
			booking.CodeResourceClosed, "Velázquez is closed on Wed 25 Nov: Painting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The cases share the bundle and the booking being moved, so they run one after another.
			var err error
			if tc.book != nil {
				_, err = book(t, b, alice, alice, booking.CategorySpace, *tc.book)
			} else {
				_, err = b.Service.Change(t.Context(), alice, moving.ID, *tc.move)
			}
			if tc.want == 0 {
				if err != nil {
					t.Fatalf("want it made, got %v", err)
				}
				return
			}
			wantMessage(t, err, tc.want, tc.reason)
		})
	}
}

// A closure of exactly MaxClosureLength with a reason of exactly MaxClosureReason characters is saved as
// sent.
func TestClosureAtItsBounds(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	start := bookingtest.At(1, 0, 0)
	c := closure(1, "building", bookingtest.BuildingMadrid, start, start.Add(booking.MaxClosureLength), strings.Repeat("ñ", booking.MaxClosureReason))
	mustSaveClosures(t, b, c)
	got, err := layout.New(b.Pool, b.Service).Export(t.Context(), b.User(t, bookingtest.OrgA, bookingtest.Adam))
	if err != nil {
		t.Fatal(err)
	}
	wantEqual(t, "exported closures", []layout.LayoutClosure{c}, got.Closures)
}

// An admin asking which bookings a closure would cover is answered about the own organization only,
// whatever organization the spec names.
func TestClosureOverlapsOfAnotherOrganization(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	boris, adam := b.User(t, bookingtest.OrgB, bookingtest.Boris), b.User(t, bookingtest.OrgA, bookingtest.Adam)
	mustCreate(t, b, boris, bookingtest.Request(bookingtest.RoomB, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))
	floor := bookingtest.FloorB
	got, err := b.Service.ClosureOverlaps(t.Context(), adam, booking.ClosureSpec{Closure: booking.Closure{
		ID: uuid.New(), OrganizationID: bookingtest.OrgB, FloorID: &floor,
		Start: bookingtest.At(1, 0, 0), End: bookingtest.At(2, 0, 0), Reason: "Peek",
	}})
	if len(got) > 0 {
		t.Errorf("ClosureOverlaps listed %d bookings of another organization", len(got))
	}
	wantMessage(t, err, booking.CodeInvalidRequest, "floorId: refers to an object that is neither in the document nor in the database")
}

// The 4016 refusal names up to three bookings, and says there are others only when there are.
func TestClosureCoversBookingsNamesThem(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	for h := 10; h < 13; h++ {
		mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, h, 0), bookingtest.At(1, h+1, 0)))
	}
	c := closure(1, "resource", bookingtest.RoomGoya, bookingtest.At(1, 0, 0), bookingtest.At(2, 0, 0), "Painting")
	wantMessage(t, saveClosures(t, b, c), booking.CodeClosureCoversBookings,
		"closures[0]: the closure covers 3 bookings: Goya for alice Archer from 10:00 to 11:00 Madrid time on Tue 24 Nov; "+
			"Goya for alice Archer from 11:00 to 12:00 Madrid time on Tue 24 Nov; Goya for alice Archer from 12:00 to 13:00 Madrid time on Tue 24 Nov. "+
			"Choose to cancel them (overlapping CANCEL) or to keep them (overlapping KEEP)")
	mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 13, 0), bookingtest.At(1, 14, 0)))
	wantMessage(t, saveClosures(t, b, c), booking.CodeClosureCoversBookings,
		"closures[0]: the closure covers 4 bookings: Goya for alice Archer from 10:00 to 11:00 Madrid time on Tue 24 Nov; "+
			"Goya for alice Archer from 11:00 to 12:00 Madrid time on Tue 24 Nov; Goya for alice Archer from 12:00 to 13:00 Madrid time on Tue 24 Nov; and others. "+
			"Choose to cancel them (overlapping CANCEL) or to keep them (overlapping KEEP)")
}

package booking_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// busyLines formats availability as one line per resource: "Goya: 10:00–12:00 14:00–15:00" or "Goya: free".
func busyLines(as []booking.ResourceAvailability) []string {
	out := make([]string, len(as))
	for i, a := range as {
		var ivs []string
		for _, iv := range a.Busy {
			const f = "01-02 15:04"
			ivs = append(ivs, iv.Start.In(bookingtest.Madrid).Format(f)+"–"+iv.End.In(bookingtest.Madrid).Format(f))
		}
		if a.Free != (len(a.Busy) == 0) {
			ivs = append(ivs, fmt.Sprintf("(Free=%v)", a.Free))
		}
		if len(ivs) == 0 {
			ivs = []string{"free"}
		}
		out[i] = a.Resource.Name + ": " + strings.Join(ivs, " ")
	}
	return out
}

// setupAvailability returns the catalogue tests' bundle (the fixture and a hidden building) with these
// bookings. Tomorrow (day 1): Goya 10–12 and 14–15, Boardroom 11–12 waiting for approval, Desk 1 all day,
// Velázquez 10–11 cancelled. Today: Velázquez 09:00–10:00 expired at 09:15, Goya 09:00–10:00 checked in.
func setupAvailability(t *testing.T) (*bookingtest.Bundle, users) {
	t.Helper()
	at := bookingtest.At
	b, u := setupCatalogue(t)
	ctx := t.Context()

	createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 12, 0)))
	createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomGoya, at(1, 14, 0), at(1, 15, 0)))
	createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 11, 0), at(1, 12, 0)))
	createDesk(t, b, u.alice, allDayReq(bookingtest.DeskOne, at(1, 0, 0)))
	cancelled := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0)))
	if _, err := b.Service.Cancel(ctx, u.alice, cancelled.ID); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomVelazquez, at(0, 9, 0), at(0, 10, 0)))
	active := createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomGoya, at(0, 9, 0), at(0, 10, 0)))
	checkIn(t, b, u.bob, active.ID, at(0, 9, 5))
	b.Clock.Set(at(0, 9, 15))
	if res := sweep(t, b); res.Expired != 1 {
		t.Fatalf("Sweep = %+v, want 1 expired", res)
	}
	return b, u
}

// madridRange returns a query for the availability of Madrid's resources during [from, to).
func madridRange(from, to time.Time) booking.AvailabilityQuery {
	return booking.AvailabilityQuery{BuildingID: bookingtest.BuildingMadrid, From: from, To: to}
}

// madridTomorrowWith returns a query for Madrid's resources tomorrow 08:00–20:00, changed by fn.
func madridTomorrowWith(fn func(*booking.AvailabilityQuery)) booking.AvailabilityQuery {
	q := madridRange(bookingtest.At(1, 8, 0), bookingtest.At(1, 20, 0))
	fn(&q)
	return q
}

func TestAvailability(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	b, u := setupAvailability(t)
	madrid, with, category := madridRange, madridTomorrowWith, ptr[booking.Category]
	tomorrow := madrid(at(1, 8, 0), at(1, 20, 0))

	for _, tc := range []struct {
		name  string
		actor booking.User
		q     booking.AvailabilityQuery
		want  []string
	}{
		{"EveryBookableResourceByFloorAndName", u.alice, tomorrow, []string{
			"Boardroom: 11-24 11:00–11-24 12:00",
			"Desk 1: 11-24 08:00–11-24 20:00",
			"Desk 2: free",
			"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
			"Velázquez: free",
		}},
		{"BusyIntervalsAreCutToTheRange", u.alice, madrid(at(1, 11, 0), at(1, 11, 30)), []string{
			"Boardroom: 11-24 11:00–11-24 11:30",
			"Desk 1: 11-24 11:00–11-24 11:30",
			"Desk 2: free",
			"Goya: 11-24 11:00–11-24 11:30",
			"Velázquez: free",
		}},
		{"TouchingIsFree", u.alice, madrid(at(1, 12, 0), at(1, 14, 0)), []string{
			"Boardroom: free",
			"Desk 1: 11-24 12:00–11-24 14:00",
			"Desk 2: free",
			"Goya: free",
			"Velázquez: free",
		}},
		// Today: the expired Velázquez booking does not count; the checked-in Goya one does.
		{"ExpiredDoesNotCountActiveDoes", u.alice, madrid(at(0, 9, 0), at(0, 10, 0)), []string{
			"Boardroom: free",
			"Desk 1: free",
			"Desk 2: free",
			"Goya: 11-23 09:00–11-23 10:00",
			"Velázquez: free",
		}},
		{"FloorFilter", u.alice, with(func(q *booking.AvailabilityQuery) { q.FloorID = ptr(bookingtest.FloorMadrid) }), []string{
			"Boardroom: 11-24 11:00–11-24 12:00",
			"Desk 1: 11-24 08:00–11-24 20:00",
			"Desk 2: free",
			"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
			"Velázquez: free",
		}},
		{"SubcategoryFilter", u.alice, with(func(q *booking.AvailabilityQuery) { q.SubcategoryID = ptr(bookingtest.SubDesk) }), []string{
			"Desk 1: 11-24 08:00–11-24 20:00",
			"Desk 2: free",
		}},
		{"CategoryWorkstation", u.alice,
			with(func(q *booking.AvailabilityQuery) { q.Category = category(booking.CategoryWorkstation) }), []string{
				"Desk 1: 11-24 08:00–11-24 20:00",
				"Desk 2: free",
			}},
		{"CategorySpace", u.alice, with(func(q *booking.AvailabilityQuery) { q.Category = category(booking.CategorySpace) }), []string{
			"Boardroom: 11-24 11:00–11-24 12:00",
			"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
			"Velázquez: free",
		}},
		{"Feature", u.alice,
			with(func(q *booking.AvailabilityQuery) { q.FeatureIDs = []uuid.UUID{bookingtest.FeatureScreen} }), []string{
				"Desk 1: 11-24 08:00–11-24 20:00",
				"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
				"Velázquez: free",
			}},
		{"EveryFeature", u.alice, with(func(q *booking.AvailabilityQuery) {
			q.FeatureIDs = []uuid.UUID{bookingtest.FeatureWhiteboard, bookingtest.FeatureScreen, bookingtest.FeatureScreen}
		}), []string{
			"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
		}},
		{"MinimumCapacity", u.alice, with(func(q *booking.AvailabilityQuery) { q.MinCapacity = ptr(int32(8)) }), []string{
			"Boardroom: 11-24 11:00–11-24 12:00",
			"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
		}},
		{"CapacityNobodyHas", u.alice, with(func(q *booking.AvailabilityQuery) { q.MinCapacity = ptr(int32(17)) }), []string{}},
		{"FiltersTogether", u.alice, with(func(q *booking.AvailabilityQuery) {
			q.Category, q.FeatureIDs, q.MinCapacity = category(booking.CategorySpace), []uuid.UUID{bookingtest.FeatureScreen}, ptr(int32(4))
		}), []string{
			"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
			"Velázquez: free",
		}},
		{"ExactlyMaximumRange", u.alice, madrid(at(1, 0, 0), at(1, 0, 0).Add(booking.MaxAvailabilityRange)), []string{
			"Boardroom: 11-24 11:00–11-24 12:00",
			"Desk 1: 11-24 00:00–11-25 00:00",
			"Desk 2: free",
			"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00",
			"Velázquez: free",
		}},
		{"OtherBuilding", u.alice, booking.AvailabilityQuery{
			BuildingID: bookingtest.BuildingNewYork, From: tomorrow.From, To: tomorrow.To,
		}, []string{"Hudson: free"}},
		{"OtherOrganization", u.boris, booking.AvailabilityQuery{
			BuildingID: bookingtest.BuildingB, From: tomorrow.From, To: tomorrow.To,
		}, []string{"Globex room: free"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			as, err := b.Service.Availability(t.Context(), tc.actor, tc.q)
			if err != nil {
				t.Fatalf("Availability: %v", err)
			}
			wantEqual(t, "availability", tc.want, busyLines(as))
		})
	}

	t.Run("ResourcesCarryFloorAndSubcategory", func(t *testing.T) {
		t.Parallel()
		as, err := b.Service.Availability(t.Context(), u.alice, tomorrow)
		if err != nil {
			t.Fatalf("Availability: %v", err)
		}
		for _, a := range as {
			r := a.Resource
			if r.Floor.ID != bookingtest.FloorMadrid {
				t.Errorf("%s: Floor.ID = %v, want %v", r.Name, r.Floor.ID, bookingtest.FloorMadrid)
			}
			wantSub, wantCat := bookingtest.SubRoom, booking.CategorySpace
			if strings.HasPrefix(r.Name, "Desk") {
				wantSub, wantCat = bookingtest.SubDesk, booking.CategoryWorkstation
			}
			if r.Subcategory.ID != wantSub || r.Subcategory.Category != wantCat {
				t.Errorf("%s: Subcategory = %v %v, want %v %v", r.Name, r.Subcategory.ID, r.Subcategory.Category, wantSub, wantCat)
			}
			if a.Busy == nil {
				t.Errorf("%s: Busy is nil, want an empty slice", r.Name)
			}
		}
	})

}

func TestAvailabilityRefused(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	b, u := setupCatalogue(t)
	madrid, with, category := madridRange, madridTomorrowWith, ptr[booking.Category]
	tomorrow := madrid(at(1, 8, 0), at(1, 20, 0))

	for _, tc := range []struct {
		name  string
		actor booking.User
		q     booking.AvailabilityQuery
		want  booking.Code
	}{
		{"UnknownBuildingIs1004", u.alice, booking.AvailabilityQuery{BuildingID: uuid.New(), From: tomorrow.From, To: tomorrow.To},
			booking.CodeBuildingNotFound},
		{"OtherOrganizationsBuildingIs1004", u.alice,
			booking.AvailabilityQuery{BuildingID: bookingtest.BuildingB, From: tomorrow.From, To: tomorrow.To},
			booking.CodeBuildingNotFound},
		{"UnknownFloorIs1006", u.alice, with(func(q *booking.AvailabilityQuery) { q.FloorID = ptr(uuid.New()) }),
			booking.CodeFloorNotFound},
		{"FloorOfOtherBuildingIs1006", u.alice, with(func(q *booking.AvailabilityQuery) { q.FloorID = ptr(bookingtest.FloorNewYork) }),
			booking.CodeFloorNotFound},
		{"HiddenFloorIs1006", u.alice, with(func(q *booking.AvailabilityQuery) { q.FloorID = ptr(bookingtest.FloorHidden) }),
			booking.CodeFloorNotFound},
		{"HiddenBuildingIs1004", u.alice, booking.AvailabilityQuery{BuildingID: buildingHidden, From: tomorrow.From, To: tomorrow.To},
			booking.CodeBuildingNotFound},
		{"UnknownSubcategoryIs1005", u.alice, with(func(q *booking.AvailabilityQuery) { q.SubcategoryID = ptr(uuid.New()) }),
			booking.CodeSubcategoryNotFound},
		{"OtherOrganizationsSubcategoryIs1005", u.alice,
			with(func(q *booking.AvailabilityQuery) { q.SubcategoryID = ptr(bookingtest.SubRoomB) }),
			booking.CodeSubcategoryNotFound},
		{"ToEqualToFromIs2000", u.alice, madrid(at(1, 10, 0), at(1, 10, 0)), booking.CodeInvalidRequest},
		{"ToBeforeFromIs2000", u.alice, madrid(at(1, 10, 0), at(1, 9, 0)), booking.CodeInvalidRequest},
		{"RangeOverMaximumIs2000", u.alice, madrid(at(1, 0, 0), at(1, 0, 0).Add(booking.MaxAvailabilityRange+time.Millisecond)),
			booking.CodeInvalidRequest},
		{"Before1970Is2000", u.alice, madrid(time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC)),
			booking.CodeInvalidRequest},
		{"UnknownCategoryIs2000", u.alice, with(func(q *booking.AvailabilityQuery) { q.Category = category("ROOM") }),
			booking.CodeInvalidRequest},
		{"LowerCaseCategoryIs2000", u.alice, with(func(q *booking.AvailabilityQuery) { q.Category = category("space") }),
			booking.CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.Service.Availability(t.Context(), tc.actor, tc.q)
			bookingtest.WantCode(t, err, tc.want)
		})
	}
}

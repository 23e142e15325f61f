package booking_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// Resources the free-listing tests add to the fixture: floors 0 and 2 in Madrid, a room on each, and a
// desk whose rule does not allow all-day bookings.
var (
	floorGround  = uuid.MustParse("00000000-0000-4000-8000-000000010001")
	floorSecond  = uuid.MustParse("00000000-0000-4000-8000-000000010002")
	roomZurbaran = uuid.MustParse("00000000-0000-4000-8000-000000010003")
	roomAlcala   = uuid.MustParse("00000000-0000-4000-8000-000000010004")
	deskThree    = uuid.MustParse("00000000-0000-4000-8000-000000010005")
)

func importExtraFloors(t *testing.T, b *bookingtest.Bundle) {
	t.Helper()
	org, madrid := bookingtest.OrgA.String(), bookingtest.BuildingMadrid.String()
	resource := func(id, floor, sub, rule uuid.UUID, name, code string) layout.LayoutResource {
		return layout.LayoutResource{
			ID: id.String(), OrganizationID: org, FloorID: floor.String(), SubcategoryID: sub.String(),
			ResourceRuleID: rule.String(), Name: name, PosterCode: code,
		}
	}
	zurbaran := resource(roomZurbaran, floorGround, bookingtest.SubRoom, bookingtest.RuleRoom, "Zurbarán", "MAD-R0")
	zurbaran.Capacity = ptr(int32(10))
	alcala := resource(roomAlcala, floorSecond, bookingtest.SubRoom, bookingtest.RuleRoom, "Alcalá", "MAD-R20")
	alcala.Capacity = ptr(int32(2))
	l := layout.Layout{
		Floors: []layout.LayoutFloor{
			{ID: floorGround.String(), OrganizationID: org, BuildingID: madrid, Name: "ground", FloorNumber: 0},
			{ID: floorSecond.String(), OrganizationID: org, BuildingID: madrid, Name: "second", FloorNumber: 2},
		},
		Resources: []layout.LayoutResource{
			zurbaran, alcala,
			resource(deskThree, floorGround, bookingtest.SubDesk, bookingtest.RuleRoom, "Desk 3", "MAD-D3"),
		},
	}
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
		t.Fatalf("Import: %v", err)
	}
}

// resourceView holds what the listings show about a resource besides its name.
type resourceView struct {
	ID, Floor, Subcategory uuid.UUID
	Category               booking.Category
	Capacity               *int32
	PosterCode, Phone      string
	Visible                bool
}

func resourceViewOf(r booking.Resource) resourceView {
	return resourceView{ID: r.ID, Floor: r.Floor.ID, Subcategory: r.Subcategory.ID, Category: r.Subcategory.Category,
		Capacity: r.Capacity, PosterCode: r.PosterCode, Phone: r.Phone, Visible: r.Visible}
}

func names(rs []booking.Resource) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

// tomorrow returns the interval from h1:00 to h2:00 tomorrow.
func tomorrow(h1, h2 int) booking.Interval {
	return booking.Interval{Start: bookingtest.At(1, h1, 0), End: bookingtest.At(1, h2, 0)}
}

// spaces returns a query for the Madrid meeting rooms that are free in every interval.
func spaces(ivs ...booking.Interval) booking.FreeQuery {
	return booking.FreeQuery{
		BuildingID: bookingtest.BuildingMadrid, SubcategoryID: bookingtest.SubRoom, Category: booking.CategorySpace,
		Intervals: ivs,
	}
}

// desks returns a query for the Madrid desks that are free in every interval.
func desks(ivs ...booking.Interval) booking.FreeQuery {
	return booking.FreeQuery{
		BuildingID: bookingtest.BuildingMadrid, SubcategoryID: bookingtest.SubDesk,
		Category: booking.CategoryWorkstation, Intervals: ivs,
	}
}

// free returns the names of the resources free for q and fails the test on any error.
func free(t *testing.T, b *bookingtest.Bundle, u booking.User, q booking.FreeQuery) []string {
	t.Helper()
	rs, err := b.Service.FreeResources(t.Context(), u, q)
	if err != nil {
		t.Fatalf("FreeResources: %v", err)
	}
	return names(rs)
}

func wantNames(t *testing.T, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	wantEqual(t, "free resources", want, got)
}

// TestFreeResources checks which resources are listed free and in what order.
func TestFreeResources(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("ListsVisibleSpacesOfBuildingAndSubcategory", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		rs, err := b.Service.FreeResources(t.Context(), fixtureUsers(t, b).alice, spaces(tomorrow(10, 11)))
		if err != nil {
			t.Fatalf("FreeResources: %v", err)
		}
		// Not the hidden room, the room on the hidden floor, Hudson (New York), or any desk.
		wantNames(t, names(rs), "Boardroom", "Goya", "Velázquez")
		wantEqual(t, "Goya", resourceView{
			ID: bookingtest.RoomGoya, Floor: bookingtest.FloorMadrid, Subcategory: bookingtest.SubRoom,
			Category: booking.CategorySpace, Capacity: ptr(int32(8)), PosterCode: "MAD-R1", Phone: "+34 910 000 001", Visible: true,
		}, resourceViewOf(rs[1]))
	})

	t.Run("OrderedByFloorNumberThenName", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		importExtraFloors(t, b)
		got := free(t, b, fixtureUsers(t, b).alice, spaces(tomorrow(10, 11)))
		wantNames(t, got, "Zurbarán", "Boardroom", "Goya", "Velázquez", "Alcalá")
	})

	t.Run("OtherBuilding", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		q := spaces(tomorrow(10, 11))
		q.BuildingID = bookingtest.BuildingNewYork
		wantNames(t, free(t, b, fixtureUsers(t, b).alice, q), "Hudson")
	})

	t.Run("BookedInAnyIntervalNotListed", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		// Free in the first interval only: not listed, in whatever order the intervals come.
		today := booking.Interval{Start: at(0, 12, 0), End: at(0, 13, 0)}
		overlapping := booking.Interval{Start: at(1, 10, 30), End: at(1, 11, 30)}
		wantNames(t, free(t, b, alice, spaces(today, overlapping)), "Boardroom", "Velázquez")
		wantNames(t, free(t, b, alice, spaces(overlapping, today)), "Boardroom", "Velázquez")
		// Free in every interval: listed.
		wantNames(t, free(t, b, alice, spaces(today, tomorrow(12, 13))), "Boardroom", "Goya", "Velázquez")
	})

	t.Run("AdjacentBookingDoesNotHide", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		wantNames(t, free(t, b, alice, spaces(tomorrow(11, 12))), "Boardroom", "Goya", "Velázquez")
		wantNames(t, free(t, b, alice, spaces(tomorrow(9, 10))), "Boardroom", "Goya", "Velázquez")
	})

	t.Run("WaitingApprovalHides", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		wantNames(t, free(t, b, alice, spaces(tomorrow(10, 11))), "Goya", "Velázquez")
	})

	t.Run("NonBlockingBookingDoesNotHide", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		importBookings(t, b,
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusCancelled),
			bookingtest.LayoutBooking(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0), booking.StatusExpired),
		)
		wantNames(t, free(t, b, alice, spaces(tomorrow(10, 11))), "Boardroom", "Goya", "Velázquez")
	})

	t.Run("FeaturesRequireAll", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		q := spaces(tomorrow(10, 11))
		q.FeatureIDs = []uuid.UUID{bookingtest.FeatureScreen}
		wantNames(t, free(t, b, alice, q), "Goya", "Velázquez")
		q.FeatureIDs = []uuid.UUID{bookingtest.FeatureScreen, bookingtest.FeatureWhiteboard}
		wantNames(t, free(t, b, alice, q), "Goya")
		q.FeatureIDs = []uuid.UUID{bookingtest.FeatureWhiteboard, bookingtest.FeatureWhiteboard}
		wantNames(t, free(t, b, alice, q), "Goya")
		q.FeatureIDs = []uuid.UUID{bookingtest.FeatureWhiteboard, uuid.New()}
		wantNames(t, free(t, b, alice, q))
	})

	t.Run("MinCapacity", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		q := spaces(tomorrow(10, 11))
		q.MinCapacity = ptr(int32(8))
		wantNames(t, free(t, b, alice, q), "Boardroom", "Goya")
		q.MinCapacity = ptr(int32(9))
		wantNames(t, free(t, b, alice, q), "Boardroom")
		q.MinCapacity = ptr(int32(17))
		wantNames(t, free(t, b, alice, q))
	})

	t.Run("AllDayKeepsRulesWithAllDayBookings", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		importExtraFloors(t, b)
		alice := fixtureUsers(t, b).alice
		q := desks(tomorrow(10, 11))
		wantNames(t, free(t, b, alice, q), "Desk 3", "Desk 1", "Desk 2")
		q.AllDay = true
		wantNames(t, free(t, b, alice, q), "Desk 1", "Desk 2")
		// No room rule of the fixture allows all-day bookings.
		s := spaces(tomorrow(10, 11))
		s.AllDay = true
		wantNames(t, free(t, b, alice, s))
	})

	t.Run("HiddenBuildingListsNothing", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		l := bookingtest.Layout()
		for i := range l.Buildings {
			if l.Buildings[i].ID == bookingtest.BuildingNewYork.String() {
				l.Buildings[i].Visible = ptr(false)
			}
		}
		importLayout(t, b, l)
		q := spaces(tomorrow(10, 11))
		q.BuildingID = bookingtest.BuildingNewYork
		wantNames(t, free(t, b, fixtureUsers(t, b).alice, q))
	})

	t.Run("OrganizationBSeesOnlyItsRoom", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		q := booking.FreeQuery{
			BuildingID: bookingtest.BuildingB, SubcategoryID: bookingtest.SubRoomB, Category: booking.CategorySpace,
			Intervals: []booking.Interval{tomorrow(10, 11)},
		}
		wantNames(t, free(t, b, fixtureUsers(t, b).boris, q), "Globex room")
	})

}

// TestFreeResourcesRefused checks the queries that are refused, and the longest query accepted.
func TestFreeResourcesRefused(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	refusals := []struct {
		name  string
		actor func(users) booking.User
		query func() booking.FreeQuery
		want  booking.Code
	}{
		{"UnknownBuildingIs1004", nil, func() booking.FreeQuery {
			q := spaces(tomorrow(10, 11))
			q.BuildingID = uuid.New()
			return q
		}, booking.CodeBuildingNotFound},
		{"OtherOrganizationsBuildingIs1004", nil, func() booking.FreeQuery {
			q := spaces(tomorrow(10, 11))
			q.BuildingID = bookingtest.BuildingB
			return q
		}, booking.CodeBuildingNotFound},
		{"OwnBuildingAskedByOtherOrganizationIs1004", func(u users) booking.User { return u.boris }, func() booking.FreeQuery {
			q := spaces(tomorrow(10, 11))
			q.SubcategoryID = bookingtest.SubRoomB
			return q
		}, booking.CodeBuildingNotFound},
		{"UnknownSubcategoryIs1005", nil, func() booking.FreeQuery {
			q := spaces(tomorrow(10, 11))
			q.SubcategoryID = uuid.New()
			return q
		}, booking.CodeSubcategoryNotFound},
		{"OtherOrganizationsSubcategoryIs1005", nil, func() booking.FreeQuery {
			q := spaces(tomorrow(10, 11))
			q.SubcategoryID = bookingtest.SubRoomB
			return q
		}, booking.CodeSubcategoryNotFound},
		{"WorkstationSubcategoryAskedAsSpaceIs1005", nil, func() booking.FreeQuery {
			q := spaces(tomorrow(10, 11))
			q.SubcategoryID = bookingtest.SubDesk
			return q
		}, booking.CodeSubcategoryNotFound},
		{"SpaceSubcategoryAskedAsWorkstationIs1005", nil, func() booking.FreeQuery {
			q := desks(tomorrow(10, 11))
			q.SubcategoryID = bookingtest.SubRoom
			return q
		}, booking.CodeSubcategoryNotFound},
		{"NoIntervalsIs2000", nil, func() booking.FreeQuery { return spaces() }, booking.CodeInvalidRequest},
		{"EndEqualToStartIs2000", nil, func() booking.FreeQuery {
			return spaces(tomorrow(10, 11), booking.Interval{Start: at(1, 12, 0), End: at(1, 12, 0)})
		}, booking.CodeInvalidRequest},
		{"EndBeforeStartIs2000", nil, func() booking.FreeQuery { return spaces(tomorrow(11, 10)) }, booking.CodeInvalidRequest},
		{"TooManyIntervalsIs2000", nil, func() booking.FreeQuery {
			ivs := make([]booking.Interval, booking.MaxFreeIntervals+1)
			for i := range ivs {
				ivs[i] = booking.Interval{Start: at(i, 10, 0), End: at(i, 11, 0)}
			}
			return spaces(ivs...)
		}, booking.CodeInvalidRequest},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			actor := u.alice
			if tt.actor != nil {
				actor = tt.actor(u)
			}
			rs, err := b.Service.FreeResources(t.Context(), actor, tt.query())
			bookingtest.WantCode(t, err, tt.want)
			if rs != nil {
				t.Errorf("resources = %q, want nil on error", names(rs))
			}
		})
	}

	t.Run("ManyIntervalsAccepted", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		ivs := make([]booking.Interval, booking.MaxFreeIntervals)
		for i := range ivs {
			ivs[i] = booking.Interval{Start: at(i, 10, 0), End: at(i, 11, 0).Add(time.Duration(i) * time.Minute)}
		}
		wantNames(t, free(t, b, fixtureUsers(t, b).alice, spaces(ivs...)), "Boardroom", "Goya", "Velázquez")
	})
}

package booking_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// BenchmarkAvailability measures one availability query, against the database, for a floor of 200
// resources (150 desks, 50 meeting rooms) over a busy day. The building's layout is cached after the first
// call, so each call is one query for the busy intervals plus merging them into the resources.
func BenchmarkAvailability(b *testing.B) {
	bundle := bookingtest.Setup(b)
	floor := uuid.New()
	s := func(id uuid.UUID) string { return id.String() }
	org := s(bookingtest.OrgA)
	l := layout.Layout{Floors: []layout.LayoutFloor{{
		ID: s(floor), OrganizationID: org, BuildingID: s(bookingtest.BuildingMadrid), Name: "bench", FloorNumber: 7,
	}}}
	day := bookingtest.At(1, 0, 0)
	for i, busy := range booking.BenchFloorDay(day) {
		r := layout.LayoutResource{
			ID: uuid.NewString(), OrganizationID: org, FloorID: s(floor), Name: fmt.Sprintf("R%03d", i),
			PosterCode: fmt.Sprintf("BENCH-%03d", i), SubcategoryID: s(bookingtest.SubDesk), ResourceRuleID: s(bookingtest.RuleDesk),
			FeatureIDs: []string{s(bookingtest.FeatureScreen)},
		}
		if i >= 150 {
			capacity := int32(4 + i%8)
			r.SubcategoryID, r.ResourceRuleID, r.Capacity = s(bookingtest.SubRoom), s(bookingtest.RuleRoom), &capacity
		}
		l.Resources = append(l.Resources, r)
		for _, iv := range busy {
			l.Bookings = append(l.Bookings, layout.LayoutBooking{
				ID: uuid.NewString(), OrganizationID: org, ResourceID: r.ID, CreatorID: s(bookingtest.Alice),
				OrganizerID: s(bookingtest.Alice), StartDate: iv.Start.UnixMilli(), EndDate: iv.End.UnixMilli(),
			})
		}
	}
	if _, err := layout.New(bundle.Pool, bundle.Service).Import(b.Context(), l); err != nil {
		b.Fatalf("import the floor: %v", err)
	}
	alice := bundle.User(b, bookingtest.OrgA, bookingtest.Alice)
	q := booking.AvailabilityQuery{BuildingID: bookingtest.BuildingMadrid, FloorID: &floor, From: day, To: day.Add(24 * time.Hour)}
	check := func() {
		rs, err := bundle.Service.Availability(b.Context(), alice, q)
		if err != nil {
			b.Fatal(err)
		}
		if len(rs) != 200 {
			b.Fatalf("%d resources, want 200", len(rs))
		}
	}
	check() // the layout is read into memory here, not measured
	b.ReportAllocs()
	for b.Loop() {
		check()
	}
}

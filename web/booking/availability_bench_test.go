package booking_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// BenchmarkAvailability is one availability query of a floor of 200 resources (150 desks, 50 meeting
// rooms) through a day of bookings, on the database: the building's layout comes from memory after the
// first call, so each call is one query for the busy intervals and the merge of them into the resources.
func BenchmarkAvailability(b *testing.B) {
	bundle := bookingtest.Setup(b)
	floor := uuid.New()
	s := func(id uuid.UUID) string { return id.String() }
	org := s(bookingtest.OrgA)
	l := booking.Layout{Floors: []booking.LayoutFloor{{
		ID: s(floor), OrganizationID: org, BuildingID: s(bookingtest.BuildingMadrid), Name: "bench", FloorNumber: 7,
	}}}
	rng := rand.New(rand.NewPCG(1, 2))
	day := bookingtest.At(1, 0, 0)
	at := func(h, m int) int64 {
		return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute).UnixMilli()
	}
	book := func(resource string, start, end int64) {
		l.Bookings = append(l.Bookings, booking.LayoutBooking{
			ID: uuid.NewString(), OrganizationID: org, ResourceID: resource, CreatorID: s(bookingtest.Alice),
			OrganizerID: s(bookingtest.Alice), StartDate: start, EndDate: end,
		})
	}
	for i := range 200 {
		r := booking.LayoutResource{
			ID: uuid.NewString(), OrganizationID: org, FloorID: s(floor), Name: fmt.Sprintf("R%03d", i),
			PosterCode: fmt.Sprintf("BENCH-%03d", i), SubcategoryID: s(bookingtest.SubDesk), ResourceRuleID: s(bookingtest.RuleDesk),
			FeatureIDs: []string{s(bookingtest.FeatureScreen)},
		}
		if i >= 150 {
			capacity := int32(4 + i%8)
			r.SubcategoryID, r.ResourceRuleID, r.Capacity = s(bookingtest.SubRoom), s(bookingtest.RuleRoom), &capacity
		}
		l.Resources = append(l.Resources, r)
		if i < 150 {
			switch rng.IntN(6) {
			case 0, 1:
				book(r.ID, at(0, 0), at(24, 0))
			case 2:
				book(r.ID, at(8, 0), at(13, 0))
			case 3:
				book(r.ID, at(14, 0), at(19, 0))
			}
			continue
		}
		t := at(8, 0)
		for range 3 + rng.IntN(5) {
			t += int64(rng.IntN(4)) * 30 * 60_000
			end := t + int64(1+rng.IntN(3))*30*60_000
			if end > at(20, 0) {
				break
			}
			book(r.ID, t, end)
			t = end
		}
	}
	if _, err := bundle.Service.Import(b.Context(), l); err != nil {
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

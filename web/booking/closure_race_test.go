package booking_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// A booking and a closure never overlap, whichever commits first. Each round, goroutines book rooms of
// both buildings (some in one request across the two buildings) on one day while the day's closures of
// both buildings are saved, in the opposite order. Every booking is then either refused with 4014, or
// made before the closure and cancelled or kept by it, as the closure's choice says.
func TestClosureRace(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	madrid := []uuid.UUID{bookingtest.RoomGoya, bookingtest.RoomVelazquez, bookingtest.RoomBoard}
	const rounds = 24
	for round := range rounds {
		day := round%28 + 1 // within the rooms' 30 days ahead
		choice := []string{"CANCEL", "KEEP"}[round%2]
		// Four one-hour slots in each Madrid room, and one request holding a Madrid room and Hudson (New
		// York) at 16:00 Madrid time.
		var requests [][]booking.NewBooking
		for _, room := range madrid {
			for h := 10; h < 14; h++ {
				requests = append(requests, []booking.NewBooking{bookingtest.Request(room, bookingtest.At(day, h, 0), bookingtest.At(day, h+1, 0))})
			}
		}
		requests = append(requests, []booking.NewBooking{
			bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(day, 16, 0), bookingtest.At(day, 17, 0)),
			bookingtest.Request(bookingtest.RoomHudson, bookingtest.At(day, 16, 0), bookingtest.At(day, 17, 0)),
		})
		closures := []layout.LayoutClosure{
			closure(2*round+1, "building", bookingtest.BuildingNewYork, bookingtest.At(day, 0, 0), bookingtest.At(day+1, 0, 0), "Holiday"),
			closure(2*round, "building", bookingtest.BuildingMadrid, bookingtest.At(day, 0, 0), bookingtest.At(day+1, 0, 0), "Holiday"),
		}
		for i := range closures {
			closures[i].Overlapping = choice
		}

		start := make(chan struct{})
		var wg sync.WaitGroup
		made := make([][]booking.Booking, len(requests))
		errs := make([]error, len(requests))
		for i, r := range requests {
			wg.Go(func() {
				<-start
				made[i], errs[i] = book(t, b, alice, alice, booking.CategorySpace, r...)
			})
		}
		var closureErr error
		wg.Go(func() {
			<-start
			_, closureErr = layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Closures: closures})
		})
		close(start)
		wg.Wait()
		if closureErr != nil {
			t.Fatalf("round %d: saving the closures: %v", round, closureErr)
		}

		var madeIDs []uuid.UUID
		for i, err := range errs {
			switch booking.ErrorCode(err) {
			case 0:
				for _, bk := range made[i] {
					madeIDs = append(madeIDs, bk.ID)
				}
			case booking.CodeResourceClosed:
			default:
				t.Fatalf("round %d, request %d: %v, want it made or refused with 4014", round, i, err)
			}
		}
		// The bookings made are exactly those the closures cancelled or kept, and nothing else blocks
		// during the closures.
		var blocking, cancelled, kept []uuid.UUID
		rows, err := b.Pool.Query(t.Context(), `
			SELECT bk.id, bk.status, bk.id = ANY (c.kept_booking_ids) FROM bookings bk, closures c
			WHERE c.organization_id = bk.organization_id AND c.id = ANY ($1::uuid[])
			  AND bk.start_date < c.end_date AND bk.end_date > c.start_date
			  AND bk.floor_id IN (SELECT f.id FROM floors f WHERE f.organization_id = c.organization_id AND f.building_id = c.building_id)`,
			[]string{closures[0].ID, closures[1].ID})
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id uuid.UUID
			var status string
			var isKept bool
			if err := rows.Scan(&id, &status, &isKept); err != nil {
				t.Fatal(err)
			}
			if booking.Status(status).Blocking() {
				blocking = append(blocking, id)
			}
			if status == string(booking.StatusCancelled) {
				cancelled = append(cancelled, id)
			}
			if isKept {
				kept = append(kept, id)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		for _, ids := range [][]uuid.UUID{madeIDs, blocking, cancelled, kept} {
			slices.SortFunc(ids, func(a, b uuid.UUID) int { return slices.Compare(a[:], b[:]) })
		}
		if choice == "CANCEL" {
			wantEqual(t, "bookings cancelled by the closures", madeIDs, cancelled)
			wantEqual(t, "blocking bookings inside the closures", []uuid.UUID(nil), blocking)
		} else {
			wantEqual(t, "bookings kept by the closures", madeIDs, kept)
			wantEqual(t, "blocking bookings inside the closures", madeIDs, blocking)
		}
		// Whatever happened first, the day is now closed.
		_, err = book(t, b, alice, alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(day, 18, 0), bookingtest.At(day, 19, 0)))
		bookingtest.WantCode(t, err, booking.CodeResourceClosed)
	}
}

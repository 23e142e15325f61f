package booking_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// Reading busy intervals relies on no booking lasting more than 25 hours (the length of a day when clocks
// go back). The database refuses a booking that would.
func TestNoBookingLastsMoreThan25Hours(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	insert := func(hours int) error {
		_, err := b.Pool.Exec(t.Context(), `
			INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date,
			                      end_date, status, resource_type, check_in_opens_at, check_in_closes_at)
			SELECT $1, gen_random_uuid(), $2, floor_id, $3, $3, $4, $4::timestamptz + make_interval(hours => $5),
			       'PENDING', 'WORKSTATION', $4, $4
			FROM resources WHERE organization_id = $1 AND id = $2`,
			bookingtest.OrgA, bookingtest.DeskOne, bookingtest.Alice, bookingtest.At(3, 0, 0), hours)
		return err
	}
	if err := insert(25); err != nil {
		t.Fatalf("a 25-hour booking: %v", err)
	}
	var pgErr *pgconn.PgError
	if err := insert(26); !errors.As(err, &pgErr) || pgErr.ConstraintName != "bookings_length_check" {
		t.Errorf("a 26-hour booking: %v, want bookings_length_check to refuse it", err)
	}
}

// floorTwo is a second visible floor of the Madrid building, which Goya moves to.
var floorTwo = uuid.MustParse("00000000-0000-4000-8000-000000040001")

// goyaOnFloorTwo is the layout document that adds floorTwo and moves Goya there.
func goyaOnFloorTwo() layout.Layout {
	l := bookingtest.Layout()
	var goya layout.LayoutResource
	for _, r := range l.Resources {
		if r.ID == bookingtest.RoomGoya.String() {
			goya = r
		}
	}
	goya.FloorID = floorTwo.String()
	return layout.Layout{
		Floors: []layout.LayoutFloor{{
			ID: floorTwo.String(), OrganizationID: bookingtest.OrgA.String(), BuildingID: bookingtest.BuildingMadrid.String(),
			Name: "madrid-2", FloorNumber: 2,
		}},
		Resources: []layout.LayoutResource{goya},
	}
}

// The listings read busy intervals by floor, so a booking's floor must be its resource's floor, even after
// an import moves the resource to another floor.
func TestBusyFollowsAResourceToAnotherFloor(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	at := bookingtest.At
	createOne(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 12, 0)))
	if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), goyaOnFloorTwo()); err != nil {
		t.Fatalf("Import: %v", err)
	}
	if n := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings WHERE resource_id = $1 AND floor_id = $2`, bookingtest.RoomGoya, floorTwo); n != 1 {
		t.Errorf("Goya's bookings on the floor it moved to = %d, want 1", n)
	}
	// A booking made after the move is on the new floor too.
	createOne(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 14, 0), at(1, 15, 0)))

	onFloor := func(floor uuid.UUID) []string {
		t.Helper()
		as, err := b.Service.Availability(t.Context(), alice, booking.AvailabilityQuery{
			BuildingID: bookingtest.BuildingMadrid, FloorID: &floor, From: at(1, 8, 0), To: at(1, 20, 0),
		})
		if err != nil {
			t.Fatalf("Availability: %v", err)
		}
		return busyLines(as)
	}
	if got, want := onFloor(floorTwo), []string{"Goya: 11-24 10:00–11-24 12:00 11-24 14:00–11-24 15:00"}; !slices.Equal(got, want) {
		t.Errorf("availability of the new floor = %q, want %q", got, want)
	}
	// On the old floor everything else is free; Goya and its booking are gone.
	if got, want := onFloor(bookingtest.FloorMadrid), []string{"Boardroom: free", "Desk 1: free", "Desk 2: free", "Velázquez: free"}; !slices.Equal(got, want) {
		t.Errorf("availability of the old floor = %q, want %q", got, want)
	}
	// Goya is booked, so it is not among the rooms free in Madrid at 11:00.
	free, err := b.Service.FreeResources(t.Context(), alice, booking.FreeQuery{
		BuildingID: bookingtest.BuildingMadrid, SubcategoryID: bookingtest.SubRoom, Category: booking.CategorySpace,
		Intervals: []booking.Interval{{Start: at(1, 11, 0), End: at(1, 11, 30)}},
	})
	if err != nil {
		t.Fatalf("FreeResources: %v", err)
	}
	var names []string
	for _, r := range free {
		names = append(names, r.Name)
	}
	if want := []string{"Boardroom", "Velázquez"}; !slices.Equal(names, want) {
		t.Errorf("rooms free at 11:00 = %q, want %q", names, want)
	}
}

// A booking made while an import moves its resource to another floor waits for the import, and is then
// stored with the new floor.
func TestBookingWhileItsResourceMoves(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	ctx := t.Context()
	// Hold the move open: the new floor exists and Goya is on it, but nothing is committed yet.
	tx, err := b.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, `INSERT INTO floors (organization_id, id, building_id, name, floor_number) VALUES ($1, $2, $3, 'madrid-2', 2)`,
		bookingtest.OrgA, floorTwo, bookingtest.BuildingMadrid); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE resources SET floor_id = $3 WHERE organization_id = $1 AND id = $2`,
		bookingtest.OrgA, bookingtest.RoomGoya, floorTwo); err != nil {
		t.Fatal(err)
	}
	type result struct {
		bs  []booking.Booking
		err error
	}
	done := make(chan result, 1)
	go func() {
		bs, err := b.Service.CreateBookings(ctx, booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0))}})
		done <- result{bs, err}
	}()
	// The booking waits for the move's lock on Goya's row.
	bookingtest.WaitFor(t, "the booking to wait for the move's lock on Goya's row", func() bool {
		select {
		case r := <-done:
			t.Fatalf("the booking answered (%v) while its resource was moving", r.err)
		default:
		}
		return bookingtest.RowCount(t, b, `SELECT count(*) FROM pg_locks WHERE NOT granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE datname = current_database())`) > 0
	})
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("CreateBookings while the resource moved: %v, want it made", r.err)
		}
	case <-time.After(bookingtest.Wait):
		t.Fatalf("no answer within %s of the move", bookingtest.Wait)
	}
	if n := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings WHERE resource_id = $1 AND floor_id = $2`, bookingtest.RoomGoya, floorTwo); n != 1 {
		t.Errorf("Goya's bookings on its new floor = %d, want 1", n)
	}
}

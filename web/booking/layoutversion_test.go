package booking_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// Bookings are checked against the cached layout, and their insert proves it is still current. So a change
// made elsewhere (another instance's import, or directly in the database) affects the very next booking,
// not LayoutTTL later, whether the change now allows the booking or refuses it.
func TestBookingsSeeLayoutChangesAtOnce(t *testing.T) {
	t.Parallel()
	// setup returns a bundle whose service has cached the layout (it has booked Goya once), another
	// instance on the same database, and Alice.
	setup := func(t *testing.T) (*bookingtest.Bundle, *booking.Service, booking.User) {
		b := bookingtest.Setup(t)
		alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
		mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 8, 0), bookingtest.At(1, 9, 0)))
		return b, booking.NewService(b.Pool, booking.WithClock(b.Clock.Now)), alice
	}
	book := func(t *testing.T, b *bookingtest.Bundle, alice booking.User, room uuid.UUID) error {
		_, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{bookingtest.Request(room, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0))}})
		return err
	}
	hide := func(hidden bool) func(*layout.LayoutResource) {
		return func(r *layout.LayoutResource) { r.Visible = ptr(!hidden) }
	}

	t.Run("AnotherInstanceHidesTheRoom", func(t *testing.T) {
		t.Parallel()
		b, other, alice := setup(t)
		if _, err := layout.New(other.Pool(), other).Import(t.Context(), bookingtest.LayoutWith(t, bookingtest.RoomGoya, hide(true))); err != nil {
			t.Fatal(err)
		}
		bookingtest.WantCode(t, book(t, b, alice, bookingtest.RoomGoya), booking.CodeResourceNotFound)
		if got, want := bookingtest.TableCount(t, b, "bookings"), 1; got != want {
			t.Errorf("bookings = %d, want %d", got, want)
		}
	})

	t.Run("AnotherInstanceShowsTheRoomAgain", func(t *testing.T) {
		t.Parallel()
		b, other, alice := setup(t)
		if _, err := layout.New(other.Pool(), other).Import(t.Context(), bookingtest.LayoutWith(t, bookingtest.RoomGoya, hide(true))); err != nil {
			t.Fatal(err)
		}
		bookingtest.WantCode(t, book(t, b, alice, bookingtest.RoomGoya), booking.CodeResourceNotFound) // now held hidden
		if _, err := layout.New(other.Pool(), other).Import(t.Context(), bookingtest.LayoutWith(t, bookingtest.RoomGoya, hide(false))); err != nil {
			t.Fatal(err)
		}
		if err := book(t, b, alice, bookingtest.RoomGoya); err != nil {
			t.Fatalf("booking a room shown again: %v, want it made", err)
		}
	})

	t.Run("RuleChangedInTheDatabase", func(t *testing.T) {
		t.Parallel()
		b, _, alice := setup(t)
		// The room's day now ends at 10:00.
		if _, err := b.Pool.Exec(t.Context(), `UPDATE resource_rules SET end_time = 36000000 WHERE organization_id = $1 AND id = $2`,
			bookingtest.OrgA, bookingtest.RuleRoom); err != nil {
			t.Fatal(err)
		}
		bookingtest.WantCode(t, book(t, b, alice, bookingtest.RoomGoya), booking.CodeDateOutsideResourceHours)
	})

	t.Run("RoomAddedInTheDatabase", func(t *testing.T) {
		t.Parallel()
		b, _, alice := setup(t)
		room := uuid.MustParse("00000000-0000-4000-8000-000000009901")
		if _, err := b.Pool.Exec(t.Context(), `
			INSERT INTO resources (organization_id, id, floor_id, subcategory_id, resource_rule_id, name, poster_code)
			VALUES ($1, $2, $3, $4, $5, 'Sorolla', 'MAD-R9')`,
			bookingtest.OrgA, room, bookingtest.FloorMadrid, bookingtest.SubRoom, bookingtest.RuleRoom); err != nil {
			t.Fatal(err)
		}
		if err := book(t, b, alice, room); err != nil {
			t.Fatalf("booking a room just added: %v, want it made", err)
		}
	})

	// If the layout changes between every check and insert, the service gives up after three tries and
	// writes nothing. (A trigger simulates a resource moving to another floor each time.)
	t.Run("KeepsChangingIs5030", func(t *testing.T) {
		t.Parallel()
		b, _, alice := setup(t)
		if _, err := b.Pool.Exec(t.Context(), `
			CREATE FUNCTION always_moved() RETURNS trigger LANGUAGE plpgsql AS $$
			BEGIN
			    RAISE foreign_key_violation USING CONSTRAINT = 'bookings_resource_fkey';
			END $$;
			CREATE TRIGGER always_moved BEFORE INSERT ON bookings FOR EACH ROW EXECUTE FUNCTION always_moved()`); err != nil {
			t.Fatal(err)
		}
		bookingtest.WantCode(t, book(t, b, alice, bookingtest.RoomGoya), booking.CodeUnavailable)
		if got, want := bookingtest.TableCount(t, b, "bookings"), 1; got != want {
			t.Errorf("bookings = %d, want %d", got, want)
		}
	})
}

// Every layout table counts: a change to any of them, whoever makes it, gives the organization's layout a
// new version and leaves other organizations' versions alone.
func TestLayoutVersion(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	version := func(org uuid.UUID) int64 {
		var v int64
		if err := b.Pool.QueryRow(t.Context(), `SELECT layout_version FROM organizations WHERE id = $1`, org).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, change := range []string{
		`UPDATE buildings SET name = name WHERE organization_id = $1`,
		`UPDATE floors SET name = name WHERE organization_id = $1`,
		`UPDATE subcategories SET name = name WHERE organization_id = $1`,
		`UPDATE resource_rules SET name = name WHERE organization_id = $1`,
		`UPDATE features SET name = name WHERE organization_id = $1`,
		`UPDATE resources SET name = name WHERE organization_id = $1`,
		`DELETE FROM resource_features WHERE organization_id = $1 AND feature_id = '` + bookingtest.FeatureWhiteboard.String() + `'`,
		`INSERT INTO features (organization_id, id, name) VALUES ($1, gen_random_uuid(), 'Projector')`,
	} {
		a, other := version(bookingtest.OrgA), version(bookingtest.OrgB)
		tag, err := b.Pool.Exec(t.Context(), change, bookingtest.OrgA)
		if err != nil {
			t.Fatalf("%s: %v", change, err)
		}
		if tag.RowsAffected() == 0 {
			t.Fatalf("%s: changed nothing", change)
		}
		if version(bookingtest.OrgA) == a {
			t.Errorf("%s: organization A's layout version stayed %d", change, a)
		}
		if got := version(bookingtest.OrgB); got != other {
			t.Errorf("%s: organization B's layout version %d -> %d, want it unchanged", change, other, got)
		}
	}
	// Bookings are not part of the layout.
	a := version(bookingtest.OrgA)
	alice := b.User(t, bookingtest.OrgA, bookingtest.Alice)
	mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 11, 0)))
	if got := version(bookingtest.OrgA); got != a {
		t.Errorf("a booking changed the layout version %d -> %d", a, got)
	}
}

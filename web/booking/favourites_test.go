package booking_test

import (
	"slices"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestFavourites: starring a desk and a colleague, twice, and unstarring; what cannot be starred (another
// organization's desk or person, oneself) is refused and changes nothing; at most MaxFavourites of each.
func TestFavourites(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	u := fixtureUsers(t, b)
	ctx := t.Context()
	for range 2 {
		if err := b.Service.StarResource(ctx, u.alice, fx.DeskOne, true); err != nil {
			t.Fatal(err)
		}
		if err := b.Service.StarPerson(ctx, u.alice, fx.Bob, true); err != nil {
			t.Fatal(err)
		}
	}
	f, err := b.Service.FavouritesOf(ctx, u.alice)
	if err != nil || !slices.Equal(f.Resources, []uuid.UUID{fx.DeskOne}) || !slices.Equal(f.People, []uuid.UUID{fx.Bob}) {
		t.Fatalf("favourites = %+v (%v), want Desk 1 and Bob once each", f, err)
	}
	fx.WantCode(t, b.Service.StarResource(ctx, u.alice, fx.RoomB, true), booking.CodeResourceNotFound)
	fx.WantCode(t, b.Service.StarPerson(ctx, u.alice, fx.Boris, true), booking.CodeUserNotFound)
	fx.WantCode(t, b.Service.StarPerson(ctx, u.alice, fx.Alice, true), booking.CodeInvalidRequest)

	if err := b.Service.StarResource(ctx, u.alice, fx.DeskOne, false); err != nil {
		t.Fatal(err)
	}
	if err := b.Service.StarPerson(ctx, u.alice, fx.Bob, false); err != nil {
		t.Fatal(err)
	}
	if f, _ := b.Service.FavouritesOf(ctx, u.alice); len(f.Resources)+len(f.People) != 0 {
		t.Errorf("after unstarring: %+v, want nothing", f)
	}
	// Full: MaxFavourites starred resources, then one more is refused.
	exec(t, b, `INSERT INTO favourite_resources (organization_id, user_id, resource_id)
		SELECT $1, $2, id FROM resources WHERE organization_id = $1 LIMIT 1`, fx.OrgA, fx.Bob)
	n := fx.RowCount(t, b, `SELECT count(*) FROM favourite_resources WHERE user_id = $1`, fx.Bob)
	for i := n; i < booking.MaxFavourites; i++ {
		id := uuid.New()
		exec(t, b, `INSERT INTO resources (organization_id, id, floor_id, subcategory_id, resource_rule_id, name, poster_code)
			VALUES ($1, $2, $3, $4, $5, $6, $6)`, fx.OrgA, id, fx.FloorMadrid, fx.SubDesk, fx.RuleDesk, "Extra "+id.String()[:8])
		exec(t, b, `INSERT INTO favourite_resources (organization_id, user_id, resource_id) VALUES ($1, $2, $3)`, fx.OrgA, fx.Bob, id)
	}
	fx.WantCode(t, b.Service.StarResource(ctx, u.bob, fx.DeskTwo, true), booking.CodeInvalidRequest)
	if got := fx.RowCount(t, b, `SELECT count(*) FROM favourite_resources WHERE user_id = $1`, fx.Bob); got != booking.MaxFavourites {
		t.Errorf("Bob has %d starred resources, want %d", got, booking.MaxFavourites)
	}
}

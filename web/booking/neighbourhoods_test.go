package booking_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// salesCorner gives organization A a team Sales with Alice in it, and a neighbourhood "Sales corner" on the
// Madrid floor that holds Desk 1 (and every room) but not Desk 2, which it moves aside. teamOnly says
// whether only Sales may book there.
func salesCorner(t *testing.T, b *fx.Bundle, teamOnly bool) {
	t.Helper()
	team := uuid.New()
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, []any{fx.OrgA, team}},
		{`INSERT INTO team_members (organization_id, team_id, user_id) VALUES ($1, $2, $3)`, []any{fx.OrgA, team, fx.Alice}},
		{`UPDATE resources SET top_left_x = 300, bottom_right_x = 400 WHERE id = $1`, []any{fx.DeskTwo}},
		{`INSERT INTO neighbourhoods (organization_id, id, floor_id, team_id, name, top_left_x, top_left_y, bottom_right_x, bottom_right_y, team_only)
		  VALUES ($1, $2, $3, $4, 'Sales corner', 0, 0, 200, 200, $5)`, []any{fx.OrgA, uuid.New(), fx.FloorMadrid, team, teamOnly}},
	} {
		if _, err := b.Pool.Exec(t.Context(), stmt.sql, stmt.args...); err != nil {
			t.Fatalf("%s: %v", stmt.sql, err)
		}
	}
	b.Service.LayoutChanged()
}

// bookDesk books a desk for organizer, made by creator, on day d from 09:00 to 17:00.
func bookDesk(t *testing.T, b *fx.Bundle, creator, organizer, desk uuid.UUID, d int) (booking.Booking, error) {
	t.Helper()
	bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{
		Creator: b.User(t, fx.OrgA, creator), Organizer: b.User(t, fx.OrgA, organizer), Category: booking.CategoryWorkstation,
		Bookings: []booking.NewBooking{fx.Request(desk, fx.At(d, 9, 0), fx.At(d, 17, 0))},
	})
	if err != nil {
		return booking.Booking{}, err
	}
	return bs[0], nil
}

// wantTeamOnly fails unless err is the refusal of a neighbourhood for its team only, in words.
func wantTeamOnly(t *testing.T, err error) {
	t.Helper()
	var e *booking.Error
	if !errors.As(err, &e) || e.Code != booking.CodeResourceNotAvailable || e.MessageID != "refusal.booking.teamOnly" {
		t.Fatalf("err = %v, want 4001 for the neighbourhood", err)
	}
	if want := "Desk 1 is in the neighbourhood Sales corner, which only members of the team Sales may book"; !strings.Contains(e.Message, want) {
		t.Errorf("message = %q, want %q", e.Message, want)
	}
}

func TestNeighbourhoodForItsTeamOnly(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	salesCorner(t, b, true)

	if _, err := bookDesk(t, b, fx.Alice, fx.Alice, fx.DeskOne, 1); err != nil {
		t.Errorf("a member books Desk 1: %v", err)
	}
	_, err := bookDesk(t, b, fx.Bob, fx.Bob, fx.DeskOne, 1)
	wantTeamOnly(t, err)
	_, err = bookDesk(t, b, fx.Rita, fx.Bob, fx.DeskOne, 2)
	wantTeamOnly(t, err)
	if _, err := bookDesk(t, b, fx.Rita, fx.Alice, fx.DeskOne, 2); err != nil {
		t.Errorf("a receptionist books Desk 1 for a member: %v", err)
	}
	_, err = b.Service.BookNow(t.Context(), b.User(t, fx.OrgA, fx.Rita), b.User(t, fx.OrgA, fx.Bob), "MAD-D1", fx.At(0, 17, 0), "")
	wantTeamOnly(t, err)

	outside, err := bookDesk(t, b, fx.Bob, fx.Bob, fx.DeskTwo, 3)
	if err != nil {
		t.Fatalf("Bob books Desk 2, outside the neighbourhood: %v", err)
	}
	_, err = b.Service.Change(t.Context(), b.User(t, fx.OrgA, fx.Bob), outside.ID, booking.BookingChange{ResourceID: new(fx.DeskOne)})
	wantTeamOnly(t, err)
	if n := fx.TableCount(t, b, "bookings"); n != 3 {
		t.Errorf("%d bookings, want Alice's two and Bob's Desk 2", n)
	}
}

// TestNeighbourhoodForAll checks that a neighbourhood not for its team only refuses nobody.
func TestNeighbourhoodForAll(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	salesCorner(t, b, false)
	if _, err := bookDesk(t, b, fx.Bob, fx.Bob, fx.DeskOne, 1); err != nil {
		t.Errorf("Bob books Desk 1 in a neighbourhood open to all: %v", err)
	}
}

// TestSearchShowsTeamOnlyDesksUnavailable checks that a desk of a neighbourhood for its team only is
// unavailable, with the words of the refusal, to whoever is not in the team, and free to its members.
func TestSearchShowsTeamOnlyDesksUnavailable(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	salesCorner(t, b, true)
	desks := booking.CategoryWorkstation
	q := booking.SearchQuery{BuildingID: fx.BuildingMadrid, Category: &desks, Days: []time.Time{fx.At(1, 0, 0)}, From: 9 * time.Hour, To: 17 * time.Hour}
	states := func(who uuid.UUID) map[string]string {
		found, err := b.Service.Search(t.Context(), b.User(t, fx.OrgA, who), q)
		if err != nil {
			t.Fatalf("Search: %v", err)
		}
		out := map[string]string{}
		for _, r := range found.Results {
			out[r.Resource.Name] = string(r.State) + " " + r.Days[0].Refusal
		}
		return out
	}
	if got := states(fx.Alice); got["Desk 1"] != "free " || got["Desk 2"] != "free " {
		t.Errorf("Alice's search = %v, want both desks free", got)
	}
	got := states(fx.Bob)
	if !strings.HasPrefix(got["Desk 1"], "unavailable Desk 1 is in the neighbourhood Sales corner") || got["Desk 2"] != "free " {
		t.Errorf("Bob's search = %v, want Desk 1 unavailable for the neighbourhood and Desk 2 free", got)
	}
}

package web_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// teamOnlyCorner gives organization A a team Sales with Alice in it, and a neighbourhood "Sales corner"
// for Sales only on the Madrid floor, holding every room and desk there.
func teamOnlyCorner(t *testing.T, b *fx.Bundle) {
	t.Helper()
	team := uuid.New()
	for _, stmt := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, []any{fx.OrgA, team}},
		{`INSERT INTO team_members (organization_id, team_id, user_id) VALUES ($1, $2, $3)`, []any{fx.OrgA, team, fx.Alice}},
		{`INSERT INTO neighbourhoods (organization_id, id, floor_id, team_id, name, top_left_x, top_left_y, bottom_right_x, bottom_right_y, team_only)
		  VALUES ($1, gen_random_uuid(), $2, $3, 'Sales corner', 0, 0, 200, 200, true)`, []any{fx.OrgA, fx.FloorMadrid, team}},
	} {
		if _, err := b.Pool.Exec(t.Context(), stmt.sql, stmt.args...); err != nil {
			t.Fatalf("%s: %v", stmt.sql, err)
		}
	}
	b.Service.LayoutChanged()
}

// Only the team's members book in a neighbourhood for its team only, through the API and the booking form,
// with the refusal in words.
func TestNeighbourhoodRefusals(t *testing.T) {
	t.Parallel()

	t.Run("API", func(t *testing.T) {
		tb := setup(t)
		teamOnlyCorner(t, tb.Bundle)
		tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		r := tb.call(t, fx.Bob, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(1, 12, 0), fx.At(1, 13, 0))})
		p := wantProblem(t, r, http.StatusConflict, booking.CodeResourceNotAvailable, 0)
		if want := "Goya is in the neighbourhood Sales corner, which only members of the team Sales may book"; !strings.Contains(p["detail"].(string), want) {
			t.Errorf("detail = %q, want %q", p["detail"], want)
		}
	})

	t.Run("Page", func(t *testing.T) {
		pb := setupPages(t)
		teamOnlyCorner(t, pb.Bundle)
		p := pb.signedIn(t, fx.Bob).post("/bookings", bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"))
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, ".booking-error", "Goya is in the neighbourhood Sales corner, which only members of the team Sales may book")
		p = pb.signedIn(t, fx.Alice).post("/bookings", bookForm([]uuid.UUID{fx.RoomGoya}, "2026-11-24"))
		if p.url.Path != "/bookings" {
			t.Errorf("Alice's booking: at %s, want /bookings; %s", p.url, p.text("main"))
		}
	})
}

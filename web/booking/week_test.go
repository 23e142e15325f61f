package booking_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestWeek: Alice's two weeks in Madrid: her own desk on day 1, her teammate Bob's on day 2 (Rita, in no
// team with her, is not shown), her usual desk (the one she booked most lately) busy on day 1 and free on
// the others, and one tap books it for day 3.
func TestWeek(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	u := fixtureUsers(t, b)
	team := uuid.New()
	exec(t, b, `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, fx.OrgA, team)
	exec(t, b, `INSERT INTO team_members (organization_id, team_id, user_id) VALUES ($1, $2, $3), ($1, $2, $4)`, fx.OrgA, team, fx.Alice, fx.Bob)
	desk := booking.CategoryWorkstation
	b.Clock.Set(fx.At(-15, 8, 0))
	mustBook(t, b, u.alice, u.alice, desk, fx.Request(fx.DeskTwo, fx.At(-14, 9, 0), fx.At(-14, 17, 0)))
	mustBook(t, b, u.alice, u.alice, desk, fx.Request(fx.DeskOne, fx.At(-7, 9, 0), fx.At(-7, 17, 0)))
	mustBook(t, b, u.alice, u.alice, desk, fx.Request(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 17, 0)))
	mustBook(t, b, u.bob, u.bob, desk, fx.Request(fx.DeskTwo, fx.At(2, 9, 0), fx.At(2, 17, 0)))
	mustBook(t, b, u.rita, u.rita, desk, fx.Request(fx.DeskTwo, fx.At(3, 9, 0), fx.At(3, 17, 0)))
	b.Clock.Set(fx.At(0, 8, 0))

	w, err := b.Service.Week(t.Context(), u.alice, fx.BuildingMadrid)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Days) != booking.WeekDays || !w.Days[0].Date.Equal(fx.At(0, 0, 0)) {
		t.Fatalf("%d days from %v, want %d from Mon 23 Nov", len(w.Days), w.Days[0].Date, booking.WeekDays)
	}
	if w.Usual == nil || w.Usual.ID != fx.DeskOne {
		t.Fatalf("usual desk = %v, want Desk 1 (booked twice lately)", w.Usual)
	}
	if d := w.Days[1]; len(d.Mine) != 1 || d.Mine[0].ResourceID != fx.DeskOne || d.Usual != booking.SpotMine {
		t.Errorf("day 1: mine %+v, usual %q; want Desk 1 and the usual desk hers", d.Mine, d.Usual)
	}
	if d := w.Days[2]; len(d.Colleagues) != 1 || d.Colleagues[0].Person.ID != fx.Bob || !d.Colleagues[0].Team || d.Usual != booking.SpotFree {
		t.Errorf("day 2: colleagues %+v, usual %q; want Bob, teammate, and the usual desk free", d.Colleagues, d.Usual)
	}
	if d := w.Days[3]; len(d.Colleagues) != 0 {
		t.Errorf("day 3: colleagues %+v, want none (Rita is in no team with Alice)", d.Colleagues)
	}
	made, err := b.Service.BookDay(t.Context(), u.alice, w.Usual.ID, w.Days[3].Date)
	if err != nil {
		t.Fatal(err)
	}
	if want := (booking.Interval{Start: fx.At(3, 0, 0), End: fx.At(4, 0, 0)}); !made.Start.Equal(want.Start) || !made.End.Equal(want.End) {
		t.Errorf("booked %v–%v, want the whole day %v", made.Start, made.End, want)
	}
	fx.WantCode(t, func() error {
		_, err := b.Service.BookDay(t.Context(), u.alice, fx.DeskOne, w.Days[1].Date)
		return err
	}(),
		booking.CodeResourceNotAvailable)
	_, err = b.Service.Week(t.Context(), u.alice, fx.BuildingB)
	fx.WantCode(t, err, booking.CodeBuildingNotFound)
}

// TestNearestToTeam: the free desk nearest to the middle of the teammates' desks is offered; a far one
// is not, nor a taken one.
func TestNearestToTeam(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	near := uuid.New()
	exec(t, b, `UPDATE resources SET top_left_x = 2000, bottom_right_x = 2100 WHERE id = $1`, fx.DeskTwo)
	exec(t, b, `INSERT INTO resources (organization_id, id, floor_id, subcategory_id, resource_rule_id, name, poster_code,
		top_left_x, top_left_y, bottom_right_x, bottom_right_y) VALUES ($1, $2, $3, $4, $5, 'Desk 3', 'MAD-D3', 120, 20, 220, 80)`,
		fx.OrgA, near, fx.FloorMadrid, fx.SubDesk, fx.RuleDesk)
	u := fixtureUsers(t, b)
	team := uuid.New()
	exec(t, b, `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, fx.OrgA, team)
	exec(t, b, `INSERT INTO team_members (organization_id, team_id, user_id) VALUES ($1, $2, $3), ($1, $2, $4)`, fx.OrgA, team, fx.Alice, fx.Bob)
	mustBook(t, b, u.bob, u.bob, booking.CategoryWorkstation, fx.Request(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 17, 0)))

	w, err := b.Service.Week(t.Context(), u.alice, fx.BuildingMadrid)
	if err != nil {
		t.Fatal(err)
	}
	if d := w.Days[1].Nearest; d == nil || d.ID != near {
		t.Errorf("the week offers %v on Bob's day, want Desk 3 beside his", d)
	}
	got, err := b.Service.NearestToTeam(t.Context(), u.alice, fx.BuildingMadrid, w.Days[1])
	if err != nil || got == nil || got.ID != near {
		t.Fatalf("nearest = %v (%v), want Desk 3 beside Bob's", got, err)
	}
	if got, err := b.Service.NearestToTeam(t.Context(), u.alice, fx.BuildingMadrid, w.Days[2]); err != nil || got != nil {
		t.Errorf("a day without the team: %v (%v), want none", got, err)
	}
}

package booking_test

import (
	"fmt"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestPresencePrivacyMatrix: who sees Bob's desk booking in "Who's in", under each of his choices
// (and the organization's default when he has none), for each tie between him and the viewer, and for
// each role. Being a receptionist or an admin widens nothing; a colleague Bob starred counts as his
// team, one who starred Bob does not; Bob always sees his own; another organization sees nothing.
func TestPresencePrivacyMatrix(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	u := fixtureUsers(t, b)
	mustBook(t, b, u.bob, u.bob, booking.CategoryWorkstation, fx.Request(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 17, 0)))
	team := uuid.New()
	exec(t, b, `INSERT INTO teams (organization_id, id, name) VALUES ($1, $2, 'Sales')`, fx.OrgA, team)

	const (
		none        = "no tie"
		sameTeam    = "same team"
		bobStarred  = "Bob starred the viewer"
		viewerStars = "the viewer starred Bob"
	)
	tie := func(viewer uuid.UUID, kind string) {
		exec(t, b, `DELETE FROM team_members WHERE organization_id = $1`, fx.OrgA)
		exec(t, b, `DELETE FROM favourite_people WHERE organization_id = $1`, fx.OrgA)
		switch kind {
		case sameTeam:
			exec(t, b, `INSERT INTO team_members (organization_id, team_id, user_id) VALUES ($1, $2, $3), ($1, $2, $4)`,
				fx.OrgA, team, fx.Bob, viewer)
		case bobStarred:
			exec(t, b, `INSERT INTO favourite_people (organization_id, user_id, person_id) VALUES ($1, $2, $3)`, fx.OrgA, fx.Bob, viewer)
		case viewerStars:
			exec(t, b, `INSERT INTO favourite_people (organization_id, user_id, person_id) VALUES ($1, $2, $3)`, fx.OrgA, viewer, fx.Bob)
		}
	}
	// own is Bob's choice ("" for none); def the organization's default.
	for _, c := range []struct {
		own, def string
		viewer   booking.User
		tie      string
		want     bool
	}{
		{"NOBODY", "TEAM", u.alice, none, false},
		{"NOBODY", "TEAM", u.alice, sameTeam, false},
		{"NOBODY", "TEAM", u.alice, bobStarred, false},
		{"NOBODY", "ORGANIZATION", u.adam, sameTeam, false},
		{"TEAM", "TEAM", u.alice, none, false},
		{"TEAM", "TEAM", u.alice, sameTeam, true},
		{"TEAM", "TEAM", u.alice, bobStarred, true},
		{"TEAM", "TEAM", u.alice, viewerStars, false},
		{"TEAM", "ORGANIZATION", u.rita, none, false},
		{"TEAM", "ORGANIZATION", u.adam, none, false},
		{"TEAM", "ORGANIZATION", u.adam, sameTeam, true},
		{"ORGANIZATION", "NOBODY", u.alice, none, true},
		{"ORGANIZATION", "NOBODY", u.rita, none, true},
		{"", "TEAM", u.alice, none, false},
		{"", "TEAM", u.alice, sameTeam, true},
		{"", "TEAM", u.adam, none, false},
		{"", "ORGANIZATION", u.alice, none, true},
		{"", "NOBODY", u.alice, bobStarred, false},
		{"NOBODY", "NOBODY", u.bob, none, true},
		{"ORGANIZATION", "ORGANIZATION", u.boris, none, false},
	} {
		name := fmt.Sprintf("own %q, default %s, viewer %s, %s", c.own, c.def, c.viewer.Name, c.tie)
		var own *string
		if c.own != "" {
			own = &c.own
		}
		exec(t, b, `UPDATE users SET bookings_visible_to = $2 WHERE organization_id = $1 AND id = $3`, fx.OrgA, own, fx.Bob)
		exec(t, b, `UPDATE organizations SET bookings_visible_to = $1`, c.def)
		tie(c.viewer.ID, c.tie)
		got, err := b.Service.WhoIsIn(t.Context(), c.viewer, booking.PresenceQuery{From: fx.At(1, 0, 0), Until: fx.At(2, 0, 0)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if seen := len(got) == 1 && got[0].Person.ID == fx.Bob; seen != c.want || len(got) > 1 {
			t.Errorf("%s: sees %d bookings (Bob's: %v), want Bob's: %v", name, len(got), seen, c.want)
		}
	}
}

// TestPresenceHiddenSubcategory: a subcategory that hides its bookings never shows who booked, to
// anyone, whatever the person chose.
func TestPresenceHiddenSubcategory(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	u := fixtureUsers(t, b)
	mustBook(t, b, u.bob, u.bob, booking.CategoryWorkstation, fx.Request(fx.DeskOne, fx.At(1, 9, 0), fx.At(1, 17, 0)))
	exec(t, b, `UPDATE users SET bookings_visible_to = 'ORGANIZATION' WHERE id = $1`, fx.Bob)
	exec(t, b, `UPDATE subcategories SET hide_bookings = true WHERE id = $1`, fx.SubDesk)
	for _, viewer := range []booking.User{u.alice, u.adam, u.bob} {
		got, err := b.Service.WhoIsIn(t.Context(), viewer, booking.PresenceQuery{From: fx.At(1, 0, 0), Until: fx.At(2, 0, 0)})
		if err != nil || len(got) != 0 {
			t.Errorf("%s sees %d bookings (%v), want none", viewer.Name, len(got), err)
		}
	}
}

// TestPresenceRefusals: a period too long or empty, and another organization's building.
func TestPresenceRefusals(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	u := fixtureUsers(t, b)
	building := fx.BuildingB
	for _, c := range []struct {
		name string
		q    booking.PresenceQuery
		code booking.Code
	}{
		{"Empty", booking.PresenceQuery{From: fx.At(1, 0, 0), Until: fx.At(1, 0, 0)}, booking.CodeInvalidRequest},
		{"TooLong", booking.PresenceQuery{From: fx.At(0, 0, 0), Until: fx.At(16, 0, 0)}, booking.CodeInvalidRequest},
		{"OtherOrganization", booking.PresenceQuery{BuildingID: &building, From: fx.At(1, 0, 0), Until: fx.At(2, 0, 0)}, booking.CodeBuildingNotFound},
	} {
		_, err := b.Service.WhoIsIn(t.Context(), u.alice, c.q)
		fx.WantCode(t, err, c.code)
	}
}

// exec runs a statement on the bundle's database and fails the test on an error.
func exec(t *testing.T, b *fx.Bundle, sql string, args ...any) {
	t.Helper()
	if _, err := b.Pool.Exec(t.Context(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

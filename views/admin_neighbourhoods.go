package views

import (
	"strconv"

	"github.com/workspacebooking/booking/web/booking"
)

// AdminZone is a neighbourhood in the plan editor, and its form: the corners as typed, in the plan's
// units.
type AdminZone struct {
	ID, Name, TeamID, TeamName string
	X1, Y1, X2, Y2             string
	TeamOnly                   bool
	Problem                    *AdminProblem // a refused save of this form, in words
}

// AdminZoneOf is a neighbourhood as the plan editor shows it.
func AdminZoneOf(n booking.Neighbourhood) AdminZone {
	a := n.Area
	return AdminZone{
		ID: n.ID.String(), Name: n.Name, TeamID: n.TeamID.String(), TeamName: n.TeamName, TeamOnly: n.TeamOnly,
		X1: adminInt(a.TopLeftX), Y1: adminInt(a.TopLeftY), X2: adminInt(a.BottomRightX), Y2: adminInt(a.BottomRightY),
	}
}

// area is the zone's rectangle; a corner that is no number is 0.
func (z AdminZone) area() (x, y, w, h string) {
	n := func(s string) int { v, _ := strconv.Atoi(s); return v }
	return z.X1, z.Y1, strconv.Itoa(max(n(z.X2)-n(z.X1), 1)), strconv.Itoa(max(n(z.Y2)-n(z.Y1), 1))
}

// formID is the id prefix of the zone's form fields: "zone-new" for the form that adds one.
func (z AdminZone) formID() string {
	if z.ID == "" {
		return "zone-new"
	}
	return "zone-" + z.ID
}

package views

import "github.com/workspacebooking/booking/web/booking"

// AdminTeams is the teams page: the organization's teams and a form to make one.
type AdminTeams struct {
	Chrome     Chrome
	Notice     string
	Teams      []TeamRow
	Max        int // teams an organization may have
	Form       TeamForm
	SCIMGroups []Option // the SCIM groups a team may follow
}

// AdminTeam is the page of one team: its name and source, its members, and its deletion.
type AdminTeam struct {
	Chrome     Chrome
	Notice     string
	Team       TeamRow
	ByHand     bool // an admin gives its members; otherwise they follow its group
	Form       TeamForm
	SCIMGroups []Option
	Members    []booking.User
	Picker     PeoplePicker // the colleague picker of the members to add
	MaxMembers int
	Problem    *AdminProblem // a refused change of the members, in words
}

// TeamRow is a team as the list shows it.
type TeamRow struct {
	ID             string
	Name           string
	Source         string // where its members come from, in words
	Members        int
	Neighbourhoods int
}

// TeamForm is the form of a team's name and source: a value of the groups claim, or a SCIM group's id,
// or neither for a team made by hand.
type TeamForm struct {
	Name, IDPGroup, SCIMGroupID string
	Problem                     *AdminProblem
}

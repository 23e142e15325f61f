package console

import (
	"context"
	"net/http"
	"net/url"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The teams page of the admin console: the organization's teams, a form to make one, and a page per
// team with its name, where its members come from, its members and its deletion. Every handler calls
// one method of web/identity, which the Admin API calls too; it refuses anyone but an admin (1001) and
// another organization's ids (1013).

// teamWords names a team's fields as its form does.
func teamWords(ctx context.Context) map[string]string {
	return map[string]string{
		"name": lang.T(ctx, "admin.teams.name"), "idpGroup": lang.T(ctx, "admin.teams.idpGroup"),
		"scimGroupId": lang.T(ctx, "admin.teams.scimGroup"), "members": lang.T(ctx, "admin.teams.members"),
	}
}

// teamSource says where a team's members come from.
func teamSource(ctx context.Context, t identity.Team) string {
	switch {
	case t.IDPGroup != "":
		return lang.T(ctx, "admin.teams.fromClaim", map[string]any{"Group": t.IDPGroup})
	case t.SCIMGroupID != uuid.Nil:
		return lang.T(ctx, "admin.teams.fromSCIM", map[string]any{"Group": t.SCIMGroupName})
	}
	return lang.T(ctx, "admin.teams.byHand")
}

func teamRow(ctx context.Context, t identity.Team) views.TeamRow {
	return views.TeamRow{ID: t.ID.String(), Name: t.Name, Source: teamSource(ctx, t), Members: t.Members, Neighbourhoods: t.Neighbourhoods}
}

// Teams is GET /admin/teams.
func (s *Handlers) Teams(c echo.Context) error {
	p, err := s.teamsPage(c)
	if err != nil {
		return err
	}
	_, p.Notice = s.PopFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminTeamsPage(p))
}

// teamsPage reads what the list shows, with an empty form.
func (s *Handlers) teamsPage(c echo.Context) (views.AdminTeams, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	teams, err := s.people.Teams(ctx, actor)
	if err != nil {
		return views.AdminTeams{}, err
	}
	groups, err := s.scimGroupOptions(ctx, actor)
	if err != nil {
		return views.AdminTeams{}, err
	}
	p := views.AdminTeams{Chrome: s.Chrome(c, lang.T(ctx, "admin.teams.title")), Max: identity.MaxTeams, SCIMGroups: groups}
	for _, t := range teams {
		p.Teams = append(p.Teams, teamRow(ctx, t))
	}
	return p, nil
}

// scimGroupOptions are the SCIM groups a team may follow.
func (s *Handlers) scimGroupOptions(ctx context.Context, actor booking.User) ([]views.Option, error) {
	groups, err := s.people.SCIMGroupChoices(ctx, actor)
	if err != nil {
		return nil, err
	}
	out := make([]views.Option, len(groups))
	for i, g := range groups {
		out[i] = views.Option{Value: g.ID.String(), Label: g.DisplayName}
	}
	return out, nil
}

// teamFormOf reads a team's form.
func teamFormOf(form url.Values) views.TeamForm {
	return views.TeamForm{Name: form.Get("name"), IDPGroup: form.Get("idpGroup"), SCIMGroupID: form.Get("scimGroupId")}
}

// teamFields turns the form into what the domain takes; a SCIM group id that is no id names no group.
func teamFields(f views.TeamForm) identity.TeamFields {
	out := identity.TeamFields{Name: f.Name, IDPGroup: f.IDPGroup}
	if f.SCIMGroupID != "" {
		out.SCIMGroupID = uuid.Max // refused as no group of the organization unless it parses
		if id, err := uuid.Parse(f.SCIMGroupID); err == nil {
			out.SCIMGroupID = id
		}
	}
	return out
}

// CreateTeam is POST /admin/teams (name, idpGroup, scimGroupId); a refusal shows the form again as sent.
func (s *Handlers) CreateTeam(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	f := teamFormOf(form)
	ctx := kit.Ctx(c)
	id, err := s.people.CreateTeam(ctx, kit.Actor(c), teamFields(f))
	if err != nil {
		prob, status, err := refusal(c, err, "team", teamWords(ctx))
		if err != nil {
			return err
		}
		p, err := s.teamsPage(c)
		if err != nil {
			return err
		}
		p.Form, p.Form.Problem = f, prob
		return kit.Render(c, status, views.AdminTeamsPage(p))
	}
	s.PutFlash(c, "", lang.T(ctx, "admin.teams.created", map[string]any{"Name": f.Name}))
	return c.Redirect(http.StatusSeeOther, "/admin/teams/"+id.String())
}

// Team is GET /admin/teams/{teamId}.
func (s *Handlers) Team(c echo.Context) error {
	p, err := s.teamPage(c)
	if err != nil {
		return err
	}
	_, p.Notice = s.PopFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminTeamPage(p))
}

// teamPage reads a team's page, with its form filled from the team as it is.
func (s *Handlers) teamPage(c echo.Context) (views.AdminTeam, error) {
	id, err := pathID(c, "teamId")
	if err != nil {
		return views.AdminTeam{}, err
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	t, members, err := s.people.Team(ctx, actor, id)
	if err != nil {
		return views.AdminTeam{}, err
	}
	groups, err := s.scimGroupOptions(ctx, actor)
	if err != nil {
		return views.AdminTeam{}, err
	}
	f := views.TeamForm{Name: t.Name, IDPGroup: t.IDPGroup}
	if t.SCIMGroupID != uuid.Nil {
		f.SCIMGroupID = t.SCIMGroupID.String()
	}
	return views.AdminTeam{
		Chrome: s.Chrome(c, t.Name), Team: teamRow(ctx, t), ByHand: t.ByHand(), Form: f, SCIMGroups: groups,
		Members: members, Picker: views.PeoplePicker{Field: "member", Multi: true}, MaxMembers: identity.MaxTeamMembers,
	}, nil
}

// SaveTeam is POST /admin/teams/{teamId} (name, idpGroup, scimGroupId).
func (s *Handlers) SaveTeam(c echo.Context) error {
	id, err := pathID(c, "teamId")
	if err != nil {
		return err
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	f, ctx := teamFormOf(form), kit.Ctx(c)
	if err := s.people.ChangeTeam(ctx, kit.Actor(c), id, teamFields(f)); err != nil {
		prob, status, err := refusal(c, err, "team", teamWords(ctx))
		if err != nil {
			return err
		}
		p, err := s.teamPage(c)
		if err != nil {
			return err
		}
		p.Form, p.Form.Problem = f, prob
		return kit.Render(c, status, views.AdminTeamPage(p))
	}
	s.PutFlash(c, "", lang.T(ctx, "admin.teams.saved"))
	return c.Redirect(http.StatusSeeOther, "/admin/teams/"+id.String())
}

// DeleteTeam is POST /admin/teams/{teamId}/delete.
func (s *Handlers) DeleteTeam(c echo.Context) error {
	id, err := pathID(c, "teamId")
	if err != nil {
		return err
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	t, _, err := s.people.Team(ctx, actor, id)
	if err != nil {
		return err
	}
	if err := s.people.DeleteTeam(ctx, actor, id); err != nil {
		return err
	}
	s.PutFlash(c, "", lang.T(ctx, "admin.teams.deleted", map[string]any{"Name": t.Name}))
	return c.Redirect(http.StatusSeeOther, "/admin/teams")
}

// AddTeamMembers is POST /admin/teams/{teamId}/members (member: the ids ticked in the colleague picker).
func (s *Handlers) AddTeamMembers(c echo.Context) error {
	id, err := pathID(c, "teamId")
	if err != nil {
		return err
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	var people []uuid.UUID
	for _, v := range form["member"] {
		p, err := uuid.Parse(v)
		if err != nil {
			return kit.FieldRefuse("member", "admin.teams.badPerson", map[string]any{"Value": v})
		}
		people = append(people, p)
	}
	ctx := kit.Ctx(c)
	if err := s.people.AddTeamMembers(ctx, kit.Actor(c), id, people); err != nil {
		return s.teamMembersRefused(c, err)
	}
	s.PutFlash(c, "", lang.N(ctx, "admin.teams.membersAdded", len(people)))
	return c.Redirect(http.StatusSeeOther, "/admin/teams/"+id.String())
}

// RemoveTeamMember is POST /admin/teams/{teamId}/members/{userId}/remove.
func (s *Handlers) RemoveTeamMember(c echo.Context) error {
	id, err := pathID(c, "teamId")
	if err != nil {
		return err
	}
	person, err := pathID(c, "userId")
	if err != nil {
		return err
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	_, members, err := s.people.Team(ctx, actor, id)
	if err != nil {
		return err
	}
	if err := s.people.RemoveTeamMember(ctx, actor, id, person); err != nil {
		return s.teamMembersRefused(c, err)
	}
	for _, m := range members {
		if m.ID == person {
			s.PutFlash(c, "", lang.T(ctx, "admin.teams.memberRemoved", map[string]any{"Name": views.FullName(m)}))
		}
	}
	return c.Redirect(http.StatusSeeOther, "/admin/teams/"+id.String())
}

// teamMembersRefused shows the team's page again with a refused change of its members in words.
func (s *Handlers) teamMembersRefused(c echo.Context, err error) error {
	prob, status, err := refusal(c, err, "team", teamWords(kit.Ctx(c)))
	if err != nil {
		return err
	}
	p, err := s.teamPage(c)
	if err != nil {
		return err
	}
	p.Problem = prob
	return kit.Render(c, status, views.AdminTeamPage(p))
}

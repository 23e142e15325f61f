package api

import (
	"net/http"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
)

// The teams in the Admin API. The same methods of web/identity serve the page /admin/teams. Admins only.

// teamDTO is a team as the API answers it; members only when one team is read.
type teamDTO struct {
	ID             uuid.UUID        `json:"id"`
	Name           string           `json:"name"`
	IDPGroup       *string          `json:"idpGroup"`
	SCIMGroupID    *uuid.UUID       `json:"scimGroupId"`
	MemberCount    int              `json:"memberCount"`
	Neighbourhoods int              `json:"neighbourhoodCount"`
	Members        *[]teamMemberDTO `json:"members,omitempty"`
}

// teamMemberDTO is a member of a team.
type teamMemberDTO struct {
	ID      uuid.UUID `json:"id"`
	Name    string    `json:"name"`
	Surname string    `json:"surname"`
	Email   string    `json:"email"`
}

// teamInputDTO is what POST and PUT read: the whole team (a source left out or null is none).
type teamInputDTO struct {
	Name        string     `json:"name"`
	IDPGroup    *string    `json:"idpGroup"`
	SCIMGroupID *uuid.UUID `json:"scimGroupId"`
}

func toTeamDTO(t identity.Team) teamDTO {
	d := teamDTO{ID: t.ID, Name: t.Name, MemberCount: t.Members, Neighbourhoods: t.Neighbourhoods}
	if t.IDPGroup != "" {
		d.IDPGroup = new(t.IDPGroup)
	}
	if t.SCIMGroupID != uuid.Nil {
		d.SCIMGroupID = new(t.SCIMGroupID)
	}
	return d
}

// teamIDParam reads the {teamId} path segment.
func teamIDParam(c echo.Context) (uuid.UUID, error) {
	return kit.ParseUUID("teamId", c.Param("teamId"))
}

// readTeamInput reads the body of POST and PUT.
func readTeamInput(c echo.Context) (identity.TeamFields, error) {
	var in teamInputDTO
	if err := decodeObject(c, &in, "name", "idpGroup", "scimGroupId"); err != nil {
		return identity.TeamFields{}, err
	}
	f := identity.TeamFields{Name: in.Name}
	if in.IDPGroup != nil {
		f.IDPGroup = *in.IDPGroup
	}
	if in.SCIMGroupID != nil {
		f.SCIMGroupID = *in.SCIMGroupID
	}
	return f, nil
}

// AdminTeams is GET /api/v1/admin/teams: {"teams": [teams]}, by name.
func (s *Handlers) AdminTeams(c echo.Context) error {
	teams, err := s.people.Teams(c.Request().Context(), kit.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string][]teamDTO{"teams": toDTOs(teams, toTeamDTO)})
}

// adminTeam answers one team with its members, with status.
func (s *Handlers) adminTeam(c echo.Context, id uuid.UUID, status int) error {
	t, members, err := s.people.Team(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	d := toTeamDTO(t)
	list := make([]teamMemberDTO, len(members))
	for i, m := range members {
		list[i] = teamMemberDTO{ID: m.ID, Name: m.Name, Surname: m.Surname, Email: m.Email}
	}
	d.Members = &list
	return c.JSON(status, d)
}

// AdminCreateTeam is POST /api/v1/admin/teams: 201 with the team.
func (s *Handlers) AdminCreateTeam(c echo.Context) error {
	f, err := readTeamInput(c)
	if err != nil {
		return err
	}
	id, err := s.people.CreateTeam(c.Request().Context(), kit.Actor(c), f)
	if err != nil {
		return err
	}
	return s.adminTeam(c, id, http.StatusCreated)
}

// AdminTeam is GET /api/v1/admin/teams/{teamId}: the team with its members.
func (s *Handlers) AdminTeam(c echo.Context) error {
	id, err := teamIDParam(c)
	if err != nil {
		return err
	}
	return s.adminTeam(c, id, http.StatusOK)
}

// AdminPutTeam is PUT /api/v1/admin/teams/{teamId}: renames the team and sets its source.
func (s *Handlers) AdminPutTeam(c echo.Context) error {
	id, err := teamIDParam(c)
	if err != nil {
		return err
	}
	f, err := readTeamInput(c)
	if err != nil {
		return err
	}
	if err := s.people.ChangeTeam(c.Request().Context(), kit.Actor(c), id, f); err != nil {
		return err
	}
	return s.adminTeam(c, id, http.StatusOK)
}

// AdminDeleteTeam is DELETE /api/v1/admin/teams/{teamId}: 204, with its neighbourhoods.
func (s *Handlers) AdminDeleteTeam(c echo.Context) error {
	id, err := teamIDParam(c)
	if err != nil {
		return err
	}
	if err := s.people.DeleteTeam(c.Request().Context(), kit.Actor(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// teamMemberParams reads the {teamId} and {memberId} path segments.
func teamMemberParams(c echo.Context) (team, user uuid.UUID, err error) {
	if team, err = teamIDParam(c); err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	user, err = kit.ParseUUID("memberId", c.Param("memberId"))
	return team, user, err
}

// AdminAddTeamMember is PUT /api/v1/admin/teams/{teamId}/members/{memberId}: 204; a member already stays.
func (s *Handlers) AdminAddTeamMember(c echo.Context) error {
	team, user, err := teamMemberParams(c)
	if err != nil {
		return err
	}
	if err := s.people.AddTeamMembers(c.Request().Context(), kit.Actor(c), team, []uuid.UUID{user}); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// AdminRemoveTeamMember is DELETE /api/v1/admin/teams/{teamId}/members/{memberId}: 204, a member or not.
func (s *Handlers) AdminRemoveTeamMember(c echo.Context) error {
	team, user, err := teamMemberParams(c)
	if err != nil {
		return err
	}
	if err := s.people.RemoveTeamMember(c.Request().Context(), kit.Actor(c), team, user); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

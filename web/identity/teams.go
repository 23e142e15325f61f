package identity

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// Teams are groups of people who plan their office days together. An admin makes a team by hand and
// gives it members, or ties it to a group of the identity provider: a value of the groups claim (its
// members follow each person's sign-in) or a SCIM group (its members follow the group's). team_members
// holds the members of every team, whatever its source. Only admins see and change teams here.

// Limits of teams.
const (
	MaxTeams          = 200 // teams in one organization
	MaxTeamMembers    = 500 // people in one team made by hand
	MaxTeamNameLength = 100 // characters of a team's name
	maxIDPGroupLength = 256 // characters of a value of the groups claim
)

// Team is a team of an organization, as the admin console lists it.
type Team struct {
	ID             uuid.UUID
	Name           string
	IDPGroup       string    // the value of the groups claim it follows; "" when none
	SCIMGroupID    uuid.UUID // the SCIM group it follows; uuid.Nil when none
	SCIMGroupName  string    // that group's name
	Members        int
	Neighbourhoods int // the zones of floors given to it, deleted with it
	Updated        time.Time
}

// ByHand is true when the team's members are the ones an admin gives it.
func (t Team) ByHand() bool { return t.IDPGroup == "" && t.SCIMGroupID == uuid.Nil }

// TeamFields are what an admin sets of a team: its name and where its members come from (at most one of
// IDPGroup and SCIMGroupID; neither for a team made by hand).
type TeamFields struct {
	Name        string
	IDPGroup    string
	SCIMGroupID uuid.UUID
}

// Teams lists the organization's teams by name.
// Codes: 1001 the actor is not an admin.
func (s *Service) Teams(ctx context.Context, actor booking.User) ([]Team, error) {
	if actor.Role != booking.RoleAdmin {
		return nil, booking.Refuse(booking.CodeForbidden, "refusal.team.onlyAdmins")
	}
	rows, err := s.q.TeamsOfOrganization(ctx, actor.OrganizationID)
	if err != nil {
		return nil, fmt.Errorf("list teams: %w", err)
	}
	out := make([]Team, len(rows))
	for i, r := range rows {
		out[i] = Team{
			ID: r.ID, Name: r.Name, SCIMGroupName: r.ScimGroupName, Members: int(r.Members),
			Neighbourhoods: int(r.Neighbourhoods), Updated: r.UpdatedAt,
		}
		if r.IdpGroup != nil {
			out[i].IDPGroup = *r.IdpGroup
		}
		if r.ScimGroupID != nil {
			out[i].SCIMGroupID = *r.ScimGroupID
		}
	}
	return out, nil
}

// Team returns one team of the organization with its members, by name.
// Codes: 1001 the actor is not an admin; 1013 no such team in the organization.
func (s *Service) Team(ctx context.Context, actor booking.User, id uuid.UUID) (Team, []booking.User, error) {
	teams, err := s.Teams(ctx, actor)
	if err != nil {
		return Team{}, nil, err
	}
	for _, t := range teams {
		if t.ID != id {
			continue
		}
		rows, err := s.q.TeamMembersOf(ctx, queries.TeamMembersOfParams{OrganizationID: actor.OrganizationID, TeamID: id})
		if err != nil {
			return Team{}, nil, fmt.Errorf("get team members: %w", err)
		}
		members := make([]booking.User, len(rows))
		for i, r := range rows {
			members[i] = userFromRow(r)
		}
		return t, members, nil
	}
	return Team{}, nil, noTeam(id)
}

func noTeam(id uuid.UUID) error {
	return booking.Refuse(booking.CodeObjectNotFound, "refusal.team.notFound", map[string]any{"ID": id.String()})
}

// CreateTeam makes a team. A team tied to a SCIM group starts with the group's members.
// Codes: 1001 the actor is not an admin; 2000 a bad or taken name or source, or the organization has
// MaxTeams teams already.
func (s *Service) CreateTeam(ctx context.Context, actor booking.User, f TeamFields) (uuid.UUID, error) {
	if actor.Role != booking.RoleAdmin {
		return uuid.Nil, booking.Refuse(booking.CodeForbidden, "refusal.team.onlyAdmins")
	}
	f, err := normalizeTeam(f)
	if err != nil {
		return uuid.Nil, err
	}
	id := uuid.New()
	err = s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		if err := q.OrganizationAdminLock(ctx, actor.OrganizationID); err != nil {
			return fmt.Errorf("lock admin changes: %w", err)
		}
		if n, err := q.TeamCount(ctx, actor.OrganizationID); err != nil {
			return fmt.Errorf("count teams: %w", err)
		} else if n >= MaxTeams {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.team.tooMany", map[string]any{"Max": MaxTeams})
		}
		if err := checkSCIMGroup(ctx, q, actor.OrganizationID, f.SCIMGroupID); err != nil {
			return err
		}
		err := q.TeamCreate(ctx, queries.TeamCreateParams{
			OrganizationID: actor.OrganizationID, ID: id, Name: f.Name, IdpGroup: given(f.IDPGroup), ScimGroupID: givenID(f.SCIMGroupID),
		})
		if err != nil {
			return teamWriteError(err, f)
		}
		if err := followSource(ctx, q, actor.OrganizationID, id, f); err != nil {
			return err
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: booking.AuditCreate, Object: "teams", ObjectID: id,
			After: f.audited(),
		})
	})
	return id, err
}

// ChangeTeam renames a team and sets where its members come from. A team tied to another source from
// now on takes that source's members: a SCIM group's at once, a value of the groups claim's as people
// sign in (it starts empty). A team made by hand from a tied one keeps the members it had.
// Codes: 1001; 1013 no such team; 2000 as CreateTeam.
func (s *Service) ChangeTeam(ctx context.Context, actor booking.User, id uuid.UUID, f TeamFields) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.team.onlyAdmins")
	}
	f, err := normalizeTeam(f)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		before, err := lockTeam(ctx, q, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		if err := checkSCIMGroup(ctx, q, actor.OrganizationID, f.SCIMGroupID); err != nil {
			return err
		}
		if err := q.TeamUpdate(ctx, queries.TeamUpdateParams{
			OrganizationID: actor.OrganizationID, ID: id, Name: f.Name, IdpGroup: given(f.IDPGroup), ScimGroupID: givenID(f.SCIMGroupID),
		}); err != nil {
			return teamWriteError(err, f)
		}
		if before.IDPGroup != f.IDPGroup || before.SCIMGroupID != f.SCIMGroupID {
			if f.IDPGroup != "" || f.SCIMGroupID != uuid.Nil {
				if err := q.TeamMembersClear(ctx, queries.TeamMembersClearParams{OrganizationID: actor.OrganizationID, TeamID: id}); err != nil {
					return fmt.Errorf("clear team members: %w", err)
				}
			}
			if err := followSource(ctx, q, actor.OrganizationID, id, f); err != nil {
				return err
			}
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: booking.AuditUpdate, Object: "teams", ObjectID: id,
			Before: before.audited(), After: f.audited(),
		})
	})
}

// DeleteTeam deletes a team, and with it its members' places in it and its neighbourhoods.
// Codes: 1001; 1013 no such team.
func (s *Service) DeleteTeam(ctx context.Context, actor booking.User, id uuid.UUID) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.team.onlyAdmins")
	}
	err := s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		before, err := lockTeam(ctx, q, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		if err := q.TeamDelete(ctx, queries.TeamDeleteParams{OrganizationID: actor.OrganizationID, ID: id}); err != nil {
			return fmt.Errorf("delete team: %w", err)
		}
		if err := q.OrganizationLayoutTouch(ctx, actor.OrganizationID); err != nil { // its neighbourhoods go
			return fmt.Errorf("mark layout changed: %w", err)
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: booking.AuditDelete, Object: "teams", ObjectID: id,
			Before: before.audited(),
		})
	})
	if err == nil {
		s.bookings.LayoutChanged() // its neighbourhoods went with it
	}
	return err
}

// lockTeam reads a team's fields, locked until the transaction ends.
// Codes: 1013.
func lockTeam(ctx context.Context, q *queries.Queries, org, id uuid.UUID) (TeamFields, error) {
	r, err := q.TeamGetForUpdate(ctx, queries.TeamGetForUpdateParams{OrganizationID: org, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return TeamFields{}, noTeam(id)
	}
	if err != nil {
		return TeamFields{}, fmt.Errorf("lock team: %w", err)
	}
	f := TeamFields{Name: r.Name}
	if r.IdpGroup != nil {
		f.IDPGroup = *r.IdpGroup
	}
	if r.ScimGroupID != nil {
		f.SCIMGroupID = *r.ScimGroupID
	}
	return f, nil
}

// checkSCIMGroup refuses a SCIM group that is not the organization's.
// Codes: 2000.
func checkSCIMGroup(ctx context.Context, q *queries.Queries, org, group uuid.UUID) error {
	if group == uuid.Nil {
		return nil
	}
	if _, err := q.SCIMGroupGet(ctx, queries.SCIMGroupGetParams{OrganizationID: org, ID: group}); errors.Is(err, pgx.ErrNoRows) {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "scimGroupId", "refusal.team.noSCIMGroup", map[string]any{"ID": group.String()})
	} else if err != nil {
		return fmt.Errorf("get group: %w", err)
	}
	return nil
}

// followSource fills a team tied to a SCIM group with the group's members.
func followSource(ctx context.Context, q *queries.Queries, org, team uuid.UUID, f TeamFields) error {
	if f.SCIMGroupID == uuid.Nil {
		return nil
	}
	if err := q.TeamsFollowSCIMGroup(ctx, queries.TeamsFollowSCIMGroupParams{OrganizationID: org, GroupID: f.SCIMGroupID}); err != nil {
		return fmt.Errorf("fill team from group: %w", err)
	}
	return nil
}

// teamWriteError turns a refused write of a team into words: the name, the claim value or the SCIM group
// another team has.
func teamWriteError(err error, f TeamFields) error {
	switch uniqueConstraint(err) {
	case "teams_name_key":
		return booking.FieldRefuse(booking.CodeInvalidRequest, "name", "refusal.team.nameTaken", map[string]any{"Name": f.Name})
	case "teams_idp_group_key":
		return booking.FieldRefuse(booking.CodeInvalidRequest, "idpGroup", "refusal.team.groupTaken", map[string]any{"Group": f.IDPGroup})
	case "teams_scim_group_key":
		return booking.FieldRefuse(booking.CodeInvalidRequest, "scimGroupId", "refusal.team.scimGroupTaken")
	}
	return fmt.Errorf("write team: %w", err)
}

// normalizeTeam trims f and checks it.
// Codes: 2000 naming the bad field.
func normalizeTeam(f TeamFields) (TeamFields, error) {
	f.Name, f.IDPGroup = strings.TrimSpace(f.Name), strings.TrimSpace(f.IDPGroup)
	switch {
	case f.Name == "":
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "name", "refusal.team.nameRequired")
	case utf8.RuneCountInString(f.Name) > MaxTeamNameLength:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "name", "refusal.team.nameTooLong", map[string]any{"Max": MaxTeamNameLength})
	case utf8.RuneCountInString(f.IDPGroup) > maxIDPGroupLength:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "idpGroup", "refusal.team.groupTooLong", map[string]any{"Max": maxIDPGroupLength})
	case f.IDPGroup != "" && f.SCIMGroupID != uuid.Nil:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "idpGroup", "refusal.team.oneSource")
	}
	return f, nil
}

func (f TeamFields) audited() map[string]any {
	m := map[string]any{"name": f.Name, "idpGroup": nil, "scimGroupId": nil}
	if f.IDPGroup != "" {
		m["idpGroup"] = f.IDPGroup
	}
	if f.SCIMGroupID != uuid.Nil {
		m["scimGroupId"] = f.SCIMGroupID.String()
	}
	return m
}

// givenID is id, or nil for uuid.Nil.
func givenID(id uuid.UUID) *uuid.UUID {
	if id == uuid.Nil {
		return nil
	}
	return &id
}

// SCIMGroupChoices lists up to MaxSCIMPage of the organization's SCIM groups by name, without their
// members: the groups a team may follow.
// Codes: 1001 the actor is not an admin.
func (s *Service) SCIMGroupChoices(ctx context.Context, actor booking.User) ([]ProvisionedGroup, error) {
	if actor.Role != booking.RoleAdmin {
		return nil, booking.Refuse(booking.CodeForbidden, "refusal.team.onlyAdmins")
	}
	groups, _, err := s.ProvisionedGroups(ctx, SCIMClient{OrganizationID: actor.OrganizationID}, GroupFilter{}, 1, MaxSCIMPage, false)
	return groups, err
}

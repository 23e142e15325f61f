package identity

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// The members of teams: an admin gives a team made by hand its members; a tied team's follow its group,
// at each sign-in (the groups claim) or with each change of the SCIM group.

// AddTeamMembers adds people of the organization to a team made by hand. People already in it stay.
// Codes: 1001; 1013 no such team; 2000 the team is tied to a group, a person who is not of the
// organization, or more than MaxTeamMembers members.
func (s *Service) AddTeamMembers(ctx context.Context, actor booking.User, id uuid.UUID, people []uuid.UUID) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.team.onlyAdmins")
	}
	if len(people) > MaxTeamMembers {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "members", "refusal.team.tooManyMembers", map[string]any{"Max": MaxTeamMembers})
	}
	return s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		f, err := lockHandMade(ctx, q, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		added, err := q.TeamMembersAdd(ctx, queries.TeamMembersAddParams{OrganizationID: actor.OrganizationID, TeamID: id, UserIds: people})
		if err != nil {
			return fmt.Errorf("add team members: %w", err)
		}
		for _, p := range people {
			if !slices.Contains(added, p) {
				if err := checkPerson(ctx, q, actor.OrganizationID, id, p); err != nil {
					return err
				}
			}
		}
		if n, err := q.TeamMemberCount(ctx, queries.TeamMemberCountParams{OrganizationID: actor.OrganizationID, TeamID: id}); err != nil {
			return fmt.Errorf("count team members: %w", err)
		} else if n > MaxTeamMembers {
			return booking.FieldRefuse(booking.CodeInvalidRequest, "members", "refusal.team.tooManyMembers", map[string]any{"Max": MaxTeamMembers})
		}
		if len(added) == 0 {
			return nil
		}
		return recordMembers(ctx, q, actor, id, f.Name, "membersAdded", added)
	})
}

// checkPerson refuses a person who was not added to the team because they are not of the organization
// (rather than a member already).
// Codes: 2000.
func checkPerson(ctx context.Context, q *queries.Queries, org, team, person uuid.UUID) error {
	rows, err := q.UsersGetByIDs(ctx, queries.UsersGetByIDsParams{OrganizationID: org, Ids: []uuid.UUID{person}})
	if err != nil {
		return fmt.Errorf("get person: %w", err)
	}
	if len(rows) == 0 {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "members", "refusal.identity.noUser", map[string]any{"ID": person.String()})
	}
	return nil
}

// RemoveTeamMember takes a person out of a team made by hand; someone who is not in it changes nothing.
// Codes: 1001; 1013 no such team; 2000 the team is tied to a group.
func (s *Service) RemoveTeamMember(ctx context.Context, actor booking.User, id, person uuid.UUID) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.team.onlyAdmins")
	}
	return s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		f, err := lockHandMade(ctx, q, actor.OrganizationID, id)
		if err != nil {
			return err
		}
		n, err := q.TeamMemberRemove(ctx, queries.TeamMemberRemoveParams{OrganizationID: actor.OrganizationID, TeamID: id, UserID: person})
		if err != nil {
			return fmt.Errorf("remove team member: %w", err)
		}
		if n == 0 {
			return nil
		}
		return recordMembers(ctx, q, actor, id, f.Name, "membersRemoved", []uuid.UUID{person})
	})
}

// lockHandMade locks a team whose members an admin gives.
// Codes: 1013; 2000 a tied team.
func lockHandMade(ctx context.Context, q *queries.Queries, org, id uuid.UUID) (TeamFields, error) {
	f, err := lockTeam(ctx, q, org, id)
	if err != nil {
		return f, err
	}
	if f.IDPGroup != "" || f.SCIMGroupID != uuid.Nil {
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "members", "refusal.team.tied", map[string]any{"Team": f.Name})
	}
	return f, nil
}

// recordMembers writes to the audit log the people added to or removed from a team (field says which).
func recordMembers(ctx context.Context, q *queries.Queries, actor booking.User, id uuid.UUID, name, field string, people []uuid.UUID) error {
	ids := make([]string, len(people))
	for i, p := range people {
		ids[i] = p.String()
	}
	return recordChange(ctx, q, booking.Change{
		OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: booking.AuditUpdate, Object: "teams", ObjectID: id,
		Before: map[string]any{"name": name}, After: map[string]any{"name": name, field: ids},
	})
}

// teamsFromClaim sets u's place in the teams tied to a value of the groups claim: u joins every such team
// whose value is among groups (compared as sameGroup says) and leaves the others. It writes only what
// changes.
func (s *Service) teamsFromClaim(ctx context.Context, u booking.User, groups []string) error {
	teams, err := s.q.TeamsOfIDPGroups(ctx, queries.TeamsOfIDPGroupsParams{OrganizationID: u.OrganizationID, UserID: u.ID})
	if err != nil {
		return fmt.Errorf("get teams of groups: %w", err)
	}
	var join, leave []uuid.UUID
	for _, t := range teams {
		in := slices.ContainsFunc(groups, func(g string) bool { return sameGroup(g, t.IdpGroup) })
		switch {
		case in && !t.Member:
			join = append(join, t.ID)
		case !in && t.Member:
			leave = append(leave, t.ID)
		}
	}
	if len(join) == 0 && len(leave) == 0 {
		return nil
	}
	return s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		for _, t := range join {
			if err := q.TeamMemberAdd(ctx, queries.TeamMemberAddParams{OrganizationID: u.OrganizationID, TeamID: t, UserID: u.ID}); err != nil {
				return fmt.Errorf("join team: %w", err)
			}
		}
		for _, t := range leave {
			if _, err := q.TeamMemberRemove(ctx, queries.TeamMemberRemoveParams{OrganizationID: u.OrganizationID, TeamID: t, UserID: u.ID}); err != nil {
				return fmt.Errorf("leave team: %w", err)
			}
		}
		return nil
	})
}

// teamsFollowGroup makes the members of the team tied to a SCIM group (if any) the group's, in the
// transaction that changed the group.
func teamsFollowGroup(ctx context.Context, q *queries.Queries, org, group uuid.UUID) error {
	if err := q.TeamsFollowSCIMGroup(ctx, queries.TeamsFollowSCIMGroupParams{OrganizationID: org, GroupID: group}); err != nil {
		return fmt.Errorf("teams follow group: %w", err)
	}
	return nil
}

// claimTeams sets u's teams from the organization's groups claim among claims (teamsFromClaim). A sign-in
// without the claim, or an organization that names none, leaves them as they are.
func (s *Service) claimTeams(ctx context.Context, u booking.User, claims map[string]any) error {
	org, err := s.q.OrganizationGet(ctx, u.OrganizationID)
	if err != nil {
		return fmt.Errorf("get organization: %w", err)
	}
	if org.GroupsClaim == "" {
		return nil
	}
	groups, ok := groupsOf(claims[org.GroupsClaim])
	if !ok {
		return nil
	}
	return s.teamsFromClaim(ctx, u, groups)
}

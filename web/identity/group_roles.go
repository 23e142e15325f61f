package identity

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// The roles that SCIM groups give their members: a group the organization's mapping names gives its role
// to its members, and a change of the group or of the mapping sets their roles again.

// groupChangeRoles sets the roles of the people a SCIM client's change of a group moved, as
// rolesFromGroups does, when the organization's mapping names the group under one of names (its names
// before and after the change). A change of a group the mapping does not name leaves the roles as they
// are, so that a role given by hand stays.
func (s *Service) groupChangeRoles(ctx context.Context, q *queries.Queries, c SCIMClient, people []uuid.UUID, names ...string) error {
	if len(people) == 0 {
		return nil
	}
	mapping, err := q.GroupRolesOfOrganization(ctx, c.OrganizationID)
	if err != nil {
		return fmt.Errorf("get group roles: %w", err)
	}
	mapped := slices.ContainsFunc(mapping, func(m queries.GroupRolesOfOrganizationRow) bool {
		return slices.ContainsFunc(names, func(name string) bool { return sameGroup(name, m.GroupName) })
	})
	if !mapped {
		return nil
	}
	return s.rolesFromGroups(ctx, q, c.OrganizationID, booking.Changer{Label: c.changer().Label + ", SCIM groups"}, uuid.Nil, mapping, people)
}

// mappingChangeRoles sets, after the organization's roles of groups changed from before to after, the
// roles of the members of the SCIM groups whose role changed (added, removed, or another role), as
// rolesFromGroups does. The admin who made the change keeps their own role.
func (s *Service) mappingChangeRoles(ctx context.Context, q *queries.Queries, actor booking.User, before, after []GroupRole) error {
	roleIn := func(list []GroupRole, name string) booking.Role {
		for _, g := range list {
			if sameGroup(g.Group, name) {
				return g.Role
			}
		}
		return ""
	}
	var changed, lower []string
	for _, g := range slices.Concat(before, after) {
		if roleIn(before, g.Group) != roleIn(after, g.Group) {
			changed, lower = append(changed, g.Group), append(lower, strings.ToLower(g.Group))
		}
	}
	if len(changed) == 0 {
		return nil
	}
	// lower() finds the candidates; sameGroup, stricter, decides.
	rows, err := q.SCIMGroupMembersNamed(ctx, queries.SCIMGroupMembersNamedParams{OrganizationID: actor.OrganizationID, Names: lower})
	if err != nil {
		return fmt.Errorf("get members of groups: %w", err)
	}
	var people []uuid.UUID
	for _, r := range rows {
		if !slices.Contains(people, r.UserID) && slices.ContainsFunc(changed, func(name string) bool { return sameGroup(name, r.DisplayName) }) {
			people = append(people, r.UserID)
		}
	}
	if len(people) == 0 {
		return nil
	}
	mapping, err := q.GroupRolesOfOrganization(ctx, actor.OrganizationID)
	if err != nil {
		return fmt.Errorf("get group roles: %w", err)
	}
	by := booking.By(actor)
	by.Label += ", roles of groups"
	return s.rolesFromGroups(ctx, q, actor.OrganizationID, by, actor.ID, mapping, people)
}

// rolesFromGroups sets the role of each of the people from the names of the SCIM groups they are in, as
// the groups claim does at sign-in: the highest role mapping gives one of their groups, or the role of
// new people when none. Nothing changes when mapping is empty, nor for keep (an admin who cannot change
// their own role; uuid.Nil for none). The organization's last active admin stays one. Each change is
// audited, by by.
func (s *Service) rolesFromGroups(ctx context.Context, q *queries.Queries, org uuid.UUID, by booking.Changer, keep uuid.UUID,
	mapping []queries.GroupRolesOfOrganizationRow, people []uuid.UUID) error {
	if len(people) == 0 || len(mapping) == 0 {
		return nil
	}
	o, err := q.OrganizationGet(ctx, org)
	if err != nil {
		return fmt.Errorf("get organization: %w", err)
	}
	names, err := q.SCIMGroupNamesOfUsers(ctx, queries.SCIMGroupNamesOfUsersParams{OrganizationID: org, UserIds: people})
	if err != nil {
		return fmt.Errorf("get groups of people: %w", err)
	}
	groups := map[uuid.UUID][]string{}
	for _, n := range names {
		groups[n.UserID] = append(groups[n.UserID], n.DisplayName)
	}
	rows, err := q.UsersGetByIDs(ctx, queries.UsersGetByIDsParams{OrganizationID: org, Ids: people})
	if err != nil {
		return fmt.Errorf("get people: %w", err)
	}
	for _, u := range rows {
		role := roleOfGroups(groups[u.ID], mapping, booking.Role(o.DefaultRole))
		if role == booking.Role(u.Role) || u.ID == keep {
			continue
		}
		if isActiveAdmin(u) {
			if err := q.OrganizationAdminLock(ctx, org); err != nil {
				return fmt.Errorf("lock admin changes: %w", err)
			}
			if n, err := q.UsersActiveAdminCount(ctx, org); err != nil {
				return fmt.Errorf("count admins: %w", err)
			} else if n <= 1 {
				continue // the organization's last admin stays one until someone else is made admin
			}
		}
		if err := q.UserSetRole(ctx, queries.UserSetRoleParams{OrganizationID: org, ID: u.ID, Role: string(role)}); err != nil {
			return fmt.Errorf("set role: %w", err)
		}
		if err := recordChange(ctx, q, booking.Change{
			OrganizationID: org, By: by, Action: booking.AuditUpdate,
			Object: "users", ObjectID: u.ID, Before: map[string]any{"role": u.Role}, After: map[string]any{"role": role},
		}); err != nil {
			return err
		}
	}
	return nil
}

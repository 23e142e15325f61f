package identity

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// ProvisionedGroup is a group a SCIM client keeps in the organization (Okta's "Push Groups", Entra ID's
// group provisioning). Its DisplayName feeds the same group-to-role mapping as the groups claim at
// sign-in: when a mapped group's members or name change, its members' roles follow (see rolesFromGroups).
type ProvisionedGroup struct {
	ID          uuid.UUID
	DisplayName string
	ExternalID  string
	Members     []GroupMember
	Created     time.Time
	Modified    time.Time
}

// GroupMember is a person in a group, with the name SCIM shows for them.
type GroupMember struct {
	ID      uuid.UUID
	Display string
}

// Version is a weak entity tag of the group: it changes whenever its name, external id or members do.
func (g ProvisionedGroup) Version() string {
	ids := make([]string, len(g.Members))
	for i, m := range g.Members {
		ids[i] = m.ID.String()
	}
	return weakTag(g.DisplayName, g.ExternalID, ids)
}

// GroupFields are what a SCIM client manages of a group.
type GroupFields struct {
	DisplayName string
	ExternalID  string
	Members     []uuid.UUID
}

// GroupFilter narrows ProvisionedGroups to the group with a name (in any case) or an external id, or
// both. Nobody true matches no group (a filter that contradicts itself).
type GroupFilter struct {
	DisplayName *string
	ExternalID  *string
	Nobody      bool
}

// Limits of groups.
const (
	MaxGroupMembers       = 10_000 // people in one group
	maxGroupNameLength    = maxGroupLength
	maxGroupExternalIDLen = maxExternalIDLength
)

// ErrGroupExists is returned when another group of the organization has the name.
var ErrGroupExists = booking.Errorf(booking.CodeInvalidRequest, "another group of the organization has this displayName")

// ProvisionedGroups returns up to count groups of the client's organization (at most MaxSCIMPage) from
// the startIndex-th (1-based), by name, and how many match f in all. Their members are read only when
// members is true.
func (s *Service) ProvisionedGroups(ctx context.Context, c SCIMClient, f GroupFilter, startIndex, count int, members bool) ([]ProvisionedGroup, int, error) {
	startIndex, count = max(startIndex, 1), min(max(count, 0), MaxSCIMPage)
	if f.Nobody {
		return nil, 0, nil
	}
	total, err := s.q.SCIMGroupsCount(ctx, queries.SCIMGroupsCountParams{
		OrganizationID: c.OrganizationID, DisplayName: f.DisplayName, ExternalID: f.ExternalID,
	})
	if err != nil {
		return nil, 0, fmt.Errorf("count groups: %w", err)
	}
	if count == 0 || startIndex > int(total) {
		return nil, int(total), nil
	}
	rows, err := s.q.SCIMGroups(ctx, queries.SCIMGroupsParams{
		OrganizationID: c.OrganizationID, DisplayName: f.DisplayName, ExternalID: f.ExternalID,
		Skip: int32(startIndex - 1), MaxRows: int32(count),
	})
	if err != nil {
		return nil, 0, fmt.Errorf("list groups: %w", err)
	}
	groups := make([]ProvisionedGroup, len(rows))
	for i, r := range rows {
		groups[i] = provisionedGroup(r)
	}
	if members {
		if err := withMembers(ctx, s.q, c.OrganizationID, groups); err != nil {
			return nil, 0, err
		}
	}
	return groups, int(total), nil
}

// ProvisionedGroup returns one group of the client's organization, with its members.
// Codes: 1013 no such group in the organization.
func (s *Service) ProvisionedGroup(ctx context.Context, c SCIMClient, id uuid.UUID) (ProvisionedGroup, error) {
	return groupOf(ctx, s.q, c.OrganizationID, id)
}

func groupOf(ctx context.Context, q *queries.Queries, org, id uuid.UUID) (ProvisionedGroup, error) {
	r, err := q.SCIMGroupGet(ctx, queries.SCIMGroupGetParams{OrganizationID: org, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return ProvisionedGroup{}, booking.Errorf(booking.CodeObjectNotFound, "no group %s in your organization", id)
	}
	if err != nil {
		return ProvisionedGroup{}, fmt.Errorf("get group: %w", err)
	}
	g := []ProvisionedGroup{provisionedGroup(r)}
	if err := withMembers(ctx, q, org, g); err != nil {
		return ProvisionedGroup{}, err
	}
	return g[0], nil
}

// withMembers reads the members of the groups.
func withMembers(ctx context.Context, q *queries.Queries, org uuid.UUID, groups []ProvisionedGroup) error {
	ids := make([]uuid.UUID, len(groups))
	at := make(map[uuid.UUID]int, len(groups))
	for i, g := range groups {
		ids[i], at[g.ID] = g.ID, i
		groups[i].Members = []GroupMember{}
	}
	rows, err := q.SCIMGroupMembers(ctx, queries.SCIMGroupMembersParams{OrganizationID: org, GroupIds: ids})
	if err != nil {
		return fmt.Errorf("get group members: %w", err)
	}
	for _, r := range rows {
		g := &groups[at[r.GroupID]]
		g.Members = append(g.Members, GroupMember{ID: r.ID, Display: strings.TrimSpace(r.Name + " " + r.Surname)})
	}
	return nil
}

// ProvisionGroup creates a group in the client's organization, and sets its members' roles from their
// groups when the organization maps the group's name.
// Codes: 2000 a bad field, a member who is not a person of the organization; ErrGroupExists.
func (s *Service) ProvisionGroup(ctx context.Context, c SCIMClient, f GroupFields) (ProvisionedGroup, error) {
	f, err := normalizeGroup(f)
	if err != nil {
		return ProvisionedGroup{}, err
	}
	id := uuid.New()
	err = s.inTx(ctx, func(q *queries.Queries) error {
		if _, err := q.SCIMGroupCreate(ctx, queries.SCIMGroupCreateParams{
			OrganizationID: c.OrganizationID, ID: id, DisplayName: f.DisplayName, ExternalID: given(f.ExternalID),
		}); isUniqueViolation(err) {
			return ErrGroupExists
		} else if err != nil {
			return fmt.Errorf("create group: %w", err)
		}
		if err := setMembers(ctx, q, c.OrganizationID, id, nil, f.Members); err != nil {
			return err
		}
		if err := recordChange(ctx, q, booking.Change{
			OrganizationID: c.OrganizationID, By: c.changer(), Action: booking.AuditCreate, Object: "scimGroups", ObjectID: id,
			After: f.audited(),
		}); err != nil {
			return err
		}
		return s.groupChangeRoles(ctx, q, c, f.Members, f.DisplayName)
	})
	if err != nil {
		return ProvisionedGroup{}, err
	}
	return s.ProvisionedGroup(ctx, c, id)
}

// ChangeProvisionedGroup changes a group of the client's organization: change gets the group's fields as
// they are, with the group locked, and changes them (a PUT replaces them all, a PATCH applies its
// operations). When the group is mapped, under its old name or its new one, the roles of the members it
// had and has then follow their groups. ifMatch "" changes whatever the group is now;
// otherwise it must be its Version (or "*").
// Codes: 1013 no such group; 2000 a bad field, a member who is not a person of the organization, or
// what change refuses; ErrGroupExists; 4120 ifMatch is not the group's version.
func (s *Service) ChangeProvisionedGroup(ctx context.Context, c SCIMClient, id uuid.UUID, ifMatch string, change func(*GroupFields) error) (ProvisionedGroup, error) {
	err := s.inTx(ctx, func(q *queries.Queries) error {
		before, err := lockGroup(ctx, q, c.OrganizationID, id, ifMatch)
		if err != nil {
			return err
		}
		f := before.fields()
		if err := change(&f); err != nil {
			return err
		}
		if f, err = normalizeGroup(f); err != nil {
			return err
		}
		if err := q.SCIMGroupReplace(ctx, queries.SCIMGroupReplaceParams{
			OrganizationID: c.OrganizationID, ID: id, DisplayName: f.DisplayName, ExternalID: given(f.ExternalID),
		}); isUniqueViolation(err) {
			return ErrGroupExists
		} else if err != nil {
			return fmt.Errorf("replace group: %w", err)
		}
		old := before.fields()
		if err := setMembers(ctx, q, c.OrganizationID, id, old.Members, f.Members); err != nil {
			return err
		}
		if err := recordGroupChange(ctx, q, c, id, booking.AuditUpdate, old, f); err != nil {
			return err
		}
		affected := f.Members
		for _, m := range old.Members {
			if !slices.Contains(affected, m) {
				affected = append(affected, m)
			}
		}
		return s.groupChangeRoles(ctx, q, c, affected, old.DisplayName, f.DisplayName)
	})
	if err != nil {
		return ProvisionedGroup{}, err
	}
	return s.ProvisionedGroup(ctx, c, id)
}

// DeleteProvisionedGroup deletes a group; when it was mapped, its members' roles then follow the groups
// they are left in.
// Codes: 1013 no such group; 4120 ifMatch is not the group's version.
func (s *Service) DeleteProvisionedGroup(ctx context.Context, c SCIMClient, id uuid.UUID, ifMatch string) error {
	return s.inTx(ctx, func(q *queries.Queries) error {
		before, err := lockGroup(ctx, q, c.OrganizationID, id, ifMatch)
		if err != nil {
			return err
		}
		if err := q.SCIMGroupDelete(ctx, queries.SCIMGroupDeleteParams{OrganizationID: c.OrganizationID, ID: id}); err != nil {
			return fmt.Errorf("delete group: %w", err)
		}
		old := before.fields()
		if err := recordGroupChange(ctx, q, c, id, booking.AuditDelete, old, GroupFields{}); err != nil {
			return err
		}
		return s.groupChangeRoles(ctx, q, c, old.Members, old.DisplayName)
	})
}

// lockGroup reads a group with its members, locked until the transaction ends, and checks ifMatch.
// Codes: 1013; 4120.
func lockGroup(ctx context.Context, q *queries.Queries, org, id uuid.UUID, ifMatch string) (ProvisionedGroup, error) {
	if _, err := q.SCIMGroupGetForUpdate(ctx, queries.SCIMGroupGetForUpdateParams{OrganizationID: org, ID: id}); errors.Is(err, pgx.ErrNoRows) {
		return ProvisionedGroup{}, booking.Errorf(booking.CodeObjectNotFound, "no group %s in your organization", id)
	} else if err != nil {
		return ProvisionedGroup{}, fmt.Errorf("lock group: %w", err)
	}
	g, err := groupOf(ctx, q, org, id)
	if err != nil {
		return ProvisionedGroup{}, err
	}
	if v := g.Version(); !booking.MatchesVersion(ifMatch, v) {
		return ProvisionedGroup{}, booking.Errorf(booking.CodePreconditionFailed, "If-Match %s is not the group's version %s; read it again", ifMatch, v)
	}
	return g, nil
}

// setMembers changes a group's members from old to members, all of whom must be people of the
// organization the client sees.
// Codes: 2000 naming a member who is not.
func setMembers(ctx context.Context, q *queries.Queries, org, group uuid.UUID, old, members []uuid.UUID) error {
	known, err := q.SCIMUserIDs(ctx, queries.SCIMUserIDsParams{OrganizationID: org, Ids: members})
	if err != nil {
		return fmt.Errorf("find members: %w", err)
	}
	for _, m := range members {
		if !slices.Contains(known, m) {
			return booking.FieldErrorf(booking.CodeInvalidRequest, "members", "no user %s in your organization", m)
		}
	}
	for _, m := range old {
		if !slices.Contains(members, m) {
			if err := q.SCIMGroupMemberRemove(ctx, queries.SCIMGroupMemberRemoveParams{OrganizationID: org, GroupID: group, UserID: m}); err != nil {
				return fmt.Errorf("remove member: %w", err)
			}
		}
	}
	for _, m := range members {
		if !slices.Contains(old, m) {
			if err := q.SCIMGroupMemberAdd(ctx, queries.SCIMGroupMemberAddParams{OrganizationID: org, GroupID: group, UserID: m}); err != nil {
				return fmt.Errorf("add member: %w", err)
			}
		}
	}
	return nil
}

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

// normalizeGroup checks f, trims its names and counts each member once.
// Codes: 2000 naming the bad field.
func normalizeGroup(f GroupFields) (GroupFields, error) {
	f.DisplayName, f.ExternalID = strings.TrimSpace(f.DisplayName), strings.TrimSpace(f.ExternalID)
	switch {
	case f.DisplayName == "":
		return f, booking.FieldErrorf(booking.CodeInvalidRequest, "displayName", "is required")
	case utf8.RuneCountInString(f.DisplayName) > maxGroupNameLength:
		return f, booking.FieldErrorf(booking.CodeInvalidRequest, "displayName", "at most %d characters", maxGroupNameLength)
	case utf8.RuneCountInString(f.ExternalID) > maxGroupExternalIDLen:
		return f, booking.FieldErrorf(booking.CodeInvalidRequest, "externalId", "at most %d characters", maxGroupExternalIDLen)
	}
	members := make([]uuid.UUID, 0, len(f.Members))
	for _, m := range f.Members {
		if !slices.Contains(members, m) {
			members = append(members, m)
		}
	}
	if len(members) > MaxGroupMembers {
		return f, booking.FieldErrorf(booking.CodeInvalidRequest, "members", "at most %d people in a group", MaxGroupMembers)
	}
	f.Members = members
	return f, nil
}

func (f GroupFields) audited() map[string]any {
	ids := make([]string, len(f.Members))
	for i, m := range f.Members {
		ids[i] = m.String()
	}
	return map[string]any{"displayName": f.DisplayName, "externalId": f.ExternalID, "members": ids}
}

// recordGroupChange writes a group's change to the audit log: its name and external id, and the members
// added and removed (not the whole list, which may be long).
func recordGroupChange(ctx context.Context, q *queries.Queries, c SCIMClient, id uuid.UUID, action booking.AuditAction, old, f GroupFields) error {
	var added, removed []string
	for _, m := range f.Members {
		if !slices.Contains(old.Members, m) {
			added = append(added, m.String())
		}
	}
	for _, m := range old.Members {
		if !slices.Contains(f.Members, m) {
			removed = append(removed, m.String())
		}
	}
	before := map[string]any{"displayName": old.DisplayName, "externalId": old.ExternalID}
	after := map[string]any{"displayName": f.DisplayName, "externalId": f.ExternalID}
	if len(added) > 0 {
		after["membersAdded"] = added
	}
	if len(removed) > 0 {
		after["membersRemoved"] = removed
	}
	if action == booking.AuditDelete {
		after = nil
	}
	return recordChange(ctx, q, booking.Change{
		OrganizationID: c.OrganizationID, By: c.changer(), Action: action, Object: "scimGroups", ObjectID: id,
		Before: before, After: after,
	})
}

func (g ProvisionedGroup) fields() GroupFields {
	f := GroupFields{DisplayName: g.DisplayName, ExternalID: g.ExternalID, Members: make([]uuid.UUID, len(g.Members))}
	for i, m := range g.Members {
		f.Members[i] = m.ID
	}
	return f
}

func provisionedGroup(r queries.ScimGroup) ProvisionedGroup {
	g := ProvisionedGroup{ID: r.ID, DisplayName: r.DisplayName, Created: r.CreatedAt, Modified: r.UpdatedAt}
	if r.ExternalID != nil {
		g.ExternalID = *r.ExternalID
	}
	return g
}

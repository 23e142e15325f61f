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
	"github.com/workspacebooking/booking/web/outbox"
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
var ErrGroupExists = booking.Refuse(booking.CodeInvalidRequest, "refusal.identity.groupExists")

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
		return ProvisionedGroup{}, booking.Refuse(booking.CodeObjectNotFound, "refusal.identity.noGroup", map[string]any{"ID": id.String()})
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
	err = s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
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
	err := s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
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
		if err := teamsFollowGroup(ctx, q, c.OrganizationID, id); err != nil {
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
	return s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
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
		return ProvisionedGroup{}, booking.Refuse(booking.CodeObjectNotFound, "refusal.identity.noGroup", map[string]any{"ID": id.String()})
	} else if err != nil {
		return ProvisionedGroup{}, fmt.Errorf("lock group: %w", err)
	}
	g, err := groupOf(ctx, q, org, id)
	if err != nil {
		return ProvisionedGroup{}, err
	}
	if v := g.Version(); !booking.MatchesVersion(ifMatch, v) {
		return ProvisionedGroup{}, booking.Refuse(booking.CodePreconditionFailed, "refusal.identity.groupStale", map[string]any{"Tag": ifMatch, "Version": v})
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
			return booking.FieldRefuse(booking.CodeInvalidRequest, "members", "refusal.identity.noUser", map[string]any{"ID": m.String()})
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

// normalizeGroup checks f, trims its names and counts each member once.
// Codes: 2000 naming the bad field.
func normalizeGroup(f GroupFields) (GroupFields, error) {
	f.DisplayName, f.ExternalID = strings.TrimSpace(f.DisplayName), strings.TrimSpace(f.ExternalID)
	switch {
	case f.DisplayName == "":
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "displayName", "refusal.identity.required")
	case utf8.RuneCountInString(f.DisplayName) > maxGroupNameLength:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "displayName", "refusal.identity.atMostCharacters", map[string]any{"Max": maxGroupNameLength})
	case utf8.RuneCountInString(f.ExternalID) > maxGroupExternalIDLen:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "externalId", "refusal.identity.atMostCharacters", map[string]any{"Max": maxGroupExternalIDLen})
	}
	members := make([]uuid.UUID, 0, len(f.Members))
	for _, m := range f.Members {
		if !slices.Contains(members, m) {
			members = append(members, m)
		}
	}
	if len(members) > MaxGroupMembers {
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "members", "refusal.identity.tooManyMembers", map[string]any{"Max": MaxGroupMembers})
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

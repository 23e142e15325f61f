package booking

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// ObjectName is how the audit log names an object, and the time zone it reads the object's times in.
type ObjectName struct {
	Collection string
	Name       string // "" when the object has none (a rule may not)
	Timezone   string // the IANA zone of the building the object is in; "" when it is in none
	Deleted    bool   // the object is gone: Name is the one the audit log last recorded
	// UsedBy names up to two of the resources that use a rule, in name order; UsedByCount counts them all.
	UsedBy      []string
	UsedByCount int
}

// auditNameDepth is how many references AuditNames follows from a deleted object to find its building:
// a closure of a deleted resource on a deleted floor takes three.
const auditNameDepth = 3

// AuditNames names the organization's objects with the given ids, reading through q: one that exists by
// its name now, one deleted since by the name the audit log last recorded for it. An id of another
// organization, or of nothing, is left out of the map.
// It reads in one read-only snapshot, and checks nobody's right to read: the caller does.
func (s *Service) AuditNames(ctx context.Context, org uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]ObjectName, error) {
	var names map[uuid.UUID]ObjectName
	err := s.readSnapshot(ctx, func(q *queries.Queries) error {
		var err error
		names, err = auditNamesOf(ctx, q, org, ids)
		return err
	})
	return names, err
}

// auditNamesOf is AuditNames, reading through q.
func auditNamesOf(ctx context.Context, q *queries.Queries, org uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]ObjectName, error) {
	return auditNames(ctx, q, org, ids, auditNameDepth)
}

func auditNames(ctx context.Context, q *queries.Queries, org uuid.UUID, ids []uuid.UUID, depth int) (map[uuid.UUID]ObjectName, error) {
	out := map[uuid.UUID]ObjectName{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.AuditObjectNames(ctx, queries.AuditObjectNamesParams{OrganizationID: org, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("name audited objects: %w", err)
	}
	var unnamedRules, missing []uuid.UUID
	for _, r := range rows {
		out[r.ID] = ObjectName{Collection: r.Collection, Name: r.Name, Timezone: r.Timezone}
		if r.Collection == "resourceRules" && r.Name == "" {
			unnamedRules = append(unnamedRules, r.ID)
		}
	}
	if len(unnamedRules) > 0 {
		uses, err := q.AuditRuleUsers(ctx, queries.AuditRuleUsersParams{OrganizationID: org, Ids: unnamedRules})
		if err != nil {
			return nil, fmt.Errorf("name audited rules: %w", err)
		}
		for _, u := range uses {
			n := out[u.ID]
			n.UsedBy, n.UsedByCount = u.Names, int(u.Total)
			out[u.ID] = n
		}
	}
	for _, id := range ids {
		if _, ok := out[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	docs, err := q.AuditLastDocuments(ctx, queries.AuditLastDocumentsParams{OrganizationID: org, Ids: missing})
	if err != nil {
		return nil, fmt.Errorf("name deleted objects: %w", err)
	}
	// A deleted object is in the building its last document names, directly or through its floor or
	// resource.
	refs := map[uuid.UUID]uuid.UUID{} // deleted object → what it was in
	var lookups []uuid.UUID
	for _, d := range docs {
		var recorded struct{ Name, Surname, Reason, Timezone, BuildingID, FloorID, ResourceID string }
		if err := json.Unmarshal(d.Doc, &recorded); err != nil {
			continue
		}
		name := cmp.Or(strings.TrimSpace(recorded.Name+" "+recorded.Surname), recorded.Reason)
		n := ObjectName{Collection: d.Collection, Name: name, Deleted: true}
		if d.Collection == "buildings" {
			n.Timezone = recorded.Timezone
		}
		out[d.ObjectID] = n
		if ref, err := uuid.Parse(cmp.Or(recorded.ResourceID, recorded.FloorID, recorded.BuildingID)); err == nil && n.Timezone == "" {
			refs[d.ObjectID] = ref
			lookups = append(lookups, ref)
		}
	}
	if depth > 1 && len(lookups) > 0 {
		in, err := auditNames(ctx, q, org, lookups, depth-1)
		if err != nil {
			return nil, err
		}
		for id, ref := range refs {
			n := out[id]
			n.Timezone = in[ref].Timezone
			out[id] = n
		}
	}
	return out, nil
}

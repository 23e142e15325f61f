package layout

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// MaxBulkResources is the most resources ChangeResources changes at once.
const MaxBulkResources = 500

// ResourceChange is one change that ChangeResources makes to each of several resources: the rule and
// the kind (subcategory) when set, and features added and taken away.
type ResourceChange struct {
	RuleID, SubcategoryID       *uuid.UUID
	AddFeatures, RemoveFeatures []uuid.UUID
}

// ChangeResources makes one change to the organization's resources ids, all or none, in one transaction
// that writes the audit entry of each resource it changed. It returns how many it changed: a resource
// the change leaves as it was is neither counted nor audited.
// Codes: 1001, 1013 (an id that is not one of the organization's resources; nothing is changed), 2000
// (no ids or more than MaxBulkResources, nothing to change, a feature both added and taken away, a
// rule, kind or feature the organization does not have).
func (s *Service) ChangeResources(ctx context.Context, actor booking.User, ids []uuid.UUID, ch ResourceChange) (int, error) {
	k, err := lookup(actor, Resources)
	if err != nil {
		return 0, err
	}
	switch {
	case len(ids) == 0:
		return 0, booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.chooseResources")
	case len(ids) > MaxBulkResources:
		return 0, booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.tooManyResources", map[string]any{"Max": fmt.Sprint(MaxBulkResources)})
	case ch.RuleID == nil && ch.SubcategoryID == nil && len(ch.AddFeatures) == 0 && len(ch.RemoveFeatures) == 0:
		return 0, booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.chooseChange")
	}
	for _, f := range ch.AddFeatures {
		if slices.Contains(ch.RemoveFeatures, f) {
			return 0, booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.featureAddedAndRemoved")
		}
	}
	ids = slices.Clone(ids)
	slices.SortFunc(ids, func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) })
	ids = slices.Compact(ids)
	org := actor.OrganizationID
	changed := 0
	err = s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		// The locks of every admin change, in their order (see current); the object ids' lock puts
		// every other change of these resources after this one.
		if err := q.ObjectIDsLock(ctx); err != nil {
			return fmt.Errorf("lock object ids: %w", err)
		}
		if err := q.OrganizationAdminLock(ctx, org); err != nil {
			return fmt.Errorf("lock admin changes: %w", err)
		}
		if err := checkHeld(ctx, q, org, ids, Resources, func(id uuid.UUID) error { return notFound(k, id) }); err != nil {
			return err
		}
		if err := checkReferences(ctx, q, org, ch); err != nil {
			return err
		}
		before, err := resourcesByID(ctx, q, k, org)
		if err != nil {
			return err
		}
		var doc Layout
		for _, id := range ids {
			var r LayoutResource
			if err := json.Unmarshal(before[id].JSON, &r); err != nil {
				return fmt.Errorf("decode resource %s: %w", id, err)
			}
			if ch.apply(&r) {
				doc.Resources = append(doc.Resources, r)
			}
		}
		if len(doc.Resources) == 0 {
			return nil
		}
		if err := write(ctx, s.svc, q, ev, doc, booking.By(actor)); err != nil {
			return err
		}
		after, err := resourcesByID(ctx, q, k, org)
		if err != nil {
			return err
		}
		for _, r := range doc.Resources {
			id := uuid.MustParse(r.ID)
			b, a := before[id], after[id]
			if b.ETag == a.ETag {
				continue
			}
			if err := record(ctx, q, actor, &b, &a); err != nil {
				return err
			}
			changed++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return changed, nil
}

// apply makes the change to r and reports whether r is different now.
func (ch ResourceChange) apply(r *LayoutResource) bool {
	was := *r
	was.FeatureIDs = slices.Clone(r.FeatureIDs)
	if ch.RuleID != nil {
		r.ResourceRuleID = ch.RuleID.String()
	}
	if ch.SubcategoryID != nil {
		r.SubcategoryID = ch.SubcategoryID.String()
	}
	has := func(list []uuid.UUID) func(string) bool {
		return func(f string) bool {
			id, err := uuid.Parse(f)
			return err == nil && slices.Contains(list, id)
		}
	}
	r.FeatureIDs = slices.DeleteFunc(r.FeatureIDs, has(ch.RemoveFeatures))
	for _, f := range ch.AddFeatures {
		if !slices.ContainsFunc(r.FeatureIDs, has([]uuid.UUID{f})) {
			r.FeatureIDs = append(r.FeatureIDs, f.String())
		}
	}
	return r.ResourceRuleID != was.ResourceRuleID || r.SubcategoryID != was.SubcategoryID || !slices.Equal(r.FeatureIDs, was.FeatureIDs)
}

// checkHeld refuses, with missing(id), an id that is not an object of collection c of the organization.
func checkHeld(ctx context.Context, q *queries.Queries, org uuid.UUID, ids []uuid.UUID, c Collection, missing func(uuid.UUID) error) error {
	holders, err := q.ObjectIDHolders(ctx, ids)
	if err != nil {
		return fmt.Errorf("find object ids: %w", err)
	}
	// An id is the organization's object of c when it holds it and nothing else does.
	mine, other := map[uuid.UUID]bool{}, map[uuid.UUID]bool{}
	for _, h := range holders {
		if h.Collection == string(c) && h.OrganizationID == org {
			mine[h.ID] = true
		} else {
			other[h.ID] = true
		}
	}
	for _, id := range ids {
		if !mine[id] || other[id] {
			return missing(id)
		}
	}
	return nil
}

// checkReferences refuses a rule, a kind or a feature that is not the organization's.
func checkReferences(ctx context.Context, q *queries.Queries, org uuid.UUID, ch ResourceChange) error {
	if ch.RuleID != nil {
		err := checkHeld(ctx, q, org, []uuid.UUID{*ch.RuleID}, ResourceRules, func(id uuid.UUID) error {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.notOursRule", map[string]any{"ID": id.String()})
		})
		if err != nil {
			return err
		}
	}
	if ch.SubcategoryID != nil {
		err := checkHeld(ctx, q, org, []uuid.UUID{*ch.SubcategoryID}, Subcategories, func(id uuid.UUID) error {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.notOursKind", map[string]any{"ID": id.String()})
		})
		if err != nil {
			return err
		}
	}
	if features := slices.Concat(ch.AddFeatures, ch.RemoveFeatures); len(features) > 0 {
		return checkHeld(ctx, q, org, features, Features, func(id uuid.UUID) error {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.notOursFeature", map[string]any{"ID": id.String()})
		})
	}
	return nil
}

// resourcesByID reads the organization's resources.
func resourcesByID(ctx context.Context, q *queries.Queries, k kind, org uuid.UUID) (map[uuid.UUID]Object, error) {
	objs, err := read(ctx, q, k, Resources, Scope{Organization: &org})
	if err != nil {
		return nil, err
	}
	out := make(map[uuid.UUID]Object, len(objs))
	for _, o := range objs {
		out[o.ID] = o
	}
	return out, nil
}

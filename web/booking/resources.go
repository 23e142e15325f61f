package booking

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/lang"
)

// checkCategory refuses a resource whose category differs from the one the operation books. A workstation
// sent to the spaces operation gets 4006; any other mismatch gets 2000.
func checkCategory(res Resource, category Category) error {
	if res.Subcategory.Category == category {
		return nil
	}
	if category == CategorySpace {
		return Refuse(CodeResourceNotASpace, "refusal.catalogue.notASpace", map[string]any{
			"Name": res.Name, "Kind": aCategoryOf(res.Subcategory.Category)})
	}
	return FieldRefuse(CodeInvalidRequest, "resource.id", "refusal.catalogue.notOfCategory", map[string]any{
		"Name": res.Name, "Kind": aCategoryOf(category)})
}

// aCategoryOf names one resource of a category, as a phrase (lang.Phrase) for a refusal's data: "a
// workstation" ("un puesto"), "a space" ("una sala").
type aCategoryOf Category

func (c aCategoryOf) In(ctx context.Context) string {
	switch Category(c) {
	case CategoryWorkstation:
		return lang.T(ctx, "refusal.catalogue.aWorkstation")
	case CategorySpace:
		return lang.T(ctx, "refusal.catalogue.aSpace")
	}
	return "a " + strings.ToLower(string(c))
}

// bookableResource loads one bookable resource, as resourcesByID does.
// Codes: 1002 no such resource in the organization, or one that is deactivated or hidden (or on such a
// floor or building).
func bookableResource(ctx context.Context, q *queries.Queries, org, id uuid.UUID) (Resource, error) {
	rs, err := resourcesByID(ctx, q, org, []uuid.UUID{id})
	if err != nil {
		return Resource{}, err
	}
	res, ok := rs[id]
	if !ok || !res.Bookable() {
		return Resource{}, Refuse(CodeResourceNotFound, "refusal.catalogue.noBookableResource", map[string]any{"ID": id.String()})
	}
	return res, nil
}

// resourcesByID loads the resources with the given ids, with floor, building, subcategory, rule and
// features. Ids not found in the organization are skipped.
func resourcesByID(ctx context.Context, q *queries.Queries, org uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]Resource, error) {
	out := make(map[uuid.UUID]Resource, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	params := make([]queries.ResourceGetParams, len(ids))
	for i, id := range ids {
		params[i] = queries.ResourceGetParams{OrganizationID: org, ID: id}
	}
	var err error
	q.ResourceGet(ctx, params).QueryRow(func(_ int, r queries.ResourceGetRow, e error) {
		if errors.Is(e, pgx.ErrNoRows) {
			return
		}
		if err = cmp.Or(err, e); err != nil {
			return
		}
		res := fullResource(r.Resource, r.Floor, r.Building, r.Subcategory, r.ResourceRule)
		res.Features = features(org, r.FeatureIds, r.FeatureNames, r.FeatureEmails)
		out[res.ID] = res
	})
	if err != nil {
		return nil, fmt.Errorf("get resources: %w", err)
	}
	return out, nil
}

// features builds the organization's features from three arrays of the same length.
func features(org uuid.UUID, ids []uuid.UUID, names, emails []string) []Feature {
	out := make([]Feature, len(ids))
	for i, id := range ids {
		out[i] = Feature{ID: id, OrganizationID: org, Name: names[i], Email: emails[i]}
	}
	return out
}

// listedResource is a bookable resource with the fields the listings filter on.
type listedResource struct {
	Resource
	allDay   bool // its rule allows all-day bookings
	features []uuid.UUID
}

// hasFeatures reports whether the resource has every feature in ids.
func (r *listedResource) hasFeatures(ids []uuid.UUID) bool {
	for _, id := range ids {
		if !slices.Contains(r.features, id) {
			return false
		}
	}
	return true
}

package booking

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/workspacebooking/booking/queries"
)

// MaxFreeIntervals is the largest number of intervals one FreeQuery may hold.
const MaxFreeIntervals = 62

// FreeQuery asks which resources of a building and subcategory are free in every one of its intervals.
type FreeQuery struct {
	BuildingID    uuid.UUID
	SubcategoryID uuid.UUID
	Category      Category
	Intervals     []Interval  // the resource must be free in every one of them
	FeatureIDs    []uuid.UUID // the resource must have all of them
	MinCapacity   *int32      // if set, only spaces with at least this capacity
	AllDay        bool        // if set, only resources whose rule allows all-day bookings
}

// FreeResources lists the activated, visible resources that match q and have no blocking booking and no
// closure in any of q's intervals, ordered by floor number and name. In the results, Floor holds only its id, and
// Subcategory only its id and category.
// Codes: 2000 no interval, too many, or one that ends before it starts; 1004 no such building in the
// actor's organization; 1005 no such subcategory there, or one of the other category.
func (s *Service) FreeResources(ctx context.Context, actor User, q FreeQuery) ([]Resource, error) {
	if len(q.Intervals) == 0 {
		return nil, FieldRefuse(CodeInvalidRequest, "bookingDays", "refusal.booking.intervalRequired")
	}
	if len(q.Intervals) > MaxFreeIntervals {
		return nil, FieldRefuse(CodeInvalidRequest, "bookingDays", "refusal.booking.tooManyIntervals", map[string]any{"Max": MaxFreeIntervals})
	}
	ranges := make(pgtype.Multirange[pgtype.Range[pgtype.Timestamptz]], len(q.Intervals))
	for i, iv := range q.Intervals {
		if !iv.End.After(iv.Start) {
			return nil, FieldRefuse(CodeInvalidRequest, fmt.Sprintf("bookingDays[%d].endDate", i), "refusal.booking.endAfterStartDate")
		}
		if iv.Start.Before(MinTime) || iv.End.After(MaxTime) {
			return nil, FieldRefuse(CodeInvalidRequest, fmt.Sprintf("bookingDays[%d]", i), "refusal.booking.years")
		}
		ranges[i] = pgtype.Range[pgtype.Timestamptz]{
			Lower: pgtype.Timestamptz{Time: iv.Start, Valid: true}, LowerType: pgtype.Inclusive,
			Upper: pgtype.Timestamptz{Time: iv.End, Valid: true}, UpperType: pgtype.Exclusive,
			Valid: true,
		}
	}
	org := actor.OrganizationID
	lay, err := s.layout(ctx, org, q.BuildingID)
	if err != nil {
		return nil, err
	}
	if c, ok := lay.subcategories[q.SubcategoryID]; !ok || c != q.Category {
		return nil, Refuse(CodeSubcategoryNotFound, "refusal.booking.noCategorySubcategory", map[string]any{"Category": string(q.Category), "ID": q.SubcategoryID.String()})
	}
	features := distinct(q.FeatureIDs)
	var candidates []*listedResource
	var floors []uuid.UUID
	for i := range lay.resources {
		r := &lay.resources[i]
		switch {
		case r.Subcategory.ID != q.SubcategoryID,
			q.MinCapacity != nil && (r.Capacity == nil || *r.Capacity < *q.MinCapacity),
			q.AllDay && !r.allDay,
			!r.hasFeatures(features):
			continue
		}
		candidates = append(candidates, r)
		if !slices.Contains(floors, r.Floor.ID) {
			floors = append(floors, r.Floor.ID)
		}
	}
	out := make([]Resource, 0, len(candidates))
	if len(candidates) == 0 {
		return out, nil
	}
	// Query busy resources by floor, so the results may include resources that are not candidates.
	params := make([]queries.ResourcesBusyDuringParams, len(floors))
	for i, f := range floors {
		params[i] = queries.ResourcesBusyDuringParams{OrganizationID: org, FloorID: f, Intervals: ranges}
	}
	taken := make(map[uuid.UUID]bool)
	s.reads.ResourcesBusyDuring(ctx, params).Query(func(_ int, busy []uuid.UUID, e error) {
		if err = cmp.Or(err, e); err != nil {
			return
		}
		for _, id := range busy {
			taken[id] = true
		}
	})
	if err != nil {
		return nil, fmt.Errorf("list busy resources: %w", err)
	}
	l, err := s.organizationLayout(ctx, org)
	if err != nil {
		return nil, err
	}
	for _, r := range candidates {
		if !taken[r.ID] && !closedInAny(l.closures, r.Resource, q.BuildingID, q.Intervals) {
			out = append(out, r.Resource)
		}
	}
	return out, nil
}

// closedInAny reports whether a closure of res, its floor or building covers part of any interval.
func closedInAny(cs closures, res Resource, building uuid.UUID, ivs []Interval) bool {
	if len(cs) == 0 {
		return false
	}
	res.Floor.Building.ID = building // listed resources carry only their floor's id
	for _, iv := range ivs {
		if len(cs.during(&res, iv)) > 0 {
			return true
		}
	}
	return false
}

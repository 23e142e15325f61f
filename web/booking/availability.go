package booking

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// MaxAvailabilityRange is the longest range one availability query may cover.
const MaxAvailabilityRange = 31 * 24 * time.Hour

// AvailabilityQuery asks when the bookable resources of a building are busy during [From, To). The other
// fields, when set, narrow the resources.
type AvailabilityQuery struct {
	BuildingID    uuid.UUID
	From, To      time.Time
	FloorID       *uuid.UUID
	SubcategoryID *uuid.UUID
	Category      *Category
	FeatureIDs    []uuid.UUID // having all of them
	MinCapacity   *int32
}

// ResourceAvailability is a resource with the parts of the queried range that blocking bookings and
// closures take, earliest first, each clipped to the range. Free is true if there are none. Closures
// lists the closures of the resource, its floor or its building that overlap the range.
type ResourceAvailability struct {
	Resource *Resource // shared with other readers: never to be changed
	Busy     []Interval
	Free     bool
	Closures []Closure
}

// Availability returns every bookable resource of the building that matches q, ordered by floor number
// and name, with its busy intervals inside [q.From, q.To). This is everything a floor plan needs in one
// call. Each resource's Floor holds only its id, and its Subcategory only its id and category.
// Codes: 2000 To not after From, a range longer than MaxAvailabilityRange or outside the years 1970–9999,
// or an unknown category; 1004 no such building, or a hidden one; 1006 no such floor in the building, or
// a hidden one; 1005 no such subcategory.
func (s *Service) Availability(ctx context.Context, actor User, q AvailabilityQuery) ([]ResourceAvailability, error) {
	if err := checkTimes(Interval{Start: q.From, End: q.To}, "from", "to"); err != nil {
		return nil, err
	}
	if q.To.Sub(q.From) > MaxAvailabilityRange {
		return nil, FieldRefuse(CodeInvalidRequest, "to", "refusal.booking.rangeTooLong", map[string]any{"Range": humanOf(MaxAvailabilityRange)})
	}
	org := actor.OrganizationID
	lay, category, err := s.availabilityLayout(ctx, org, q)
	if err != nil {
		return nil, err
	}
	features := distinct(q.FeatureIDs)
	var out []ResourceAvailability
	index := make(map[uuid.UUID]int)
	var floors []uuid.UUID
	for i := range lay.resources {
		r := &lay.resources[i]
		switch {
		case q.FloorID != nil && r.Floor.ID != *q.FloorID,
			q.SubcategoryID != nil && r.Subcategory.ID != *q.SubcategoryID,
			category != nil && string(r.Subcategory.Category) != *category,
			q.MinCapacity != nil && (r.Capacity == nil && *q.MinCapacity > 0 || r.Capacity != nil && *r.Capacity < *q.MinCapacity),
			!r.hasFeatures(features):
			continue
		}
		index[r.ID] = len(out)
		out = append(out, ResourceAvailability{Resource: &r.Resource, Busy: []Interval{}, Free: true})
		if !slices.Contains(floors, r.Floor.ID) {
			floors = append(floors, r.Floor.ID)
		}
	}
	if len(out) == 0 {
		return []ResourceAvailability{}, nil
	}
	if err := s.addClosures(ctx, org, q, out); err != nil {
		return nil, err
	}
	// Read the bookings by floor, which is one short index range per floor (sql/0005). This also returns
	// bookings of resources that q filtered out; the loop below skips them.
	params := make([]queries.BookingsBusyParams, len(floors))
	for i, f := range floors {
		params[i] = queries.BookingsBusyParams{OrganizationID: org, FloorID: f, FromDate: q.From, ToDate: q.To}
	}
	s.reads.BookingsBusy(ctx, params).Query(func(_ int, busy []queries.BookingsBusyRow, e error) {
		if err = cmp.Or(err, e); err != nil {
			return
		}
		for _, b := range busy {
			i, ok := index[b.ResourceID]
			if !ok {
				continue
			}
			a := &out[i]
			iv := Interval{Start: latest(b.StartDate, q.From), End: earliest(b.EndDate, q.To)}
			a.Busy, a.Free = append(a.Busy, iv), false
		}
	})
	if err != nil {
		return nil, fmt.Errorf("list busy intervals: %w", err)
	}
	for i := range out {
		if len(out[i].Closures) > 0 {
			slices.SortFunc(out[i].Busy, func(a, b Interval) int { return a.Start.Compare(b.Start) })
		}
	}
	return out, nil
}

// availabilityLayout returns the layout of q's building and q's category, refusing a hidden or unknown
// building, floor or subcategory, and an unknown category.
func (s *Service) availabilityLayout(ctx context.Context, org uuid.UUID, q AvailabilityQuery) (*buildingLayout, *string, error) {
	category, err := optionalCategory(q.Category)
	if err != nil {
		return nil, nil, err
	}
	lay, err := s.layout(ctx, org, q.BuildingID)
	if err == nil && !lay.building.Visible {
		err = Refuse(CodeBuildingNotFound, "refusal.booking.noBuilding", map[string]any{"ID": q.BuildingID.String()})
	}
	if err != nil {
		return nil, nil, err
	}
	if q.FloorID != nil && !lay.floors[*q.FloorID] {
		return nil, nil, Refuse(CodeFloorNotFound, "refusal.booking.noFloorInBuilding", map[string]any{"ID": q.FloorID.String()})
	}
	if q.SubcategoryID != nil {
		if _, ok := lay.subcategories[*q.SubcategoryID]; !ok {
			return nil, nil, Refuse(CodeSubcategoryNotFound, "refusal.booking.noSubcategory", map[string]any{"ID": q.SubcategoryID.String()})
		}
	}
	return lay, category, nil
}

// addClosures adds to each resource of out the closures that overlap q's range, and the time they take
// to its busy intervals.
func (s *Service) addClosures(ctx context.Context, org uuid.UUID, q AvailabilityQuery, out []ResourceAvailability) error {
	l, err := s.organizationLayout(ctx, org)
	if err != nil || len(l.closures) == 0 {
		return err
	}
	rng := Interval{Start: q.From, End: q.To}
	for i := range out {
		a := &out[i]
		res := *a.Resource
		res.Floor.Building.ID = q.BuildingID // listed resources carry only their floor's id
		a.Closures = l.closures.during(&res, rng)
		for _, c := range a.Closures {
			a.Busy = append(a.Busy, Interval{Start: latest(c.Start, q.From), End: earliest(c.End, q.To)})
			a.Free = false
		}
	}
	return nil
}

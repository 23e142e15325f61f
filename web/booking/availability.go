package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// MaxAvailabilityRange bounds the range of one availability query.
const MaxAvailabilityRange = 31 * 24 * time.Hour

// AvailabilityQuery asks how busy the bookable resources of a building are during [From, To). The other
// fields narrow the resources when set.
type AvailabilityQuery struct {
	BuildingID    uuid.UUID
	From, To      time.Time
	FloorID       *uuid.UUID
	SubcategoryID *uuid.UUID
	Category      *Category
	FeatureIDs    []uuid.UUID // having all of them
	MinCapacity   *int32
}

// ResourceAvailability is a resource with the intervals of the asked range that blocking bookings take,
// earliest first (each booking's interval cut to the range). Free tells that there are none.
type ResourceAvailability struct {
	Resource Resource
	Busy     []Interval
	Free     bool
}

// Availability returns every bookable resource of the building that matches q, by floor number and name,
// with its busy intervals inside [q.From, q.To): what a floor plan needs in one call. Floor and
// Subcategory of each resource carry their ids; Subcategory its category too.
// Codes: 2000 To not after From, a range longer than MaxAvailabilityRange or outside the years 1970–9999,
// or an unknown category; 1004 no such building, or a hidden one; 1006 no such floor in the building, or
// a hidden one; 1005 no such subcategory.
func (s *Service) Availability(ctx context.Context, actor User, q AvailabilityQuery) ([]ResourceAvailability, error) {
	if err := checkTimes(Interval{Start: q.From, End: q.To}, "from", "to"); err != nil {
		return nil, err
	}
	if q.To.Sub(q.From) > MaxAvailabilityRange {
		return nil, Errorf(CodeInvalidRequest, "to: at most %s after from", human(MaxAvailabilityRange))
	}
	category, err := optionalCategory(q.Category)
	if err != nil {
		return nil, err
	}
	org := actor.OrganizationID
	if _, err := s.visibleBuilding(ctx, org, q.BuildingID); err != nil {
		return nil, err
	}
	if q.FloorID != nil {
		f, err := s.q.FloorGet(ctx, queries.FloorGetParams{OrganizationID: org, ID: *q.FloorID})
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && (f.BuildingID != q.BuildingID || !f.Visible)) {
			return nil, Errorf(CodeFloorNotFound, "no floor %s in that building", *q.FloorID)
		} else if err != nil {
			return nil, fmt.Errorf("get floor: %w", err)
		}
	}
	if q.SubcategoryID != nil {
		if _, err := s.q.SubcategoryGet(ctx, queries.SubcategoryGetParams{OrganizationID: org, ID: *q.SubcategoryID}); errors.Is(err, pgx.ErrNoRows) {
			return nil, Errorf(CodeSubcategoryNotFound, "no subcategory %s in your organization", *q.SubcategoryID)
		} else if err != nil {
			return nil, fmt.Errorf("get subcategory: %w", err)
		}
	}
	rows, err := s.q.ResourcesOfBuilding(ctx, queries.ResourcesOfBuildingParams{
		OrganizationID: org, BuildingID: q.BuildingID, FloorID: q.FloorID, SubcategoryID: q.SubcategoryID,
		Category: category, MinCapacity: q.MinCapacity, FeatureIds: distinct(q.FeatureIDs),
	})
	if err != nil {
		return nil, fmt.Errorf("list resources: %w", err)
	}
	out := make([]ResourceAvailability, len(rows))
	index := make(map[uuid.UUID]int, len(rows))
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		res := resourceFromRow(r.Resource)
		res.Subcategory.Category = Category(r.Category)
		out[i] = ResourceAvailability{Resource: res, Busy: []Interval{}, Free: true}
		index[res.ID], ids[i] = i, res.ID
	}
	busy, err := s.q.BookingsBusy(ctx, queries.BookingsBusyParams{OrganizationID: org, ResourceIds: ids, FromDate: q.From, ToDate: q.To})
	if err != nil {
		return nil, fmt.Errorf("list busy intervals: %w", err)
	}
	for _, b := range busy {
		a := &out[index[b.ResourceID]]
		iv := Interval{Start: latest(b.StartDate, q.From), End: earliest(b.EndDate, q.To)}
		a.Busy, a.Free = append(a.Busy, iv), false
	}
	return out, nil
}

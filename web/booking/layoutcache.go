package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/singleflight"

	"github.com/workspacebooking/booking/queries"
)

// LayoutTTL is how long the listings and the status of a poster keep the layout in memory. A layout
// (buildings, floors, subcategories, resources, rules, features) changes only when one is imported, yet
// every availability and free listing and every poster scan reads it: an import through this service
// forgets what it holds at once, and an entry is read again after LayoutTTL, so an import by another
// process shows within that time. Writes always read the database.
const LayoutTTL = 10 * time.Second

// buildingLayout is what the listings need of a building and its organization.
type buildingLayout struct {
	building      queries.Building
	floors        map[uuid.UUID]bool // the visible floors of the building
	subcategories map[uuid.UUID]Category
	resources     []listedResource // the bookable ones, by floor number, name and id
}

// listedResource is a bookable resource as the listings filter it.
type listedResource struct {
	Resource
	allDay   bool // its rule allows all-day bookings
	features []uuid.UUID
}

// hasFeatures reports whether the resource has every one of the features.
func (r *listedResource) hasFeatures(ids []uuid.UUID) bool {
	for _, id := range ids {
		if !slices.Contains(r.features, id) {
			return false
		}
	}
	return true
}

type layoutKey struct{ org, building uuid.UUID }

// layouts holds the buildings' layouts, and each organization's resources by poster code (for the status
// of a poster); concurrent readers of a missing entry wait for one read.
type layouts struct {
	cache   *expirable.LRU[layoutKey, *buildingLayout]
	posters *expirable.LRU[uuid.UUID, map[string]*Resource]
	reads   singleflight.Group
}

func newLayouts() *layouts {
	return &layouts{
		cache:   expirable.NewLRU[layoutKey, *buildingLayout](1024, nil, LayoutTTL),
		posters: expirable.NewLRU[uuid.UUID, map[string]*Resource](256, nil, LayoutTTL),
	}
}

// forget drops every layout held, after an import.
func (l *layouts) forget() {
	l.cache.Purge()
	l.posters.Purge()
}

// posterResource returns the organization's resource with the poster code (bookable or not) with its
// floor, building, subcategory and rule, from memory when it can; nil when there is none.
func (s *Service) posterResource(ctx context.Context, org uuid.UUID, code string) (*Resource, error) {
	byCode, err := remembered(&s.layouts.reads, s.layouts.posters, org, func() (map[string]*Resource, error) {
		rows, err := s.q.ResourcesOfOrganization(ctx, org)
		if err != nil {
			return nil, fmt.Errorf("list resources: %w", err)
		}
		m := make(map[string]*Resource, len(rows))
		for _, r := range rows {
			res := fullResource(r.Resource, r.Floor, r.Building, r.Subcategory, r.ResourceRule)
			m[res.PosterCode] = &res
		}
		return m, nil
	})
	return byCode[code], err
}

// layout returns the layout of a building of the organization, from memory when it can.
// Codes: 1004 no such building in the organization (visible or not).
func (s *Service) layout(ctx context.Context, org, building uuid.UUID) (*buildingLayout, error) {
	return remembered(&s.layouts.reads, s.layouts.cache, layoutKey{org, building}, func() (*buildingLayout, error) {
		return s.readLayout(ctx, org, building)
	})
}

// remembered returns the entry of key, reading it with read when it is not held: once, however many ask
// for it at the same time.
func remembered[K comparable, V any](reads *singleflight.Group, held *expirable.LRU[K, V], key K, read func() (V, error)) (V, error) {
	if v, ok := held.Get(key); ok {
		return v, nil
	}
	v, err, _ := reads.Do(fmt.Sprint(key), func() (any, error) {
		v, err := read()
		if err == nil {
			held.Add(key, v)
		}
		return v, err
	})
	if err != nil {
		var zero V
		return zero, err
	}
	return v.(V), nil
}

// readLayout reads a building's layout from the database.
func (s *Service) readLayout(ctx context.Context, org, building uuid.UUID) (*buildingLayout, error) {
	b, err := s.q.BuildingGet(ctx, queries.BuildingGetParams{OrganizationID: org, ID: building})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, Errorf(CodeBuildingNotFound, "no building %s in your organization", building)
	}
	if err != nil {
		return nil, fmt.Errorf("get building: %w", err)
	}
	floors, err := s.q.FloorsOfBuilding(ctx, queries.FloorsOfBuildingParams{OrganizationID: org, BuildingID: building})
	if err != nil {
		return nil, fmt.Errorf("list floors: %w", err)
	}
	subs, err := s.q.SubcategoriesList(ctx, queries.SubcategoriesListParams{OrganizationID: org})
	if err != nil {
		return nil, fmt.Errorf("list subcategories: %w", err)
	}
	rows, err := s.q.ResourcesBookableInBuilding(ctx, queries.ResourcesBookableInBuildingParams{OrganizationID: org, BuildingID: building})
	if err != nil {
		return nil, fmt.Errorf("list resources: %w", err)
	}
	l := &buildingLayout{
		building: b, floors: make(map[uuid.UUID]bool, len(floors)),
		subcategories: make(map[uuid.UUID]Category, len(subs)), resources: make([]listedResource, len(rows)),
	}
	for _, f := range floors {
		l.floors[f.ID] = true
	}
	for _, sc := range subs {
		l.subcategories[sc.ID] = Category(sc.Category)
	}
	for i, r := range rows {
		res := resourceFromRow(r.Resource)
		res.Subcategory.Category = Category(r.Category)
		l.resources[i] = listedResource{Resource: res, allDay: r.AllDayBookings, features: r.FeatureIds}
	}
	return l, nil
}

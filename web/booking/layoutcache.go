package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/jackc/pgx/v5"
	"golang.org/x/sync/singleflight"

	"github.com/workspacebooking/booking/queries"
)

// LayoutTTL is how long the service keeps a layout (buildings, floors, subcategories, resources, rules,
// features) in memory. Layouts change only on import, yet every listing, poster scan and booking reads
// them. An import through this service drops them at once; a change made by another instance shows
// within LayoutTTL. Bookings do not wait that long: a booking's insert succeeds only while the layout it
// was checked against is still current (organizations.layout_version), and is checked again otherwise.
const LayoutTTL = 10 * time.Second

// buildingLayout is what the listings need of a building and its organization.
type buildingLayout struct {
	building      queries.Building
	floors        map[uuid.UUID]bool // the visible floors of the building
	subcategories map[uuid.UUID]Category
	resources     []listedResource // the bookable ones, by floor number, name and id
}

type layoutKey struct{ org, building uuid.UUID }

// orgLayout holds every resource of an organization, bookable or not, with its floor, building,
// subcategory, rule and features, as of one version of the organization's layout. The resources are
// shared between requests: read them, never change them.
type orgLayout struct {
	version  int64
	byID     map[uuid.UUID]*Resource
	byPoster map[string]*Resource
}

// layouts caches the buildings' layouts and the organizations' resources. When several requests miss the
// same entry at once, one reads it and the others wait for that read.
type layouts struct {
	cache *expirable.LRU[layoutKey, *buildingLayout]
	orgs  *expirable.LRU[uuid.UUID, *orgLayout]
	reads singleflight.Group
}

func newLayouts() *layouts {
	return &layouts{
		cache: expirable.NewLRU[layoutKey, *buildingLayout](1024, nil, LayoutTTL),
		orgs:  expirable.NewLRU[uuid.UUID, *orgLayout](256, nil, LayoutTTL),
	}
}

// ChangeLayout runs write in one transaction, for a change to organizations' layouts (an import), and
// then drops every layout the service holds, so that its next reads see the change.
func (s *Service) ChangeLayout(ctx context.Context, write func(q *queries.Queries) error) error {
	if err := s.inTx(ctx, write); err != nil {
		return err
	}
	s.layouts.cache.Purge()
	s.layouts.orgs.Purge()
	return nil
}

// organizationLayout returns the organization's resources, from memory when it can.
func (s *Service) organizationLayout(ctx context.Context, org uuid.UUID) (*orgLayout, error) {
	return remembered(&s.layouts.reads, s.layouts.orgs, org, func() (*orgLayout, error) {
		return s.readOrganizationLayout(ctx, org)
	})
}

// readOrganizationLayout reads the organization's resources and its layout version from the database, in
// one snapshot, so that the version describes the resources read.
func (s *Service) readOrganizationLayout(ctx context.Context, org uuid.UUID) (*orgLayout, error) {
	var l *orgLayout
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		version, err := q.OrganizationLayoutVersion(ctx, org)
		if errors.Is(err, pgx.ErrNoRows) {
			l = &orgLayout{}
			return nil
		}
		if err != nil {
			return fmt.Errorf("get layout version: %w", err)
		}
		rows, err := q.ResourcesOfOrganization(ctx, org)
		if err != nil {
			return fmt.Errorf("list resources: %w", err)
		}
		l = &orgLayout{version: version, byID: make(map[uuid.UUID]*Resource, len(rows)), byPoster: make(map[string]*Resource, len(rows))}
		for _, r := range rows {
			res := fullResource(r.Resource, r.Floor, r.Building, r.Subcategory, r.ResourceRule)
			res.Features = features(org, r.FeatureIds, r.FeatureNames, r.FeatureEmails)
			l.byID[res.ID], l.byPoster[posterKey(res.PosterCode)] = &res, &res
		}
		return nil
	})
	return l, err
}

// layout returns the layout of a building of the organization, from memory when it can.
// Codes: 1004 no such building in the organization (visible or not).
func (s *Service) layout(ctx context.Context, org, building uuid.UUID) (*buildingLayout, error) {
	return remembered(&s.layouts.reads, s.layouts.cache, layoutKey{org, building}, func() (*buildingLayout, error) {
		return s.readLayout(ctx, org, building)
	})
}

// remembered returns the cached entry for key. On a miss it calls read once, however many callers ask
// at the same time, and caches the result unless read failed.
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

// withCurrentLayout runs op against the organization's layout as held in memory. When op's answer may
// come from a layout that is no longer current, it runs op again against the layout read anew, three runs
// at most. That is when op returned errLayoutChanged (it wrote nothing), or a refusal the layout decided
// (refusedByLayout) while the organization's layout version has moved on.
// Codes: 5030 the layout kept changing.
func (s *Service) withCurrentLayout(ctx context.Context, org uuid.UUID, op func(*orgLayout) ([]Booking, error)) ([]Booking, error) {
	layout, err := s.organizationLayout(ctx, org)
	if err != nil {
		return nil, err
	}
	for run := 1; ; run++ {
		out, err := op(layout)
		if err == nil {
			return out, nil
		}
		if !errors.Is(err, errLayoutChanged) {
			if !refusedByLayout(err) {
				return nil, err
			}
			current, err2 := s.q.OrganizationLayoutVersion(ctx, org)
			if err2 != nil {
				return nil, fmt.Errorf("get layout version: %w", err2)
			}
			if current == layout.version {
				return nil, err
			}
		}
		if run == 3 {
			return nil, Errorf(CodeUnavailable, "the organization's layout is being changed; please try again shortly")
		}
		// Read from the database, not through organizationLayout: the entry held, or a read of it still
		// under way, is the old layout. Then hold the new one for the requests that follow.
		if layout, err = s.readOrganizationLayout(ctx, org); err != nil {
			return nil, err
		}
		s.layouts.orgs.Add(org, layout)
	}
}

// errLayoutChanged tells that the organization's layout changed after the bookings were checked against
// it: nothing was written, and they are to be checked again.
var errLayoutChanged = errors.New("the organization's layout changed")

// refusedByLayout reports whether err is a refusal that the layout decided, which a newer layout may
// decide otherwise. A booking that overlaps another, or a second workstation of one person, is decided by
// the database instead.
func refusedByLayout(err error) bool {
	code := ErrorCode(err)
	return code != 0 && code != CodeResourceNotAvailable && code != CodeUserAlreadyHasWorkstation
}

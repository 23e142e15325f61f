package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"golang.org/x/sync/singleflight"

	"github.com/workspacebooking/booking/queries"
)

// LayoutTTL is how long the service caches a layout (buildings, floors, subcategories, resources, rules,
// features). Layouts change only on import, but every listing, poster scan and booking reads them. An
// import through this service clears the cache at once; an import through another instance shows within
// LayoutTTL. Bookings never rely on a stale layout: a booking is inserted only if the layout version it
// was checked against (organizations.layout_version) is still current, and is checked again otherwise.
const LayoutTTL = 10 * time.Second

// buildingLayout holds what the resource listings need to know about one building and its organization.
type buildingLayout struct {
	building      queries.Building
	floors        map[uuid.UUID]bool // the visible floors of the building
	subcategories map[uuid.UUID]Category
	resources     []listedResource // bookable resources, ordered by floor number, name and id
}

type layoutKey struct{ org, building uuid.UUID }

// orgLayout holds every resource of an organization, bookable or not, with its floor, building,
// subcategory, rule and features, as of one layout version. The resources are shared between requests,
// so they must never be modified.
type orgLayout struct {
	version  int64
	byID     map[uuid.UUID]*Resource
	byPoster map[string]*Resource
	closures closures           // those not ended closureHorizon before the layout was read
	teamOnly map[uuid.UUID]bool // the resources in a neighbourhood for its team only
}

// layouts caches building layouts and organization layouts. When several requests miss the same entry at
// once, only one of them reads it from the database and the others wait for its result.
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

// changeLayout runs write in one transaction to change an organization's layout, then clears the cached
// layouts (LayoutChanged).
func (s *Service) changeLayout(ctx context.Context, write func(q *queries.Queries) error) error {
	if err := s.inTx(ctx, write); err != nil {
		return err
	}
	s.LayoutChanged()
	return nil
}

// LayoutChanged clears every cached layout, so that the next reads see a change of layouts that another
// package (web/layout) has just committed. Such a change may deactivate people, so the bearer tokens this
// instance has verified are checked again too (DeactivationCount). Call it after the commit.
func (s *Service) LayoutChanged() {
	s.layouts.cache.Purge()
	s.layouts.orgs.Purge()
	s.deactivations.Add(1)
}

// Pool returns the pool the service reads and writes through, so that a package that owns its
// transactions (web/layout) opens them on the same database. It is nil for a nil Service.
func (s *Service) Pool() *pgxpool.Pool {
	if s == nil {
		return nil
	}
	return s.pool
}

// readSnapshot runs read in one read-only transaction that sees a single snapshot, so that everything
// it reads belongs together.
func (s *Service) readSnapshot(ctx context.Context, read func(q *queries.Queries) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		return read(s.q.WithTx(tx))
	})
}

// organizationLayout returns the organization's layout, from the cache when it holds one.
func (s *Service) organizationLayout(ctx context.Context, org uuid.UUID) (*orgLayout, error) {
	return remembered(&s.layouts.reads, s.layouts.orgs, org, func() (*orgLayout, error) {
		return s.readOrganizationLayout(ctx, org)
	})
}

// readOrganizationLayout reads the organization's resources, closures, the resources of neighbourhoods
// for their team only and the layout version from the
// database in one snapshot, so that the version matches them. An unknown organization gets an empty layout.
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
		open, err := q.ClosuresOpen(ctx, queries.ClosuresOpenParams{OrganizationID: org, After: s.now().Add(-closureHorizon), MaxRows: MaxOpenClosures})
		if err != nil {
			return fmt.Errorf("list closures: %w", err)
		}
		teamOnly, err := teamOnlyResources(ctx, q, org)
		if err != nil {
			return err
		}
		l = &orgLayout{
			version: version, byID: make(map[uuid.UUID]*Resource, len(rows)), byPoster: make(map[string]*Resource, len(rows)),
			closures: newClosures(open), teamOnly: teamOnly,
		}
		for _, r := range rows {
			res := fullResource(r.Resource, r.Floor, r.Building, r.Subcategory, r.ResourceRule)
			res.Features = features(org, r.FeatureIds, r.FeatureNames, r.FeatureEmails)
			l.byID[res.ID], l.byPoster[posterKey(res.PosterCode)] = &res, &res
		}
		return nil
	})
	return l, err
}

// layout returns the layout of one of the organization's buildings, from the cache when it holds one.
// Codes: 1004 the organization has no such building (visible or not).
func (s *Service) layout(ctx context.Context, org, building uuid.UUID) (*buildingLayout, error) {
	return remembered(&s.layouts.reads, s.layouts.cache, layoutKey{org, building}, func() (*buildingLayout, error) {
		return s.readLayout(ctx, org, building)
	})
}

// remembered returns the cached entry for key. On a miss it calls read only once, however many callers
// ask at the same time, and caches the result unless read fails.
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
		return nil, Refuse(CodeBuildingNotFound, "refusal.catalogue.noBuilding", map[string]any{"ID": building.String()})
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

// withCurrentLayout runs op against the organization's cached layout. If op's result may come from an
// outdated layout, it reads the layout again from the database and reruns op, up to three runs in all.
// That happens when op returns errLayoutChanged (it wrote nothing), or when it returns a refusal decided
// by the layout (refusedByLayout) and the layout version has changed since.
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
			return nil, Refuse(CodeUnavailable, "refusal.layout.beingChanged")
		}
		// Read from the database, not through organizationLayout: the cached entry, or a read of it still
		// in flight, holds the old layout. Then cache the new layout for the requests that follow.
		if layout, err = s.readOrganizationLayout(ctx, org); err != nil {
			return nil, err
		}
		s.layouts.orgs.Add(org, layout)
	}
}

// errLayoutChanged means the organization's layout changed after the bookings were checked against it.
// Nothing was written, and the bookings must be checked again.
var errLayoutChanged = errors.New("the organization's layout changed")

// refusedByLayout reports whether err is a refusal decided by the layout, which a newer layout might
// decide differently. Overlapping bookings and a second workstation for one person are refused by the
// database, not by the layout, so they do not count.
func refusedByLayout(err error) bool {
	code := ErrorCode(err)
	return code != 0 && code != CodeResourceNotAvailable && code != CodeUserAlreadyHasWorkstation
}

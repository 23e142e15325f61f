package layout

import (
	"context"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/lang"
)

// Collection names a kind of object the admin API manages. It is also the name of the object's array in
// the layout document (Layout), whose format the objects use.
type Collection string

// The collections, by name.
const (
	Buildings     Collection = "buildings"
	Floors        Collection = "floors"
	Subcategories Collection = "subcategories"
	ResourceRules Collection = "resourceRules"
	Features      Collection = "features"
	Reservables   Collection = "reservables"
	Resources     Collection = "resources"
	Users         Collection = "users"
	Closures      Collection = "closures"
)

// kind is one collection of the registry: how to read its objects and how to delete one.
type kind struct {
	// noun names one object in messages.
	noun string
	// export reads the objects the scope chooses into the collection's array of a Layout.
	export exporter
	// remove deletes one object of the organization and returns how many rows it deleted.
	remove func(ctx context.Context, q *queries.Queries, k key) (int64, error)
	// inUse, if set, counts the resources that refer to the object when the database would not refuse
	// its deletion (references that cascade); 0 means nothing does.
	inUse func(ctx context.Context, q *queries.Queries, k key) (int64, error)
	// instead says what to do rather than deleting an object in use.
	instead string
}

// key is one object of an organization; it converts to every XxxDeleteParams.
type key struct {
	OrganizationID uuid.UUID
	ID             uuid.UUID
}

const (
	deactivateIt   = "set its status to DEACTIVATED instead"
	changeUsersOf  = "point what refers to it at another one first, or keep it"
	deactivateUser = "deactivate the user instead"
)

// kinds is the registry of collections. Adding a collection is one row here, an array in
// Layout that Write loads, and its exporter.
var kinds = map[Collection]kind{
	Buildings: {"building", exportBuildings, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.BuildingDelete(ctx, queries.BuildingDeleteParams(k))
	}, nil, deactivateIt},
	Floors: {"floor", exportFloors, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.FloorDelete(ctx, queries.FloorDeleteParams(k))
	}, nil, deactivateIt},
	Subcategories: {"subcategory", exportSubcategories, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.SubcategoryDelete(ctx, queries.SubcategoryDeleteParams(k))
	}, nil, changeUsersOf},
	ResourceRules: {"resource rule", exportResourceRules, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.ResourceRuleDelete(ctx, queries.ResourceRuleDeleteParams(k))
	}, nil, changeUsersOf},
	Features: {"feature", exportFeatures, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.FeatureDelete(ctx, queries.FeatureDeleteParams(k))
	}, featureInUse, changeUsersOf},
	Reservables: {"reservable", exportReservables, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.ReservableDelete(ctx, queries.ReservableDeleteParams(k))
	}, reservableInUse, changeUsersOf},
	Resources: {"resource", exportResources, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.ResourceDelete(ctx, queries.ResourceDeleteParams(k))
	}, nil, deactivateIt},
	Users: {"user", exportUsers, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.UserDelete(ctx, queries.UserDeleteParams(k))
	}, nil, deactivateUser},
	Closures: {"closure", exportClosures, func(ctx context.Context, q *queries.Queries, k key) (int64, error) {
		return q.ClosureDelete(ctx, queries.ClosureDeleteParams(k))
	}, nil, ""},
}

// Collections returns the names of every collection, in the order the layout document lists them.
func Collections() []Collection {
	var out []Collection
	for _, c := range []Collection{Users, Buildings, Floors, Subcategories, ResourceRules, Features, Reservables, Resources, Closures} {
		if _, ok := kinds[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

// featureInUse counts the resources that have the feature: deleting it would silently take it from them.
func featureInUse(ctx context.Context, q *queries.Queries, k key) (int64, error) {
	return q.ResourceFeaturesCountOfFeature(ctx, queries.ResourceFeaturesCountOfFeatureParams{OrganizationID: k.OrganizationID, FeatureID: k.ID})
}

// reservableInUse counts the resources that offer the service.
func reservableInUse(ctx context.Context, q *queries.Queries, k key) (int64, error) {
	return q.ResourceReservablesCountOfReservable(ctx, queries.ResourceReservablesCountOfReservableParams{OrganizationID: k.OrganizationID, ReservableID: k.ID})
}

// resourcesOf is a number of resources, as a phrase (lang.Phrase) for a refusal's data: "3 resources"
// ("3 recursos").
type resourcesOf int64

func (n resourcesOf) In(ctx context.Context) string {
	return lang.N(ctx, "refusal.layout.resources", int(n))
}

// nounOf is a kind's noun (kind.noun, "building"), as a phrase (lang.Phrase) for a refusal's data, in
// the reader's words ("el edificio").
type nounOf string

func (n nounOf) In(ctx context.Context) string {
	switch n {
	case "building":
		return lang.T(ctx, "refusal.layout.nounBuilding")
	case "floor":
		return lang.T(ctx, "refusal.layout.nounFloor")
	case "subcategory":
		return lang.T(ctx, "refusal.layout.nounSubcategory")
	case "resource rule":
		return lang.T(ctx, "refusal.layout.nounResourceRule")
	case "feature":
		return lang.T(ctx, "refusal.layout.nounFeature")
	case "reservable":
		return lang.T(ctx, "refusal.layout.nounReservable")
	case "resource":
		return lang.T(ctx, "refusal.layout.nounResource")
	case "user":
		return lang.T(ctx, "refusal.layout.nounUser")
	case "closure":
		return lang.T(ctx, "refusal.layout.nounClosure")
	}
	return string(n)
}

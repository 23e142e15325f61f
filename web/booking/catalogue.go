package booking

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// This file holds the lists the apps read to build their screens, all limited to the actor's
// organization.

// Buildings lists the visible buildings, ordered by name.
func (s *Service) Buildings(ctx context.Context, actor User) ([]Building, error) {
	rows, err := s.q.BuildingsVisible(ctx, actor.OrganizationID)
	if err != nil {
		return nil, fmt.Errorf("list buildings: %w", err)
	}
	out := make([]Building, len(rows))
	for i, r := range rows {
		out[i] = buildingFromRow(r)
	}
	return out, nil
}

// Floors lists the visible floors of a visible building, ordered by floor number, each with its
// building.
// Codes: 1004 no such building visible in the actor's organization.
func (s *Service) Floors(ctx context.Context, actor User, buildingID uuid.UUID) ([]Floor, error) {
	org := actor.OrganizationID
	b, err := s.visibleBuilding(ctx, org, buildingID)
	if err != nil {
		return nil, err
	}
	rows, err := s.q.FloorsOfBuilding(ctx, queries.FloorsOfBuildingParams{OrganizationID: org, BuildingID: buildingID})
	if err != nil {
		return nil, fmt.Errorf("list floors: %w", err)
	}
	out := make([]Floor, len(rows))
	for i, r := range rows {
		out[i] = floorFromRow(r, b)
	}
	return out, nil
}

// visibleBuilding returns a visible building of the organization.
// Codes: 1004 no such building, or a hidden one.
func (s *Service) visibleBuilding(ctx context.Context, org, id uuid.UUID) (queries.Building, error) {
	b, err := s.q.BuildingGet(ctx, queries.BuildingGetParams{OrganizationID: org, ID: id})
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !b.Visible) {
		return queries.Building{}, Refuse(CodeBuildingNotFound, "refusal.catalogue.noBuilding", map[string]any{"ID": id.String()})
	}
	if err != nil {
		return queries.Building{}, fmt.Errorf("get building: %w", err)
	}
	return b, nil
}

// Subcategories lists the subcategories, workstations first, then by name. If category is not nil, only
// that category's subcategories are listed.
// Codes: 2000 an unknown category.
func (s *Service) Subcategories(ctx context.Context, actor User, category *Category) ([]Subcategory, error) {
	c, err := optionalCategory(category)
	if err != nil {
		return nil, err
	}
	rows, err := s.q.SubcategoriesList(ctx, queries.SubcategoriesListParams{OrganizationID: actor.OrganizationID, Category: c})
	if err != nil {
		return nil, fmt.Errorf("list subcategories: %w", err)
	}
	out := make([]Subcategory, len(rows))
	for i, r := range rows {
		out[i] = subcategoryFromRow(r)
	}
	return out, nil
}

// Features lists the features, ordered by name.
func (s *Service) Features(ctx context.Context, actor User) ([]Feature, error) {
	rows, err := s.q.FeaturesList(ctx, actor.OrganizationID)
	if err != nil {
		return nil, fmt.Errorf("list features: %w", err)
	}
	out := make([]Feature, len(rows))
	for i, r := range rows {
		out[i] = featureFromRow(r)
	}
	return out, nil
}

// FeaturesOf lists the features that at least one resource of the category in the building has,
// ordered by name. These are the features a search for that kind of resource can ask for.
func (s *Service) FeaturesOf(ctx context.Context, actor User, buildingID uuid.UUID, category Category) ([]Feature, error) {
	rows, err := s.q.FeaturesOfCategory(ctx, queries.FeaturesOfCategoryParams{
		OrganizationID: actor.OrganizationID, Category: string(category), BuildingID: buildingID,
	})
	if err != nil {
		return nil, fmt.Errorf("list features of %s: %w", category, err)
	}
	out := make([]Feature, len(rows))
	for i, r := range rows {
		out[i] = featureFromRow(r)
	}
	return out, nil
}

// ResourceReservables lists the reservables that can be contracted on bookings of a resource, ordered by
// name. The list is empty if the organization has no additional-services module.
// Codes: 1002 no such resource, or one that is deactivated or hidden (or on such a floor or building).
func (s *Service) ResourceReservables(ctx context.Context, actor User, resourceID uuid.UUID) ([]Reservable, error) {
	if _, err := bookableResource(ctx, s.q, actor.OrganizationID, resourceID); err != nil {
		return nil, err
	}
	active, err := s.AdditionalServicesActive(ctx, actor)
	if err != nil {
		return nil, err
	}
	if !active {
		return []Reservable{}, nil
	}
	rows, err := s.q.ReservablesOfResource(ctx, queries.ReservablesOfResourceParams{OrganizationID: actor.OrganizationID, ResourceID: resourceID})
	if err != nil {
		return nil, fmt.Errorf("list reservables: %w", err)
	}
	out := make([]Reservable, len(rows))
	for i, r := range rows {
		out[i] = reservableFromRow(r.Reservable)
	}
	return out, nil
}

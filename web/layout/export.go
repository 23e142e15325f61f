package layout

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// Scope chooses the objects an export holds: those of Organization (of any organization when it is nil),
// and only the one with ID when ID is given.
type Scope struct {
	Organization *uuid.UUID
	ID           *uuid.UUID
}

// exporter reads one array of the layout document, the objects that s chooses, in id order.
type exporter func(ctx context.Context, q *queries.Queries, s Scope) (Layout, error)

// exportLayout returns the organization's layout, without bookings, as a document that Import loads back
// without changing anything. Every array is in id order, so two exports of one layout are equal.
func exportLayout(ctx context.Context, q *queries.Queries, org uuid.UUID) (Layout, error) {
	o, err := q.OrganizationGet(ctx, org)
	if err != nil {
		return Layout{}, fmt.Errorf("export organization %s: %w", org, err)
	}
	l := Layout{Organizations: []LayoutOrganization{{ID: o.ID.String(), Name: o.Name, AdditionalServicesActive: o.AdditionalServicesActive}}}
	s := Scope{Organization: &org}
	for _, export := range []exporter{
		exportUserRules, exportMobileRoles, exportUsers, exportBuildings, exportFloors, exportSubcategories,
		exportResourceRules, exportFeatures, exportReservables, exportResources, exportClosures,
	} {
		part, err := export(ctx, q, s)
		if err != nil {
			return Layout{}, err
		}
		merge(&l, part)
	}
	return l, nil
}

// merge appends the arrays of part to l.
func merge(l *Layout, part Layout) {
	l.UserRules = append(l.UserRules, part.UserRules...)
	l.MobileRoles = append(l.MobileRoles, part.MobileRoles...)
	l.Users = append(l.Users, part.Users...)
	l.Buildings = append(l.Buildings, part.Buildings...)
	l.Floors = append(l.Floors, part.Floors...)
	l.Subcategories = append(l.Subcategories, part.Subcategories...)
	l.ResourceRules = append(l.ResourceRules, part.ResourceRules...)
	l.Features = append(l.Features, part.Features...)
	l.Reservables = append(l.Reservables, part.Reservables...)
	l.Resources = append(l.Resources, part.Resources...)
	l.Closures = append(l.Closures, part.Closures...)
}

func ptr[T any](v T) *T { return &v }

func optional(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func ref(id *uuid.UUID) *LayoutRef {
	if id == nil {
		return nil
	}
	return &LayoutRef{ID: id.String()}
}

// exportUserRules reads user rules.
func exportUserRules(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.UserRulesExport(ctx, queries.UserRulesExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export user rules: %w", err)
	}
	var l Layout
	for _, r := range rows {
		l.UserRules = append(l.UserRules, LayoutNamed{ID: r.ID.String(), OrganizationID: r.OrganizationID.String(), Name: r.Name})
	}
	return l, nil
}

// exportMobileRoles reads mobile roles.
func exportMobileRoles(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.MobileRolesExport(ctx, queries.MobileRolesExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export mobile roles: %w", err)
	}
	var l Layout
	for _, r := range rows {
		l.MobileRoles = append(l.MobileRoles, LayoutNamed{ID: r.ID.String(), OrganizationID: r.OrganizationID.String(), Name: r.Name})
	}
	return l, nil
}

// exportUsers reads users, every field written out.
func exportUsers(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.UsersExport(ctx, queries.UsersExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export users: %w", err)
	}
	var l Layout
	for _, u := range rows {
		l.Users = append(l.Users, LayoutUser{
			ID: u.ID.String(), OrganizationID: u.OrganizationID.String(), Name: u.Name, Surname: u.Surname,
			Alias: u.Alias, Email: u.Email, Image: u.Image, UserRule: ref(u.UserRuleID), MobileRole: ref(u.MobileRoleID),
			CanBeSearched: ptr(u.CanBeSearched), Type: u.Type, UserLanguage: u.UserLanguage, Role: u.Role,
			OIDCSubject: u.OidcSubject, Active: ptr(u.Active),
		})
	}
	return l, nil
}

// exportBuildings reads buildings.
func exportBuildings(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.BuildingsExport(ctx, queries.BuildingsExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export buildings: %w", err)
	}
	var l Layout
	for _, b := range rows {
		lb := LayoutBuilding{
			ID: b.ID.String(), OrganizationID: b.OrganizationID.String(), Name: b.Name,
			Address: LayoutAddress{Country: b.Country, City: b.City, Address: b.Address}, Timezone: b.Timezone,
			Status: b.Status, Visible: ptr(b.Visible),
		}
		if b.Latitude != nil && b.Longitude != nil {
			lb.Address.Coordinates = &LayoutCoordinates{Latitude: *b.Latitude, Longitude: *b.Longitude}
		}
		l.Buildings = append(l.Buildings, lb)
	}
	return l, nil
}

// exportFloors reads floors.
func exportFloors(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.FloorsExport(ctx, queries.FloorsExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export floors: %w", err)
	}
	var l Layout
	for _, f := range rows {
		l.Floors = append(l.Floors, LayoutFloor{
			ID: f.ID.String(), OrganizationID: f.OrganizationID.String(), BuildingID: f.BuildingID.String(),
			Name: f.Name, FloorNumber: f.FloorNumber, Image: f.Image, Status: f.Status, Type: f.Type,
			Visible: ptr(f.Visible),
		})
	}
	return l, nil
}

// exportSubcategories reads subcategories.
func exportSubcategories(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.SubcategoriesExport(ctx, queries.SubcategoriesExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export subcategories: %w", err)
	}
	var l Layout
	for _, c := range rows {
		l.Subcategories = append(l.Subcategories, LayoutSubcategory{
			ID: c.ID.String(), OrganizationID: c.OrganizationID.String(), Name: c.Name, Category: c.Category,
			DeleteHistorial: c.DeleteHistorial, HideBookings: c.HideBookings, CanBeSearched: ptr(c.CanBeSearched),
			Shifts: c.Shifts,
		})
	}
	return l, nil
}

// exportResourceRules reads resource rules.
func exportResourceRules(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.ResourceRulesExport(ctx, queries.ResourceRulesExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export resource rules: %w", err)
	}
	var l Layout
	for _, r := range rows {
		l.ResourceRules = append(l.ResourceRules, LayoutResourceRule{
			ID: r.ID.String(), OrganizationID: r.OrganizationID.String(), Name: r.Name,
			AdvanceCheckIn: r.AdvanceCheckIn, ExpirationMargin: r.ExpirationMargin, StartTime: r.StartTime,
			EndTime: r.EndTime, MaximumDuration: r.MaximumDuration, MaximumAdvance: r.MaximumAdvance,
			AccessControlType: r.AccessControlType, RequiresApproval: r.RequiresApproval,
			AllDayBookings: r.AllDayBookings, AllDayBookingsCheckInMS: r.AllDayBookingsCheckInMs,
		})
	}
	return l, nil
}

// exportFeatures reads features.
func exportFeatures(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.FeaturesExport(ctx, queries.FeaturesExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export features: %w", err)
	}
	var l Layout
	for _, f := range rows {
		l.Features = append(l.Features, LayoutFeature{ID: f.ID.String(), OrganizationID: f.OrganizationID.String(), Name: f.Name, Email: f.Email})
	}
	return l, nil
}

// exportReservables reads reservables (services).
func exportReservables(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.ReservablesExport(ctx, queries.ReservablesExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export reservables: %w", err)
	}
	var l Layout
	for _, r := range rows {
		l.Reservables = append(l.Reservables, LayoutReservable{
			ID: r.ID.String(), OrganizationID: r.OrganizationID.String(), Name: r.Name, Type: r.Type,
			Description: r.Description, ChooseQuantity: r.ChooseQuantity, ChooseDeliveryTime: r.ChooseDeliveryTime,
			AllowComments: r.AllowComments, MinimumCancellationMs: r.MinimumCancellationMs,
			StandardDeliveryTimeMs: r.StandardDeliveryTimeMs, Email: r.Email,
		})
	}
	return l, nil
}

// exportResources reads resources with their features and services.
func exportResources(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.ResourcesExport(ctx, queries.ResourcesExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export resources: %w", err)
	}
	var l Layout
	links := map[uuid.UUID]*resourceLinks{} // by organization
	for _, r := range rows {
		rl := links[r.OrganizationID]
		if rl == nil {
			if rl, err = readResourceLinks(ctx, q, r.OrganizationID, s.ID); err != nil {
				return Layout{}, err
			}
			links[r.OrganizationID] = rl
		}
		l.Resources = append(l.Resources, LayoutResource{
			ID: r.ID.String(), OrganizationID: r.OrganizationID.String(), FloorID: r.FloorID.String(),
			SubcategoryID: r.SubcategoryID.String(), ResourceRuleID: r.ResourceRuleID.String(),
			FeatureIDs: rl.features[r.ID], ReservableIDs: rl.reservables[r.ID], Name: r.Name,
			PosterCode: r.PosterCode, Image: r.Image, Phone: r.Phone,
			MapCoordinates: LayoutMapCoordinates{TopLeftX: r.TopLeftX, TopLeftY: r.TopLeftY, BottomRightX: r.BottomRightX, BottomRightY: r.BottomRightY},
			Approachable:   ptr(r.Approachable), Visible: ptr(r.Visible), Status: r.Status, Capacity: r.Capacity,
		})
	}
	return l, nil
}

// resourceLinks holds the feature and service ids of an organization's resources, by resource, in order.
type resourceLinks struct{ features, reservables map[uuid.UUID][]string }

func readResourceLinks(ctx context.Context, q *queries.Queries, org uuid.UUID, resource *uuid.UUID) (*resourceLinks, error) {
	rl := &resourceLinks{features: map[uuid.UUID][]string{}, reservables: map[uuid.UUID][]string{}}
	fs, err := q.ResourceFeaturesExport(ctx, queries.ResourceFeaturesExportParams{OrganizationID: org, ResourceID: resource})
	if err != nil {
		return nil, fmt.Errorf("export resource features: %w", err)
	}
	for _, f := range fs {
		rl.features[f.ResourceID] = append(rl.features[f.ResourceID], f.FeatureID.String())
	}
	rs, err := q.ResourceReservablesExport(ctx, queries.ResourceReservablesExportParams{OrganizationID: org, ResourceID: resource})
	if err != nil {
		return nil, fmt.Errorf("export resource reservables: %w", err)
	}
	for _, r := range rs {
		rl.reservables[r.ResourceID] = append(rl.reservables[r.ResourceID], r.ReservableID.String())
	}
	return rl, nil
}

// exportClosures reads closures, with the bookings each keeps (keptBookingIds, which an import ignores).
func exportClosures(ctx context.Context, q *queries.Queries, s Scope) (Layout, error) {
	rows, err := q.ClosuresExport(ctx, queries.ClosuresExportParams{OrganizationID: s.Organization, ID: s.ID})
	if err != nil {
		return Layout{}, fmt.Errorf("export closures: %w", err)
	}
	var l Layout
	for _, c := range rows {
		out := LayoutClosure{
			ID: c.ID.String(), OrganizationID: c.OrganizationID.String(), StartDate: c.StartDate.UnixMilli(),
			EndDate: c.EndDate.UnixMilli(), Reason: c.Reason,
		}
		for _, f := range []struct {
			id *uuid.UUID
			to *string
		}{{c.BuildingID, &out.BuildingID}, {c.FloorID, &out.FloorID}, {c.ResourceID, &out.ResourceID}} {
			if f.id != nil {
				*f.to = f.id.String()
			}
		}
		for _, k := range c.KeptBookingIds {
			out.KeptBookingIDs = append(out.KeptBookingIDs, k.String())
		}
		l.Closures = append(l.Closures, out)
	}
	return l, nil
}

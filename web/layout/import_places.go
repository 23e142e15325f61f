package layout

import (
	"cmp"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// The import of the places: buildings, floors, and the resources with their kinds, rules, features and
// services.

func (im importer) buildings(ctx context.Context, l Layout) error {
	for i, b := range l.Buildings {
		a := at{"buildings", i}
		id, org, err := a.ids(b.ID, b.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", b.Name); err != nil {
			return err
		}
		if b.Timezone == "" || b.Timezone == "Local" {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("timezone"), "refusal.layout.timezoneRequired")
		}
		if _, err := time.LoadLocation(b.Timezone); err != nil {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("timezone"), "refusal.layout.unknownTimezone", map[string]any{
				"Value": strconv.Quote(b.Timezone)})
		}
		p := queries.BuildingUpsertParams{
			OrganizationID: org, ID: id, Name: b.Name, Country: b.Address.Country, City: b.Address.City,
			Address: b.Address.Address, Timezone: b.Timezone, Status: cmp.Or(b.Status, booking.Activated),
			Visible: boolOr(b.Visible, true),
		}
		if c := b.Address.Coordinates; c != nil {
			if c.Latitude < -90 || c.Latitude > 90 || c.Longitude < -180 || c.Longitude > 180 {
				return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("address.coordinates"), "refusal.layout.coordinates")
			}
			p.Latitude, p.Longitude = &c.Latitude, &c.Longitude
		}
		if err := im.q.BuildingUpsert(ctx, p); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) floors(ctx context.Context, l Layout) error {
	for i, f := range l.Floors {
		a := at{"floors", i}
		id, org, err := a.ids(f.ID, f.OrganizationID)
		if err != nil {
			return err
		}
		building, err := a.uuid("buildingId", f.BuildingID)
		if err != nil {
			return err
		}
		if err := a.image("image", f.Image); err != nil {
			return err
		}
		if err := a.required("name", f.Name); err != nil {
			return err
		}
		if err := im.q.FloorUpsert(ctx, queries.FloorUpsertParams{
			OrganizationID: org, ID: id, BuildingID: building, Name: f.Name, FloorNumber: f.FloorNumber,
			Image: f.Image, Status: cmp.Or(f.Status, booking.Activated), Type: cmp.Or(f.Type, "OFFICE"),
			Visible: boolOr(f.Visible, true),
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) subcategories(ctx context.Context, l Layout) error {
	for i, s := range l.Subcategories {
		a := at{"subcategories", i}
		id, org, err := a.ids(s.ID, s.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", s.Name); err != nil {
			return err
		}
		cat, err := a.oneOf("category", s.Category, "", string(booking.CategoryWorkstation), string(booking.CategorySpace))
		if err != nil {
			return err
		}
		if err := im.q.SubcategoryUpsert(ctx, queries.SubcategoryUpsertParams{
			OrganizationID: org, ID: id, Name: s.Name, Category: cat, DeleteHistorial: s.DeleteHistorial,
			HideBookings: s.HideBookings, CanBeSearched: boolOr(s.CanBeSearched, true), Shifts: s.Shifts,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) resourceRules(ctx context.Context, l Layout) error {
	const day = int64(24 * time.Hour / time.Millisecond)
	for i, r := range l.ResourceRules {
		a := at{"resourceRules", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		end := r.EndTime
		if end == 0 {
			end = day
		}
		if r.StartTime < 0 || r.StartTime >= day {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("startTime"), "refusal.layout.startTimeRange", map[string]any{"Day": fmt.Sprint(day)})
		}
		if end <= r.StartTime || end > day {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("endTime"), "refusal.layout.endTimeRange", map[string]any{"Day": fmt.Sprint(day)})
		}
		for _, f := range []struct {
			name string
			v    int64
		}{
			{"advanceCheckIn", r.AdvanceCheckIn}, {"expirationMargin", r.ExpirationMargin},
			{"maximumDuration", r.MaximumDuration}, {"maximumAdvance", r.MaximumAdvance},
		} {
			if err := a.duration(f.name, f.v); err != nil {
				return err
			}
		}
		if r.AllDayBookingsCheckInMS < 0 || r.AllDayBookingsCheckInMS > day {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("allDayBookingsCheckInMS"), "refusal.layout.allDayCheckInRange", map[string]any{
				"Day": fmt.Sprint(day)})
		}
		if err := im.q.ResourceRuleUpsert(ctx, queries.ResourceRuleUpsertParams{
			OrganizationID: org, ID: id, Name: r.Name, AdvanceCheckIn: r.AdvanceCheckIn,
			ExpirationMargin: r.ExpirationMargin, StartTime: r.StartTime, EndTime: end,
			MaximumDuration: r.MaximumDuration, MaximumAdvance: r.MaximumAdvance,
			AccessControlType: cmp.Or(r.AccessControlType, "ANY"), RequiresApproval: r.RequiresApproval,
			AllDayBookings: r.AllDayBookings, AllDayBookingsCheckInMs: r.AllDayBookingsCheckInMS,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) features(ctx context.Context, l Layout) error {
	for i, f := range l.Features {
		a := at{"features", i}
		id, org, err := a.ids(f.ID, f.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", f.Name); err != nil {
			return err
		}
		if err := im.q.FeatureUpsert(ctx, queries.FeatureUpsertParams{OrganizationID: org, ID: id, Name: f.Name, Email: f.Email}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) reservables(ctx context.Context, l Layout) error {
	for i, r := range l.Reservables {
		a := at{"reservables", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.required("name", r.Name); err != nil {
			return err
		}
		if err := a.duration("minimumCancellationMs", r.MinimumCancellationMs); err != nil {
			return err
		}
		if err := a.duration("standardDeliveryTimeMs", r.StandardDeliveryTimeMs); err != nil {
			return err
		}
		if err := a.optionalEmail("email", r.Email); err != nil {
			return err
		}
		if err := im.q.ReservableUpsert(ctx, queries.ReservableUpsertParams{
			OrganizationID: org, ID: id, Name: r.Name, Type: cmp.Or(r.Type, "SERVICE"), Description: r.Description,
			ChooseQuantity: r.ChooseQuantity, ChooseDeliveryTime: r.ChooseDeliveryTime, AllowComments: r.AllowComments,
			MinimumCancellationMs: r.MinimumCancellationMs, StandardDeliveryTimeMs: r.StandardDeliveryTimeMs, Email: r.Email,
		}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

func (im importer) resources(ctx context.Context, l Layout) error {
	for i, r := range l.Resources {
		a := at{"resources", i}
		id, org, err := a.ids(r.ID, r.OrganizationID)
		if err != nil {
			return err
		}
		if err := a.image("image", r.Image); err != nil {
			return err
		}
		p := queries.ResourceUpsertParams{
			OrganizationID: org, ID: id, Name: r.Name, PosterCode: r.PosterCode, Image: r.Image, Phone: r.Phone,
			TopLeftX: r.MapCoordinates.TopLeftX, TopLeftY: r.MapCoordinates.TopLeftY,
			BottomRightX: r.MapCoordinates.BottomRightX, BottomRightY: r.MapCoordinates.BottomRightY,
			Approachable: boolOr(r.Approachable, true), Visible: boolOr(r.Visible, true),
			Status: cmp.Or(r.Status, booking.Activated), Capacity: r.Capacity,
		}
		if p.FloorID, err = a.uuid("floorId", r.FloorID); err != nil {
			return err
		}
		if p.SubcategoryID, err = a.uuid("subcategoryId", r.SubcategoryID); err != nil {
			return err
		}
		if p.ResourceRuleID, err = a.uuid("resourceRuleId", r.ResourceRuleID); err != nil {
			return err
		}
		if err := a.required("name", r.Name); err != nil {
			return err
		}
		if err := a.required("posterCode", r.PosterCode); err != nil {
			return err
		}
		if !booking.PosterCodeValid(r.PosterCode) {
			return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("posterCode"), "refusal.layout.posterCodeInvalid", map[string]any{
				"Value": strconv.Quote(r.PosterCode), "Max": fmt.Sprint(booking.MaxPosterCodeLength)})
		}
		features, err := a.uuids("featureIds", r.FeatureIDs)
		if err != nil {
			return err
		}
		reservables, err := a.uuids("reservableIds", r.ReservableIDs)
		if err != nil {
			return err
		}
		if err := im.q.ResourceUpsert(ctx, p); err != nil {
			if e := interpretError(err); e.kind == failUnique && e.constraint == "resources_poster_code_key" {
				return booking.FieldRefuse(booking.CodeInvalidRequest, a.path("posterCode"), "refusal.layout.posterCodeTaken", map[string]any{
					"Value": strconv.Quote(r.PosterCode)})
			}
			return a.db(err)
		}
		if err := im.q.ResourceFeaturesDelete(ctx, queries.ResourceFeaturesDeleteParams{OrganizationID: org, ResourceID: id}); err != nil {
			return a.db(err)
		}
		if err := im.q.ResourceFeaturesInsert(ctx, queries.ResourceFeaturesInsertParams{OrganizationID: org, ResourceID: id, FeatureIds: features}); err != nil {
			return a.db(err)
		}
		if err := im.q.ResourceReservablesDelete(ctx, queries.ResourceReservablesDeleteParams{OrganizationID: org, ResourceID: id}); err != nil {
			return a.db(err)
		}
		if err := im.q.ResourceReservablesInsert(ctx, queries.ResourceReservablesInsertParams{OrganizationID: org, ResourceID: id, ReservableIds: reservables}); err != nil {
			return a.db(err)
		}
	}
	return nil
}

package booking

import (
	"time"

	"github.com/workspacebooking/booking/queries"
)

// The generated sqlc rows never leave this package: these functions turn them into domain values.

func ms(v int64) time.Duration { return time.Duration(v) * time.Millisecond }

func userFromRow(r queries.User) User {
	return User{
		ID: r.ID, OrganizationID: r.OrganizationID, Name: r.Name, Surname: r.Surname, Alias: r.Alias,
		Email: r.Email, Image: r.Image, UserRuleID: r.UserRuleID, MobileRoleID: r.MobileRoleID,
		CanBeSearched: r.CanBeSearched, Type: r.Type, UserLanguage: r.UserLanguage, Role: Role(r.Role),
		Active: r.Active,
	}
}

func buildingFromRow(r queries.Building) Building {
	b := Building{
		ID: r.ID, OrganizationID: r.OrganizationID, Name: r.Name, Country: r.Country, City: r.City,
		Address: r.Address, Timezone: r.Timezone, Status: r.Status, Visible: r.Visible,
	}
	if r.Latitude != nil && r.Longitude != nil {
		b.Coordinates = &Coordinates{Latitude: *r.Latitude, Longitude: *r.Longitude}
	}
	return b
}

func floorFromRow(r queries.Floor, b queries.Building) Floor {
	return Floor{
		ID: r.ID, Name: r.Name, FloorNumber: r.FloorNumber, Image: r.Image, Status: r.Status, Type: r.Type,
		Visible: r.Visible, Building: buildingFromRow(b),
	}
}

func subcategoryFromRow(r queries.Subcategory) Subcategory {
	return Subcategory{
		ID: r.ID, OrganizationID: r.OrganizationID, Name: r.Name, Category: Category(r.Category),
		DeleteHistorial: r.DeleteHistorial, HideBookings: r.HideBookings, CanBeSearched: r.CanBeSearched,
		Shifts: r.Shifts,
	}
}

func ruleFromRow(r queries.ResourceRule) ResourceRule {
	return ResourceRule{
		ID: r.ID, AdvanceCheckIn: ms(r.AdvanceCheckIn), ExpirationMargin: ms(r.ExpirationMargin),
		StartTime: ms(r.StartTime), EndTime: ms(r.EndTime), MaximumDuration: ms(r.MaximumDuration),
		MaximumAdvance: ms(r.MaximumAdvance), AccessControlType: r.AccessControlType,
		RequiresApproval: r.RequiresApproval, AllDayBookings: r.AllDayBookings,
		AllDayBookingsCheckIn: ms(r.AllDayBookingsCheckInMs),
	}
}

// resourceFromRow builds a resource from its row. Floor, Subcategory and Rule get only their ids.
func resourceFromRow(r queries.Resource) Resource {
	return Resource{
		ID: r.ID, OrganizationID: r.OrganizationID, Name: r.Name, PosterCode: r.PosterCode, Image: r.Image,
		Phone: r.Phone, Approachable: r.Approachable, Visible: r.Visible, Status: r.Status, Capacity: r.Capacity,
		Map: MapCoordinates{
			TopLeftX: r.TopLeftX, TopLeftY: r.TopLeftY, BottomRightX: r.BottomRightX, BottomRightY: r.BottomRightY,
		},
		Floor:       Floor{ID: r.FloorID},
		Subcategory: Subcategory{ID: r.SubcategoryID},
		Rule:        ResourceRule{ID: r.ResourceRuleID},
	}
}

func fullResource(r queries.Resource, f queries.Floor, b queries.Building, s queries.Subcategory, rr queries.ResourceRule) Resource {
	res := resourceFromRow(r)
	res.Floor = floorFromRow(f, b)
	res.Subcategory = subcategoryFromRow(s)
	res.Rule = ruleFromRow(rr)
	return res
}

func featureFromRow(r queries.Feature) Feature {
	return Feature{ID: r.ID, OrganizationID: r.OrganizationID, Name: r.Name, Email: r.Email}
}

func reservableFromRow(r queries.Reservable) Reservable {
	return Reservable{
		ID: r.ID, OrganizationID: r.OrganizationID, Name: r.Name, Type: r.Type, Description: r.Description,
		ChooseQuantity: r.ChooseQuantity, ChooseDeliveryTime: r.ChooseDeliveryTime, AllowComments: r.AllowComments,
		MinimumCancellation: ms(r.MinimumCancellationMs), StandardDeliveryTime: ms(r.StandardDeliveryTimeMs),
		Email: r.Email,
	}
}

// Package wire holds the JSON shapes of bookings as the API answers them, so that every place that
// writes a booking for clients (the API, the webhook deliveries) writes the same JSON. Times are ms since
// the epoch, durations ms. Each resource form carries exactly the fields the interface lists for its
// operation.
package wire

import (
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

// IDRef is a reference to an object by its id: {"id": …}.
type IDRef struct {
	ID string `json:"id"`
}

// Ref returns a reference to id.
func Ref(id string) IDRef { return IDRef{ID: id} }

// toDTOs converts every element of xs with to. It never returns nil, so that an empty list is written
// as [] rather than null.
func toDTOs[T, D any](xs []T, to func(T) D) []D {
	out := make([]D, len(xs))
	for i, x := range xs {
		out[i] = to(x)
	}
	return out
}

// Millis is t in milliseconds since the epoch.
func Millis(t time.Time) int64 { return t.UnixMilli() }

// MapCoordinates is where a resource is drawn on its floor's plan.
type MapCoordinates struct {
	TopLeftX     int32 `json:"topLeftX"`
	TopLeftY     int32 `json:"topLeftY"`
	BottomRightX int32 `json:"bottomRightX"`
	BottomRightY int32 `json:"bottomRightY"`
}

// NewMapCoordinates returns the JSON shape of m.
func NewMapCoordinates(m booking.MapCoordinates) MapCoordinates {
	return MapCoordinates{TopLeftX: m.TopLeftX, TopLeftY: m.TopLeftY, BottomRightX: m.BottomRightX, BottomRightY: m.BottomRightY}
}

// User is a person as the interface lists them.
type User struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Surname       string `json:"surname"`
	Alias         string `json:"alias"`
	Email         string `json:"email"`
	Image         string `json:"image"`
	Organization  IDRef  `json:"organization"`
	UserRule      *IDRef `json:"userRule"`
	MobileRole    *IDRef `json:"mobileRole"`
	CanBeSearched bool   `json:"canBeSearched"`
	Type          string `json:"type"`
	UserLanguage  string `json:"userLanguage"`
}

// NewUser returns the JSON shape of u.
func NewUser(u booking.User) User {
	d := User{
		ID: u.ID.String(), Name: u.Name, Surname: u.Surname, Alias: u.Alias, Email: u.Email, Image: u.Image,
		Organization: Ref(u.OrganizationID.String()), CanBeSearched: u.CanBeSearched, Type: u.Type,
		UserLanguage: u.UserLanguage,
	}
	if u.UserRuleID != nil {
		d.UserRule = &IDRef{ID: u.UserRuleID.String()}
	}
	if u.MobileRoleID != nil {
		d.MobileRole = &IDRef{ID: u.MobileRoleID.String()}
	}
	return d
}

// Coordinates is a building's place on the map.
type Coordinates struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// Address is a building's address.
type Address struct {
	Country     string       `json:"country"`
	City        string       `json:"city"`
	Address     string       `json:"address"`
	Coordinates *Coordinates `json:"coordinates"`
}

// Building is a building with its address.
type Building struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Address      Address `json:"address"`
	Organization IDRef   `json:"organization"`
	Timezone     string  `json:"timezone"`
	Status       string  `json:"status"`
}

// NewBuilding returns the JSON shape of b.
func NewBuilding(b booking.Building) Building {
	d := Building{
		ID: b.ID.String(), Name: b.Name, Organization: Ref(b.OrganizationID.String()), Timezone: b.Timezone,
		Status: b.Status, Address: Address{Country: b.Country, City: b.City, Address: b.Address},
	}
	if b.Coordinates != nil {
		d.Address.Coordinates = &Coordinates{Latitude: b.Coordinates.Latitude, Longitude: b.Coordinates.Longitude}
	}
	return d
}

// Floor is a floor with its building.
type Floor struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	FloorNumber int32    `json:"floorNumber"`
	Image       string   `json:"image"`
	Building    Building `json:"building"`
	Status      string   `json:"status"`
	Type        string   `json:"type"`
	Visible     bool     `json:"visible"`
}

// NewFloor returns the JSON shape of f.
func NewFloor(f booking.Floor) Floor {
	return Floor{
		ID: f.ID.String(), Name: f.Name, FloorNumber: f.FloorNumber, Image: f.Image,
		Building: NewBuilding(f.Building), Status: f.Status, Type: f.Type, Visible: f.Visible,
	}
}

// Subcategory is a kind of resource.
type Subcategory struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Category        string `json:"category"`
	Organization    IDRef  `json:"organization"`
	DeleteHistorial bool   `json:"deleteHistorial"`
	HideBookings    bool   `json:"hideBookings"`
	CanBeSearched   bool   `json:"canBeSearched"`
	Shifts          bool   `json:"shifts"`
}

// NewSubcategory returns the JSON shape of s.
func NewSubcategory(s booking.Subcategory) Subcategory {
	return Subcategory{
		ID: s.ID.String(), Name: s.Name, Category: string(s.Category), Organization: Ref(s.OrganizationID.String()),
		DeleteHistorial: s.DeleteHistorial, HideBookings: s.HideBookings, CanBeSearched: s.CanBeSearched,
		Shifts: s.Shifts,
	}
}

// ResourceRule is the rule; the all-day fields appear only in the booking response.
type ResourceRule struct {
	ID                      string `json:"id"`
	AdvanceCheckIn          int64  `json:"advanceCheckIn"`
	ExpirationMargin        int64  `json:"expirationMargin"`
	StartTime               int64  `json:"startTime"`
	EndTime                 int64  `json:"endTime"`
	MaximumDuration         int64  `json:"maximumDuration"`
	MaximumAdvance          int64  `json:"maximumAdvance"`
	AccessControlType       string `json:"accessControlType"`
	RequiresApproval        bool   `json:"requiresApproval"`
	AllDayBookings          *bool  `json:"allDayBookings,omitempty"`
	AllDayBookingsCheckInMS *int64 `json:"allDayBookingsCheckInMS,omitempty"`
}

// NewResourceRule returns the JSON shape of r, with the all-day fields when withAllDay.
func NewResourceRule(r booking.ResourceRule, withAllDay bool) ResourceRule {
	d := ResourceRule{
		ID: r.ID.String(), AdvanceCheckIn: r.AdvanceCheckIn.Milliseconds(),
		ExpirationMargin: r.ExpirationMargin.Milliseconds(), StartTime: r.StartTime.Milliseconds(),
		EndTime: r.EndTime.Milliseconds(), MaximumDuration: r.MaximumDuration.Milliseconds(),
		MaximumAdvance: r.MaximumAdvance.Milliseconds(), AccessControlType: r.AccessControlType,
		RequiresApproval: r.RequiresApproval,
	}
	if withAllDay {
		allDay, checkIn := r.AllDayBookings, r.AllDayBookingsCheckIn.Milliseconds()
		d.AllDayBookings, d.AllDayBookingsCheckInMS = &allDay, &checkIn
	}
	return d
}

// Feature is something a resource has, such as a screen.
type Feature struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Email        string `json:"email"`
	Organization IDRef  `json:"organization"`
}

// Capacity gives the capacity of a space (0 when unknown) and nothing for a workstation.
func Capacity(r booking.Resource) *int32 {
	if r.Subcategory.Category != booking.CategorySpace {
		return nil
	}
	c := int32(0)
	if r.Capacity != nil {
		c = *r.Capacity
	}
	return &c
}

// ResourceBase holds the fields every form of a resource starts with.
type ResourceBase struct {
	ID             string         `json:"id"`
	Name           string         `json:"name"`
	PosterCode     string         `json:"posterCode"`
	Image          string         `json:"image"`
	Phone          string         `json:"phone"`
	MapCoordinates MapCoordinates `json:"mapCoordinates"`
	Approachable   bool           `json:"approachable"`
}

// NewResourceBase returns the fields every form of r starts with.
func NewResourceBase(r booking.Resource) ResourceBase {
	return ResourceBase{
		ID: r.ID.String(), Name: r.Name, PosterCode: r.PosterCode, Image: r.Image, Phone: r.Phone,
		MapCoordinates: NewMapCoordinates(r.Map), Approachable: r.Approachable,
	}
}

// BookedResource is the resource of a booking: full floor with building, full subcategory, the rule
// with its all-day fields, features, and Capacity for spaces.
type BookedResource struct {
	ResourceBase
	Floor        Floor        `json:"floor"`
	Subcategory  Subcategory  `json:"subcategory"`
	ResourceRule ResourceRule `json:"resourceRule"`
	Visible      bool         `json:"visible"`
	Features     []Feature    `json:"features"`
	Capacity     *int32       `json:"capacity,omitempty"`
}

// NewBookedResource returns r as a booking shows it.
func NewBookedResource(r booking.Resource) BookedResource {
	d := BookedResource{
		ResourceBase: NewResourceBase(r), Floor: NewFloor(r.Floor),
		Subcategory: NewSubcategory(r.Subcategory), ResourceRule: NewResourceRule(r.Rule, true), Visible: r.Visible,
		Features: toDTOs(r.Features, NewFeature), Capacity: Capacity(r),
	}
	return d
}

// Body is the text of a booking.
type Body struct {
	Content  string `json:"content"`
	BodyType string `json:"bodyType"`
}

// Booking is the Booking of the interface, as returned on creation.
type Booking struct {
	ID                   string         `json:"id"`
	StartDate            int64          `json:"startDate"`
	EndDate              int64          `json:"endDate"`
	Duration             int64          `json:"duration"`
	Status               string         `json:"status"`
	AccessControlType    string         `json:"accessControlType"`
	Creator              User           `json:"creator"`
	Organizer            User           `json:"organizer"`
	Resource             BookedResource `json:"resource"`
	SupervisedBooking    struct{}       `json:"supervisedBooking"`
	Subject              string         `json:"subject"`
	Body                 Body           `json:"body"`
	Importance           string         `json:"importance"`
	ResourceType         string         `json:"resourceType"`
	BuildingAccessStatus string         `json:"buildingAccessStatus"`
	// OnlineMeetingURL is our addition: the link of the booking's online meeting, present only when the
	// booking asked for one.
	OnlineMeetingURL string `json:"onlineMeetingUrl,omitempty"`
}

// NewBooking returns the JSON shape of b as the create operations answer it.
func NewBooking(b booking.Booking) Booking {
	return Booking{
		ID: b.ID.String(), StartDate: Millis(b.Start), EndDate: Millis(b.End), Duration: b.End.Sub(b.Start).Milliseconds(),
		Status: string(b.Status), AccessControlType: b.AccessControlType, Creator: NewUser(b.Creator),
		Organizer: NewUser(b.Organizer), Resource: NewBookedResource(b.Resource), Subject: b.Subject,
		Body: Body{Content: b.Body.Content, BodyType: b.Body.BodyType}, Importance: b.Importance,
		ResourceType: string(b.ResourceType), BuildingAccessStatus: b.BuildingAccessStatus,
		OnlineMeetingURL: b.OnlineMeetingURL,
	}
}

// Reservable is a service that can be ordered with a booking.
type Reservable struct {
	ID                 string `json:"id"`
	OrganizationID     string `json:"organizationId"`
	Name               string `json:"name"`
	Type               string `json:"type"`
	Description        string `json:"description"`
	ChooseQuantity     bool   `json:"chooseQuantity"`
	ChooseDeliveryTime bool   `json:"chooseDeliveryTime"`
	AllowComments      bool   `json:"allowComments"`
}

// BookingReservable is a service ordered on a booking.
type BookingReservable struct {
	Reservable             Reservable `json:"reservable"`
	MinimumCancellationMs  int64      `json:"minimumCancellationMs"`
	StandardDeliveryTimeMs int64      `json:"standardDeliveryTimeMs"`
	DeliveryTimeMs         int64      `json:"deliveryTimeMs"`
	Quantity               int32      `json:"quantity"`
	Comment                string     `json:"comment"`
}

// NewBookingReservable returns the JSON shape of br.
func NewBookingReservable(br booking.BookingReservable) BookingReservable {
	r := br.Reservable
	return BookingReservable{
		Reservable:            NewReservable(r),
		MinimumCancellationMs: r.MinimumCancellation.Milliseconds(), StandardDeliveryTimeMs: r.StandardDeliveryTime.Milliseconds(),
		DeliveryTimeMs: br.DeliveryTime.Milliseconds(), Quantity: br.Quantity, Comment: br.Comment,
	}
}

// Interval is a half-open span of time.
type Interval struct {
	StartDate int64 `json:"startDate"`
	EndDate   int64 `json:"endDate"`
}

// NewInterval returns the JSON shape of iv.
func NewInterval(iv booking.Interval) Interval {
	return Interval{StartDate: Millis(iv.Start), EndDate: Millis(iv.End)}
}

// BookingDetail is a booking as read back: the Booking of the interface, plus whether it is all-day,
// its check-in window and its contracted reservables.
type BookingDetail struct {
	Booking
	AllDay                bool                `json:"allDay"`
	CheckIn               Interval            `json:"checkIn"`
	BookingReservableList []BookingReservable `json:"bookingReservableList"`
}

// NewBookingDetail returns b as GET /api/v1/bookings/{bookingId} answers it.
func NewBookingDetail(b booking.Booking) BookingDetail {
	d := BookingDetail{
		Booking: NewBooking(b), AllDay: b.AllDay, CheckIn: NewInterval(b.CheckIn),
		BookingReservableList: toDTOs(b.Reservables, NewBookingReservable),
	}
	return d
}

// NewReservable returns the JSON shape of r.
func NewReservable(r booking.Reservable) Reservable {
	return Reservable{
		ID: r.ID.String(), OrganizationID: r.OrganizationID.String(), Name: r.Name, Type: r.Type,
		Description: r.Description, ChooseQuantity: r.ChooseQuantity, ChooseDeliveryTime: r.ChooseDeliveryTime,
		AllowComments: r.AllowComments,
	}
}

// NewFeature returns the JSON shape of f.
func NewFeature(f booking.Feature) Feature {
	return Feature{ID: f.ID.String(), Name: f.Name, Email: f.Email, Organization: Ref(f.OrganizationID.String())}
}

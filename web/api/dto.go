package api

import (
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

// The JSON shapes of the published interface. Times are ms since the epoch, durations ms. Each resource
// form carries exactly the fields the interface lists for its operation.

type idDTO struct {
	ID string `json:"id"`
}

func ref(id string) idDTO { return idDTO{ID: id} }

// toDTOs converts every element of xs with to. It never returns nil, so that an empty list is written
// as [] rather than null.
func toDTOs[T, D any](xs []T, to func(T) D) []D {
	out := make([]D, len(xs))
	for i, x := range xs {
		out[i] = to(x)
	}
	return out
}

func millis(t time.Time) int64 { return t.UnixMilli() }

type mapCoordinatesDTO struct {
	TopLeftX     int32 `json:"topLeftX"`
	TopLeftY     int32 `json:"topLeftY"`
	BottomRightX int32 `json:"bottomRightX"`
	BottomRightY int32 `json:"bottomRightY"`
}

func toMap(m booking.MapCoordinates) mapCoordinatesDTO {
	return mapCoordinatesDTO{TopLeftX: m.TopLeftX, TopLeftY: m.TopLeftY, BottomRightX: m.BottomRightX, BottomRightY: m.BottomRightY}
}

type userDTO struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Surname       string `json:"surname"`
	Alias         string `json:"alias"`
	Email         string `json:"email"`
	Image         string `json:"image"`
	Organization  idDTO  `json:"organization"`
	UserRule      *idDTO `json:"userRule"`
	MobileRole    *idDTO `json:"mobileRole"`
	CanBeSearched bool   `json:"canBeSearched"`
	Type          string `json:"type"`
	UserLanguage  string `json:"userLanguage"`
}

func toUser(u booking.User) userDTO {
	d := userDTO{
		ID: u.ID.String(), Name: u.Name, Surname: u.Surname, Alias: u.Alias, Email: u.Email, Image: u.Image,
		Organization: ref(u.OrganizationID.String()), CanBeSearched: u.CanBeSearched, Type: u.Type,
		UserLanguage: u.UserLanguage,
	}
	if u.UserRuleID != nil {
		d.UserRule = &idDTO{ID: u.UserRuleID.String()}
	}
	if u.MobileRoleID != nil {
		d.MobileRole = &idDTO{ID: u.MobileRoleID.String()}
	}
	return d
}

type coordinatesDTO struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

type addressDTO struct {
	Country     string          `json:"country"`
	City        string          `json:"city"`
	Address     string          `json:"address"`
	Coordinates *coordinatesDTO `json:"coordinates"`
}

type buildingDTO struct {
	ID           string     `json:"id"`
	Name         string     `json:"name"`
	Address      addressDTO `json:"address"`
	Organization idDTO      `json:"organization"`
	Timezone     string     `json:"timezone"`
	Status       string     `json:"status"`
}

func toBuilding(b booking.Building) buildingDTO {
	d := buildingDTO{
		ID: b.ID.String(), Name: b.Name, Organization: ref(b.OrganizationID.String()), Timezone: b.Timezone,
		Status: b.Status, Address: addressDTO{Country: b.Country, City: b.City, Address: b.Address},
	}
	if b.Coordinates != nil {
		d.Address.Coordinates = &coordinatesDTO{Latitude: b.Coordinates.Latitude, Longitude: b.Coordinates.Longitude}
	}
	return d
}

type floorDTO struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	FloorNumber int32       `json:"floorNumber"`
	Image       string      `json:"image"`
	Building    buildingDTO `json:"building"`
	Status      string      `json:"status"`
	Type        string      `json:"type"`
	Visible     bool        `json:"visible"`
}

func toFloor(f booking.Floor) floorDTO {
	return floorDTO{
		ID: f.ID.String(), Name: f.Name, FloorNumber: f.FloorNumber, Image: f.Image,
		Building: toBuilding(f.Building), Status: f.Status, Type: f.Type, Visible: f.Visible,
	}
}

type subcategoryDTO struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	Category        string `json:"category"`
	Organization    idDTO  `json:"organization"`
	DeleteHistorial bool   `json:"deleteHistorial"`
	HideBookings    bool   `json:"hideBookings"`
	CanBeSearched   bool   `json:"canBeSearched"`
	Shifts          bool   `json:"shifts"`
}

func toSubcategory(s booking.Subcategory) subcategoryDTO {
	return subcategoryDTO{
		ID: s.ID.String(), Name: s.Name, Category: string(s.Category), Organization: ref(s.OrganizationID.String()),
		DeleteHistorial: s.DeleteHistorial, HideBookings: s.HideBookings, CanBeSearched: s.CanBeSearched,
		Shifts: s.Shifts,
	}
}

// resourceRuleDTO is the rule; the all-day fields appear only in the booking response.
type resourceRuleDTO struct {
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

func toRule(r booking.ResourceRule, withAllDay bool) resourceRuleDTO {
	d := resourceRuleDTO{
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

type featureDTO struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Email        string `json:"email"`
	Organization idDTO  `json:"organization"`
}

// capacity gives the capacity of a space (0 when unknown) and nothing for a workstation.
func capacity(r booking.Resource) *int32 {
	if r.Subcategory.Category != booking.CategorySpace {
		return nil
	}
	c := int32(0)
	if r.Capacity != nil {
		c = *r.Capacity
	}
	return &c
}

// resourceBase holds the fields every form of a resource starts with.
type resourceBase struct {
	ID             string            `json:"id"`
	Name           string            `json:"name"`
	PosterCode     string            `json:"posterCode"`
	Image          string            `json:"image"`
	Phone          string            `json:"phone"`
	MapCoordinates mapCoordinatesDTO `json:"mapCoordinates"`
	Approachable   bool              `json:"approachable"`
}

func toResourceBase(r booking.Resource) resourceBase {
	return resourceBase{
		ID: r.ID.String(), Name: r.Name, PosterCode: r.PosterCode, Image: r.Image, Phone: r.Phone,
		MapCoordinates: toMap(r.Map), Approachable: r.Approachable,
	}
}

// statusResourceDTO is the resource of the status lookup (4.1): floor id only, full subcategory and rule.
type statusResourceDTO struct {
	resourceBase
	Floor        idDTO           `json:"floor"`
	Subcategory  subcategoryDTO  `json:"subcategory"`
	ResourceRule resourceRuleDTO `json:"resourceRule"`
	Visible      bool            `json:"visible"`
}

// bookedResourceDTO is the resource of a booking: full floor with building, full subcategory, the rule
// with its all-day fields, features, and capacity for spaces.
type bookedResourceDTO struct {
	resourceBase
	Floor        floorDTO        `json:"floor"`
	Subcategory  subcategoryDTO  `json:"subcategory"`
	ResourceRule resourceRuleDTO `json:"resourceRule"`
	Visible      bool            `json:"visible"`
	Features     []featureDTO    `json:"features"`
	Capacity     *int32          `json:"capacity,omitempty"`
}

func toBookedResource(r booking.Resource) bookedResourceDTO {
	d := bookedResourceDTO{
		resourceBase: toResourceBase(r), Floor: toFloor(r.Floor),
		Subcategory: toSubcategory(r.Subcategory), ResourceRule: toRule(r.Rule, true), Visible: r.Visible,
		Features: toDTOs(r.Features, toFeature), Capacity: capacity(r),
	}
	return d
}

type bodyDTO struct {
	Content  string `json:"content"`
	BodyType string `json:"bodyType"`
}

// bookingDTO is the Booking of the interface, as returned on creation.
type bookingDTO struct {
	ID                   string            `json:"id"`
	StartDate            int64             `json:"startDate"`
	EndDate              int64             `json:"endDate"`
	Duration             int64             `json:"duration"`
	Status               string            `json:"status"`
	AccessControlType    string            `json:"accessControlType"`
	Creator              userDTO           `json:"creator"`
	Organizer            userDTO           `json:"organizer"`
	Resource             bookedResourceDTO `json:"resource"`
	SupervisedBooking    struct{}          `json:"supervisedBooking"`
	Subject              string            `json:"subject"`
	Body                 bodyDTO           `json:"body"`
	Importance           string            `json:"importance"`
	ResourceType         string            `json:"resourceType"`
	BuildingAccessStatus string            `json:"buildingAccessStatus"`
	// OnlineMeetingURL is our addition: the link of the booking's online meeting, present only when the
	// booking asked for one.
	OnlineMeetingURL string `json:"onlineMeetingUrl,omitempty"`
}

func toBooking(b booking.Booking) bookingDTO {
	return bookingDTO{
		ID: b.ID.String(), StartDate: millis(b.Start), EndDate: millis(b.End), Duration: b.End.Sub(b.Start).Milliseconds(),
		Status: string(b.Status), AccessControlType: b.AccessControlType, Creator: toUser(b.Creator),
		Organizer: toUser(b.Organizer), Resource: toBookedResource(b.Resource), Subject: b.Subject,
		Body: bodyDTO{Content: b.Body.Content, BodyType: b.Body.BodyType}, Importance: b.Importance,
		ResourceType: string(b.ResourceType), BuildingAccessStatus: b.BuildingAccessStatus,
		OnlineMeetingURL: b.OnlineMeetingURL,
	}
}

type reservableDTO struct {
	ID                 string `json:"id"`
	OrganizationID     string `json:"organizationId"`
	Name               string `json:"name"`
	Type               string `json:"type"`
	Description        string `json:"description"`
	ChooseQuantity     bool   `json:"chooseQuantity"`
	ChooseDeliveryTime bool   `json:"chooseDeliveryTime"`
	AllowComments      bool   `json:"allowComments"`
}

type bookingReservableDTO struct {
	Reservable             reservableDTO `json:"reservable"`
	MinimumCancellationMs  int64         `json:"minimumCancellationMs"`
	StandardDeliveryTimeMs int64         `json:"standardDeliveryTimeMs"`
	DeliveryTimeMs         int64         `json:"deliveryTimeMs"`
	Quantity               int32         `json:"quantity"`
	Comment                string        `json:"comment"`
}

func toBookingReservable(br booking.BookingReservable) bookingReservableDTO {
	r := br.Reservable
	return bookingReservableDTO{
		Reservable:            toReservable(r),
		MinimumCancellationMs: r.MinimumCancellation.Milliseconds(), StandardDeliveryTimeMs: r.StandardDeliveryTime.Milliseconds(),
		DeliveryTimeMs: br.DeliveryTime.Milliseconds(), Quantity: br.Quantity, Comment: br.Comment,
	}
}

type intervalDTO struct {
	StartDate int64 `json:"startDate"`
	EndDate   int64 `json:"endDate"`
}

func toInterval(iv booking.Interval) intervalDTO {
	return intervalDTO{StartDate: millis(iv.Start), EndDate: millis(iv.End)}
}

// bookingDetailDTO is a booking as read back: the Booking of the interface, plus whether it is all-day,
// its check-in window and its contracted reservables.
type bookingDetailDTO struct {
	bookingDTO
	AllDay                bool                   `json:"allDay"`
	CheckIn               intervalDTO            `json:"checkIn"`
	BookingReservableList []bookingReservableDTO `json:"bookingReservableList"`
}

func toBookingDetail(b booking.Booking) bookingDetailDTO {
	d := bookingDetailDTO{
		bookingDTO: toBooking(b), AllDay: b.AllDay, CheckIn: toInterval(b.CheckIn),
		BookingReservableList: toDTOs(b.Reservables, toBookingReservable),
	}
	return d
}

type bookingPageDTO struct {
	Bookings   []bookingDetailDTO `json:"bookings"`
	NextCursor *string            `json:"nextCursor"`
}

func toBookingPage(p booking.BookingPage) bookingPageDTO {
	d := bookingPageDTO{Bookings: toDTOs(p.Bookings, toBookingDetail)}
	if p.NextCursor != "" {
		d.NextCursor = &p.NextCursor
	}
	return d
}

func toReservable(r booking.Reservable) reservableDTO {
	return reservableDTO{
		ID: r.ID.String(), OrganizationID: r.OrganizationID.String(), Name: r.Name, Type: r.Type,
		Description: r.Description, ChooseQuantity: r.ChooseQuantity, ChooseDeliveryTime: r.ChooseDeliveryTime,
		AllowComments: r.AllowComments,
	}
}

func toFeature(f booking.Feature) featureDTO {
	return featureDTO{ID: f.ID.String(), Name: f.Name, Email: f.Email, Organization: ref(f.OrganizationID.String())}
}

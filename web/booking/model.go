package booking

import (
	"time"

	"github.com/google/uuid"
)

// Role says what a user may do beyond managing their own bookings.
type Role string

// The roles. RECEPTIONIST and ADMIN may act for anyone in their organization.
const (
	RoleEmployee     Role = "EMPLOYEE"
	RoleReceptionist Role = "RECEPTIONIST"
	RoleAdmin        Role = "ADMIN"
)

// ActsForOthers reports whether the role may act for other users of its organization.
func (r Role) ActsForOthers() bool { return r == RoleReceptionist || r == RoleAdmin }

// Category is the kind of a resource.
type Category string

// The categories of resources.
const (
	CategoryWorkstation Category = "WORKSTATION"
	CategorySpace       Category = "SPACE"
)

// optionalCategory checks a category that a query may filter by, and converts it to the form the
// generated queries take. A nil category (any category) stays nil.
// Codes: 2000 neither WORKSTATION nor SPACE.
func optionalCategory(c *Category) (*string, error) {
	if c == nil {
		return nil, nil
	}
	if *c != CategoryWorkstation && *c != CategorySpace {
		return nil, FieldRefuse(CodeInvalidRequest, "category", "refusal.booking.categoryValue")
	}
	v := string(*c)
	return &v, nil
}

// Status is the state of a booking (DESIGN.md §4).
type Status string

// The booking statuses. A booking that is WAITING_APPROVAL, PENDING or ACTIVE blocks its resource.
const (
	StatusWaitingApproval Status = "WAITING_APPROVAL"
	StatusPending         Status = "PENDING"
	StatusActive          Status = "ACTIVE"
	StatusFinished        Status = "FINISHED"
	StatusExpired         Status = "EXPIRED"
	StatusCancelled       Status = "CANCELLED"
	StatusRejected        Status = "REJECTED"
)

// Blocking reports whether a booking in this status holds its resource.
func (s Status) Blocking() bool {
	return s == StatusWaitingApproval || s == StatusPending || s == StatusActive
}

// The building access statuses of a booking. The service never grants or denies access itself, so every
// new booking gets BuildingAccessPending.
const (
	BuildingAccessPending = "PENDING"
	BuildingAccessGranted = "GRANTED"
	BuildingAccessDenied  = "DENIED"
)

// Activated is the status of a building, floor or resource that is in use.
const Activated = "ACTIVATED"

// User is a person in an organization.
type User struct {
	ID             uuid.UUID
	OrganizationID uuid.UUID
	Name           string
	Surname        string
	Alias          string
	Email          string
	Image          string
	UserRuleID     *uuid.UUID
	MobileRoleID   *uuid.UUID
	CanBeSearched  bool
	Type           string
	UserLanguage   string
	Role           Role
	// Active is false for a deactivated person: they cannot sign in, their bearer tokens are refused,
	// and nobody can book for them.
	Active bool
}

// Coordinates is a point on the globe.
type Coordinates struct {
	Latitude, Longitude float64
}

// Building is a building of an organization. The calendar rules of its resources use its Timezone.
type Building struct {
	ID             uuid.UUID
	OrganizationID uuid.UUID
	Name           string
	Country        string
	City           string
	Address        string
	Coordinates    *Coordinates
	Timezone       string
	Status         string
	Visible        bool
}

// Floor is a floor of a building.
type Floor struct {
	ID          uuid.UUID
	Name        string
	FloorNumber int32
	Image       string
	Status      string
	Type        string
	Visible     bool
	Building    Building
}

// Subcategory is a kind of resource of an organization.
type Subcategory struct {
	ID              uuid.UUID
	OrganizationID  uuid.UUID
	Name            string
	Category        Category
	DeleteHistorial bool
	HideBookings    bool
	CanBeSearched   bool
	Shifts          bool
}

// ResourceRule limits the bookings of a resource (DESIGN.md §4). StartTime and EndTime are offsets from
// local midnight, with 0 ≤ StartTime < EndTime ≤ 24 h. A zero MaximumDuration or MaximumAdvance means no
// limit.
type ResourceRule struct {
	ID                    uuid.UUID
	AdvanceCheckIn        time.Duration
	ExpirationMargin      time.Duration
	StartTime             time.Duration
	EndTime               time.Duration
	MaximumDuration       time.Duration
	MaximumAdvance        time.Duration
	AccessControlType     string
	RequiresApproval      bool
	AllDayBookings        bool
	AllDayBookingsCheckIn time.Duration
}

// MapCoordinates is the rectangle of a resource on its floor plan.
type MapCoordinates struct {
	TopLeftX, TopLeftY, BottomRightX, BottomRightY int32
}

// Feature is something a resource has (a screen, a whiteboard…).
type Feature struct {
	ID             uuid.UUID
	OrganizationID uuid.UUID
	Name           string
	Email          string
}

// Resource is a workstation or a space. Operations that load Floor and Subcategory fill them in
// completely; listings set only their ids. Capacity is set only for spaces.
type Resource struct {
	ID             uuid.UUID
	OrganizationID uuid.UUID
	Name           string
	PosterCode     string
	Image          string
	Phone          string
	Map            MapCoordinates
	Approachable   bool
	Visible        bool
	Status         string
	Capacity       *int32
	Floor          Floor
	Subcategory    Subcategory
	Rule           ResourceRule
	Features       []Feature
}

// Bookable reports whether the resource, its floor and its building are all activated and visible.
func (r Resource) Bookable() bool {
	return r.Visible && r.Status == Activated &&
		r.Floor.Visible && r.Floor.Status == Activated &&
		r.Floor.Building.Visible && r.Floor.Building.Status == Activated
}

// Body is the text of a booking.
type Body struct {
	Content  string
	BodyType string
}

// Booking is a booking of a resource for the half-open interval [Start, End). Its organizer can check in
// during CheckIn, a window around the start (DESIGN.md §4). An AllDay booking covers the whole bookable
// window of its day. Reservables are the services contracted on the booking.
type Booking struct {
	ID                   uuid.UUID
	OrganizationID       uuid.UUID
	Start, End           time.Time
	Status               Status
	AccessControlType    string
	Creator              User
	Organizer            User
	Resource             Resource
	Subject              string
	Body                 Body
	Importance           string
	ResourceType         Category
	BuildingAccessStatus string
	CreateOnlineMeeting  bool
	SipAddress           string
	AllDay               bool
	CheckIn              Interval
	CheckedInAt          *time.Time // nil until the booking is checked in
	Reservables          []BookingReservable
	// Revision grows by one with every change of the booking: its calendar invitations' SEQUENCE.
	Revision int32
	// OnlineMeetingURL is the link of the booking's online meeting: set when CreateOnlineMeeting is
	// true and the service has an online-meeting template (WithOnlineMeetings), "" otherwise.
	OnlineMeetingURL string
	// SeriesID is the series the booking is an occurrence of, or nil.
	SeriesID *uuid.UUID
}

// Reservable is a service that can be contracted on bookings of the resources it is associated with.
type Reservable struct {
	ID                   uuid.UUID
	OrganizationID       uuid.UUID
	Name                 string
	Type                 string
	Description          string
	ChooseQuantity       bool
	ChooseDeliveryTime   bool
	AllowComments        bool
	MinimumCancellation  time.Duration
	StandardDeliveryTime time.Duration
	Email                string // who looks after the service; "" when nobody is named
}

// BookingReservable is a reservable contracted on a booking. DeliveryTime is an offset from the booking's
// start, between 0 and the booking's duration.
type BookingReservable struct {
	Reservable   Reservable
	DeliveryTime time.Duration
	Quantity     int32
	Comment      string
}

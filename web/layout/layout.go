// Package layout holds organizations' layouts outside the domain: the layout document (organizations,
// people, buildings, floors, resources and their rules, bookings, closures) that `booking import` loads
// and the admin export writes, the demo office of `booking demo`, and the admin operations that list,
// read, create, update and delete one object at a time, in the document's format, with its ETag and its
// audit entry, or change several resources at once. Every write goes through one code path (write), in a
// transaction this package opens; the domain's cached layouts are cleared after it commits. It knows
// nothing of HTTP.
package layout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/jsonkind"
	"github.com/workspacebooking/booking/web/lang"
)

// Layout is the document that `booking import` reads (DESIGN.md §8): one JSON object with optional
// arrays, using the API's field names. Every object has its id, and every object that belongs to an
// organization has organizationId. Importing again updates objects in place and never deletes bookings.
type Layout struct {
	Organizations []LayoutOrganization `json:"organizations,omitempty"`
	UserRules     []LayoutNamed        `json:"userRules,omitempty"`
	MobileRoles   []LayoutNamed        `json:"mobileRoles,omitempty"`
	Users         []LayoutUser         `json:"users,omitempty"`
	Buildings     []LayoutBuilding     `json:"buildings,omitempty"`
	Floors        []LayoutFloor        `json:"floors,omitempty"`
	Subcategories []LayoutSubcategory  `json:"subcategories,omitempty"`
	ResourceRules []LayoutResourceRule `json:"resourceRules,omitempty"`
	Features      []LayoutFeature      `json:"features,omitempty"`
	Reservables   []LayoutReservable   `json:"reservables,omitempty"`
	Resources     []LayoutResource     `json:"resources,omitempty"`
	Bookings      []LayoutBooking      `json:"bookings,omitempty"`
	Closures      []LayoutClosure      `json:"closures,omitempty"`
}

// DecodeLayout reads a layout document. It must be one JSON object, with no fields that Layout lacks and
// nothing after it.
func DecodeLayout(r io.Reader) (Layout, error) {
	var l Layout
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l); err != nil {
		return Layout{}, decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Layout{}, documentError{booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.trailingData")}
	}
	return l, nil
}

// decodeError says what is wrong with a document in its own terms: the field and the kind of value it
// takes, never a Go type.
func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var e *booking.Error
	switch {
	case errors.As(err, &syntax):
		e = booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.malformedJSON", map[string]any{"Offset": fmt.Sprint(syntax.Offset)})
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "document"
		}
		e = booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.wrongType", map[string]any{
			"Field": field, "Kind": jsonKindOf(jsonkind.Of(typ.Type)), "Value": typ.Value})
	case errors.Is(err, io.EOF):
		e = booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.documentEmpty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		e = booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.endsEarly")
	default:
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			e = booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.unknownField", map[string]any{"Name": name})
		} else {
			e = booking.Refuse(booking.CodeInvalidRequest, "refusal.layout.notLayout")
		}
	}
	return documentError{e}
}

// documentError is a document that does not decode. Its Error is the refusal's message alone, as the
// command line shows it; the admin API answers with the refusal, in the reader's language.
type documentError struct{ refusal *booking.Error }

func (d documentError) Error() string { return d.refusal.Message }

// jsonKindOf is a kind of JSON value as jsonkind.Of names it ("an integer"), as a phrase (lang.Phrase)
// for a refusal's data, in the reader's words ("un número entero").
type jsonKindOf string

func (k jsonKindOf) In(ctx context.Context) string {
	switch k {
	case "an integer":
		return lang.T(ctx, "refusal.layout.kindInteger")
	case "a number":
		return lang.T(ctx, "refusal.layout.kindNumber")
	case "a string":
		return lang.T(ctx, "refusal.layout.kindString")
	case "a boolean":
		return lang.T(ctx, "refusal.layout.kindBoolean")
	case "an array":
		return lang.T(ctx, "refusal.layout.kindArray")
	case "an object":
		return lang.T(ctx, "refusal.layout.kindObject")
	}
	return string(k)
}

// LayoutOrganization is an organization (tenant).
type LayoutOrganization struct {
	ID                       string `json:"id"`
	Name                     string `json:"name"`
	AdditionalServicesActive bool   `json:"additionalServicesActive"`
}

// LayoutNamed is a user rule or a mobile role, which have only an id and a name.
type LayoutNamed struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	Name           string `json:"name"`
}

// LayoutRef is a reference written as in the API: an object with only an id.
type LayoutRef struct {
	ID string `json:"id"`
}

// LayoutUser is a person. Role is EMPLOYEE (the default), RECEPTIONIST or ADMIN. OIDCSubject is the
// identity provider's `sub` for the person, if known: left out it stays as it is, and "" clears it; only
// the operator's import may set a new one, and no two accounts share one. Active false deactivates the
// person (their bookings are released), true reactivates them, and leaving it out keeps them as they are
// (a new person is active).
type LayoutUser struct {
	ID             string     `json:"id"`
	OrganizationID string     `json:"organizationId"`
	Name           string     `json:"name"`
	Surname        string     `json:"surname,omitempty"`
	Alias          string     `json:"alias,omitempty"`
	Email          string     `json:"email"`
	Image          string     `json:"image,omitempty"`
	UserRule       *LayoutRef `json:"userRule,omitempty"`
	MobileRole     *LayoutRef `json:"mobileRole,omitempty"`
	CanBeSearched  *bool      `json:"canBeSearched,omitempty"`
	Type           string     `json:"type,omitempty"`
	UserLanguage   string     `json:"userLanguage,omitempty"`
	Role           string     `json:"role,omitempty"`
	OIDCSubject    *string    `json:"oidcSubject,omitempty"`
	Active         *bool      `json:"active,omitempty"`
}

// LayoutAddress is a building's address.
type LayoutAddress struct {
	Country     string             `json:"country,omitempty"`
	City        string             `json:"city,omitempty"`
	Address     string             `json:"address,omitempty"`
	Coordinates *LayoutCoordinates `json:"coordinates,omitempty"`
}

// LayoutCoordinates is a point on the globe.
type LayoutCoordinates struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// LayoutBuilding is a building; Timezone is an IANA name such as Europe/Madrid.
type LayoutBuilding struct {
	ID             string        `json:"id"`
	OrganizationID string        `json:"organizationId"`
	Name           string        `json:"name"`
	Address        LayoutAddress `json:"address"`
	Timezone       string        `json:"timezone"`
	Status         string        `json:"status,omitempty"`
	Visible        *bool         `json:"visible,omitempty"`
}

// LayoutFloor is a floor of a building; Image is the URL of its floor plan.
type LayoutFloor struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	BuildingID     string `json:"buildingId"`
	Name           string `json:"name"`
	FloorNumber    int32  `json:"floorNumber"`
	Image          string `json:"image,omitempty"`
	Status         string `json:"status,omitempty"`
	Type           string `json:"type,omitempty"`
	Visible        *bool  `json:"visible,omitempty"`
}

// LayoutSubcategory is a kind of resource; Category is WORKSTATION or SPACE.
type LayoutSubcategory struct {
	ID              string `json:"id"`
	OrganizationID  string `json:"organizationId"`
	Name            string `json:"name"`
	Category        string `json:"category"`
	DeleteHistorial bool   `json:"deleteHistorial"`
	HideBookings    bool   `json:"hideBookings"`
	CanBeSearched   *bool  `json:"canBeSearched,omitempty"`
	Shifts          bool   `json:"shifts"`
}

// LayoutResourceRule is a resource rule. Every duration and offset is in milliseconds (DESIGN.md §4).
// An EndTime of 0, or none, means the end of the day.
type LayoutResourceRule struct {
	ID                      string `json:"id"`
	OrganizationID          string `json:"organizationId"`
	Name                    string `json:"name,omitempty"`
	AdvanceCheckIn          int64  `json:"advanceCheckIn"`
	ExpirationMargin        int64  `json:"expirationMargin"`
	StartTime               int64  `json:"startTime"`
	EndTime                 int64  `json:"endTime"`
	MaximumDuration         int64  `json:"maximumDuration"`
	MaximumAdvance          int64  `json:"maximumAdvance"`
	AccessControlType       string `json:"accessControlType,omitempty"`
	RequiresApproval        bool   `json:"requiresApproval"`
	AllDayBookings          bool   `json:"allDayBookings"`
	AllDayBookingsCheckInMS int64  `json:"allDayBookingsCheckInMS"`
}

// LayoutFeature is a feature a resource can have (a screen, a whiteboard…).
type LayoutFeature struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	Name           string `json:"name"`
	Email          string `json:"email,omitempty"`
}

// LayoutReservable is a service that can be contracted on bookings (catering, AV setup…).
type LayoutReservable struct {
	ID                     string `json:"id"`
	OrganizationID         string `json:"organizationId"`
	Name                   string `json:"name"`
	Type                   string `json:"type,omitempty"`
	Description            string `json:"description,omitempty"`
	ChooseQuantity         bool   `json:"chooseQuantity"`
	ChooseDeliveryTime     bool   `json:"chooseDeliveryTime"`
	AllowComments          bool   `json:"allowComments"`
	MinimumCancellationMs  int64  `json:"minimumCancellationMs"`
	StandardDeliveryTimeMs int64  `json:"standardDeliveryTimeMs"`
	Email                  string `json:"email,omitempty"` // who looks after the service
}

// LayoutMapCoordinates is the rectangle of a resource on its floor plan, in the image's pixels.
type LayoutMapCoordinates struct {
	TopLeftX     int32 `json:"topLeftX"`
	TopLeftY     int32 `json:"topLeftY"`
	BottomRightX int32 `json:"bottomRightX"`
	BottomRightY int32 `json:"bottomRightY"`
}

// LayoutResource is a desk (WORKSTATION) or a room (SPACE). Every import replaces its features and
// reservables with the lists given here.
type LayoutResource struct {
	ID             string               `json:"id"`
	OrganizationID string               `json:"organizationId"`
	FloorID        string               `json:"floorId"`
	SubcategoryID  string               `json:"subcategoryId"`
	ResourceRuleID string               `json:"resourceRuleId"`
	FeatureIDs     []string             `json:"featureIds,omitempty"`
	ReservableIDs  []string             `json:"reservableIds,omitempty"`
	Name           string               `json:"name"`
	PosterCode     string               `json:"posterCode"`
	Image          string               `json:"image,omitempty"`
	Phone          string               `json:"phone,omitempty"`
	MapCoordinates LayoutMapCoordinates `json:"mapCoordinates"`
	Approachable   *bool                `json:"approachable,omitempty"`
	Visible        *bool                `json:"visible,omitempty"`
	Status         string               `json:"status,omitempty"`
	Capacity       *int32               `json:"capacity,omitempty"`
}

// LayoutBody is the body of a booking.
type LayoutBody struct {
	Content  string `json:"content"`
	BodyType string `json:"bodyType,omitempty"`
}

// LayoutBooking is a booking loaded as history or as demo data. Dates are in milliseconds since the
// epoch.
type LayoutBooking struct {
	ID                   string     `json:"id"`
	OrganizationID       string     `json:"organizationId"`
	ResourceID           string     `json:"resourceId"`
	CreatorID            string     `json:"creatorId"`
	OrganizerID          string     `json:"organizerId"`
	StartDate            int64      `json:"startDate"`
	EndDate              int64      `json:"endDate"`
	Status               string     `json:"status,omitempty"`
	Subject              string     `json:"subject,omitempty"`
	Body                 LayoutBody `json:"body"`
	Importance           string     `json:"importance,omitempty"`
	BuildingAccessStatus string     `json:"buildingAccessStatus,omitempty"`
	CreateOnlineMeeting  bool       `json:"createOnlineMeeting"`
	SipAddress           string     `json:"sipAddress,omitempty"`
}

// LayoutClosure takes a building, a floor or a resource out of service from StartDate to EndDate
// (milliseconds since the epoch, like bookings) for Reason, which employees see. Exactly one of
// BuildingID, FloorID and ResourceID is set. Overlapping says what to do with the blocking bookings the
// closure would cover: "" refuses to save it (4016), CANCEL cancels them, KEEP keeps them (the closure
// does not cover them). KeptBookingIDs lists the bookings kept so far; an import ignores it.
type LayoutClosure struct {
	ID             string   `json:"id"`
	OrganizationID string   `json:"organizationId"`
	BuildingID     string   `json:"buildingId,omitempty"`
	FloorID        string   `json:"floorId,omitempty"`
	ResourceID     string   `json:"resourceId,omitempty"`
	StartDate      int64    `json:"startDate"`
	EndDate        int64    `json:"endDate"`
	Reason         string   `json:"reason"`
	Overlapping    string   `json:"overlapping,omitempty"`
	KeptBookingIDs []string `json:"keptBookingIds,omitempty"`
}

package booking

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// Visibility says who may see a person's bookings in the week view and in "Who's in".
type Visibility string

// The choices. A person without a choice of their own has the organization's default.
const (
	VisibleToNobody       Visibility = "NOBODY"       // only themselves
	VisibleToTeam         Visibility = "TEAM"         // the members of their teams and the colleagues they starred
	VisibleToOrganization Visibility = "ORGANIZATION" // everyone in the organization
)

// Visibilities lists the choices, narrowest first.
func Visibilities() []Visibility {
	return []Visibility{VisibleToNobody, VisibleToTeam, VisibleToOrganization}
}

// ParseVisibility reads a choice by its name.
// Codes: 2000 a name that is not a choice.
func ParseVisibility(field, s string) (Visibility, error) {
	for _, v := range Visibilities() {
		if string(v) == s {
			return v, nil
		}
	}
	if len(s) > 40 {
		s = s[:40] // the words quote the start of a long value; Quote escapes a cut character
	}
	return "", FieldRefuse(CodeInvalidRequest, field, "refusal.presence.badVisibility", map[string]any{"Value": strconv.Quote(s)})
}

// MaxPresenceDays bounds the days one look at who is in covers; MaxPresence the bookings it lists.
const (
	MaxPresenceDays = 14
	MaxPresence     = 2000
)

// Presence is a colleague's booking that the viewer may see: who, where and when. Team is true when the
// person shares a team with the viewer, Favourite when the viewer starred them.
type Presence struct {
	BookingID    uuid.UUID
	Person       User // ID, OrganizationID, Name and Surname only
	ResourceID   uuid.UUID
	ResourceName string
	ResourceType string
	Centre       [2]int32 // the resource's centre on its floor plan
	FloorID      uuid.UUID
	FloorName    string
	FloorNumber  int32
	BuildingID   uuid.UUID
	BuildingName string
	Timezone     string
	Interval     Interval
	Status       Status
	Team         bool
	Favourite    bool
}

// PresenceQuery asks who is in during [From, Until), in one building (BuildingID) or in all (nil).
type PresenceQuery struct {
	BuildingID  *uuid.UUID
	From, Until time.Time
}

// WhoIsIn lists the bookings, kept or under way, of the viewer and of the colleagues who let the viewer
// see theirs (Visibility), earliest first, at most MaxPresence. A subcategory that hides its bookings never
// shows them, and a receptionist or admin sees no more than anyone else.
// Codes: 1004 no such building; 2000 a period longer than MaxPresenceDays or empty.
func (s *Service) WhoIsIn(ctx context.Context, viewer User, q PresenceQuery) ([]Presence, error) {
	if !q.Until.After(q.From) || q.Until.Sub(q.From) > (MaxPresenceDays+1)*24*time.Hour {
		return nil, FieldRefuse(CodeInvalidRequest, "date", "refusal.presence.period", map[string]any{"Max": MaxPresenceDays})
	}
	org := viewer.OrganizationID
	if q.BuildingID != nil {
		if _, err := s.visibleBuilding(ctx, org, *q.BuildingID); err != nil {
			return nil, err
		}
	}
	rows, err := s.reads.PresenceBetween(ctx, queries.PresenceBetweenParams{
		OrganizationID: org, ViewerID: viewer.ID, BuildingID: q.BuildingID,
		FromDate: q.From, ToDate: q.Until, MaxRows: MaxPresence,
	})
	if err != nil {
		return nil, fmt.Errorf("who is in: %w", err)
	}
	out := make([]Presence, len(rows))
	for i, r := range rows {
		out[i] = Presence{
			BookingID:  r.ID,
			Person:     User{ID: r.OrganizerID, OrganizationID: org, Name: r.PersonName, Surname: r.PersonSurname},
			ResourceID: r.ResourceID, ResourceName: r.ResourceName, ResourceType: r.ResourceType,
			Centre:  [2]int32{(r.TopLeftX + r.BottomRightX) / 2, (r.TopLeftY + r.BottomRightY) / 2},
			FloorID: r.FloorID, FloorName: r.FloorName, FloorNumber: r.FloorNumber,
			BuildingID: r.BuildingID, BuildingName: r.BuildingName, Timezone: r.Timezone,
			Interval: Interval{Start: r.StartDate, End: r.EndDate}, Status: Status(r.Status),
			Team: r.Team, Favourite: r.Favourite,
		}
	}
	return out, nil
}

// BookingsVisibleTo returns the person's own choice of who may see their bookings (nil when they have
// none) and the organization's default.
func (s *Service) BookingsVisibleTo(ctx context.Context, u User) (*Visibility, Visibility, error) {
	r, err := s.q.UserBookingsVisibleTo(ctx, queries.UserBookingsVisibleToParams{OrganizationID: u.OrganizationID, UserID: u.ID})
	if err != nil {
		return nil, "", fmt.Errorf("who may see the bookings: %w", err)
	}
	var own *Visibility
	if r.Own != nil {
		v := Visibility(*r.Own)
		own = &v
	}
	return own, Visibility(r.OrganizationDefault), nil
}

// SetBookingsVisibleTo sets who may see u's bookings; nil gives them the organization's default.
func (s *Service) SetBookingsVisibleTo(ctx context.Context, u User, v *Visibility) error {
	var value *string
	if v != nil {
		s := string(*v)
		value = &s
	}
	if _, err := s.q.UserSetBookingsVisibleTo(ctx, queries.UserSetBookingsVisibleToParams{
		OrganizationID: u.OrganizationID, UserID: u.ID, VisibleTo: value,
	}); err != nil {
		return fmt.Errorf("set who may see the bookings: %w", err)
	}
	return nil
}

// SetDefaultBookingsVisibleTo sets the organization's default of who may see a person's bookings.
// Codes: 1001 an actor who is not an admin.
func (s *Service) SetDefaultBookingsVisibleTo(ctx context.Context, admin User, v Visibility) error {
	if admin.Role != RoleAdmin {
		return Refuse(CodeForbidden, "refusal.request.adminsOnly")
	}
	if _, err := s.q.OrganizationSetBookingsVisibleTo(ctx, queries.OrganizationSetBookingsVisibleToParams{
		OrganizationID: admin.OrganizationID, VisibleTo: string(v),
	}); err != nil {
		return fmt.Errorf("set the default of who may see bookings: %w", err)
	}
	return nil
}

// LocalDay returns the local midnight of date (YYYY-MM-DD; today when empty) in the building's time zone.
// Codes: 1004 no such building; 2000 a date that is not YYYY-MM-DD.
func (s *Service) LocalDay(ctx context.Context, actor User, buildingID uuid.UUID, date string) (time.Time, error) {
	b, err := s.visibleBuilding(ctx, actor.OrganizationID, buildingID)
	if err != nil {
		return time.Time{}, err
	}
	loc, err := Location(b.Timezone)
	if err != nil {
		return time.Time{}, err
	}
	if date == "" {
		return atOffset(s.now(), loc, 0), nil
	}
	d, err := time.ParseInLocation(time.DateOnly, date, loc)
	if err != nil {
		if len(date) > 40 {
			date = date[:40]
		}
		return time.Time{}, FieldRefuse(CodeInvalidRequest, "date", "refusal.presence.badDate", map[string]any{"Value": strconv.Quote(date)})
	}
	return d, nil
}

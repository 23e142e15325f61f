package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// createBookingRequest is one element of the create request (4.4). Pointers tell absent from zero.
type createBookingRequest struct {
	Resource *struct {
		ID *string `json:"id"`
	} `json:"resource"`
	StartDate  *int64  `json:"startDate"`
	EndDate    *int64  `json:"endDate"`
	AllDay     *bool   `json:"allDay"`
	Importance *string `json:"importance"`
	Subject    *string `json:"subject"`
	Body       *struct {
		Content  string `json:"content"`
		BodyType string `json:"bodyType"`
	} `json:"body"`
	InternalAttendees []struct {
		Type string `json:"type"`
		User *struct {
			ID string `json:"id"`
		} `json:"user"`
	} `json:"internalAttendees"`
	ExternalAttendees []struct {
		Type  string `json:"type"`
		Email string `json:"email"`
	} `json:"externalAttendees"`
	CreateOnlineMeeting *bool   `json:"createOnlineMeeting"`
	SipAddress          *string `json:"sipAddress"`
}

type bookingsResponse struct {
	Bookings []bookingDTO `json:"bookings"`
}

// CreateSpaceBookings is 4.4: POST /api/v1/users/{me|userId}/bookings/spaces/standard.
func (s *Handlers) CreateSpaceBookings(c echo.Context) error {
	return s.createBookings(c, booking.CategorySpace)
}

// CreateWorkstationBookings is POST /api/v1/users/{me|userId}/bookings/workstations/standard: the same
// request and answer as 4.4, for workstations; an element with "allDay": true books the whole window of
// its startDate's day.
func (s *Handlers) CreateWorkstationBookings(c echo.Context) error {
	return s.createBookings(c, booking.CategoryWorkstation)
}

func (s *Handlers) createBookings(c echo.Context, category booking.Category) error {
	actor, organizer, err := s.actingFor(c)
	if err != nil {
		return err
	}
	reqs, err := decodeBookingRequests(c)
	if err != nil {
		return err
	}
	// When the client sent an Idempotency-Key, s.idempotent has already checked and claimed it; the
	// bookings are recorded under it.
	h := c.Request().Header
	bs, err := s.bookings.CreateBookings(c.Request().Context(), booking.CreateRequest{
		Creator: actor, Organizer: organizer, Category: category, Bookings: reqs,
		UserAccessToken: h.Get("user-access-token"), IdempotencyKey: h.Get(kit.IdempotencyKeyHeader),
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, bookingsResponse{Bookings: toDTOs(bs, toBooking)})
}

// decodeBookingRequests decodes the array of the create request; errors name the element and field.
func decodeBookingRequests(c echo.Context) ([]booking.NewBooking, error) {
	body, err := kit.ReadBody(c)
	if err != nil {
		return nil, err
	}
	var elems []json.RawMessage
	if err := kit.DecodeJSON(body, "", &elems); err != nil {
		return nil, err
	}
	if elems == nil {
		return nil, kit.Refuse("refusal.request.bookingArrayRequired")
	}
	out := make([]booking.NewBooking, len(elems))
	for i, raw := range elems {
		nb, err := toNewBooking(raw, i)
		if err != nil {
			return nil, booking.AtIndex(err, i)
		}
		out[i] = nb
	}
	return out, nil
}

func toNewBooking(raw json.RawMessage, i int) (booking.NewBooking, error) {
	path := fmt.Sprintf("[%d]", i)
	var r *createBookingRequest
	if err := kit.DecodeJSON(raw, path, &r); err != nil {
		return booking.NewBooking{}, err
	}
	if r == nil {
		return booking.NewBooking{}, kit.FieldRefuse(path, "refusal.request.bookingObjectRequired")
	}
	var nb booking.NewBooking
	if r.Resource == nil || r.Resource.ID == nil {
		return nb, kit.FieldRefuse(fmt.Sprintf("%s.resource.id", path), "refusal.request.required")
	}
	id, err := kit.ParseUUID(path+".resource.id", *r.Resource.ID)
	if err != nil {
		return nb, err
	}
	allDay := r.AllDay != nil && *r.AllDay
	if r.StartDate == nil {
		return nb, kit.FieldRefuse(fmt.Sprintf("%s.startDate", path), "refusal.request.required")
	}
	if r.EndDate == nil && !allDay {
		return nb, kit.FieldRefuse(fmt.Sprintf("%s.endDate", path), "refusal.request.requiredUnlessAllDay")
	}
	var end time.Time
	if r.EndDate != nil {
		end = time.UnixMilli(*r.EndDate)
	}
	nb = booking.NewBooking{
		ResourceID: id, Start: time.UnixMilli(*r.StartDate), End: end, AllDay: allDay,
		Importance: deref(r.Importance), Subject: deref(r.Subject), SipAddress: deref(r.SipAddress),
		CreateOnlineMeeting: r.CreateOnlineMeeting != nil && *r.CreateOnlineMeeting,
	}
	if r.Body != nil {
		nb.Body = booking.Body{Content: r.Body.Content, BodyType: r.Body.BodyType}
	}
	for j, a := range r.InternalAttendees {
		field := fmt.Sprintf("%s.internalAttendees[%d].user.id", path, j)
		if a.User == nil {
			return nb, kit.FieldRefuse(field, "refusal.request.required")
		}
		uid, err := kit.ParseUUID(field, a.User.ID)
		if err != nil {
			return nb, err
		}
		nb.InternalAttendees = append(nb.InternalAttendees, booking.InternalAttendee{Type: a.Type, UserID: uid})
	}
	for _, a := range r.ExternalAttendees {
		nb.ExternalAttendees = append(nb.ExternalAttendees, booking.ExternalAttendee{Type: a.Type, Email: a.Email})
	}
	return nb, nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

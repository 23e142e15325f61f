package booking

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// Attendee is someone invited to a booking: either a user of the organization (UserID set, Name their
// full name) or a guest known only by e-mail.
type Attendee struct {
	Type   string // REQUIRED or OPTIONAL
	UserID *uuid.UUID
	Name   string
	Email  string
}

// Attendees returns the people invited to a booking, in the order they were invited. b must come from
// Booking, which has already checked that the actor may see it.
func (s *Service) Attendees(ctx context.Context, b Booking) ([]Attendee, error) {
	rows, err := s.q.BookingAttendeesGet(ctx, queries.BookingAttendeesGetParams{
		OrganizationID: b.OrganizationID, BookingID: b.ID,
	})
	if err != nil {
		return nil, fmt.Errorf("get attendees: %w", err)
	}
	as := make([]Attendee, len(rows))
	for i, r := range rows {
		a := Attendee{Type: r.Type, UserID: r.UserID}
		if r.UserID != nil {
			a.Name, a.Email = strings.TrimSpace(r.Name+" "+r.Surname), r.UserEmail
		} else if r.Email != nil {
			a.Email = *r.Email
		}
		as[i] = a
	}
	return as, nil
}

package notify

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// mailInserts returns the e-mails of ev, one job per recipient.
func (s *Service) mailInserts(ctx context.Context, ev outbox.Event, b booking.Booking, attendees []booking.Attendee) ([]river.InsertManyParams, error) {
	return nil, nil
}

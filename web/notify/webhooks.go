package notify

import (
	"context"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// WebhookArgs is the job of one delivery of one event to one endpoint.
type WebhookArgs struct {
	OrganizationID uuid.UUID `json:"organizationId"`
	EndpointID     uuid.UUID `json:"endpointId"`
	EventID        uuid.UUID `json:"eventId"`
	Type           string    `json:"type"`
	Body           []byte    `json:"body"`
}

// Kind is the River job kind of a webhook delivery.
func (WebhookArgs) Kind() string { return "webhook" }

// webhookWorker delivers one event to one endpoint.
type webhookWorker struct {
	river.WorkerDefaults[WebhookArgs]
	s *Service
}

// Work delivers the event.
func (w *webhookWorker) Work(ctx context.Context, job *river.Job[WebhookArgs]) error {
	return nil
}

// webhookInserts returns the deliveries of ev to the organization's endpoints that asked for its kind.
func (s *Service) webhookInserts(ctx context.Context, ev outbox.Event, b booking.Booking) ([]river.InsertManyParams, error) {
	return nil, nil
}

package notify

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
	"github.com/workspacebooking/booking/web/wire"
)

// Webhooks follow Standard Webhooks v1: each delivery is a POST of a JSON body with the headers
// webhook-id (the event's id, the same on every try), webhook-timestamp and webhook-signature. The body
// is written once, when the event is worked, so that every endpoint and every try gets the same bytes.

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

// webhookRetryDelays are the waits after each failed try of a delivery, as Standard Webhooks suggests,
// stretched so that the last try comes about three days (72 h 35 min) after the first.
var webhookRetryDelays = []time.Duration{
	5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
	10 * time.Hour, 10 * time.Hour, 15 * time.Hour, 15 * time.Hour, 15 * time.Hour,
}

// webhookMaxAttempts is how often a delivery is tried: once, then once after each delay.
var webhookMaxAttempts = len(webhookRetryDelays) + 1

// webhookRetryWindow is how long after its first try a delivery may still be tried. A Retry-After
// answer is honoured only inside it, so that an endpoint that always asks to wait cannot keep a
// delivery alive for ever.
const webhookRetryWindow = 3 * 24 * time.Hour

// webhookWorker delivers one event to one endpoint.
type webhookWorker struct {
	river.WorkerDefaults[WebhookArgs]
	s *Service
}

// NextRetry returns when to try a delivery again after its attempt-th failed try.
func (w *webhookWorker) NextRetry(job *river.Job[WebhookArgs]) time.Time {
	return time.Now().Add(webhookRetryDelay(job.Attempt))
}

// webhookRetryDelay is the wait after the attempt-th failed try.
func webhookRetryDelay(attempt int) time.Duration {
	i := min(max(attempt, 1), len(webhookRetryDelays)) - 1
	return webhookRetryDelays[i]
}

// Work sends the delivery to the endpoint as it is now (its address and secrets may have changed since
// the event), and records the try. A deleted or disabled endpoint gets nothing: the job is cancelled.
func (w *webhookWorker) Work(ctx context.Context, job *river.Job[WebhookArgs]) error {
	s, a := w.s, job.Args
	ep, err := s.q.WebhookEndpointGet(ctx, queries.WebhookEndpointGetParams{OrganizationID: a.OrganizationID, ID: a.EndpointID})
	if errors.Is(err, pgx.ErrNoRows) {
		return river.JobCancel(errors.New("the webhook endpoint was deleted"))
	}
	if err != nil {
		return fmt.Errorf("read webhook endpoint: %w", err)
	}
	if ep.DisabledAt != nil {
		return river.JobCancel(fmt.Errorf("the webhook endpoint is disabled (%s)", deref(ep.DisabledReason)))
	}
	r := s.post(ctx, ep, a)
	return s.settle(ctx, job, r)
}

// webhookPayload is the body of a delivery.
type webhookPayload struct {
	Type      outbox.Kind `json:"type"`
	Timestamp string      `json:"timestamp"` // when the event happened, RFC 3339
	Data      webhookData `json:"data"`
}

// webhookData is the booking as GET /api/v1/bookings/{bookingId} answers it, and why it was cancelled
// or released when its organizer did not do it.
type webhookData struct {
	wire.BookingDetail
	Reason string `json:"reason,omitempty"`
}

// webhookBody writes the body of ev's deliveries.
func webhookBody(ev outbox.Event, b booking.Booking) ([]byte, error) {
	body, err := json.Marshal(webhookPayload{
		Type:      ev.Kind,
		Timestamp: ev.At.UTC().Format("2006-01-02T15:04:05.000Z07:00"),
		Data:      webhookData{BookingDetail: wire.NewBookingDetail(b), Reason: ev.Reason},
	})
	if err != nil {
		return nil, fmt.Errorf("write webhook body: %w", err)
	}
	return body, nil
}

// webhookInserts returns the deliveries of ev to the organization's endpoints that asked for its kind.
func (s *Service) webhookInserts(ctx context.Context, ev outbox.Event, b booking.Booking) ([]river.InsertManyParams, error) {
	eps, err := s.q.WebhookEndpointsForEvent(ctx, queries.WebhookEndpointsForEventParams{
		OrganizationID: ev.OrganizationID, EventType: string(ev.Kind),
	})
	if err != nil {
		return nil, fmt.Errorf("webhook endpoints for %s: %w", ev.Kind, err)
	}
	if len(eps) == 0 {
		return nil, nil
	}
	body, err := webhookBody(ev, b)
	if err != nil {
		return nil, err
	}
	out := make([]river.InsertManyParams, len(eps))
	for i, ep := range eps {
		out[i] = webhookInsert(WebhookArgs{
			OrganizationID: ev.OrganizationID, EndpointID: ep.ID, EventID: ev.ID, Type: string(ev.Kind), Body: body,
		})
	}
	return out, nil
}

// webhookInsert returns the insert of a delivery job.
func webhookInsert(a WebhookArgs) river.InsertManyParams {
	return river.InsertManyParams{Args: a, InsertOpts: &river.InsertOpts{Queue: outbox.Queue, MaxAttempts: webhookMaxAttempts}}
}

// deref returns what p points to, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

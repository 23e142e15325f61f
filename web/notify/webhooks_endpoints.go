package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// The webhook endpoints of an organization, as its admins register them in the console and the Admin
// API. Every method refuses anyone but an admin (1001) and finds only the actor's organization's
// endpoints: another organization's id is not found (1013).

// Limits of webhook endpoints.
const (
	MaxWebhookEndpoints   = 20  // per organization
	MaxWebhookDescription = 200 // characters
	// MaxWebhookDeliveries is how many of an endpoint's newest deliveries are listed.
	MaxWebhookDeliveries = 50
	// WebhookSecretOverlap is how long the secret a rotation replaces keeps signing.
	WebhookSecretOverlap = 24 * time.Hour
	secretPrefix         = "whsec_"
	auditWebhooks        = "webhooks" // the audit log's collection of endpoints
)

// Why an endpoint is disabled.
const (
	DisabledByAdmin = "admin" // an admin turned it off
	DisabledGone    = "gone"  // it answered 410 Gone
)

// WebhookEndpoint is an endpoint as admins see it. Its secret is shown only when it is made.
type WebhookEndpoint struct {
	ID          uuid.UUID
	URL         string
	Description string
	EventTypes  []outbox.Kind // in the order of outbox.Kinds
	// DisabledReason is DisabledByAdmin or DisabledGone when the endpoint gets nothing, "" when enabled.
	DisabledReason string
	DisabledAt     *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// RotatingUntil is when the secret a rotation replaced stops signing; nil when none does.
	RotatingUntil *time.Time
}

// Enabled reports whether the endpoint gets deliveries.
func (e WebhookEndpoint) Enabled() bool { return e.DisabledReason == "" }

// WebhookEndpointChange is what an admin sets on an endpoint. A nil field is left as it is; a new
// endpoint needs URL and EventTypes, and is enabled unless Enabled says otherwise.
type WebhookEndpointChange struct {
	URL         *string
	Description *string
	EventTypes  []string // nil: unchanged
	Enabled     *bool
}

// WebhookDelivery is one try of a delivery.
type WebhookDelivery struct {
	ID        uuid.UUID
	EventID   uuid.UUID
	EventType string
	Attempt   int
	Status    int    // the answer's HTTP status; 0 when there was no answer
	Outcome   string // delivered, failed, gone (the endpoint answered 410) or snoozed (Retry-After)
	Error     string
	Answer    string // the start of the answer
	// AnswerTruncated says Answer is not the whole answer.
	AnswerTruncated bool
	Duration        time.Duration
	At              time.Time
}

// Delivered reports whether the endpoint took the delivery (2xx).
func (d WebhookDelivery) Delivered() bool { return d.Outcome == "delivered" }

// WebhookEndpoints lists the endpoints of the actor's organization, oldest first.
// Codes: 1001 the actor is not an admin.
func (s *Service) WebhookEndpoints(ctx context.Context, actor booking.User) ([]WebhookEndpoint, error) {
	if err := onlyAdmins(actor); err != nil {
		return nil, err
	}
	rows, err := s.q.WebhookEndpointsOfOrganization(ctx, queries.WebhookEndpointsOfOrganizationParams{
		OrganizationID: actor.OrganizationID, MaxRows: MaxWebhookEndpoints,
	})
	if err != nil {
		return nil, fmt.Errorf("list webhook endpoints: %w", err)
	}
	out := make([]WebhookEndpoint, len(rows))
	for i, r := range rows {
		out[i] = s.endpointFromRow(r)
	}
	return out, nil
}

// WebhookEndpoint returns one endpoint of the actor's organization.
// Codes: 1001 the actor is not an admin; 1013 no such endpoint in the organization.
func (s *Service) WebhookEndpoint(ctx context.Context, actor booking.User, id uuid.UUID) (WebhookEndpoint, error) {
	if err := onlyAdmins(actor); err != nil {
		return WebhookEndpoint{}, err
	}
	r, err := s.endpointRow(ctx, s.q, actor, id)
	if err != nil {
		return WebhookEndpoint{}, err
	}
	return s.endpointFromRow(r), nil
}

// CreateWebhookEndpoint registers an endpoint for the actor's organization and returns it with its
// secret, which is never shown again.
// Codes: 1001 the actor is not an admin; 2000 a bad address, description or event type (the field
// named), or MaxWebhookEndpoints endpoints already.
func (s *Service) CreateWebhookEndpoint(ctx context.Context, actor booking.User, c WebhookEndpointChange) (WebhookEndpoint, string, error) {
	if err := onlyAdmins(actor); err != nil {
		return WebhookEndpoint{}, "", err
	}
	if c.URL == nil {
		c.URL = new("")
	}
	if c.EventTypes == nil {
		c.EventTypes = []string{}
	}
	v, err := s.checkChange(ctx, WebhookEndpoint{}, c)
	if err != nil {
		return WebhookEndpoint{}, "", err
	}
	secret := newWebhookSecret()
	var out WebhookEndpoint
	err = s.webhookTx(ctx, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		if err := q.OrganizationAdminLock(ctx, actor.OrganizationID); err != nil {
			return fmt.Errorf("lock organization: %w", err)
		}
		n, err := q.WebhookEndpointCount(ctx, actor.OrganizationID)
		if err != nil {
			return fmt.Errorf("count webhook endpoints: %w", err)
		}
		if n >= MaxWebhookEndpoints {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.webhooks.tooManyEndpoints", map[string]any{"Max": MaxWebhookEndpoints})
		}
		r, err := q.WebhookEndpointInsert(ctx, queries.WebhookEndpointInsertParams{
			OrganizationID: actor.OrganizationID, ID: uuid.New(), Url: v.URL, Description: v.Description,
			EventTypes: kindStrings(v.EventTypes), Secret: secret, Enabled: v.Enabled(), Now: s.now(),
		})
		if err != nil {
			return fmt.Errorf("create webhook endpoint: %w", err)
		}
		out = s.endpointFromRow(r)
		return recordWebhookChange(ctx, q, actor, booking.AuditCreate, out.ID, nil, auditOf(out))
	})
	if err != nil {
		return WebhookEndpoint{}, "", err
	}
	return out, secret, nil
}

// UpdateWebhookEndpoint changes the fields of c that are set. Enabling an endpoint that was disabled
// (by an admin or by a 410) lets deliveries of later events reach it; disabling it cancels the ones
// waiting.
// Codes: 1001 the actor is not an admin; 1013 no such endpoint in the organization; 2000 a bad
// address, description or event type (the field named).
func (s *Service) UpdateWebhookEndpoint(ctx context.Context, actor booking.User, id uuid.UUID, c WebhookEndpointChange) (WebhookEndpoint, error) {
	if err := onlyAdmins(actor); err != nil {
		return WebhookEndpoint{}, err
	}
	before, err := s.WebhookEndpoint(ctx, actor, id)
	if err != nil {
		return WebhookEndpoint{}, err
	}
	v, err := s.checkChange(ctx, before, c)
	if err != nil {
		return WebhookEndpoint{}, err
	}
	var out WebhookEndpoint
	err = s.webhookTx(ctx, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		r, err := q.WebhookEndpointUpdate(ctx, updateParams(actor.OrganizationID, id, c, v, s.now()))
		if errors.Is(err, pgx.ErrNoRows) {
			return endpointNotFound(id)
		}
		if err != nil {
			return fmt.Errorf("update webhook endpoint: %w", err)
		}
		out = s.endpointFromRow(r)
		if !out.Enabled() {
			if err := s.cancelEndpointJobs(ctx, tx, actor.OrganizationID, id); err != nil {
				return err
			}
		}
		return recordWebhookChange(ctx, q, actor, booking.AuditUpdate, id, auditOf(before), auditOf(out))
	})
	return out, err
}

// DeleteWebhookEndpoint deletes an endpoint with its deliveries; those waiting are cancelled. It
// returns the endpoint as it was.
// Codes: 1001 the actor is not an admin; 1013 no such endpoint in the organization.
func (s *Service) DeleteWebhookEndpoint(ctx context.Context, actor booking.User, id uuid.UUID) (WebhookEndpoint, error) {
	if err := onlyAdmins(actor); err != nil {
		return WebhookEndpoint{}, err
	}
	var out WebhookEndpoint
	err := s.webhookTx(ctx, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		r, err := s.endpointRow(ctx, q, actor, id)
		if err != nil {
			return err
		}
		if err := s.cancelEndpointJobs(ctx, tx, actor.OrganizationID, id); err != nil {
			return err
		}
		if _, err := q.WebhookEndpointDelete(ctx, queries.WebhookEndpointDeleteParams{OrganizationID: actor.OrganizationID, ID: id}); err != nil {
			return fmt.Errorf("delete webhook endpoint: %w", err)
		}
		out = s.endpointFromRow(r)
		return recordWebhookChange(ctx, q, actor, booking.AuditDelete, id, auditOf(out), nil)
	})
	if err != nil {
		return WebhookEndpoint{}, err
	}
	return out, nil
}

// RotateWebhookSecret gives an endpoint a new secret and returns it, shown this once. For
// WebhookSecretOverlap the secret it replaces signs too, so that the receiver can switch without
// refusing a delivery. Rotating again during the overlap ends the older secret's.
// Codes: 1001 the actor is not an admin; 1013 no such endpoint in the organization.
func (s *Service) RotateWebhookSecret(ctx context.Context, actor booking.User, id uuid.UUID) (WebhookEndpoint, string, error) {
	if err := onlyAdmins(actor); err != nil {
		return WebhookEndpoint{}, "", err
	}
	secret := newWebhookSecret()
	var out WebhookEndpoint
	err := s.webhookTx(ctx, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		now := s.now()
		r, err := q.WebhookEndpointRotate(ctx, queries.WebhookEndpointRotateParams{
			OrganizationID: actor.OrganizationID, ID: id, Secret: secret, PreviousUntil: now.Add(WebhookSecretOverlap), Now: now,
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return endpointNotFound(id)
		}
		if err != nil {
			return fmt.Errorf("rotate webhook secret: %w", err)
		}
		out = s.endpointFromRow(r)
		return recordWebhookChange(ctx, q, actor, booking.AuditUpdate, id, nil, map[string]any{"secret": "rotated"})
	})
	if err != nil {
		return WebhookEndpoint{}, "", err
	}
	return out, secret, nil
}

// WebhookDeliveries lists the newest tries of an endpoint's deliveries, at most MaxWebhookDeliveries,
// newest first.
// Codes: 1001 the actor is not an admin; 1013 no such endpoint in the organization.
func (s *Service) WebhookDeliveries(ctx context.Context, actor booking.User, endpoint uuid.UUID) ([]WebhookDelivery, error) {
	if _, err := s.WebhookEndpoint(ctx, actor, endpoint); err != nil {
		return nil, err
	}
	rows, err := s.q.WebhookDeliveriesOfEndpoint(ctx, queries.WebhookDeliveriesOfEndpointParams{
		OrganizationID: actor.OrganizationID, EndpointID: endpoint, MaxRows: MaxWebhookDeliveries,
	})
	if err != nil {
		return nil, fmt.Errorf("list webhook deliveries: %w", err)
	}
	out := make([]WebhookDelivery, len(rows))
	for i, r := range rows {
		out[i] = WebhookDelivery{
			ID: r.ID, EventID: r.EventID, EventType: r.EventType, Attempt: int(r.Attempt), Outcome: r.Outcome,
			Error: r.Error, Answer: r.Answer, AnswerTruncated: r.AnswerTruncated,
			Duration: time.Duration(r.DurationMs) * time.Millisecond, At: r.AttemptedAt,
		}
		if r.Status != nil {
			out[i].Status = int(*r.Status)
		}
	}
	return out, nil
}

// ResendWebhookDelivery sends the body of one of an endpoint's deliveries to it again, with the same
// webhook-id, as a new delivery with its own retries. It returns the event's id.
// Codes: 1001 the actor is not an admin; 1013 no such endpoint or delivery in the organization; 2000
// the endpoint is disabled.
func (s *Service) ResendWebhookDelivery(ctx context.Context, actor booking.User, endpoint, delivery uuid.UUID) (uuid.UUID, error) {
	ep, err := s.WebhookEndpoint(ctx, actor, endpoint)
	if err != nil {
		return uuid.Nil, err
	}
	d, err := s.q.WebhookDeliveryGet(ctx, queries.WebhookDeliveryGetParams{OrganizationID: actor.OrganizationID, EndpointID: endpoint, ID: delivery})
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, booking.Refuse(booking.CodeObjectNotFound, "refusal.webhooks.noDelivery", map[string]any{"ID": delivery.String()})
	}
	if err != nil {
		return uuid.Nil, fmt.Errorf("read webhook delivery: %w", err)
	}
	if !ep.Enabled() {
		return uuid.Nil, booking.Refuse(booking.CodeInvalidRequest, "refusal.webhooks.endpointDisabled")
	}
	ins := webhookInsert(WebhookArgs{OrganizationID: d.OrganizationID, EndpointID: d.EndpointID, EventID: d.EventID, Type: d.EventType, Body: d.Body})
	if _, err := s.river.Insert(ctx, ins.Args, ins.InsertOpts); err != nil {
		return uuid.Nil, fmt.Errorf("resend webhook delivery: %w", err)
	}
	return d.EventID, nil
}

// onlyAdmins refuses anyone but an admin.
func onlyAdmins(actor booking.User) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.webhooks.onlyAdmins")
	}
	return nil
}

// endpointNotFound is the refusal of an id that names no endpoint of the organization.
func endpointNotFound(id uuid.UUID) error {
	return booking.Refuse(booking.CodeObjectNotFound, "refusal.webhooks.noEndpoint", map[string]any{"ID": id.String()})
}

// endpointRow reads an endpoint of the actor's organization.
func (s *Service) endpointRow(ctx context.Context, q *queries.Queries, actor booking.User, id uuid.UUID) (queries.WebhookEndpoint, error) {
	r, err := q.WebhookEndpointGet(ctx, queries.WebhookEndpointGetParams{OrganizationID: actor.OrganizationID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return r, endpointNotFound(id)
	}
	if err != nil {
		return r, fmt.Errorf("read webhook endpoint: %w", err)
	}
	return r, nil
}

// endpointFromRow returns the endpoint of a row, without its secrets.
func (s *Service) endpointFromRow(r queries.WebhookEndpoint) WebhookEndpoint {
	e := WebhookEndpoint{
		ID: r.ID, URL: r.Url, Description: r.Description, DisabledReason: deref(r.DisabledReason),
		DisabledAt: r.DisabledAt, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	for _, t := range r.EventTypes {
		e.EventTypes = append(e.EventTypes, outbox.Kind(t))
	}
	if r.PreviousSecretUntil != nil && s.now().Before(*r.PreviousSecretUntil) {
		e.RotatingUntil = r.PreviousSecretUntil
	}
	return e
}

// updateParams returns the update that stores the fields of v that c sets, and leaves the others as
// they are in the database.
func updateParams(org, id uuid.UUID, c WebhookEndpointChange, v WebhookEndpoint, now time.Time) queries.WebhookEndpointUpdateParams {
	p := queries.WebhookEndpointUpdateParams{OrganizationID: org, ID: id, Enabled: c.Enabled, Now: now}
	if c.URL != nil {
		p.Url = &v.URL
	}
	if c.Description != nil {
		p.Description = &v.Description
	}
	if c.EventTypes != nil {
		p.EventTypes = kindStrings(v.EventTypes)
	}
	return p
}

package api

import (
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/notify"
)

// The webhook endpoints in the Admin API, and the deliveries each one got. The same methods of
// web/notify serve the page /admin/webhooks. Admins only.

// webhookEndpointDTO is an endpoint as the API answers it; its secret only on creation and rotation.
type webhookEndpointDTO struct {
	ID             uuid.UUID `json:"id"`
	URL            string    `json:"url"`
	Description    string    `json:"description"`
	EventTypes     []string  `json:"eventTypes"`
	Enabled        bool      `json:"enabled"`
	DisabledReason *string   `json:"disabledReason"`
	DisabledAt     *int64    `json:"disabledAt"`
	CreatedAt      int64     `json:"createdAt"`
	UpdatedAt      int64     `json:"updatedAt"`
	// PreviousSecretUntil is when the secret the last rotation replaced stops signing.
	PreviousSecretUntil *int64 `json:"previousSecretUntil"`
}

// webhookSecretDTO is an endpoint with its new secret, shown this once.
type webhookSecretDTO struct {
	webhookEndpointDTO
	Secret string `json:"secret"`
}

// webhookInputDTO is what POST and PATCH read; a field left out (or null) is left as it is.
type webhookInputDTO struct {
	URL         *string  `json:"url"`
	Description *string  `json:"description"`
	EventTypes  []string `json:"eventTypes"`
	Enabled     *bool    `json:"enabled"`
}

// webhookDeliveryDTO is one try of a delivery.
type webhookDeliveryDTO struct {
	ID              uuid.UUID `json:"id"`
	EventID         uuid.UUID `json:"eventId"`
	EventType       string    `json:"eventType"`
	Attempt         int       `json:"attempt"`
	Status          *int      `json:"status"`
	Outcome         string    `json:"outcome"`
	Error           string    `json:"error"`
	Answer          string    `json:"answer"`
	AnswerTruncated bool      `json:"answerTruncated"`
	DurationMs      int64     `json:"durationMs"`
	At              int64     `json:"at"`
}

func toWebhookEndpointDTO(e notify.WebhookEndpoint) webhookEndpointDTO {
	d := webhookEndpointDTO{
		ID: e.ID, URL: e.URL, Description: e.Description, EventTypes: make([]string, len(e.EventTypes)),
		Enabled: e.Enabled(), DisabledAt: optionalMillis(e.DisabledAt), CreatedAt: millis(e.CreatedAt),
		UpdatedAt: millis(e.UpdatedAt), PreviousSecretUntil: optionalMillis(e.RotatingUntil),
	}
	for i, k := range e.EventTypes {
		d.EventTypes[i] = string(k)
	}
	if !e.Enabled() {
		d.DisabledReason = new(e.DisabledReason)
	}
	return d
}

func toWebhookDeliveryDTO(d notify.WebhookDelivery) webhookDeliveryDTO {
	out := webhookDeliveryDTO{
		ID: d.ID, EventID: d.EventID, EventType: d.EventType, Attempt: d.Attempt, Outcome: d.Outcome,
		Error: d.Error, Answer: d.Answer, AnswerTruncated: d.AnswerTruncated,
		DurationMs: d.Duration.Milliseconds(), At: millis(d.At),
	}
	if d.Status != 0 {
		out.Status = new(d.Status)
	}
	return out
}

// optionalMillis is t in ms since the epoch, or nil.
func optionalMillis(t *time.Time) *int64 {
	if t == nil {
		return nil
	}
	return new(millis(*t))
}

// webhookIDParam reads the {webhookId} path segment.
func webhookIDParam(c echo.Context) (uuid.UUID, error) {
	return kit.ParseUUID("webhookId", c.Param("webhookId"))
}

// readWebhookInput reads the body of POST and PATCH.
func readWebhookInput(c echo.Context) (notify.WebhookEndpointChange, error) {
	var in webhookInputDTO
	if err := decodeObject(c, &in, "url", "description", "eventTypes", "enabled"); err != nil {
		return notify.WebhookEndpointChange{}, err
	}
	return notify.WebhookEndpointChange{URL: in.URL, Description: in.Description, EventTypes: in.EventTypes, Enabled: in.Enabled}, nil
}

// AdminWebhooks is GET /api/v1/admin/webhooks: {"webhooks": [endpoints]}, oldest first.
func (s *Handlers) AdminWebhooks(c echo.Context) error {
	eps, err := s.notify.WebhookEndpoints(c.Request().Context(), kit.Actor(c))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string][]webhookEndpointDTO{"webhooks": toDTOs(eps, toWebhookEndpointDTO)})
}

// AdminCreateWebhook is POST /api/v1/admin/webhooks: 201 with the endpoint and its secret.
func (s *Handlers) AdminCreateWebhook(c echo.Context) error {
	in, err := readWebhookInput(c)
	if err != nil {
		return err
	}
	ep, secret, err := s.notify.CreateWebhookEndpoint(c.Request().Context(), kit.Actor(c), in)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, webhookSecretDTO{webhookEndpointDTO: toWebhookEndpointDTO(ep), Secret: secret})
}

// AdminWebhook is GET /api/v1/admin/webhooks/{webhookId}.
func (s *Handlers) AdminWebhook(c echo.Context) error {
	id, err := webhookIDParam(c)
	if err != nil {
		return err
	}
	ep, err := s.notify.WebhookEndpoint(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toWebhookEndpointDTO(ep))
}

// AdminPatchWebhook is PATCH /api/v1/admin/webhooks/{webhookId}: changes the fields sent.
func (s *Handlers) AdminPatchWebhook(c echo.Context) error {
	id, err := webhookIDParam(c)
	if err != nil {
		return err
	}
	in, err := readWebhookInput(c)
	if err != nil {
		return err
	}
	ep, err := s.notify.UpdateWebhookEndpoint(c.Request().Context(), kit.Actor(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, toWebhookEndpointDTO(ep))
}

// AdminDeleteWebhook is DELETE /api/v1/admin/webhooks/{webhookId}: 204.
func (s *Handlers) AdminDeleteWebhook(c echo.Context) error {
	id, err := webhookIDParam(c)
	if err != nil {
		return err
	}
	if _, err := s.notify.DeleteWebhookEndpoint(c.Request().Context(), kit.Actor(c), id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// AdminRotateWebhook is POST /api/v1/admin/webhooks/{webhookId}/rotate: the endpoint with its new secret.
func (s *Handlers) AdminRotateWebhook(c echo.Context) error {
	id, err := webhookIDParam(c)
	if err != nil {
		return err
	}
	ep, secret, err := s.notify.RotateWebhookSecret(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, webhookSecretDTO{webhookEndpointDTO: toWebhookEndpointDTO(ep), Secret: secret})
}

// AdminWebhookDeliveries is GET /api/v1/admin/webhooks/{webhookId}/deliveries: the newest 50 tries.
func (s *Handlers) AdminWebhookDeliveries(c echo.Context) error {
	id, err := webhookIDParam(c)
	if err != nil {
		return err
	}
	ds, err := s.notify.WebhookDeliveries(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string][]webhookDeliveryDTO{"deliveries": toDTOs(ds, toWebhookDeliveryDTO)})
}

// AdminResendWebhookDelivery is POST /api/v1/admin/webhooks/{webhookId}/deliveries/{deliveryId}/resend:
// 202, the body sent again as a new delivery.
func (s *Handlers) AdminResendWebhookDelivery(c echo.Context) error {
	id, err := webhookIDParam(c)
	if err != nil {
		return err
	}
	delivery, err := kit.ParseUUID("deliveryId", c.Param("deliveryId"))
	if err != nil {
		return err
	}
	event, err := s.notify.ResendWebhookDelivery(c.Request().Context(), kit.Actor(c), id, delivery)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, map[string]uuid.UUID{"eventId": event})
}

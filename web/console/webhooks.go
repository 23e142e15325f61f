package console

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/notify"
	"github.com/workspacebooking/booking/web/outbox"
)

// The webhooks page of the admin console: the organization's endpoints, a form to add one, and a page
// per endpoint with its settings, its secret's rotation and its latest deliveries. Every handler calls
// one method of web/notify, which the Admin API calls too; it refuses anyone but an admin (1001) and
// another organization's ids (1013).

// webhookWords names an endpoint's fields as its form does.
var webhookWords = map[string]string{"url": "Address", "description": "Description", "eventTypes": "Events"}

// webhookEventWords says what an event type means, in ctx's language.
func webhookEventWords(ctx context.Context, k outbox.Kind) string {
	switch k {
	case outbox.Created:
		return lang.T(ctx, "admin.webhooks.eventCreated")
	case outbox.Changed:
		return lang.T(ctx, "admin.webhooks.eventChanged")
	case outbox.Cancelled:
		return lang.T(ctx, "admin.webhooks.eventCancelled")
	case outbox.Released:
		return lang.T(ctx, "admin.webhooks.eventReleased")
	case outbox.Expired:
		return lang.T(ctx, "admin.webhooks.eventExpired")
	case outbox.Approved:
		return lang.T(ctx, "admin.webhooks.eventApproved")
	case outbox.Rejected:
		return lang.T(ctx, "admin.webhooks.eventRejected")
	case outbox.CheckInOpened:
		return lang.T(ctx, "admin.webhooks.eventCheckInOpened")
	case outbox.ServicesChanged:
		return lang.T(ctx, "admin.webhooks.eventServicesChanged")
	}
	return ""
}

// webhookEventTypes are the choices of the form's events, in the order the documentation gives them.
func webhookEventTypes(ctx context.Context) []views.Option {
	out := make([]views.Option, len(outbox.Kinds))
	for i, k := range outbox.Kinds {
		out[i] = views.Option{Value: string(k), Label: webhookEventWords(ctx, k)}
	}
	return out
}

// Webhooks is GET /admin/webhooks.
func (s *Handlers) Webhooks(c echo.Context) error {
	p, err := s.webhooksPage(c)
	if err != nil {
		return err
	}
	_, p.Notice = s.PopFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminWebhooksPage(p))
}

// webhooksPage reads what the list shows, with an empty form.
func (s *Handlers) webhooksPage(c echo.Context) (views.AdminWebhooks, error) {
	ctx := kit.Ctx(c)
	eps, err := s.notify.WebhookEndpoints(ctx, kit.Actor(c))
	if err != nil {
		return views.AdminWebhooks{}, err
	}
	p := views.AdminWebhooks{
		Chrome: s.Chrome(c, lang.T(ctx, "admin.webhooks.title")), Max: notify.MaxWebhookEndpoints, EventTypes: webhookEventTypes(ctx),
		Form: views.WebhookForm{Enabled: true},
	}
	for _, e := range eps {
		p.Endpoints = append(p.Endpoints, webhookRow(ctx, e))
	}
	return p, nil
}

// CreateWebhook is POST /admin/webhooks (url, description, eventTypes). The answer shows the secret
// once, and is never stored by the browser or a proxy; a refusal shows the form again as sent.
func (s *Handlers) CreateWebhook(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	f := webhookFormOf(form, true)
	ep, secret, err := s.notify.CreateWebhookEndpoint(c.Request().Context(), kit.Actor(c), webhookChange(f))
	if err != nil {
		prob, status, err := refusal(c, err, "webhook endpoint", webhookWords)
		if err != nil {
			return err
		}
		p, err := s.webhooksPage(c)
		if err != nil {
			return err
		}
		p.Form, p.Form.Problem = f, prob
		return kit.Render(c, status, views.AdminWebhooksPage(p))
	}
	p, err := s.webhooksPage(c)
	if err != nil {
		return err
	}
	p.NewSecret = &views.WebhookSecret{URL: ep.URL, Secret: secret}
	c.Response().Header().Set("Cache-Control", "no-store")
	return kit.Render(c, http.StatusCreated, views.AdminWebhooksPage(p))
}

// Webhook is GET /admin/webhooks/{webhookId}.
func (s *Handlers) Webhook(c echo.Context) error {
	p, err := s.webhookPage(c)
	if err != nil {
		return err
	}
	_, p.Notice = s.PopFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminWebhookPage(p))
}

// webhookPage reads an endpoint's page, with its form filled from the endpoint as it is.
func (s *Handlers) webhookPage(c echo.Context) (views.AdminWebhook, error) {
	id, err := pathID(c, "webhookId")
	if err != nil {
		return views.AdminWebhook{}, err
	}
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	ep, err := s.notify.WebhookEndpoint(ctx, actor, id)
	if err != nil {
		return views.AdminWebhook{}, err
	}
	ds, err := s.notify.WebhookDeliveries(ctx, actor, id)
	if err != nil {
		return views.AdminWebhook{}, err
	}
	row := webhookRow(ctx, ep)
	p := views.AdminWebhook{
		Chrome: s.Chrome(c, lang.T(ctx, "admin.webhooks.endpoint")), Endpoint: row, EventTypes: webhookEventTypes(ctx),
		Form: views.WebhookForm{URL: ep.URL, Description: ep.Description, EventTypes: row.EventTypes, Enabled: ep.Enabled()},
	}
	for _, d := range ds {
		p.Deliveries = append(p.Deliveries, webhookDeliveryRow(ctx, d))
	}
	return p, nil
}

// SaveWebhook is POST /admin/webhooks/{webhookId} (url, description, eventTypes, enabled).
func (s *Handlers) SaveWebhook(c echo.Context) error {
	id, err := pathID(c, "webhookId")
	if err != nil {
		return err
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	f := webhookFormOf(form, checkField(form, "enabled"))
	if _, err := s.notify.UpdateWebhookEndpoint(c.Request().Context(), kit.Actor(c), id, webhookChange(f)); err != nil {
		prob, status, err := refusal(c, err, "webhook endpoint", webhookWords)
		if err != nil {
			return err
		}
		p, err := s.webhookPage(c)
		if err != nil {
			return err
		}
		p.Form, p.Form.Problem = f, prob
		return kit.Render(c, status, views.AdminWebhookPage(p))
	}
	s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.webhooks.saved"))
	return c.Redirect(http.StatusSeeOther, "/admin/webhooks/"+id.String())
}

// RotateWebhook is POST /admin/webhooks/{webhookId}/rotate: the page again, with the new secret shown
// once.
func (s *Handlers) RotateWebhook(c echo.Context) error {
	id, err := pathID(c, "webhookId")
	if err != nil {
		return err
	}
	ep, secret, err := s.notify.RotateWebhookSecret(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	p, err := s.webhookPage(c)
	if err != nil {
		return err
	}
	p.NewSecret = &views.WebhookSecret{URL: ep.URL, Secret: secret, Rotated: true}
	c.Response().Header().Set("Cache-Control", "no-store")
	return kit.Render(c, http.StatusOK, views.AdminWebhookPage(p))
}

// DeleteWebhook is POST /admin/webhooks/{webhookId}/delete.
func (s *Handlers) DeleteWebhook(c echo.Context) error {
	id, err := pathID(c, "webhookId")
	if err != nil {
		return err
	}
	ep, err := s.notify.DeleteWebhookEndpoint(c.Request().Context(), kit.Actor(c), id)
	if err != nil {
		return err
	}
	s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.webhooks.deleted", map[string]any{"URL": ep.URL}))
	return c.Redirect(http.StatusSeeOther, "/admin/webhooks")
}

// ResendWebhookDelivery is POST /admin/webhooks/{webhookId}/deliveries/{deliveryId}/resend.
func (s *Handlers) ResendWebhookDelivery(c echo.Context) error {
	id, err := pathID(c, "webhookId")
	if err != nil {
		return err
	}
	delivery, err := pathID(c, "deliveryId")
	if err != nil {
		return err
	}
	back := "/admin/webhooks/" + id.String()
	if _, err := s.notify.ResendWebhookDelivery(c.Request().Context(), kit.Actor(c), id, delivery); err != nil {
		prob, _, err := refusal(c, err, "webhook endpoint", webhookWords)
		if err != nil {
			return err
		}
		s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.webhooks.notSentAgain", map[string]any{"Message": prob.Message}))
		return c.Redirect(http.StatusSeeOther, back)
	}
	s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.webhooks.sentAgain"))
	return c.Redirect(http.StatusSeeOther, back)
}

// webhookFormOf reads an endpoint's form as typed.
func webhookFormOf(form url.Values, enabled bool) views.WebhookForm {
	return views.WebhookForm{
		URL: textField(form, "url"), Description: textField(form, "description"),
		EventTypes: form["eventTypes"], Enabled: enabled,
	}
}

// webhookChange is the change a form asks for. No type ticked is an empty list, which is refused.
func webhookChange(f views.WebhookForm) notify.WebhookEndpointChange {
	types := f.EventTypes
	if types == nil {
		types = []string{}
	}
	return notify.WebhookEndpointChange{URL: &f.URL, Description: &f.Description, EventTypes: types, Enabled: &f.Enabled}
}

// webhookRow is an endpoint in words, in ctx's language.
func webhookRow(ctx context.Context, e notify.WebhookEndpoint) views.WebhookRow {
	r := views.WebhookRow{ID: e.ID.String(), URL: e.URL, Description: e.Description, Enabled: e.Enabled(), Status: lang.T(ctx, "admin.webhooks.statusEnabled")}
	for _, k := range e.EventTypes {
		r.EventTypes = append(r.EventTypes, string(k))
	}
	switch e.DisabledReason {
	case notify.DisabledByAdmin:
		r.Status = lang.T(ctx, "admin.webhooks.statusDisabledByAdmin")
	case notify.DisabledGone:
		r.Status = lang.T(ctx, "admin.webhooks.statusGone")
	}
	if e.RotatingUntil != nil {
		r.Rotating = views.When(*e.RotatingUntil)
	}
	return r
}

// webhookOutcome says what became of a try, in ctx's language.
func webhookOutcome(ctx context.Context, outcome string) string {
	switch outcome {
	case "delivered":
		return lang.T(ctx, "admin.webhooks.outcomeDelivered")
	case "failed":
		return lang.T(ctx, "admin.webhooks.outcomeFailed")
	case "gone":
		return lang.T(ctx, "admin.webhooks.outcomeGone")
	case "snoozed":
		return lang.T(ctx, "admin.webhooks.outcomeSnoozed")
	}
	return ""
}

// maxAnswerShown is how many characters of an answer the page shows.
const maxAnswerShown = 200

// webhookDeliveryRow is a try in words, in ctx's language.
func webhookDeliveryRow(ctx context.Context, d notify.WebhookDelivery) views.WebhookDeliveryRow {
	r := views.WebhookDeliveryRow{
		ID: d.ID.String(), When: views.When(d.At), EventType: d.EventType, EventID: d.EventID.String(),
		Attempt: d.Attempt, Status: lang.T(ctx, "admin.webhooks.noAnswer"), Outcome: webhookOutcome(ctx, d.Outcome), OK: d.Delivered(),
		Answer: d.Answer, Error: d.Error,
	}
	if d.Status != 0 {
		r.Status = strconv.Itoa(d.Status)
	}
	if utf8.RuneCountInString(r.Answer) > maxAnswerShown {
		r.Answer = string([]rune(r.Answer)[:maxAnswerShown]) + "…"
	} else if d.AnswerTruncated {
		r.Answer += "…"
	}
	return r
}

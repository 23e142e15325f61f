package notify

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// The rules of an endpoint's fields, and what the audit log keeps of its changes.

// checkChange applies c to e and checks the result.
func (s *Service) checkChange(ctx context.Context, e WebhookEndpoint, c WebhookEndpointChange) (WebhookEndpoint, error) {
	if c.URL != nil {
		e.URL = strings.TrimSpace(*c.URL)
		if err := s.checkEndpointURL(ctx, e.URL); err != nil {
			return e, err
		}
	}
	if c.Description != nil {
		e.Description = strings.TrimSpace(*c.Description)
		if !utf8.ValidString(e.Description) || strings.ContainsRune(e.Description, 0) {
			return e, booking.FieldRefuse(booking.CodeInvalidRequest, "description", "refusal.webhooks.badText")
		}
		if n := utf8.RuneCountInString(e.Description); n > MaxWebhookDescription {
			return e, booking.FieldRefuse(booking.CodeInvalidRequest, "description", "refusal.webhooks.tooLong", map[string]any{"N": n, "Max": MaxWebhookDescription})
		}
	}
	if c.EventTypes != nil {
		kinds, err := eventKinds(c.EventTypes)
		if err != nil {
			return e, err
		}
		e.EventTypes = kinds
	}
	if c.Enabled != nil && *c.Enabled != e.Enabled() {
		e.DisabledReason = ""
		if !*c.Enabled {
			e.DisabledReason = DisabledByAdmin
		}
	}
	return e, nil
}

// eventKinds reads the event types an endpoint asks for: at least one, each a kind of outbox.Kinds.
// They are returned in the order of outbox.Kinds, each once.
func eventKinds(types []string) ([]outbox.Kind, error) {
	if len(types) == 0 {
		return nil, booking.FieldRefuse(booking.CodeInvalidRequest, "eventTypes", "refusal.webhooks.noEventType")
	}
	if len(types) > 4*len(outbox.Kinds) {
		return nil, booking.FieldRefuse(booking.CodeInvalidRequest, "eventTypes", "refusal.webhooks.tooManyEventTypes", map[string]any{"Max": len(outbox.Kinds)})
	}
	var out []outbox.Kind
	for _, t := range types {
		if !slices.Contains(outbox.Kinds, outbox.Kind(t)) {
			return nil, booking.FieldRefuse(booking.CodeInvalidRequest, "eventTypes", "refusal.webhooks.unknownEventType",
				map[string]any{"Type": strconv.Quote(clip(t)), "Types": kindList()})
		}
	}
	for _, k := range outbox.Kinds {
		if slices.Contains(types, string(k)) {
			out = append(out, k)
		}
	}
	return out, nil
}

// kindList names every event type, for a refusal.
func kindList() string { return strings.Join(kindStrings(outbox.Kinds), ", ") }

// kindStrings returns the kinds as strings.
func kindStrings(ks []outbox.Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}

// clip bounds text repeated in a refusal.
func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

// newWebhookSecret returns a new signing secret: whsec_ and the base64 of 32 random bytes.
func newWebhookSecret() string {
	key := make([]byte, 32)
	_, _ = rand.Read(key) // never fails (crypto/rand)
	return secretPrefix + base64.StdEncoding.EncodeToString(key)
}

// auditOf is what the audit log keeps of an endpoint.
func auditOf(e WebhookEndpoint) map[string]any {
	return map[string]any{"url": e.URL, "description": e.Description, "eventTypes": kindStrings(e.EventTypes), "enabled": e.Enabled()}
}

// recordWebhookChange appends a change of an endpoint to the organization's audit log, in q's
// transaction.
func recordWebhookChange(ctx context.Context, q *queries.Queries, actor booking.User, action booking.AuditAction, id uuid.UUID, before, after map[string]any) error {
	e, err := booking.Change{
		OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: action, Object: auditWebhooks,
		ObjectID: id, Before: before, After: after,
	}.Entry()
	if err != nil {
		return err
	}
	p, err := e.InsertParams()
	if err != nil {
		return err
	}
	if _, err := q.AuditInsert(ctx, p); err != nil {
		return fmt.Errorf("record audit of webhook %s: %w", id, err)
	}
	return nil
}

package booking

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// organizationSettings is an organization as the audit log keeps it, in the import format.
type organizationSettings struct {
	ID                       string `json:"id"`
	Name                     string `json:"name"`
	AdditionalServicesActive bool   `json:"additionalServicesActive"`
}

// SetAdditionalServices turns the actor's organization's additional-services module on or off, and
// records the change in the audit log. Turning it off keeps the services and what was ordered; nobody can
// order or change services until it is on again (4079).
// Codes: 1001 the actor is not an admin.
func (s *Service) SetAdditionalServices(ctx context.Context, actor User, active bool) error {
	if actor.Role != RoleAdmin {
		return Refuse(CodeForbidden, "refusal.booking.onlyAdminsServices")
	}
	return s.inTx(ctx, func(q *queries.Queries) error {
		old, err := q.OrganizationSetAdditionalServices(ctx, queries.OrganizationSetAdditionalServicesParams{
			ID: actor.OrganizationID, Active: active,
		})
		if errors.Is(err, pgx.ErrNoRows) {
			return Refuse(CodeForbidden, "refusal.booking.organizationGone")
		}
		if err != nil {
			return fmt.Errorf("set additional services: %w", err)
		}
		if old.AdditionalServicesActive == active {
			return nil // nothing changed, nothing to record
		}
		return recordOrganization(ctx, q, actor, old.Name, old.AdditionalServicesActive, active)
	})
}

// recordOrganization writes the audit entry of a change of the organization's additional services.
func recordOrganization(ctx context.Context, q *queries.Queries, actor User, orgName string, before, after bool) error {
	doc := func(on bool) json.RawMessage {
		b, _ := json.Marshal(organizationSettings{ID: actor.OrganizationID.String(), Name: orgName, AdditionalServicesActive: on})
		return b
	}
	id, name := AuditActor(actor)
	return recordAudit(ctx, q, AuditEntry{
		OrganizationID: actor.OrganizationID, ActorID: id, ActorName: name, Collection: "organizations",
		ObjectID: actor.OrganizationID, Action: AuditUpdate, Before: doc(before), After: doc(after),
	})
}

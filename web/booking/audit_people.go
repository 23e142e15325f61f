package booking

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// change is one change of a person's account, of the sign-in settings or of the SCIM tokens, as the
// audit log keeps it.
type change struct {
	OrganizationID uuid.UUID
	By             Changer
	Action         AuditAction
	Object         string // the collection, e.g. "users"
	ObjectID       uuid.UUID
	Before, After  map[string]any // nil: none
}

// recordChange writes c to the audit log (recordAudit) in the transaction of q.
func recordChange(ctx context.Context, q *queries.Queries, c change) error {
	e, err := c.entry()
	if err != nil {
		return err
	}
	return recordAudit(ctx, q, e)
}

// entry is c as an audit entry.
func (c change) entry() (AuditEntry, error) {
	e := AuditEntry{
		OrganizationID: c.OrganizationID, ActorName: c.By.Label, Collection: c.Object, ObjectID: c.ObjectID,
		Action: c.Action,
	}
	if c.By.UserID != uuid.Nil {
		e.ActorID = &c.By.UserID
	}
	var err error
	if c.Before != nil {
		if e.Before, err = json.Marshal(c.Before); err != nil {
			return AuditEntry{}, fmt.Errorf("audit before: %w", err)
		}
	}
	if c.After != nil {
		if e.After, err = json.Marshal(c.After); err != nil {
			return AuditEntry{}, fmt.Errorf("audit after: %w", err)
		}
	}
	return e, nil
}

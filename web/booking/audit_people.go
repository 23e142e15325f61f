package booking

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

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

// recordChange writes c to the audit log (RecordAudit) in the transaction of q.
func recordChange(ctx context.Context, q *queries.Queries, c change) error {
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
			return fmt.Errorf("audit before: %w", err)
		}
	}
	if c.After != nil {
		if e.After, err = json.Marshal(c.After); err != nil {
			return fmt.Errorf("audit after: %w", err)
		}
	}
	return RecordAudit(ctx, q, e)
}

// isUniqueViolation reports whether err is a violation of a unique constraint.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

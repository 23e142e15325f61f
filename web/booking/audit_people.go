package booking

import (
	"context"
	"errors"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/workspacebooking/booking/queries"
)

// change is one change of a person's account, of the sign-in settings or of the SCIM tokens, as the
// audit log keeps it.
type change struct {
	OrganizationID uuid.UUID
	By             Changer
	Action         string // e.g. "user.deactivate"
	Object         string // the collection, e.g. "users"
	ObjectID       uuid.UUID
	Before, After  map[string]any
}

// recordChange writes c to the audit log in the transaction of q.
func recordChange(ctx context.Context, q *queries.Queries, c change) error {
	_, _, _ = ctx, q, c // the audit log (RecordAudit) is not in this tree yet
	return nil
}

// isUniqueViolation reports whether err is a violation of a unique constraint.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

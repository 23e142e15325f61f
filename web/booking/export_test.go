package booking

import (
	"context"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// RecordAudit lets the tests write an audit entry through q, as the package does in its transactions.
func RecordAudit(ctx context.Context, q *queries.Queries, e AuditEntry) error {
	return recordAudit(ctx, q, e)
}

// ListAudit lets the tests read the audit log through q.
func ListAudit(ctx context.Context, q *queries.Queries, org uuid.UUID, f AuditFilter) ([]AuditEntry, error) {
	return listAudit(ctx, q, org, f)
}

package layout

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
)

// ExportReservables lets the tests read reservables as the admin operations do.
func ExportReservables(ctx context.Context, pool *pgxpool.Pool, s Scope) (Layout, error) {
	return exportReservables(ctx, queries.New(pool), s)
}

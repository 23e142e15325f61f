package layout

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// saveClosure creates or updates a closure inside the transaction of the write. It takes the building's
// closure lock exclusively, so no booking statement of the building runs meanwhile, then lists the
// blocking bookings the closure would cover, other than those it already keeps, and applies
// c.Overlapping (booking.ClosureSpec.ResolveOverlaps). The cached layouts are cleared after the commit
// (Service.change).
// Codes: 2000 a bad field, an unknown building, floor or resource, more than booking.MaxOpenClosures open
// closures, or more than booking.MaxKeptBookings bookings to cancel or keep; 4016 bookings covered and
// no choice.
func (im importer) saveClosure(ctx context.Context, c booking.ClosureSpec) error {
	if err := c.Validate(); err != nil {
		return err
	}
	q, now := im.q, im.svc.Now()
	c.Reason = strings.TrimSpace(c.Reason)
	org := c.OrganizationID
	building, err := q.ClosureBuilding(ctx, queries.ClosureBuildingParams{
		OrganizationID: org, BuildingID: c.BuildingID, FloorID: c.FloorID, ResourceID: c.ResourceID,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return c.UnknownTarget()
	}
	if err != nil {
		return fmt.Errorf("get the building of a closure: %w", err)
	}
	if err := q.ClosureLockBuilding(ctx, building); err != nil {
		return fmt.Errorf("lock the building's closures: %w", err)
	}
	kept := []uuid.UUID{}
	old, err := q.ClosureGetForUpdate(ctx, queries.ClosureGetForUpdateParams{OrganizationID: org, ID: c.ID})
	switch {
	case err == nil:
		kept = old.KeptBookingIds
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("get closure: %w", err)
	}
	open, err := q.ClosuresOpenCount(ctx, c.OpenCountParams(now))
	if err != nil {
		return fmt.Errorf("count closures: %w", err)
	}
	if err := c.CheckOpenCount(open, now); err != nil {
		return err
	}
	// A fresh statement after the lock: every booking that got the lock first has committed and is seen.
	covered, err := q.ClosureBookingsCovered(ctx, c.CoveredParams(kept, booking.MaxKeptBookings+1))
	if err != nil {
		return fmt.Errorf("list the bookings a closure covers: %w", err)
	}
	kept, cancel, err := c.ResolveOverlaps(covered, kept, now)
	if err != nil {
		return err
	}
	if len(cancel) > 0 {
		rows, err := q.ClosureBookingsCancel(ctx, queries.ClosureBookingsCancelParams{
			OrganizationID: org, Ids: cancel, StartDate: c.Start, EndDate: c.End,
		})
		if err != nil {
			return fmt.Errorf("cancel the bookings a closure covers: %w", err)
		}
		im.ev.Add(booking.ClosureEvents(org, rows, now)...)
	}
	err = q.ClosureUpsert(ctx, queries.ClosureUpsertParams{
		OrganizationID: org, ID: c.ID, BuildingID: c.BuildingID, FloorID: c.FloorID, ResourceID: c.ResourceID,
		StartDate: c.Start, EndDate: c.End, Reason: c.Reason, KeptBookingIds: kept,
	})
	if err != nil {
		return fmt.Errorf("save closure: %w", err)
	}
	return nil
}

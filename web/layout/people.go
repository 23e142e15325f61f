package layout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// The rules of people's accounts, applied inside the transaction of a layout write. The rules are the
// domain's (booking.CheckEmailHolders, booking.CheckActiveAdmins, booking.CheckActiveChange,
// booking.ActiveAudit); this file runs their queries in this package's transaction.

// checkPersonEmail refuses an e-mail address for a person of org when another organization has proved
// the address's domain.
// Codes: 2000.
func checkPersonEmail(ctx context.Context, q *queries.Queries, org uuid.UUID, field, email string) error {
	holders, err := q.EmailDomainHolder(ctx, booking.EmailDomainOf(email))
	if err != nil {
		return fmt.Errorf("find holder of e-mail domain: %w", err)
	}
	return booking.CheckEmailHolders(holders, org, field, email)
}

// keepAnAdmin refuses, with 4017, a change that leaves the organization with no active admin. It takes
// the organization's admin lock first, so that two admins demoting each other at once cannot both pass:
// the second counts after the first has committed. Call it after the change, in its transaction.
func keepAnAdmin(ctx context.Context, q *queries.Queries, org uuid.UUID) error {
	if err := q.OrganizationAdminLock(ctx, org); err != nil {
		return fmt.Errorf("lock admin changes: %w", err)
	}
	n, err := q.UsersActiveAdminCount(ctx, org)
	if err != nil {
		return fmt.Errorf("count admins: %w", err)
	}
	return booking.CheckActiveAdmins(n)
}

// setActive deactivates or reactivates a person as every deactivation does (identity.Service's
// SetUserActive): a deactivated person's tokens are revoked and their bookings that still hold a resource
// are released; the change is audited. A person already in the state asked for is left as they are. The
// domain's cached tokens are checked again after the commit (Service.change).
// Codes: 1003 no such person in the organization; 2000 deactivating one's own account; 4017 the last
// active admin.
func (im importer) setActive(ctx context.Context, org, userID uuid.UUID, active bool) error {
	q := im.q
	if err := booking.CheckActiveChange(im.by, userID, active); err != nil {
		return err
	}
	if !active {
		// The admin lock before the row lock, in the order the admin changes take them.
		if err := q.OrganizationAdminLock(ctx, org); err != nil {
			return fmt.Errorf("lock admin changes: %w", err)
		}
	}
	row, err := q.UserGetForUpdate(ctx, queries.UserGetForUpdateParams{OrganizationID: org, ID: userID})
	if errors.Is(err, pgx.ErrNoRows) {
		return booking.UserNotFound(userID)
	}
	if err != nil {
		return fmt.Errorf("get user: %w", err)
	}
	if row.Active == active {
		return nil
	}
	now := im.svc.Now().Truncate(time.Millisecond)
	if _, err := q.UserSetActive(ctx, queries.UserSetActiveParams{OrganizationID: org, ID: userID, Active: active, Now: now}); err != nil {
		return fmt.Errorf("set user active: %w", err)
	}
	if row.Role == string(booking.RoleAdmin) && row.Active {
		if err := keepAnAdmin(ctx, q, org); err != nil {
			return err
		}
	}
	var released []uuid.UUID
	if !active {
		if released, err = releaseAndRevoke(ctx, q, im.ev, org, userID, now); err != nil {
			return err
		}
	}
	e, err := booking.ActiveAudit(org, userID, im.by, row.Active, active, released)
	if err != nil {
		return err
	}
	return insertAudit(ctx, q, e)
}

// releaseAndRevoke releases the bookings of a person being deactivated and revokes their tokens. It
// returns the ids of the bookings it released.
func releaseAndRevoke(ctx context.Context, q *queries.Queries, ev *outbox.Batch, org, userID uuid.UUID, now time.Time) ([]uuid.UUID, error) {
	rows, err := q.BookingsReleaseOfOrganizer(ctx, queries.BookingsReleaseOfOrganizerParams{OrganizationID: org, OrganizerID: userID, Now: now})
	if err != nil {
		return nil, fmt.Errorf("release bookings: %w", err)
	}
	ev.Add(booking.DeactivationEvents(org, rows, now)...)
	if _, err := q.UserRevokeTokens(ctx, queries.UserRevokeTokensParams{OrganizationID: org, ID: userID, Before: now}); err != nil {
		return nil, fmt.Errorf("revoke tokens: %w", err)
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	return ids, nil
}

// insertAudit appends e to its organization's audit log in the transaction of q.
func insertAudit(ctx context.Context, q *queries.Queries, e booking.AuditEntry) error {
	p, err := e.InsertParams()
	if err != nil {
		return err
	}
	if _, err := q.AuditInsert(ctx, p); err != nil {
		return fmt.Errorf("record audit of %s %s: %w", e.Collection, e.ObjectID, err)
	}
	return nil
}

package report

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// Retention bounds, in months.
const (
	DefaultRetention = 13
	MinRetention     = 1
	MaxRetention     = 120
)

// Settings are an organization's report threshold and retention in months.
type Settings struct {
	Threshold int
	Retention int
}

// Settings returns the actor's organization's settings.
// Codes: 1001 the actor is not an admin.
func (s *Service) Settings(ctx context.Context, actor booking.User) (Settings, error) {
	if err := onlyAdmins(actor); err != nil {
		return Settings{}, err
	}
	row, err := s.q.ReportSettings(ctx, actor.OrganizationID)
	if err != nil {
		return Settings{}, fmt.Errorf("read report settings: %w", err)
	}
	return Settings{Threshold: int(row.ReportThreshold), Retention: int(row.RetentionMonths)}, nil
}

// SaveSettings sets the actor's organization's threshold and retention in one transaction, records the
// change in the audit log, and returns them.
// Codes: 1001 the actor is not an admin; 2000 a threshold below MinThreshold (it may only be raised) or
// above MaxThreshold, or a retention outside MinRetention–MaxRetention.
func (s *Service) SaveSettings(ctx context.Context, actor booking.User, set Settings) (Settings, error) {
	if err := onlyAdmins(actor); err != nil {
		return Settings{}, err
	}
	if set.Threshold < MinThreshold || set.Threshold > MaxThreshold {
		return Settings{}, booking.FieldRefuse(booking.CodeInvalidRequest, "threshold", "refusal.report.threshold",
			map[string]any{"Min": MinThreshold, "Max": MaxThreshold})
	}
	if set.Retention < MinRetention || set.Retention > MaxRetention {
		return Settings{}, booking.FieldRefuse(booking.CodeInvalidRequest, "retention", "refusal.report.retention",
			map[string]any{"Min": MinRetention, "Max": MaxRetention})
	}
	org := actor.OrganizationID
	err := booking.Retried(func() error {
		return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			q := s.q.WithTx(tx)
			row, err := q.ReportSettings(ctx, org)
			if err != nil {
				return fmt.Errorf("read report settings: %w", err)
			}
			before := Settings{Threshold: int(row.ReportThreshold), Retention: int(row.RetentionMonths)}
			if _, err := q.ReportThresholdSet(ctx, queries.ReportThresholdSetParams{OrganizationID: org, ReportThreshold: int32(set.Threshold)}); err != nil {
				return fmt.Errorf("set threshold: %w", err)
			}
			if _, err := q.ReportRetentionSet(ctx, queries.ReportRetentionSetParams{OrganizationID: org, RetentionMonths: int32(set.Retention)}); err != nil {
				return fmt.Errorf("set retention: %w", err)
			}
			if before == set {
				return nil // nothing changed: no audit entry
			}
			return audit(ctx, q, booking.Change{
				OrganizationID: org, By: booking.By(actor), Action: booking.AuditUpdate, Object: "reportSettings", ObjectID: org,
				Before: before.audited(), After: set.audited(),
			})
		})
	})
	if err != nil {
		return Settings{}, err
	}
	return set, nil
}

// audited returns the settings as the audit log keeps them.
func (set Settings) audited() map[string]any {
	return map[string]any{"reportThreshold": set.Threshold, "retentionMonths": set.Retention}
}

// audit appends c to its organization's audit log, inside the transaction that q runs.
func audit(ctx context.Context, q *queries.Queries, c booking.Change) error {
	e, err := c.Entry()
	if err != nil {
		return err
	}
	p, err := e.InsertParams()
	if err != nil {
		return err
	}
	if _, err := q.AuditInsert(ctx, p); err != nil {
		return fmt.Errorf("record audit of report settings: %w", err)
	}
	return nil
}

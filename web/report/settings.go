package report

import (
	"context"
	"fmt"

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

// SaveSettings sets the actor's organization's threshold and retention and returns them.
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
	if _, err := s.q.ReportThresholdSet(ctx, queries.ReportThresholdSetParams{OrganizationID: org, ReportThreshold: int32(set.Threshold)}); err != nil {
		return Settings{}, fmt.Errorf("set threshold: %w", err)
	}
	if _, err := s.q.ReportRetentionSet(ctx, queries.ReportRetentionSetParams{OrganizationID: org, RetentionMonths: int32(set.Retention)}); err != nil {
		return Settings{}, fmt.Errorf("set retention: %w", err)
	}
	return s.Settings(ctx, actor)
}

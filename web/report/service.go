package report

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
)

// Service builds reports and keeps the organization's report settings.
type Service struct {
	pool *pgxpool.Pool
	q    *queries.Queries
	now  func() time.Time
}

// Option configures a Service.
type Option func(*Service)

// WithClock makes the service read the time from now (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns a service on pool.
func New(pool *pgxpool.Pool, opts ...Option) *Service {
	s := &Service{pool: pool, q: queries.New(pool), now: time.Now}
	for _, o := range opts {
		o(s)
	}
	return s
}

// onlyAdmins refuses anyone but an admin of the organization (1001).
func onlyAdmins(actor booking.User) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.report.onlyAdmins")
	}
	return nil
}

// check refuses a request whose grouping is unknown or whose period is empty or longer than MaxDays
// (2000).
func (r Request) check() error {
	known := false
	for _, g := range Groupings {
		known = known || g == r.By
	}
	if !known {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "by", "refusal.report.grouping")
	}
	if r.To.Before(r.From) {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "to", "refusal.report.toBeforeFrom")
	}
	if days(r.From, r.To) > MaxDays {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "to", "refusal.report.tooLong", map[string]any{"Max": MaxDays})
	}
	return nil
}

// days counts the dates from from to to, both included.
func days(from, to time.Time) int { return int(to.Sub(from).Hours()/24) + 1 }

func date(t time.Time) pgtype.Date { return pgtype.Date{Time: t, Valid: true} }

// Build returns the report r asks for.
// Codes: 1001 the actor is not an admin; 1004 no such building in the actor's organization; 2000 a bad
// grouping or period.
func (s *Service) Build(ctx context.Context, actor booking.User, r Request) (Report, error) {
	if err := onlyAdmins(actor); err != nil {
		return Report{}, err
	}
	if err := r.check(); err != nil {
		return Report{}, err
	}
	org := actor.OrganizationID
	b, err := s.q.ReportBuilding(ctx, queries.ReportBuildingParams{OrganizationID: org, ID: r.BuildingID})
	if errors.Is(err, pgx.ErrNoRows) {
		return Report{}, booking.Refuse(booking.CodeBuildingNotFound, "refusal.report.noBuilding")
	}
	if err != nil {
		return Report{}, fmt.Errorf("read building: %w", err)
	}
	set, err := s.q.ReportSettings(ctx, org)
	if err != nil {
		return Report{}, fmt.Errorf("read report settings: %w", err)
	}
	d, err := s.read(ctx, org, r)
	if err != nil {
		return Report{}, err
	}
	rep := Report{BuildingID: b.ID, BuildingName: b.Name, Timezone: b.Timezone, From: r.From, To: r.To, By: r.By,
		Threshold: int(set.ReportThreshold)}
	d.fill(&rep)
	return rep, nil
}

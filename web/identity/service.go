// Package identity holds who people are to the service: sign-in and just-in-time accounts, roles from
// the identity provider's groups, sign-in settings, e-mail domains and their DNS proof, SCIM users,
// groups and tokens, the service's signing keys, and deactivating and reactivating people. It knows
// nothing of HTTP or HTML, and it owns its transactions. The types it shares with the bookings (User,
// Role, Error and its codes, the audit log) are web/booking's.
package identity

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// Service signs people in and provisions them. Its methods refuse with a *booking.Error.
type Service struct {
	pool     *pgxpool.Pool
	q        *queries.Queries
	bookings *booking.Service // the clock, and the count of deactivations that bearer tokens watch
	resolver TXTResolver      // looks up the DNS records that prove e-mail domains
}

// Option configures a Service.
type Option func(*Service)

// New returns a Service that reads and writes through pool. It takes its clock from bookings, and tells
// bookings when it deactivates someone (booking.Service.PeopleDeactivated).
func New(pool *pgxpool.Pool, bookings *booking.Service, opts ...Option) *Service {
	s := &Service{pool: pool, q: queries.New(pool), bookings: bookings, resolver: net.DefaultResolver}
	for _, o := range opts {
		o(s)
	}
	return s
}

// now is the time by the booking service's clock, which tests may replace (booking.WithClock).
func (s *Service) now() time.Time { return s.bookings.Now() }

// DeactivationCount is the booking service's count of deactivations (booking.Service.DeactivationCount),
// which grows whenever this instance deactivates someone or changes a layout.
func (s *Service) DeactivationCount() uint64 { return s.bookings.DeactivationCount() }

// inTx runs fn in one transaction and commits if fn returns nil, running it again when PostgreSQL
// refused it in a way that wrote nothing (booking.Retried). The events fn adds (the bookings a
// deactivation cancelled) are recorded in the outbox in the same transaction.
func (s *Service) inTx(ctx context.Context, fn func(q *queries.Queries, ev *outbox.Batch) error) error {
	return booking.Retried(func() error {
		return outbox.InTx(ctx, s.pool, func(tx pgx.Tx, ev *outbox.Batch) error { return fn(s.q.WithTx(tx), ev) })
	})
}

// recordAudit appends e to its organization's audit log, inside the transaction that q runs.
func recordAudit(ctx context.Context, q *queries.Queries, e booking.AuditEntry) error {
	p, err := e.InsertParams()
	if err != nil {
		return err
	}
	if _, err := q.AuditInsert(ctx, p); err != nil {
		return fmt.Errorf("record audit of %s %s: %w", e.Collection, e.ObjectID, err)
	}
	return nil
}

// recordChange writes c to the audit log (recordAudit) in the transaction of q.
func recordChange(ctx context.Context, q *queries.Queries, c booking.Change) error {
	e, err := c.Entry()
	if err != nil {
		return err
	}
	return recordAudit(ctx, q, e)
}

// userFromRow is the person of a row.
func userFromRow(r queries.User) booking.User {
	return booking.User{
		ID: r.ID, OrganizationID: r.OrganizationID, Name: r.Name, Surname: r.Surname, Alias: r.Alias,
		Email: r.Email, Image: r.Image, UserRuleID: r.UserRuleID, MobileRoleID: r.MobileRoleID,
		CanBeSearched: r.CanBeSearched, Type: r.Type, UserLanguage: r.UserLanguage, Role: booking.Role(r.Role),
		Active: r.Active,
	}
}

// personName is a person's name and surname, as people read it.
func personName(name, surname string) string { return strings.TrimSpace(name + " " + surname) }

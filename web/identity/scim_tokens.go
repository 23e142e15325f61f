package identity

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// SCIMToken is a bearer token with which a SCIM client (Okta, Entra) manages an organization's people.
// Only the SHA-256 of its secret is stored.
type SCIMToken struct {
	ID         uuid.UUID
	Name       string
	CreatedAt  time.Time
	CreatedBy  string // the name of the admin who created it
	LastUsedAt *time.Time
	RevokedAt  *time.Time
}

// SCIMClient is the organization a SCIM token gives access to, and the token.
type SCIMClient struct {
	OrganizationID uuid.UUID
	TokenID        uuid.UUID
	TokenName      string
}

// Limits of SCIM tokens.
const (
	MaxSCIMTokens       = 10 // in use at once, per organization
	maxSCIMTokensListed = 100
	maxSCIMTokenName    = 100
	scimSecretPrefix    = "scim_"
	maxSCIMSecret       = 200
)

// SCIMTokens lists the SCIM tokens of the actor's organization, the ones in use first, newest first.
// Codes: 1001 the actor is not an admin.
func (s *Service) SCIMTokens(ctx context.Context, actor booking.User) ([]SCIMToken, error) {
	if actor.Role != booking.RoleAdmin {
		return nil, booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsSeeTokens")
	}
	rows, err := s.q.ScimTokensOfOrganization(ctx, queries.ScimTokensOfOrganizationParams{OrganizationID: actor.OrganizationID, MaxRows: maxSCIMTokensListed})
	if err != nil {
		return nil, fmt.Errorf("list SCIM tokens: %w", err)
	}
	ts := make([]SCIMToken, len(rows))
	for i, r := range rows {
		ts[i] = SCIMToken{
			ID: r.ID, Name: r.Name, CreatedAt: r.CreatedAt, CreatedBy: personName(r.CreatorName, r.CreatorSurname),
			LastUsedAt: r.LastUsedAt, RevokedAt: r.RevokedAt,
		}
	}
	return ts, nil
}

// CreateSCIMToken creates a SCIM token for the actor's organization and returns it with its secret,
// which is never shown again.
// Codes: 1001 the actor is not an admin; 2000 a name empty or over 100 characters, or MaxSCIMTokens
// tokens already in use.
func (s *Service) CreateSCIMToken(ctx context.Context, actor booking.User, name string) (SCIMToken, string, error) {
	if actor.Role != booking.RoleAdmin {
		return SCIMToken{}, "", booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsCreateTokens")
	}
	name = strings.TrimSpace(name)
	if name == "" || utf8.RuneCountInString(name) > maxSCIMTokenName {
		return SCIMToken{}, "", booking.FieldRefuse(booking.CodeInvalidRequest, "name", "refusal.identity.tokenName", map[string]any{"Max": maxSCIMTokenName})
	}
	secret := scimSecretPrefix + rand.Text() + rand.Text() // 256 bits
	sum := sha256.Sum256([]byte(secret))
	var t SCIMToken
	err := s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		n, err := q.ScimTokensInUseCount(ctx, actor.OrganizationID)
		if err != nil {
			return fmt.Errorf("count SCIM tokens: %w", err)
		}
		if n >= MaxSCIMTokens {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.identity.tooManyTokens", map[string]any{"Max": MaxSCIMTokens})
		}
		row, err := q.ScimTokenInsert(ctx, queries.ScimTokenInsertParams{
			OrganizationID: actor.OrganizationID, ID: uuid.New(), Name: name, SecretSha256: sum[:],
			CreatedAt: s.now(), CreatedBy: actor.ID,
		})
		if err != nil {
			return fmt.Errorf("create SCIM token: %w", err)
		}
		t = SCIMToken{ID: row.ID, Name: row.Name, CreatedAt: row.CreatedAt, CreatedBy: personName(actor.Name, actor.Surname)}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: booking.AuditCreate, Object: "scimTokens",
			ObjectID: t.ID, After: map[string]any{"name": name},
		})
	})
	if err != nil {
		return SCIMToken{}, "", err
	}
	return t, secret, nil
}

// RevokeSCIMToken revokes a SCIM token of the actor's organization: the client's next request is
// refused. Revoking it again changes nothing.
// Codes: 1001 the actor is not an admin; 1013 no such token in the organization.
func (s *Service) RevokeSCIMToken(ctx context.Context, actor booking.User, id uuid.UUID) error {
	if actor.Role != booking.RoleAdmin {
		return booking.Refuse(booking.CodeForbidden, "refusal.identity.onlyAdminsRevokeTokens")
	}
	return s.inTx(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		n, err := q.ScimTokenRevoke(ctx, queries.ScimTokenRevokeParams{OrganizationID: actor.OrganizationID, ID: id, Now: s.now()})
		if err != nil {
			return fmt.Errorf("revoke SCIM token: %w", err)
		}
		if n == 0 {
			return booking.Refuse(booking.CodeObjectNotFound, "refusal.identity.noToken", map[string]any{"ID": id.String()})
		}
		return recordChange(ctx, q, booking.Change{
			OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: booking.AuditRevoke, Object: "scimTokens", ObjectID: id,
		})
	})
}

// SCIMClientByToken returns the client a SCIM bearer token's secret names, and notes when it was last
// used (at most once a minute).
// Codes: 1000 an unknown or revoked token.
func (s *Service) SCIMClientByToken(ctx context.Context, secret string) (SCIMClient, error) {
	if !strings.HasPrefix(secret, scimSecretPrefix) || len(secret) > maxSCIMSecret {
		return SCIMClient{}, errSCIMToken
	}
	sum := sha256.Sum256([]byte(secret))
	rows, err := s.q.ScimTokenFind(ctx, sum[:])
	if err != nil {
		return SCIMClient{}, fmt.Errorf("find SCIM token: %w", err)
	}
	if len(rows) != 1 {
		return SCIMClient{}, errSCIMToken
	}
	r, now := rows[0], s.now()
	notedAfter := now.Add(-time.Minute)
	if err := s.q.ScimTokenTouch(ctx, queries.ScimTokenTouchParams{
		OrganizationID: r.OrganizationID, ID: r.ID, Now: &now, NotedAfter: &notedAfter,
	}); err != nil {
		return SCIMClient{}, fmt.Errorf("note SCIM token use: %w", err)
	}
	return SCIMClient{OrganizationID: r.OrganizationID, TokenID: r.ID, TokenName: r.Name}, nil
}

var errSCIMToken = booking.Refuse(booking.CodeUnauthorized, "refusal.identity.scimTokenRequired")

// changer returns the booking.Changer of the changes a SCIM client makes.
func (c SCIMClient) changer() booking.Changer {
	return booking.Changer{Label: "SCIM token " + c.TokenName}
}

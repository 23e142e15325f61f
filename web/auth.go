package web

import (
	"context"
	"crypto"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/uuid"
	"github.com/hashicorp/golang-lru/v2/expirable"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/kit"
)

// The issuer and audience of the service's own bearer tokens.
const (
	OwnIssuer   = "workspace-booking"
	OwnAudience = "workspace-booking-api"
)

// Up to tokenCacheSize verified tokens are remembered, each for at most tokenCacheTTL and never past its
// own expiry, so that a client's next calls skip the signature check and the user lookup: an ECDSA
// verification costs more than the rest of a status call. A change to a user (role, removal, revoked
// tokens, deactivation on another instance) therefore reaches the API within tokenCacheTTL; a
// deactivation on this instance reaches it at once. Admin API writes read the user again (currentAdmin).
const (
	tokenCacheSize = 10_000
	tokenCacheTTL  = time.Minute
)

// The provider's answers about access tokens that are not JWTs are kept for at most introspectionTTL and
// never past the token's expiry, so that an app's calls do not each ask the provider.
const introspectionTTL = 5 * time.Minute

// Tokens mints the service's own bearer tokens (ES256, signed with keys kept in the database) and
// verifies them, and the identity provider's tokens when one is configured: its JWTs by their signature,
// and other access tokens by asking the provider when introspection is on. It refuses expired tokens and
// tokens signed with HMAC or with no algorithm ("alg": "none").
type Tokens struct {
	people       *identity.Service
	signer       jose.Signer
	own          *oidc.IDTokenVerifier
	idp          *Provider // nil: none
	verified     *expirable.LRU[string, verifiedToken]
	introspected *expirable.LRU[string, introspection]
	now          func() time.Time
}

// verifiedToken is the user a verified token names, and until when the answer may be reused: until
// then, or until this instance deactivates someone (identity.Service.DeactivationCount moves past
// deactivations).
type verifiedToken struct {
	user          booking.User
	until         time.Time
	deactivations uint64
}

// NewTokens loads the signing keys. idp is the identity provider whose tokens are accepted too; nil: none.
func NewTokens(ctx context.Context, people *identity.Service, idp *Provider) (*Tokens, error) {
	keys, err := people.SigningKeys(ctx)
	if err != nil {
		return nil, err
	}
	signer, err := jose.NewSigner(
		jose.SigningKey{Algorithm: jose.ES256, Key: keys[0].Key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", keys[0].ID.String()),
	)
	if err != nil {
		return nil, fmt.Errorf("signer: %w", err)
	}
	pubs := make([]crypto.PublicKey, len(keys))
	for i, k := range keys {
		pubs[i] = k.Key.Public()
	}
	t := &Tokens{
		people:       people,
		signer:       signer,
		idp:          idp,
		verified:     expirable.NewLRU[string, verifiedToken](tokenCacheSize, nil, tokenCacheTTL),
		introspected: expirable.NewLRU[string, introspection](tokenCacheSize, nil, introspectionTTL),
		now:          time.Now,
	}
	t.own = oidc.NewVerifier(OwnIssuer, &oidc.StaticKeySet{PublicKeys: pubs}, &oidc.Config{
		ClientID: OwnAudience, SupportedSigningAlgs: []string{oidc.ES256}, Now: t.clock,
	})
	return t, nil
}

// clock is the time the verifiers check expiry against.
func (t *Tokens) clock() time.Time { return t.now() }

type ownClaims struct {
	jwt.Claims
	Organization string `json:"org"`
}

// MaxTokenTTL is the longest a token of the service may live: one whose `exp` is later than this after
// its `iat` is refused, even when minted before the limit was set. A token revoked (RevokeTokens) is
// refused however long it has left.
const MaxTokenTTL = 30 * 24 * time.Hour

// Mint returns a bearer token for the user, valid for ttl (at most MaxTokenTTL).
func (t *Tokens) Mint(u booking.User, ttl time.Duration) (string, error) {
	if ttl > MaxTokenTTL {
		return "", fmt.Errorf("a token lives at most %s, not %s", MaxTokenTTL, ttl)
	}
	now := t.now()
	return jwt.Signed(t.signer).Claims(ownClaims{
		Claims: jwt.Claims{
			Issuer: OwnIssuer, Subject: u.ID.String(), Audience: jwt.Audience{OwnAudience},
			IssuedAt: jwt.NewNumericDate(now), NotBefore: jwt.NewNumericDate(now.Add(-time.Minute)),
			Expiry: jwt.NewNumericDate(now.Add(ttl)), ID: uuid.NewString(),
		},
		Organization: u.OrganizationID.String(),
	}).Serialize()
}

var (
	errToken = booking.Refuse(booking.CodeUnauthorized, "refusal.token.required")
	// errProviderStarting: the identity provider has not been reached since the service started.
	errProviderStarting = booking.Refuse(booking.CodeUnavailable, "refusal.token.providerStarting")
	errNotJWT           = booking.Refuse(booking.CodeUnauthorized, "refusal.token.notJWT")
	errNoIntrospection  = booking.Refuse(booking.CodeUnauthorized, "refusal.token.noIntrospection")
	errInactive         = booking.Refuse(booking.CodeUnauthorized, "refusal.token.inactive")
)

// Authenticate verifies a raw bearer token and returns the user it names.
// Codes: 1000 anything but a valid, unexpired token of an accepted issuer naming a known, active user.
func (t *Tokens) Authenticate(ctx context.Context, raw string) (booking.User, error) {
	now, deactivations := t.now(), t.people.DeactivationCount()
	if v, ok := t.verified.Get(raw); ok && now.Before(v.until) && v.deactivations == deactivations {
		return v.user, nil
	}
	u, expiry, err := t.verify(ctx, raw)
	if err != nil {
		return booking.User{}, err
	}
	until := now.Add(tokenCacheTTL)
	if expiry.Before(until) {
		until = expiry
	}
	t.verified.Add(raw, verifiedToken{user: u, until: until, deactivations: deactivations})
	return u, nil
}

// verify checks a token's signature and claims and finds the user it names; expiry is the token's own.
// The service's own tokens must carry an `iat` and live at most MaxTokenTTL.
func (t *Tokens) verify(ctx context.Context, raw string) (u booking.User, expiry time.Time, err error) {
	iss := issuer(raw)
	switch {
	case iss == OwnIssuer:
		tok, err := t.own.Verify(ctx, raw)
		if err != nil {
			return booking.User{}, time.Time{}, errToken
		}
		var c ownClaims
		if err := tok.Claims(&c); err != nil {
			return booking.User{}, time.Time{}, errToken
		}
		if c.IssuedAt == nil || tok.Expiry.Sub(tok.IssuedAt) > MaxTokenTTL {
			return booking.User{}, time.Time{}, errToken
		}
		org, err1 := uuid.Parse(c.Organization)
		sub, err2 := uuid.Parse(tok.Subject)
		if err1 != nil || err2 != nil {
			return booking.User{}, time.Time{}, errToken
		}
		u, err := t.people.UserByToken(ctx, org, sub, tok.IssuedAt)
		return u, tok.Expiry, err
	case t.idp == nil:
		return booking.User{}, time.Time{}, errToken
	case sameIssuer(iss, t.idp.cfg.Issuer):
		d := t.idp.ready()
		if d == nil {
			return booking.User{}, time.Time{}, errProviderStarting
		}
		tok, err := d.apiTokens.Verify(ctx, raw)
		if err != nil || tok.Expiry.Before(t.now()) {
			return booking.User{}, time.Time{}, errToken
		}
		email, verified, err := emailOf(tok)
		if err != nil {
			return booking.User{}, time.Time{}, errToken
		}
		u, err := t.people.UserByIdentity(ctx, tok.Subject, email, verified)
		return u, tok.Expiry, err
	case iss == "" && !isJWT(raw):
		return t.byIntrospection(ctx, raw)
	}
	return booking.User{}, time.Time{}, errToken
}

// byIntrospection finds the user of an access token that is not a JWT by asking the identity provider
// (RFC 7662), when introspection is on. The answer is kept until the token expires, for at most
// introspectionTTL. The user is found by the token's subject alone: the person must have signed in on
// the web once, or been bound by an admin.
func (t *Tokens) byIntrospection(ctx context.Context, raw string) (booking.User, time.Time, error) {
	if !t.idp.cfg.Introspection {
		return booking.User{}, time.Time{}, errNotJWT
	}
	d := t.idp.ready()
	if d == nil {
		return booking.User{}, time.Time{}, errProviderStarting
	}
	if d.introspection == "" {
		return booking.User{}, time.Time{}, errNoIntrospection
	}
	now := t.now()
	in, ok := t.introspected.Get(raw)
	if !ok || (!in.expiry.IsZero() && !now.Before(in.expiry)) {
		var err error
		in, err = t.idp.introspect(ctx, d, raw)
		switch {
		case errors.Is(err, errNotActive):
			return booking.User{}, time.Time{}, errInactive
		case errors.Is(err, errNoSubject):
			return booking.User{}, time.Time{}, errToken
		case err != nil:
			t.idp.log.WarnContext(ctx, "the identity provider could not be asked about an access token", slog.Any("error", err))
			return booking.User{}, time.Time{}, booking.Refuse(booking.CodeUnavailable, "refusal.token.providerAway")
		}
		if !in.expiry.IsZero() && !now.Before(in.expiry) {
			return booking.User{}, time.Time{}, errToken
		}
		t.introspected.Add(raw, in)
	}
	expiry := now.Add(introspectionTTL)
	if !in.expiry.IsZero() && in.expiry.Before(expiry) {
		expiry = in.expiry
	}
	u, err := t.people.UserByIdentity(ctx, in.subject, "", false)
	return u, expiry, err
}

// isJWT reports whether raw is shaped as a signed JWT: three parts of base64url, the first a JSON object.
// An encrypted JWT (five parts) or an opaque token is not.
func isJWT(raw string) bool {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return false
	}
	header, err := base64.RawURLEncoding.DecodeString(parts[0])
	return err == nil && json.Valid(header) && strings.HasPrefix(strings.TrimSpace(string(header)), "{")
}

// emailOf reads the e-mail address of an identity provider's token and whether the provider vouches for
// it (see emailVerified).
func emailOf(tok *oidc.IDToken) (email string, verified bool, err error) {
	var claims map[string]any
	if err := tok.Claims(&claims); err != nil {
		return "", false, err
	}
	email, _ = claims["email"].(string)
	return email, emailVerified(claims), nil
}

// issuer reads the unverified `iss` of a JWT, only to choose the verifier; "" when unreadable.
func issuer(raw string) string {
	parts := strings.Split(raw, ".")
	if len(parts) != 3 {
		return ""
	}
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var c struct {
		Issuer string `json:"iss"`
	}
	if json.Unmarshal(payload, &c) != nil {
		return ""
	}
	return c.Issuer
}

// requireBearer authenticates every /api/v1 call and keeps the user as the actor of the request.
func (s *Server) requireBearer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Request().Header.Get(echo.HeaderAuthorization)
		scheme, raw, _ := strings.Cut(h, " ")
		raw = strings.TrimSpace(raw)
		if !strings.EqualFold(scheme, "Bearer") || raw == "" {
			return errToken
		}
		u, err := s.tokens.Authenticate(c.Request().Context(), raw)
		if err != nil {
			return err
		}
		c.Set(kit.ActorKey, u) // before the limit, so that a refusal's log line names the user
		if ok, after := s.perUser.allow(u.ID, time.Now()); !ok {
			return tooMany(c, "user", after)
		}
		return next(c)
	}
}

// currentAdmin reads the actor of an Admin API write again from the database, so that a role change or
// a deactivation made on any instance counts at once, whatever the token cache remembers. It refuses a
// deactivated or unknown person with 1000 and anyone but an admin with 1001, before the body is read.
func (s *Server) currentAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		actor := kit.Actor(c)
		u, err := s.bookings.UserByID(c.Request().Context(), actor.OrganizationID, actor.ID)
		if err != nil {
			return err
		}
		if u.Role != booking.RoleAdmin {
			return booking.Refuse(booking.CodeForbidden, "refusal.request.adminsOnly")
		}
		c.Set(kit.ActorKey, u)
		return next(c)
	}
}

// requireUserOrBearer lets through someone signed in to the pages, or an app with a bearer token, with
// their user as the actor of the request; it refuses everybody else as requireUser and requireBearer do.
// Where no sign-in is set up (no identity provider, no development mode), a request with neither is
// refused with 401 at once: the sign-in page it would be sent to cannot sign anybody in.
func (s *Server) requireUserOrBearer(next echo.HandlerFunc) echo.HandlerFunc {
	bearer, page := s.requireBearer(next), s.requireUser(s.limitUsers(next))
	return func(c echo.Context) error {
		if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
			return bearer(c)
		}
		if s.idp == nil && !s.Dev && s.Sessions.GetString(c.Request().Context(), sessionUser) == "" {
			return errToken
		}
		return page(c)
	}
}

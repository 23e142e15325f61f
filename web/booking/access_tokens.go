package booking

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// MaxUserAccessToken is the longest user-access-token the service keeps, in bytes.
const MaxUserAccessToken = 8192

// TokenKeySize is the size of the key the kept tokens are encrypted with (AES-256).
const TokenKeySize = 32

// WithTokenKey sets the AES-256 key the identity provider's tokens are encrypted with at rest
// (TOKEN_ENCRYPTION_KEY). Without it, the service uses a key kept in the database, made on first use.
func WithTokenKey(key []byte) Option { return func(s *Service) { s.tokenKey.key = key } }

// tokenKey is the AEAD the kept tokens are sealed with, made once from the configured key or the
// database's.
type tokenKey struct {
	key  []byte
	mu   sync.Mutex
	aead cipher.AEAD
}

// ParseTokenKey reads a TOKEN_ENCRYPTION_KEY: the standard base64 of 32 bytes.
func ParseTokenKey(s string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(key) != TokenKeySize {
		return nil, fmt.Errorf("TOKEN_ENCRYPTION_KEY must be the base64 of %d random bytes (openssl rand -base64 %d)", TokenKeySize, TokenKeySize)
	}
	return key, nil
}

// tokenAEAD returns the AEAD of the configured key or, without one, of the database's key, made when
// there is none yet (two instances making it at once agree on the first one kept).
func (s *Service) tokenAEAD(ctx context.Context) (cipher.AEAD, error) {
	k := &s.tokenKey
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.aead != nil {
		return k.aead, nil
	}
	key := k.key
	if key == nil {
		fresh := make([]byte, TokenKeySize)
		rand.Read(fresh)
		if err := s.q.TokenEncryptionKeyCreate(ctx, fresh); err != nil {
			return nil, fmt.Errorf("make token encryption key: %w", err)
		}
		var err error
		if key, err = s.q.TokenEncryptionKeyGet(ctx); err != nil {
			return nil, fmt.Errorf("get token encryption key: %w", err)
		}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("token encryption key: %w", err)
	}
	if k.aead, err = cipher.NewGCM(block); err != nil {
		return nil, fmt.Errorf("token encryption key: %w", err)
	}
	return k.aead, nil
}

// tokenOwner binds a sealed token to its user, so that it cannot be moved to another user's row.
func tokenOwner(u User) []byte {
	owner := make([]byte, 0, len(u.OrganizationID)+len(u.ID))
	return append(append(owner, u.OrganizationID[:]...), u.ID[:]...)
}

// CheckUserAccessToken refuses a user-access-token longer than MaxUserAccessToken.
// Codes: 2000 too long.
func CheckUserAccessToken(token string) error {
	if len(token) > MaxUserAccessToken {
		return Errorf(CodeInvalidRequest, "the user-access-token header is too long: at most %d bytes", MaxUserAccessToken)
	}
	return nil
}

// KeepUserAccessToken keeps the identity provider's access token of the user, replacing the one kept
// before, encrypted, until it expires: a JWT until its `exp` (read without verifying it, at most 30 days),
// any other token for 12 hours. An empty token changes nothing.
// Codes: 2000 a token longer than MaxUserAccessToken.
func (s *Service) KeepUserAccessToken(ctx context.Context, u User, token string) error {
	sealed, err := s.sealUserAccessToken(ctx, u, token)
	if err != nil {
		return err
	}
	return putUserAccessToken(ctx, s.q, sealed)
}

// sealUserAccessToken encrypts the user's token for KeepUserAccessToken and returns the row to write, nil
// for an empty token. It writes nothing but the database's key, when there is none yet.
// Codes: 2000 a token longer than MaxUserAccessToken.
func (s *Service) sealUserAccessToken(ctx context.Context, u User, token string) (*queries.UserAccessTokenPutParams, error) {
	if token == "" {
		return nil, nil
	}
	if err := CheckUserAccessToken(token); err != nil {
		return nil, err
	}
	aead, err := s.tokenAEAD(ctx)
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(token)+aead.Overhead())
	rand.Read(nonce)
	var expires *time.Time
	if exp, ok := jwtExpiry(token); ok {
		expires = &exp
	}
	return &queries.UserAccessTokenPutParams{
		OrganizationID: u.OrganizationID, UserID: u.ID, Sealed: aead.Seal(nonce, nonce, []byte(token), tokenOwner(u)),
		ExpiresAt: expires,
	}, nil
}

// putUserAccessToken writes a sealed token through q (inside the caller's transaction when q is one's);
// nil writes nothing.
func putUserAccessToken(ctx context.Context, q *queries.Queries, sealed *queries.UserAccessTokenPutParams) error {
	if sealed == nil {
		return nil
	}
	if err := q.UserAccessTokenPut(ctx, *sealed); err != nil {
		return fmt.Errorf("keep user access token: %w", err)
	}
	return nil
}

// UserAccessToken returns the user's kept access token, "" when there is none, it has expired, or it was
// sealed with another key than the one configured now.
func (s *Service) UserAccessToken(ctx context.Context, u User) (string, error) {
	sealed, err := s.q.UserAccessTokenGet(ctx, queries.UserAccessTokenGetParams{OrganizationID: u.OrganizationID, UserID: u.ID})
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("get user access token: %w", err)
	}
	aead, err := s.tokenAEAD(ctx)
	if err != nil {
		return "", err
	}
	if len(sealed) < aead.NonceSize() {
		return "", nil
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], tokenOwner(u))
	if err != nil {
		return "", nil
	}
	return string(plain), nil
}

// DeleteExpiredUserAccessTokens forgets the access tokens that have expired; the sweeps call it.
func (s *Service) DeleteExpiredUserAccessTokens(ctx context.Context) (int64, error) {
	return s.q.UserAccessTokensDeleteExpired(ctx)
}

// jwtExpiry reads the `exp` of a token shaped like a JWT, without verifying it.
func jwtExpiry(token string) (time.Time, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return time.Time{}, false
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return time.Time{}, false
	}
	var c struct {
		Exp *json.Number `json:"exp"`
	}
	if json.Unmarshal(payload, &c) != nil || c.Exp == nil {
		return time.Time{}, false
	}
	exp, err := c.Exp.Float64()
	// Past the year 9999 means no expiry worth reading: the 30-day bound applies.
	if err != nil || exp > 253402300799 {
		return time.Time{}, false
	}
	if exp < 0 {
		exp = 0
	}
	return time.Unix(int64(exp), 0), true
}

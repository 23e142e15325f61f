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

// MaxUserAccessToken is the longest user access token the service stores, in bytes.
const MaxUserAccessToken = 8192

// TokenKeySize is the size in bytes of the AES-256 key that encrypts stored tokens.
const TokenKeySize = 32

// WithTokenKey sets the AES-256 key that encrypts the identity provider's tokens at rest
// (TOKEN_ENCRYPTION_KEY). Without it, the service uses a key stored in the database, created on first
// use.
func WithTokenKey(key []byte) Option { return func(s *Service) { s.tokenKey.key = key } }

// tokenKey holds the cipher that encrypts stored tokens. It is built once, from the configured key or
// from the database's key.
type tokenKey struct {
	key  []byte
	mu   sync.Mutex
	aead cipher.AEAD
}

// ParseTokenKey decodes a TOKEN_ENCRYPTION_KEY, which must be 32 bytes in standard base64.
func ParseTokenKey(s string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil || len(key) != TokenKeySize {
		return nil, fmt.Errorf("TOKEN_ENCRYPTION_KEY must be the base64 of %d random bytes (openssl rand -base64 %d)", TokenKeySize, TokenKeySize)
	}
	return key, nil
}

// tokenAEAD returns the cipher for the configured key or, if none is configured, for the database's
// key. It creates the database's key if there is none yet; if two instances create one at once, both
// use the first one stored.
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

// tokenOwner returns the additional data that binds an encrypted token to its user, so that it cannot
// be copied to another user's row.
func tokenOwner(u User) []byte {
	owner := make([]byte, 0, len(u.OrganizationID)+len(u.ID))
	return append(append(owner, u.OrganizationID[:]...), u.ID[:]...)
}

// CheckUserAccessToken refuses a user access token longer than MaxUserAccessToken.
// Codes: 2000 too long.
func CheckUserAccessToken(token string) error {
	if len(token) > MaxUserAccessToken {
		return Refuse(CodeInvalidRequest, "refusal.booking.accessTokenTooLong", map[string]any{"Max": MaxUserAccessToken})
	}
	return nil
}

// KeepUserAccessToken stores u's access token from the identity provider, encrypted, replacing any
// stored before. It is kept until it expires: a JWT until its `exp` claim (read without verifying it,
// and at most 30 days), any other token for 12 hours. An empty token changes nothing.
// Codes: 2000 a token longer than MaxUserAccessToken.
func (s *Service) KeepUserAccessToken(ctx context.Context, u User, token string) error {
	sealed, err := s.sealUserAccessToken(ctx, u, token)
	if err != nil {
		return err
	}
	return putUserAccessToken(ctx, s.q, sealed)
}

// sealUserAccessToken encrypts u's token and returns the row for putUserAccessToken to write, or nil for
// an empty token. The only thing it may write is the database's key, if there is none yet.
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

// putUserAccessToken writes an encrypted token through q, so inside the caller's transaction if q belongs
// to one. A nil token writes nothing.
func putUserAccessToken(ctx context.Context, q *queries.Queries, sealed *queries.UserAccessTokenPutParams) error {
	if sealed == nil {
		return nil
	}
	if err := q.UserAccessTokenPut(ctx, *sealed); err != nil {
		return fmt.Errorf("keep user access token: %w", err)
	}
	return nil
}

// UserAccessToken returns u's stored access token. It returns "" if there is none, if it has expired,
// or if it was encrypted with a different key from the one configured now.
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

// DeleteExpiredUserAccessTokens deletes the stored access tokens that have expired and returns how many
// it deleted. The periodic sweep calls it.
func (s *Service) DeleteExpiredUserAccessTokens(ctx context.Context) (int64, error) {
	return s.q.UserAccessTokensDeleteExpired(ctx)
}

// jwtExpiry returns the `exp` claim of a token shaped like a JWT, without verifying the token.
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
	// An expiry after the year 9999 is meaningless: fall back to the 30-day limit.
	if err != nil || exp > 253402300799 {
		return time.Time{}, false
	}
	if exp < 0 {
		exp = 0
	}
	return time.Unix(int64(exp), 0), true
}

package web

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// These tests cover the service's own tokens within one instance: how long a verified token is cached,
// revocation, and the maximum lifetime of a token.

// clockedTokens returns a Tokens on a new fixture database, with a clock that the test moves by setting
// *now.
func clockedTokens(t *testing.T) (*fx.Bundle, *Tokens, *time.Time) {
	t.Helper()
	b := fx.Setup(t)
	tokens := newTokens(t, b)
	now := time.Now()
	tokens.now = func() time.Time { return now }
	return b, tokens, &now
}

// newTokens returns a second Tokens on the same database, as another instance would have.
func newTokens(t *testing.T, b *fx.Bundle) *Tokens {
	t.Helper()
	tokens, err := NewTokens(t.Context(), b.Identity(), nil)
	if err != nil {
		t.Fatalf("NewTokens: %v", err)
	}
	return tokens
}

// mintFor issues a token for u that is valid for ttl.
func mintFor(t *testing.T, tokens *Tokens, u booking.User, ttl time.Duration) string {
	t.Helper()
	raw, err := tokens.Mint(u, ttl)
	if err != nil {
		t.Fatalf("Mint: %v", err)
	}
	return raw
}

// TestVerifiedTokensAreRememberedBriefly checks that a verified token is cached for at most a minute, so
// a change to its user takes effect after that. A token past its own expiry is refused at once, cached or
// not.
func TestVerifiedTokensAreRememberedBriefly(t *testing.T) {
	t.Parallel()
	b, tokens, now := clockedTokens(t)
	alice := b.User(t, fx.OrgA, fx.Alice)
	raw := mintFor(t, tokens, alice, 5*time.Minute)
	roleOf := func() booking.Role {
		t.Helper()
		u, err := tokens.Authenticate(t.Context(), raw)
		if err != nil {
			t.Fatalf("Authenticate: %v", err)
		}
		return u.Role
	}
	if got := roleOf(); got != booking.RoleEmployee {
		t.Fatalf("role = %s, want EMPLOYEE", got)
	}
	if _, err := b.Pool.Exec(t.Context(), `UPDATE users SET role = 'ADMIN' WHERE id = $1`, fx.Alice); err != nil {
		t.Fatal(err)
	}
	if got := roleOf(); got != booking.RoleEmployee {
		t.Errorf("role at once after the change = %s, want the remembered EMPLOYEE", got)
	}
	*now = now.Add(tokenCacheTTL + time.Second)
	if got := roleOf(); got != booking.RoleAdmin {
		t.Errorf("role a minute after the change = %s, want ADMIN", got)
	}

	*now = time.Now()
	short := mintFor(t, tokens, alice, 30*time.Second)
	if _, err := tokens.Authenticate(t.Context(), short); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	*now = now.Add(31 * time.Second)
	if _, err := tokens.Authenticate(t.Context(), short); booking.ErrorCode(err) != booking.CodeUnauthorized {
		t.Errorf("a remembered token past its expiry: err = %v, want 1000", err)
	}
}

// TestRevokedTokensAreRefused checks that once a user's tokens issued before some moment are revoked,
// they are refused: at once by an instance that has not cached them, and within tokenCacheTTL by one that
// has. Tokens issued later, and other users' tokens, still work.
func TestRevokedTokensAreRefused(t *testing.T) {
	t.Parallel()
	b, tokens, now := clockedTokens(t)
	alice, bob := b.User(t, fx.OrgA, fx.Alice), b.User(t, fx.OrgA, fx.Bob)
	authenticate := func(tk *Tokens, raw string) error {
		t.Helper()
		_, err := tk.Authenticate(t.Context(), raw)
		return err
	}
	old, bobs := mintFor(t, tokens, alice, time.Hour), mintFor(t, tokens, bob, time.Hour)
	if err := authenticate(tokens, old); err != nil {
		t.Fatalf("before revoking: %v", err)
	}

	if _, err := b.Identity().RevokeTokens(t.Context(), alice, *now); err != nil {
		t.Fatalf("RevokeTokens: %v", err)
	}
	fresh := newTokens(t, b)
	if err := authenticate(fresh, old); booking.ErrorCode(err) != booking.CodeUnauthorized {
		t.Errorf("a revoked token on another instance: err = %v, want 1000", err)
	}
	*now = now.Add(tokenCacheTTL + time.Second)
	if err := authenticate(tokens, old); booking.ErrorCode(err) != booking.CodeUnauthorized {
		t.Errorf("a revoked token a minute later: err = %v, want 1000", err)
	}
	if err := authenticate(tokens, mintFor(t, tokens, alice, time.Hour)); err != nil {
		t.Errorf("a token issued after revoking: %v", err)
	}
	if err := authenticate(fresh, bobs); err != nil {
		t.Errorf("another user's token: %v", err)
	}
}

// TestMintRefusesLongLives checks that Mint refuses a lifetime over MaxTokenTTL.
func TestMintRefusesLongLives(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	tokens := newTokens(t, b)
	alice := b.User(t, fx.OrgA, fx.Alice)
	if _, err := tokens.Mint(alice, 30*24*time.Hour); err != nil {
		t.Errorf("Mint for 30 days: %v", err)
	}
	if _, err := tokens.Mint(alice, 30*24*time.Hour+time.Second); err == nil {
		t.Error("Mint for more than 30 days: err = nil, want a refusal")
	}
}

// FuzzIssuer checks that reading the unverified issuer of any string never panics, and returns either
// the `iss` claim of a JWT's payload or nothing.
func FuzzIssuer(f *testing.F) {
	enc := base64.RawURLEncoding.EncodeToString
	for _, s := range []string{
		enc([]byte(`{"alg":"ES256"}`)) + "." + enc([]byte(`{"iss":"workspace-booking","sub":"x"}`)) + ".c2ln",
		enc([]byte(`{"alg":"none"}`)) + "." + enc([]byte(`{"iss":"workspace-booking"}`)) + ".",
		"a.b.c", "..", "", "a.b", "a.b.c.d", "a." + enc([]byte(`{"iss":1}`)) + ".c", "a." + enc([]byte(`null`)) + ".c",
		"a." + enc([]byte(`{"iss":"\u0000"}`)) + ".c", "a.=.c",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		iss := issuer(raw)
		if iss == "" {
			return
		}
		parts := strings.Split(raw, ".")
		if len(parts) != 3 {
			t.Fatalf("issuer(%q) = %q from %d parts, want 3", raw, iss, len(parts))
		}
		payload, err := base64.RawURLEncoding.DecodeString(parts[1])
		var c struct {
			Issuer string `json:"iss"`
		}
		if err != nil || json.Unmarshal(payload, &c) != nil || c.Issuer != iss {
			t.Fatalf("issuer(%q) = %q, but the payload says %q (%v)", raw, iss, c.Issuer, err)
		}
	})
}

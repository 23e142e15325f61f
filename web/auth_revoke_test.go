package web

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The service's tokens of a user issued before a moment are refused once they are revoked: at once by an
// instance that has not seen them, within tokenCacheTTL by one that remembers them. Tokens issued later,
// and other users' tokens, still work.
func TestRevokedTokensAreRefused(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	tokens, err := NewTokens(t.Context(), b.Service, OIDCConfig{})
	if err != nil {
		t.Fatalf("NewTokens: %v", err)
	}
	now := time.Now()
	tokens.now = func() time.Time { return now }
	alice, bob := b.User(t, fx.OrgA, fx.Alice), b.User(t, fx.OrgA, fx.Bob)
	mint := func(u booking.User) string {
		t.Helper()
		raw, err := tokens.Mint(u, time.Hour)
		if err != nil {
			t.Fatalf("Mint: %v", err)
		}
		return raw
	}
	authenticate := func(tk *Tokens, raw string) error {
		t.Helper()
		_, err := tk.Authenticate(t.Context(), raw)
		return err
	}
	old, bobs := mint(alice), mint(bob)
	if err := authenticate(tokens, old); err != nil {
		t.Fatalf("before revoking: %v", err)
	}

	if _, err := b.Service.RevokeTokens(t.Context(), alice, now); err != nil {
		t.Fatalf("RevokeTokens: %v", err)
	}
	fresh, err := NewTokens(t.Context(), b.Service, OIDCConfig{})
	if err != nil {
		t.Fatalf("NewTokens: %v", err)
	}
	if err := authenticate(fresh, old); booking.ErrorCode(err) != booking.CodeUnauthorized {
		t.Errorf("a revoked token on another instance: err = %v, want 1000", err)
	}
	now = now.Add(tokenCacheTTL + time.Second)
	if err := authenticate(tokens, old); booking.ErrorCode(err) != booking.CodeUnauthorized {
		t.Errorf("a revoked token a minute later: err = %v, want 1000", err)
	}
	if err := authenticate(tokens, mint(alice)); err != nil {
		t.Errorf("a token issued after revoking: %v", err)
	}
	if err := authenticate(fresh, bobs); err != nil {
		t.Errorf("another user's token: %v", err)
	}
}

// Tokens live at most MaxTokenTTL.
func TestMintRefusesLongLives(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	tokens, err := NewTokens(t.Context(), b.Service, OIDCConfig{})
	if err != nil {
		t.Fatalf("NewTokens: %v", err)
	}
	alice := b.User(t, fx.OrgA, fx.Alice)
	if _, err := tokens.Mint(alice, 30*24*time.Hour); err != nil {
		t.Errorf("Mint for 30 days: %v", err)
	}
	if _, err := tokens.Mint(alice, 30*24*time.Hour+time.Second); err == nil {
		t.Error("Mint for more than 30 days: err = nil, want a refusal")
	}
}

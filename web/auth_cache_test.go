package web

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// A verified token is reused for a minute at most: a change to its user shows after that, and a token
// past its own expiry is refused at once, remembered or not.
func TestVerifiedTokensAreRememberedBriefly(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	tokens, err := NewTokens(t.Context(), b.Service, OIDCConfig{})
	if err != nil {
		t.Fatalf("NewTokens: %v", err)
	}
	now := time.Now()
	tokens.now = func() time.Time { return now }
	alice := b.User(t, fx.OrgA, fx.Alice)
	raw, err := tokens.Mint(alice, 5*time.Minute)
	if err != nil {
		t.Fatalf("Mint: %v", err)
	}
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
	now = now.Add(tokenCacheTTL + time.Second)
	if got := roleOf(); got != booking.RoleAdmin {
		t.Errorf("role a minute after the change = %s, want ADMIN", got)
	}

	now = time.Now()
	short, err := tokens.Mint(alice, 30*time.Second)
	if err != nil {
		t.Fatalf("Mint: %v", err)
	}
	if _, err := tokens.Authenticate(t.Context(), short); err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	now = now.Add(31 * time.Second)
	if _, err := tokens.Authenticate(t.Context(), short); booking.ErrorCode(err) != booking.CodeUnauthorized {
		t.Errorf("a remembered token past its expiry: err = %v, want 1000", err)
	}
}

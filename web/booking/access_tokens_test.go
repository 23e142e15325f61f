package booking_test

import (
	"bytes"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The identity provider's tokens are encrypted with TOKEN_ENCRYPTION_KEY if it is set, and otherwise with
// a key created once and stored in the database. A token encrypted with a different key reads as none.
func TestUserAccessTokenKeys(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	alice := fixtureUsers(t, b).alice
	keep := func(svc *booking.Service, token string) {
		t.Helper()
		if err := svc.KeepUserAccessToken(t.Context(), alice, token); err != nil {
			t.Fatalf("KeepUserAccessToken: %v", err)
		}
	}
	read := func(svc *booking.Service) string {
		t.Helper()
		got, err := svc.UserAccessToken(t.Context(), alice)
		if err != nil {
			t.Fatalf("UserAccessToken: %v", err)
		}
		return got
	}

	keep(b.Service, "kept-with-the-database-key")
	var stored []byte
	if err := b.Pool.QueryRow(t.Context(), "SELECT key FROM token_encryption_keys").Scan(&stored); err != nil {
		t.Fatalf("the database key: %v", err)
	}
	// Another instance on the same database uses the same key.
	if got := read(booking.NewService(b.Pool)); got != "kept-with-the-database-key" {
		t.Errorf("read by another instance = %q, want the token", got)
	}

	key := bytes.Repeat([]byte{7}, booking.TokenKeySize)
	configured := booking.NewService(b.Pool, booking.WithTokenKey(key))
	if got := read(configured); got != "" {
		t.Errorf("read with another key = %q, want none", got)
	}
	keep(configured, "kept-with-the-configured-key")
	if got := read(booking.NewService(b.Pool, booking.WithTokenKey(key))); got != "kept-with-the-configured-key" {
		t.Errorf("read with the configured key = %q, want the token", got)
	}
	if got := read(b.Service); got != "" {
		t.Errorf("read with the database key = %q, want none", got)
	}
	if n := bookingtest.RowCount(t, b, "SELECT count(*) FROM token_encryption_keys"); n != 1 {
		t.Errorf("database keys = %d, want 1", n)
	}

	for _, in := range []string{"", "c2hvcnQ=", "not base64!"} {
		if _, err := booking.ParseTokenKey(in); err == nil {
			t.Errorf("ParseTokenKey(%q): err = nil, want a refusal", in)
		}
	}
	if got, err := booking.ParseTokenKey("BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc="); err != nil || !bytes.Equal(got, key) {
		t.Errorf("ParseTokenKey = %v, %v; want the 32 bytes", got, err)
	}
}

package main

import (
	"strings"
	"testing"
)

// A TOKEN_ENCRYPTION_KEY that is not the base64 of 32 bytes stops serve before anything starts.
func TestServeRefusesABadTokenEncryptionKey(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	for _, key := range []string{"short", "c2hvcnQ=", strings.Repeat("A", 60)} {
		stdout, _, err := runBooking(t, environ(dbURL, "TOKEN_ENCRYPTION_KEY", key), "serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), "TOKEN_ENCRYPTION_KEY must be the base64 of 32") {
			t.Errorf("TOKEN_ENCRYPTION_KEY=%q: err = %v, want one saying what the key must be", key, err)
		}
		if stdout != "" {
			t.Errorf("TOKEN_ENCRYPTION_KEY=%q: stdout = %q, want nothing", key, stdout)
		}
	}
}

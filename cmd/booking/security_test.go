package main

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// TestServeRefusesABadTokenEncryptionKey checks that serve refuses to start, and prints nothing, when
// TOKEN_ENCRYPTION_KEY is not the base64 encoding of 32 bytes.
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

// TestServeWarnsWithoutATokenEncryptionKey checks the startup warning. Without TOKEN_ENCRYPTION_KEY, the
// key that encrypts the stored tokens is kept in the same database as the tokens. serve warns about this
// and says how to set the variable, except when it runs with --dev.
func TestServeWarnsWithoutATokenEncryptionKey(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	warned := func(stderr string) bool {
		for line := range strings.Lines(stderr) {
			var l struct{ Level, Msg string }
			if json.Unmarshal([]byte(line), &l) == nil && l.Level == "WARN" && strings.Contains(l.Msg, "TOKEN_ENCRYPTION_KEY is not set") &&
				strings.Contains(l.Msg, "kept in the database") && strings.Contains(l.Msg, "openssl rand -base64 32") {
				return true
			}
		}
		return false
	}
	key := base64.StdEncoding.EncodeToString(make([]byte, 32))
	for _, tc := range []struct {
		name   string
		getenv func(string) string
		flags  []string
		want   bool
	}{
		{"WithoutKey", environ(dbURL), nil, true},
		{"WithKey", environ(dbURL, "TOKEN_ENCRYPTION_KEY", key), nil, false},
		{"WithoutKeyInDevelopment", environ(dbURL), []string{"--dev"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := startServerWith(t, tc.getenv, tc.flags...)
			s.stop(t)
			if got := warned(s.stderr.String()); got != tc.want {
				t.Errorf("warned of the key kept in the database = %v, want %v; stderr:\n%s", got, tc.want, s.stderr)
			}
		})
	}
}

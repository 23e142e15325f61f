package main

import (
	"bytes"
	"testing"
)

func runWith(t *testing.T, env map[string]string) (stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	getenv := func(k string) string { return env[k] }
	if err := run(getenv, &out, &errOut); err != nil {
		t.Fatalf("run: %v (stderr: %q)", err, errOut.String())
	}
	return out.String(), errOut.String()
}

func TestDatabaseURLPassesThrough(t *testing.T) {
	const url = "postgres://someone:secret@db.example:6543/other?sslmode=require"
	stdout, stderr := runWith(t, map[string]string{"DATABASE_URL": url})
	if stdout != url+"\n" {
		t.Errorf("stdout = %q, want %q", stdout, url+"\n")
	}
	if stderr != "" {
		t.Errorf("stderr = %q, want nothing", stderr)
	}
}

func TestServerOnDefaultPort(t *testing.T) {
	if !listening(systemAddr) {
		t.Skip("no PostgreSQL on " + systemAddr)
	}
	stdout, stderr := runWith(t, map[string]string{})
	if stdout != systemURL+"\n" {
		t.Errorf("stdout = %q, want %q", stdout, systemURL+"\n")
	}
	if stderr != "" {
		t.Errorf("stderr = %q, want nothing", stderr)
	}
}

func TestNewest(t *testing.T) {
	tests := []struct {
		names []string
		want  string
	}{
		{[]string{"9.6", "15", "13"}, "15"},
		{[]string{"9.6", "10"}, "10"},
		{[]string{"9.10", "9.6"}, "9.10"},
		{[]string{"16", "9.6", "17"}, "17"},
		{[]string{"14"}, "14"},
		{[]string{"postgresql", "postgresql@16", "postgresql@14"}, "postgresql@16"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := newest(tt.names); got != tt.want {
			t.Errorf("newest(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

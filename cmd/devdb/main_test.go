package main

import (
	"bytes"
	"testing"

	"github.com/workspacebooking/booking/cmd/internal/pgcluster"
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
	if !pgcluster.Listening(systemAddr) {
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

package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// runMake runs make with args in the repository's root and returns its output. If make is not
// installed, the test is skipped, except in CI, where it fails.
func runMake(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("make"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("make is not installed")
		}
		t.Skip("make is not installed: the Makefile is not checked")
	}
	cmd := exec.CommandContext(t.Context(), "make", append([]string{"-C", "../..", "--no-print-directory"}, args...)...)
	// When `make test` runs this test, it passes its own flags down in the environment. Drop them so
	// they do not change what this make does.
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "MAKEFLAGS" && k != "MFLAGS" && k != "MAKELEVEL" {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// bookingCommand matches a bin/booking demo or serve command in a recipe and captures its --addr value.
var bookingCommand = regexp.MustCompile(`bin/booking (demo|serve)\b[^\n&;]*?--addr[ =](\S+)`)

// TestMakeRunAddr checks that `make run ADDR=…` passes the address to the demo (for its links and curl
// command), to serve, and to the message that says where it serves; and that `make help` mentions ADDR.
func TestMakeRunAddr(t *testing.T) {
	t.Parallel()
	const addr = "127.0.0.1:9999"
	out := runMake(t, "-n", "run", "ADDR="+addr)
	seen := map[string]bool{}
	for _, m := range bookingCommand.FindAllStringSubmatch(out, -1) {
		seen[m[1]] = true
		if m[2] != addr {
			t.Errorf("make run ADDR=%s runs booking %s with --addr %s", addr, m[1], m[2])
		}
	}
	for _, cmd := range []string{"demo", "serve"} {
		if !seen[cmd] {
			t.Errorf("make run ADDR=%s does not run booking %s --addr:\n%s", addr, cmd, out)
		}
	}
	if !strings.Contains(out, "http://"+addr) {
		t.Errorf("make run ADDR=%s does not say it serves on http://%s:\n%s", addr, addr, out)
	}
	if strings.Contains(out, "8080") {
		t.Errorf("make run ADDR=%s still mentions the default port 8080:\n%s", addr, out)
	}

	help := runMake(t, "help")
	if !regexp.MustCompile(`\bADDR=`).MatchString(help) {
		t.Errorf("make help does not name ADDR:\n%s", help)
	}
}

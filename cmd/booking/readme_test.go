package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// asCommand is an environment variable. When it is "1", the test binary runs main instead of the tests,
// so it can stand in for bin/booking, which the README's walk-through calls by that name.
const asCommand = "BOOKING_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// readmeBlock returns the first ```sh block after heading in ../../README.md.
func readmeBlock(t *testing.T, heading string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(raw), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("README.md has no heading %q", heading)
	}
	_, after, ok = strings.Cut(after, "\n```sh\n")
	if !ok {
		t.Fatalf("README.md has no ```sh block under %q", heading)
	}
	block, _, ok := strings.Cut(after, "\n```\n")
	if !ok {
		t.Fatalf("the ```sh block under %q does not end", heading)
	}
	return block + "\n"
}

// needTools skips the test when one of the tools is missing. In CI, it fails the test instead.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is not installed; the README's walk-through needs it", tool)
			}
			t.Skipf("%s is not installed: the README's walk-through is not run", tool)
		}
	}
	if err := exec.Command("date", "-d", "tomorrow 16:00", "+%s").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("date is not GNU date (%v); the README's walk-through needs it", err)
		}
		t.Skipf("date is not GNU date (%v): the README's walk-through is not run", err)
	}
}

// walkCall matches the line that the curl wrapper logs for each call: status, method and URL.
var walkCall = regexp.MustCompile(`(?m)^walk: (\d{3}) (\S+) (\S+)$`)

// TestReadmeWalkThrough runs the README's walk-through, unchanged, in bash against a server with freshly
// loaded demo data, as `make run` serves it. Two things differ: bin/booking is this test binary, and B
// points at the test server instead of the default address. Every command must succeed, and every call
// must return the status the README says it returns.
func TestReadmeWalkThrough(t *testing.T) {
	t.Parallel()
	needTools(t, "bash", "curl", "sed", "tail")
	block := readmeBlock(t, "### Walk-through")
	const defaultB = "B=http://127.0.0.1:8080/api/v1\n"
	if !strings.HasPrefix(block, defaultB) {
		t.Fatalf("the walk-through does not start with %q:\n%s", defaultB, block)
	}

	dbURL := bookingtest.NewDatabaseURL(t)
	mustRun(t, dbURL, "demo")
	s := startServer(t, dbURL)

	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(dir, "bin", "booking")); err != nil {
		t.Fatal(err)
	}
	// The wrapper makes each curl also write its status, method and URL to stderr for the test to check.
	script := "set -euo pipefail\n" +
		`curl() { command curl -w '%{stderr}walk: %{http_code} %{method} %{url_effective}\n' "$@"; }` + "\n" +
		"B=" + s.base + "/api/v1\n" + strings.TrimPrefix(block, defaultB)

	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LANG=C.UTF-8", "DATABASE_URL=" + dbURL, asCommand + "=1"}
	var stdout, stderr syncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the walk-through failed: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}

	// The status the README gives for each call, in order.
	want := []struct {
		status, method, path string
	}{
		{"200", "GET", "/resources/statusinfo"},
		{"200", "GET", "/free"},
		{"201", "POST", "/users/me/bookings/spaces/standard"},
		{"409", "POST", "/users/me/bookings/spaces/standard"},
		{"201", "PUT", "/reservables/all"},
		{"404", "POST", "/users/me/resources/checkin"},
		{"409", "POST", "/checkin"},
		{"201", "POST", "/bookings/spaces/standard"},
		{"200", "GET", "/users/me/bookings"},
		{"200", "GET", "/users/me/bookings"},
		{"200", "GET", "/bookings/"},
		{"200", "PATCH", "/bookings/"},
		{"200", "PATCH", "/bookings/"},
		{"409", "POST", "/checkout"},
		{"200", "DELETE", "/bookings/"},
		{"201", "POST", "/users/me/bookings/workstations/standard"},
		{"200", "GET", "/availability"},
		{"200", "GET", "/buildings"},
		{"200", "GET", "/floors"},
		{"200", "GET", "/subcategories"},
		{"200", "GET", "/features"},
		{"200", "GET", "/reservables"},
		{"200", "GET", "/approvals"},
		{"200", "POST", "/approval"},
		{"200", "GET", "/openapi.json"},
	}
	calls := walkCall.FindAllStringSubmatch(stderr.String(), -1)
	if len(calls) != len(want) {
		t.Errorf("the walk-through made %d calls, want %d\nstderr:\n%s", len(calls), len(want), stderr.String())
	}
	for i := 0; i < len(calls) && i < len(want); i++ {
		got, w := calls[i], want[i]
		path := strings.TrimPrefix(got[3], s.base+"/api/v1")
		if got[1] != w.status || got[2] != w.method || !strings.Contains(strings.SplitN(path, "?", 2)[0], w.path) {
			t.Errorf("call %d: %s %s answered %s, want %s %s… answering %s", i+1, got[2], path, got[1], w.method, w.path, w.status)
		}
		if strings.Contains(path, "//") {
			t.Errorf("call %d: %s %s has an empty part (a variable the walk-through did not set)", i+1, got[2], path)
		}
	}

	out := stdout.String()
	for _, part := range []string{
		`"isFree":`,
		`"status":"PENDING"`,
		`"code":4001,"name":"RESOURCE_NOT_AVAILABLE"`,
		`"name":"Coffee service"`,
		`"code":1012,"name":"NO_BOOKING_TO_CHECK_IN"`,
		`"code":4010,"name":"CHECK_IN_NOT_OPEN_YET"`,
		`"nextCursor":"`,
		`"code":4007,"name":"BOOKING_NOT_MODIFIABLE"`,
		`"status":"CANCELLED"`,
		`"status":"WAITING_APPROVAL"`,
		`"openapi":"3.1`,
	} {
		if !strings.Contains(out, part) {
			t.Errorf("the walk-through's output has no %s\nstdout:\n%s", part, out)
		}
	}
}

// TestReadmeTwoCommands checks that the README opens with the two commands, and that CI (.ci/run) runs
// the README's test command.
func TestReadmeTwoCommands(t *testing.T) {
	t.Parallel()
	block := readmeBlock(t, "## Two commands")
	var commands []string
	for line := range strings.Lines(block) {
		command, _, _ := strings.Cut(line, "#")
		commands = append(commands, strings.TrimSpace(command))
	}
	if want := []string{"make run", "make test"}; !slices.Equal(commands, want) {
		t.Errorf("the README's two commands are %q, want %q", commands, want)
	}
	ci, err := os.ReadFile(filepath.Join("..", "..", ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Split(string(ci), "\n"), "make test") {
		t.Error(".ci/run does not run make test, the README's test command")
	}
}

// markdownLink matches a Markdown link, [text](target), and captures the target.
var markdownLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks checks every relative link in the README and docs/: the linked file exists and, if the
// link ends in #anchor, the file has that heading.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range append(docs, filepath.Join(root, "README.md")) {
		raw, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, doc)
		for _, m := range markdownLink.FindAllStringSubmatch(string(raw), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
			}
			linked, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s: link %s: %v", name, target, err)
				continue
			}
			if anchor != "" && !slices.Contains(headingAnchors(string(linked)), anchor) {
				t.Errorf("%s: link %s: the file has no heading #%s", name, target, anchor)
			}
		}
	}
}

// headingAnchors returns the anchors GitHub gives the headings of a Markdown file: lower case, spaces
// turned into hyphens, and punctuation other than hyphens and underscores dropped. Lines starting with #
// inside code blocks, such as shell comments, are not headings.
func headingAnchors(markdown string) []string {
	var anchors []string
	inCode := false
	for line := range strings.Lines(markdown) {
		line = strings.TrimRight(line, "\n")
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		}
		text, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if inCode || !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		anchor := strings.Map(func(r rune) rune {
			switch {
			case r == ' ':
				return '-'
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				return unicode.ToLower(r)
			}
			return -1
		}, text)
		anchors = append(anchors, anchor)
	}
	return anchors
}

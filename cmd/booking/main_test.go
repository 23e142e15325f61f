package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/cmd/internal/cli"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// wait is the longest a test waits for anything.
const wait = bookingtest.Wait

// syncBuffer is a bytes.Buffer that the server's goroutines can write to while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// environ returns a getenv function that knows only DATABASE_URL and the given key/value pairs.
func environ(dbURL string, kv ...string) func(string) string {
	env := map[string]string{"DATABASE_URL": dbURL}
	for i := 0; i+1 < len(kv); i += 2 {
		env[kv[i]] = kv[i+1]
	}
	return func(k string) string { return env[k] }
}

// runBooking runs the booking command with args (without the program name) and returns its output.
func runBooking(t *testing.T, getenv func(string) string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut syncBuffer
	err = run(t.Context(), append([]string{"booking"}, args...), getenv, &out, &errOut)
	return out.String(), errOut.String(), err
}

// mustRun runs the command line and fails the test when it returns an error.
func mustRun(t *testing.T, dbURL string, args ...string) (stdout string) {
	t.Helper()
	stdout, stderr, err := runBooking(t, environ(dbURL), args...)
	if err != nil {
		t.Fatalf("booking %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout, stderr)
	}
	return stdout
}

// serverURL returns the URL of the PostgreSQL server the tests use.
func serverURL() string { return bookingtest.ServerURL() }

// databaseURL returns the server's URL with the database changed to name.
func databaseURL(t *testing.T, name string) string {
	t.Helper()
	u, err := url.Parse(serverURL())
	if err != nil {
		t.Fatalf("DATABASE_URL: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

func connect(t *testing.T, dbURL string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// randomDatabaseName returns the name of a database that does not exist yet. If the test creates it,
// it is dropped when the test ends.
func randomDatabaseName(t *testing.T) string {
	t.Helper()
	b := make([]byte, 8)
	rand.Read(b)
	name := "booking_cmd_test_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		conn, err := pgx.Connect(ctx, serverURL())
		if err != nil {
			t.Errorf("drop database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database %s: %v", name, err)
		}
	})
	return name
}

// newEmptyDatabase creates a database with no tables and returns its URL. It is dropped when the
// test ends.
func newEmptyDatabase(t *testing.T) string {
	t.Helper()
	name := randomDatabaseName(t)
	if _, err := connect(t, serverURL()).Exec(t.Context(), "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		t.Fatalf("create database: %v", err)
	}
	return databaseURL(t, name)
}

func databaseExists(t *testing.T, name string) bool {
	t.Helper()
	var ok bool
	err := connect(t, serverURL()).QueryRow(t.Context(), "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&ok)
	if err != nil {
		t.Fatalf("look for database %s: %v", name, err)
	}
	return ok
}

// counts returns the number of rows in each of the tables.
func counts(t *testing.T, dbURL string, tables ...string) map[string]int {
	t.Helper()
	conn := connect(t, dbURL)
	out := make(map[string]int, len(tables))
	for _, table := range tables {
		var n int
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM "+pgx.Identifier{table}.Sanitize()).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		out[table] = n
	}
	return out
}

func queryString(t *testing.T, dbURL, sql string, args ...any) string {
	t.Helper()
	var s string
	if err := connect(t, dbURL).QueryRow(t.Context(), sql, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

// writeFile writes v to a new file in the test's directory and returns its path. A []byte is written
// as is; anything else is written as JSON.
func writeFile(t *testing.T, v any) string {
	t.Helper()
	data, ok := v.([]byte)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			t.Fatalf("marshal layout: %v", err)
		}
	}
	path := filepath.Join(t.TempDir(), "layout.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// withFixture returns the URL of a new migrated database, with the fixture layout imported by running
// `booking import`.
func withFixture(t *testing.T) string {
	t.Helper()
	dbURL := bookingtest.NewDatabaseURL(t)
	mustRun(t, dbURL, "import", writeFile(t, bookingtest.Layout()))
	return dbURL
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// mintToken runs `booking token` for the user and returns the token.
func mintToken(t *testing.T, dbURL string, user uuid.UUID) string {
	t.Helper()
	tok := lastLine(mustRun(t, dbURL, "token", "--user", user.String()))
	if strings.Count(tok, ".") != 2 {
		t.Fatalf("token = %q, want a JWT", tok)
	}
	return tok
}

// testServer is a `booking serve` running in a goroutine.
type testServer struct {
	base   string // http://127.0.0.1:PORT
	addr   string
	cancel context.CancelFunc
	done   chan struct{} // closed when run returns; err is set by then
	err    error
	stdout *syncBuffer
	stderr *syncBuffer
	client *http.Client
}

var listening = regexp.MustCompile(`listening on http://(\S+)`)

// startServer runs `booking serve --addr 127.0.0.1:0 [flags]` on dbURL and waits until it prints the
// address it listens on. If the test does not stop the server, it is stopped when the test ends.
func startServer(t *testing.T, dbURL string, flags ...string) *testServer {
	t.Helper()
	return startServerWith(t, environ(dbURL), flags...)
}

// startServerWith is like startServer, but reads the environment from getenv.
func startServerWith(t *testing.T, getenv func(string) string, flags ...string) *testServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &testServer{cancel: cancel, done: make(chan struct{}), stdout: &syncBuffer{}, stderr: &syncBuffer{}}
	go func() {
		defer close(s.done)
		args := append([]string{"booking", "serve", "--addr", "127.0.0.1:0"}, flags...)
		s.err = run(ctx, args, getenv, s.stdout, s.stderr)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(wait):
			t.Errorf("serve did not return %s after the test ended", wait)
		}
	})
	deadline := time.Now().Add(wait)
	for {
		if m := listening.FindStringSubmatch(s.stdout.String()); m != nil {
			s.addr, s.base = m[1], "http://"+m[1]
			break
		}
		select {
		case <-s.done:
			t.Fatalf("serve returned before listening: %v\nstderr:\n%s", s.err, s.stderr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not say where it listens within %s\nstdout:\n%s\nstderr:\n%s", wait, s.stdout, s.stderr)
		}
	}
	tr := &http.Transport{ExpectContinueTimeout: wait}
	t.Cleanup(tr.CloseIdleConnections)
	s.client = &http.Client{Transport: tr, Timeout: wait}
	return s
}

// response is a complete HTTP response.
type response struct {
	status int
	header http.Header
	body   string
}

// get sends a GET request to the server, with token as the bearer token unless it is empty.
func (s *testServer) get(t *testing.T, path, token string) response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return s.do(t, req)
}

func (s *testServer) do(t *testing.T, req *http.Request) response {
	t.Helper()
	res, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", req.Method, req.URL, err)
	}
	return response{status: res.StatusCode, header: res.Header, body: string(body)}
}

// stop cancels the server's context and checks that run returns nil and the port no longer accepts
// connections.
func (s *testServer) stop(t *testing.T) {
	t.Helper()
	s.cancel()
	select {
	case <-s.done:
		if s.err != nil {
			t.Fatalf("serve returned %v after its context was cancelled, want nil\nstderr:\n%s", s.err, s.stderr)
		}
	case <-time.After(wait):
		t.Fatalf("serve did not return within %s of its context being cancelled", wait)
	}
	if s.stillServes() {
		t.Errorf("%s still serves requests after serve returned", s.addr)
	}
}

// stillServes reports whether this server still answers on its address. Once serve has returned, the
// port is free and another test's server, or a connection to itself, may take it; so a connection alone
// proves nothing. A request with an id of its own that shows up in this server's log does.
func (s *testServer) stillServes() bool {
	id := "closed-check-" + rand.Text()
	req, err := http.NewRequest(http.MethodGet, s.base+"/healthz", nil)
	if err != nil {
		return false
	}
	req.Header.Set("X-Request-Id", id)
	c := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	res, err := c.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return strings.Contains(s.stderr.String(), id)
}

func TestNoCommand(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"booking"}, environ(""), &stdout, &stderr)
	if err == nil {
		t.Fatal("run without a command returned nil, want an error")
	}
	if got := stderr.String(); !strings.Contains(got, "usage: booking") {
		t.Errorf("stderr = %q, want the usage", got)
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	_, stderr, err := runBooking(t, environ(""), "frobnicate")
	if err == nil || !strings.Contains(err.Error(), `"frobnicate"`) {
		t.Fatalf("err = %v, want one naming the unknown command", err)
	}
	if !strings.Contains(stderr, "usage: booking") {
		t.Errorf("stderr = %q, want the usage", stderr)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	stdout, _, err := runBooking(t, environ(""), "help")
	if err != nil {
		t.Fatalf("help: %v", err)
	}
	for _, cmd := range []string{"serve", "migrate", "import", "token", "demo", "domain"} {
		if !strings.Contains(stdout, "\n  "+cmd+" ") {
			t.Errorf("usage does not list %s:\n%s", cmd, stdout)
		}
	}
}

var applied = regexp.MustCompile(`applied (\d+) migration\(s\); the database is up to date`)

// migrations returns the number of migrations that `booking migrate` says it applied.
func migrations(t *testing.T, stdout string) int {
	t.Helper()
	m := applied.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("stdout = %q, want %q", stdout, applied)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

func TestMigrate(t *testing.T) {
	t.Parallel()

	t.Run("EmptyDatabaseThenUpToDate", func(t *testing.T) {
		t.Parallel()
		dbURL := newEmptyDatabase(t)
		if got := migrations(t, mustRun(t, dbURL, "migrate")); got < 1 {
			t.Errorf("first migrate applied %d migrations, want at least 1", got)
		}
		if got, want := migrations(t, mustRun(t, dbURL, "migrate")), 0; got != want {
			t.Errorf("second migrate applied %d migrations, want %d", got, want)
		}
		if got, want := counts(t, dbURL, "signing_keys")["signing_keys"], 1; got != want {
			t.Errorf("signing keys after two migrations = %d, want %d", got, want)
		}
	})

	t.Run("MigratedDatabaseIsUpToDate", func(t *testing.T) {
		t.Parallel()
		if got, want := migrations(t, mustRun(t, bookingtest.NewDatabaseURL(t), "migrate")), 0; got != want {
			t.Errorf("migrate applied %d migrations, want %d", got, want)
		}
	})

	t.Run("CreatesMissingDatabase", func(t *testing.T) {
		t.Parallel()
		name := randomDatabaseName(t)
		if databaseExists(t, name) {
			t.Fatalf("database %s exists before the test", name)
		}
		dbURL := databaseURL(t, name)
		if got := migrations(t, mustRun(t, dbURL, "migrate")); got < 1 {
			t.Errorf("migrate applied %d migrations, want at least 1", got)
		}
		if !databaseExists(t, name) {
			t.Fatalf("database %s does not exist after migrate", name)
		}
		if got, want := counts(t, dbURL, "organizations")["organizations"], 0; got != want {
			t.Errorf("organizations = %d, want %d", got, want)
		}
	})
}

// TestImport checks importing a layout document, importing it a second time, and refusing a bad
// document as a whole.
func TestImport(t *testing.T) {
	t.Parallel()

	t.Run("FixtureTwice", func(t *testing.T) {
		t.Parallel()
		dbURL := bookingtest.NewDatabaseURL(t)
		path := writeFile(t, bookingtest.Layout())
		stdout := mustRun(t, dbURL, "import", path)
		for _, want := range []string{"imported " + path + ":", "2 organizations", "5 users", "3 buildings", "4 floors", "9 resources"} {
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout = %q, want it to contain %q", stdout, want)
			}
		}
		tables := []string{"organizations", "users", "buildings", "floors", "resources", "resource_features", "resource_reservables"}
		first := counts(t, dbURL, tables...)
		if diff := cmp.Diff(map[string]int{"users": 5, "resources": 9}, counts(t, dbURL, "users", "resources")); diff != "" {
			t.Errorf("rows after the first import (-want +got):\n%s", diff)
		}

		mustRun(t, dbURL, "import", path)
		if diff := cmp.Diff(first, counts(t, dbURL, tables...)); diff != "" {
			t.Errorf("rows after the second import, against the first (-first +second):\n%s", diff)
		}
	})

	t.Run("UpdatesInPlace", func(t *testing.T) {
		t.Parallel()
		dbURL := withFixture(t)
		l := bookingtest.Layout()
		l.Resources[0].Name = "Goya (renovated)"
		mustRun(t, dbURL, "import", writeFile(t, l))
		if got, want := queryString(t, dbURL, "SELECT name FROM resources WHERE id = $1", bookingtest.RoomGoya), "Goya (renovated)"; got != want {
			t.Errorf("name = %q, want %q", got, want)
		}
		if got, want := counts(t, dbURL, "resources")["resources"], 9; got != want {
			t.Errorf("resources = %d, want %d", got, want)
		}
	})

	// A bad document imports nothing at all: not the new organization listed first, not the renamed
	// existing one, and nothing that comes after them.
	bad := []struct {
		name  string
		spoil func(l *layout.Layout)
		want  string
	}{
		{"ResourceFloorNotUUID", func(l *layout.Layout) { l.Resources[0].FloorID = "floor-1" }, `resources[0].floorId: "floor-1" is not a UUID`},
		{"UserBadEmail", func(l *layout.Layout) { l.Users[1].Email = "bob at acme" }, `users[1].email`},
		{"FloorUnknownBuilding", func(l *layout.Layout) { l.Floors[2].BuildingID = uuid.NewString() }, `floors[2].buildingId`},
		{"ResourceUnknownFeature", func(l *layout.Layout) { l.Resources[1].FeatureIDs = []string{uuid.NewString()} }, `resources[1].featureIds`},
		{"BuildingBadTimezone", func(l *layout.Layout) { l.Buildings[1].Timezone = "Mars/Olympus" }, `buildings[1].timezone`},
	}
	for _, tt := range bad {
		t.Run("Bad"+tt.name, func(t *testing.T) {
			t.Parallel()
			dbURL := withFixture(t)
			tables := []string{"organizations", "users", "buildings", "floors", "resources", "resource_features"}
			before := counts(t, dbURL, tables...)

			newOrg := uuid.New()
			l := bookingtest.Layout()
			l.Organizations = append([]layout.LayoutOrganization{{ID: newOrg.String(), Name: "Initech"}}, l.Organizations...)
			l.Organizations[1].Name = "Acme renamed"
			l.Users = append(l.Users, layout.LayoutUser{ID: uuid.NewString(), OrganizationID: newOrg.String(), Name: "peter", Email: "peter@initech.test"})
			tt.spoil(&l)
			path := writeFile(t, l)

			stdout, _, err := runBooking(t, environ(dbURL), "import", path)
			if err == nil {
				t.Fatalf("import returned nil, want an error naming %s\nstdout: %s", tt.want, stdout)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to name %s", err, tt.want)
			}
			if got, want := booking.ErrorCode(err), booking.CodeInvalidRequest; got != want {
				t.Errorf("ErrorCode = %v, want %v", got, want)
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "nothing imported") {
				t.Errorf("err = %v, want it to name the file and say nothing was imported", err)
			}
			if diff := cmp.Diff(before, counts(t, dbURL, tables...)); diff != "" {
				t.Errorf("rows after the failed import (-before +after):\n%s", diff)
			}
			if got, want := queryString(t, dbURL, "SELECT count(*)::text FROM organizations WHERE id = $1", newOrg), "0"; got != want {
				t.Errorf("the new organization listed first exists %s times, want %s", got, want)
			}
			if got, want := queryString(t, dbURL, "SELECT name FROM organizations WHERE id = $1", bookingtest.OrgA), "Acme"; got != want {
				t.Errorf("organization name = %q, want %q (unchanged)", got, want)
			}
		})
	}

}

// TestImportRefused checks that import refuses files that are not a single layout document, and a
// missing file.
func TestImportRefused(t *testing.T) {
	t.Parallel()

	t.Run("UnknownTopLevelField", func(t *testing.T) {
		t.Parallel()
		dbURL := bookingtest.NewDatabaseURL(t)
		path := writeFile(t, []byte(`{"organizations":[{"id":"`+uuid.NewString()+`","name":"Initech"}],"rooms":[]}`))
		_, _, err := runBooking(t, environ(dbURL), "import", path)
		if err == nil || !strings.Contains(err.Error(), `unknown field "rooms"`) {
			t.Fatalf("err = %v, want one naming the unknown field rooms", err)
		}
		if got, want := counts(t, dbURL, "organizations")["organizations"], 0; got != want {
			t.Errorf("organizations = %d, want %d", got, want)
		}
	})

	t.Run("TrailingData", func(t *testing.T) {
		t.Parallel()
		dbURL := bookingtest.NewDatabaseURL(t)
		org := func() string { return `{"organizations":[{"id":"` + uuid.NewString() + `","name":"Initech"}]}` }
		path := writeFile(t, []byte(org()+"\n"+org()+"\n"))
		_, _, err := runBooking(t, environ(dbURL), "import", path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "after the JSON object") {
			t.Fatalf("err = %v, want one naming the file and the data after the document", err)
		}
		if got, want := counts(t, dbURL, "organizations")["organizations"], 0; got != want {
			t.Errorf("organizations = %d, want %d", got, want)
		}
	})

	t.Run("NotJSON", func(t *testing.T) {
		t.Parallel()
		path := writeFile(t, []byte("organizations:\n  - id: 1\n"))
		_, _, err := runBooking(t, environ(bookingtest.NewDatabaseURL(t)), "import", path)
		if err == nil || !strings.Contains(err.Error(), "not a layout document") {
			t.Fatalf("err = %v, want one saying the file is not a layout document", err)
		}
	})

	t.Run("MissingFile", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "missing.json")
		_, _, err := runBooking(t, environ(bookingtest.NewDatabaseURL(t)), "import", path)
		if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("err = %v, want one wrapping fs.ErrNotExist", err)
		}
	})

	t.Run("NoFile", func(t *testing.T) {
		t.Parallel()
		_, stderr, err := runBooking(t, environ(bookingtest.NewDatabaseURL(t)), "import")
		if err == nil {
			t.Fatal("import without a file returned nil, want an error")
		}
		if !strings.Contains(stderr, "usage: booking") {
			t.Errorf("stderr = %q, want the usage", stderr)
		}
	})

	t.Run("TwoFiles", func(t *testing.T) {
		t.Parallel()
		path := writeFile(t, bookingtest.Layout())
		_, _, err := runBooking(t, environ(bookingtest.NewDatabaseURL(t)), "import", path, path)
		if err == nil {
			t.Fatal("import with two files returned nil, want an error")
		}
	})
}

func TestToken(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)

	t.Run("LastLineIsTheToken", func(t *testing.T) {
		t.Parallel()
		stdout := mustRun(t, dbURL, "token", "--user", bookingtest.Alice.String(), "--ttl", "10m")
		if tok := lastLine(stdout); strings.Count(tok, ".") != 2 || strings.ContainsAny(tok, " #") {
			t.Errorf("last line = %q, want a JWT", tok)
		}
		if !strings.Contains(stdout, "alice@acme.test") {
			t.Errorf("stdout = %q, want it to name the user", stdout)
		}
	})

	errorCases := []struct {
		name string
		args []string
		want string
	}{
		{"UnknownUser", []string{"--user", "00000000-0000-4000-8000-999999999999"}, "no user with id 00000000-0000-4000-8000-999999999999"},
		{"NotAUUID", []string{"--user", "alice"}, `--user: "alice" is not a user id`},
		{"NoUser", nil, "--user is required"},
		{"ZeroTTL", []string{"--user", bookingtest.Alice.String(), "--ttl", "0"}, "--ttl: must be positive"},
		{"NegativeTTL", []string{"--user", bookingtest.Alice.String(), "--ttl", "-1h"}, "--ttl: must be positive"},
		{"BadTTL", []string{"--user", bookingtest.Alice.String(), "--ttl", "soon"}, "-ttl"},
	}
	for _, tt := range errorCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stdout, _, err := runBooking(t, environ(dbURL), append([]string{"token"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
		})
	}
}

// TestServe checks the endpoints of the server that serve starts, and how it shuts down.
func TestServe(t *testing.T) {
	t.Parallel()

	t.Run("EndpointsAndGracefulShutdown", func(t *testing.T) {
		t.Parallel()
		dbURL := withFixture(t)
		tok := mintToken(t, dbURL, bookingtest.Alice)
		s := startServer(t, dbURL)

		const statusinfo = "/api/v1/users/me/resources/statusinfo?postercode=MAD-R1"
		// mediaType is the expected start of the Content-Type; "" accepts any.
		for _, tc := range []struct {
			path, token, mediaType string
			status                 int
		}{
			{"/healthz", "", "", http.StatusOK},
			{"/readyz", "", "", http.StatusOK},
			{"/api/v1/no/such/operation", "", "application/problem+json", http.StatusNotFound},
			{"/no/such/page", "", "text/html", http.StatusNotFound},
			{statusinfo, "", "", http.StatusUnauthorized},
			{statusinfo, "not.a.token", "", http.StatusUnauthorized},
		} {
			res := s.get(t, tc.path, tc.token)
			if ct := res.header.Get("Content-Type"); res.status != tc.status || !strings.HasPrefix(ct, tc.mediaType) {
				t.Errorf("GET %s (token %q) = %d %q, want %d %s", tc.path, tc.token, res.status, ct, tc.status, tc.mediaType)
			}
			if tc.path == "/healthz" && strings.TrimSpace(res.body) != "ok" {
				t.Errorf("GET /healthz body = %q, want ok", res.body)
			}
		}
		res := s.get(t, statusinfo, tok)
		if res.status != http.StatusOK {
			t.Fatalf("GET %s with the minted token = %d %s, want 200", statusinfo, res.status, res.body)
		}
		var info struct {
			Resource struct {
				ID         string `json:"id"`
				PosterCode string `json:"posterCode"`
			} `json:"resource"`
		}
		if err := json.Unmarshal([]byte(res.body), &info); err != nil {
			t.Fatalf("statusinfo body %q: %v", res.body, err)
		}
		if got, want := info.Resource.ID, bookingtest.RoomGoya.String(); got != want {
			t.Errorf("resource.id = %q, want %q (Alice's MAD-R1)", got, want)
		}

		s.stop(t)
	})

	t.Run("DevelopmentSignInOnlyWithDev", func(t *testing.T) {
		t.Parallel()
		dbURL := withFixture(t)
		dev := startServer(t, dbURL, "--dev")
		if res := dev.get(t, "/login", ""); res.status != http.StatusOK ||
			!strings.Contains(res.body, "Development mode") || !strings.Contains(res.body, "alice@acme.test") {
			t.Errorf("GET /login with --dev = %d, want 200 with the banner and the people\n%s", res.status, res.body)
		}
		plain := startServer(t, dbURL)
		if res := plain.get(t, "/login", ""); res.status != http.StatusServiceUnavailable ||
			strings.Contains(res.body, "Development mode") || strings.Contains(res.body, "alice@acme.test") {
			t.Errorf("GET /login without --dev = %d, want 503 without the development sign-in\n%s", res.status, res.body)
		}
		dev.stop(t)
		plain.stop(t)
	})

	t.Run("OIDCNeedsBaseURL", func(t *testing.T) {
		t.Parallel()
		dbURL := withFixture(t)
		_, _, err := runBooking(t, environ(dbURL, "OIDC_ISSUER", "http://127.0.0.1:1/", "OIDC_CLIENT_ID", "booking"),
			"serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), "BASE_URL") {
			t.Errorf("serve with OIDC_ISSUER and no BASE_URL: err = %v, want one asking for BASE_URL", err)
		}
	})

	t.Run("StartsWithoutTheIdentityProvider", func(t *testing.T) {
		t.Parallel()
		dbURL := withFixture(t)
		s := startServerWith(t, environ(dbURL, "OIDC_ISSUER", "http://127.0.0.1:1/", "OIDC_CLIENT_ID", "booking",
			"BASE_URL", "http://127.0.0.1:1"))
		if res := s.get(t, "/readyz", ""); res.status != http.StatusOK || !strings.Contains(res.body, "sign-in not ready") {
			t.Errorf("GET /readyz while the provider is down = %d %q, want 200 saying sign-in is not ready", res.status, res.body)
		}
		s.stop(t)
	})

	t.Run("BadScopesAreRefused", func(t *testing.T) {
		t.Parallel()
		_, _, err := runBooking(t, environ(withFixture(t), "OIDC_ISSUER", "http://127.0.0.1:1/", "OIDC_CLIENT_ID", "booking",
			"BASE_URL", "http://127.0.0.1:1", "OIDC_SCOPES", "profile email"), "serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), "openid") {
			t.Errorf("serve with OIDC_SCOPES lacking openid: err = %v, want one naming openid", err)
		}
		_, _, err = runBooking(t, environ(withFixture(t), "OIDC_ISSUER", "http://127.0.0.1:1/", "OIDC_CLIENT_ID", "booking",
			"BASE_URL", "http://127.0.0.1:1", "OIDC_INTROSPECTION", "yes"), "serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), "OIDC_INTROSPECTION") {
			t.Errorf("serve with OIDC_INTROSPECTION=yes: err = %v, want one naming OIDC_INTROSPECTION", err)
		}
	})

	t.Run("InFlightRequestFinishes", testServeInFlightRequestFinishes)

	t.Run("AddressInUse", func(t *testing.T) {
		t.Parallel()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		_, _, err = runBooking(t, environ(bookingtest.NewDatabaseURL(t)), "serve", "--addr", ln.Addr().String())
		if err == nil {
			t.Fatal("serve on a busy address returned nil, want an error")
		}
	})
}

// testServeInFlightRequestFinishes stops the server while a request body is half sent. It checks that
// serve waits for the request and that the client gets a complete response.
func testServeInFlightRequestFinishes(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	tok := mintToken(t, dbURL, bookingtest.Alice)
	s := startServer(t, dbURL)

	bookingID := uuid.NewString()
	pr, pw := io.Pipe()
	defer pw.Close()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, s.base+"/api/v1/bookings/"+bookingID+"/reservables/all", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	// The client sends the body only after the server's 100 Continue, and the server sends that when
	// the handler starts reading the body. So once the first write below returns, the request has
	// reached the handler.
	req.Header.Set("Expect", "100-continue")
	type result struct {
		res response
		err error
	}
	resc := make(chan result, 1)
	go func() {
		res, err := s.client.Do(req)
		if err != nil {
			resc <- result{err: err}
			return
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		resc <- result{res: response{status: res.StatusCode, header: res.Header, body: string(body)}, err: err}
	}()
	write := func(s string) {
		t.Helper()
		errc := make(chan error, 1)
		go func() { _, err := io.WriteString(pw, s); errc <- err }()
		select {
		case err := <-errc:
			if err != nil {
				t.Fatalf("write body: %v", err)
			}
		case r := <-resc:
			t.Fatalf("the request ended before its body was sent: %d %s %v", r.res.status, r.res.body, r.err)
		case <-time.After(wait):
			t.Fatalf("the request body was not read within %s", wait)
		}
	}
	body := fmt.Sprintf(`{"bookingId": %q, "reservableBookingList": []}`, bookingID)
	write(body[:10])

	s.cancel()
	deadline := time.Now().Add(wait)
	for !strings.Contains(s.stderr.String(), "shutting down") {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start shutting down within %s\nstderr:\n%s", wait, s.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case <-s.done:
		t.Fatalf("serve returned %v while a request was in flight", s.err)
	default:
	}

	write(body[10:])
	pw.Close()
	var r result
	select {
	case r = <-resc:
	case <-time.After(wait):
		t.Fatalf("no response within %s", wait)
	}
	if r.err != nil {
		t.Fatalf("in-flight request during shutdown: %v", r.err)
	}
	if r.res.status < 200 || r.res.status >= 500 {
		t.Errorf("status = %d, want a client-facing answer", r.res.status)
	}
	if !json.Valid([]byte(r.res.body)) {
		t.Errorf("body = %q, want a complete JSON document", r.res.body)
	}
	s.stop(t)
}

var (
	exportToken = regexp.MustCompile(`(?m)^\s*export TOKEN=(\S+)$`)
	curl        = regexp.MustCompile(`(?m)^\s*curl .*-H "Authorization: Bearer \$TOKEN" '([^']+)'$`)
)

// TestServeSweepsOnce runs two instances on one database. Within a few sweeps, the no-shows expire and
// the bookings that have ended finish, and each booking is changed by only one of the two instances.
func TestServeSweepsOnce(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	now := time.Now().Truncate(time.Millisecond)
	stay := func(resource uuid.UUID, start, end time.Time, status booking.Status) layout.LayoutBooking {
		return layout.LayoutBooking{
			ID: uuid.NewString(), OrganizationID: bookingtest.OrgA.String(), ResourceID: resource.String(),
			CreatorID: bookingtest.Alice.String(), OrganizerID: bookingtest.Alice.String(),
			StartDate: start.UnixMilli(), EndDate: end.UnixMilli(), Status: string(status),
		}
	}
	// The rooms' rule closes check-in 15 minutes after the start, so these are no-shows.
	noShows := []layout.LayoutBooking{
		stay(bookingtest.RoomGoya, now.Add(-30*time.Minute), now.Add(time.Hour), booking.StatusPending),
		stay(bookingtest.RoomVelazquez, now.Add(-20*time.Minute), now.Add(time.Hour), booking.StatusPending),
		stay(bookingtest.RoomHudson, now.Add(-2*time.Hour), now.Add(-time.Hour), booking.StatusPending),
	}
	ended := stay(bookingtest.RoomBoard, now.Add(-2*time.Hour), now.Add(-time.Hour), booking.StatusActive)
	onTime := stay(bookingtest.RoomGoya, now.Add(2*time.Hour), now.Add(3*time.Hour), booking.StatusPending)
	mustRun(t, dbURL, "import", writeFile(t, layout.Layout{Bookings: append(noShows, ended, onTime)}))

	a := startServer(t, dbURL, "--sweep-every", "20ms")
	b := startServer(t, dbURL, "--sweep-every", "20ms")
	status := func(id string) string {
		return queryString(t, dbURL, "SELECT status FROM bookings WHERE id = $1", id)
	}
	deadline := time.Now().Add(wait)
	for status(noShows[0].ID) != "EXPIRED" || status(noShows[2].ID) != "EXPIRED" || status(ended.ID) != "FINISHED" {
		if time.Now().After(deadline) {
			t.Fatalf("the bookings were not swept within %s\nstderr A:\n%s\nstderr B:\n%s", wait, a.stderr, b.stderr)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // give each instance several more sweeps
	a.stop(t)
	b.stop(t)

	for _, nb := range noShows {
		if got := status(nb.ID); got != "EXPIRED" {
			t.Errorf("no-show %s is %s, want EXPIRED", nb.ID, got)
		}
	}
	if got := status(ended.ID); got != "FINISHED" {
		t.Errorf("ended stay is %s, want FINISHED", got)
	}
	if got := status(onTime.ID); got != "PENDING" {
		t.Errorf("booking whose check-in has not opened is %s, want PENDING", got)
	}
	byA, byB := swept(t, a.stderr.String()), swept(t, b.stderr.String())
	if got := [2]int{byA[0] + byB[0], byA[1] + byB[1]}; got != [2]int{len(noShows), 1} {
		t.Errorf("the instances logged %v and %v (expired, finished), want %d expired and 1 finished in all",
			byA, byB, len(noShows))
	}
}

// swept adds up an instance's "swept bookings" log lines and returns the number of bookings expired
// and the number finished.
func swept(t *testing.T, logs string) (counts [2]int) {
	t.Helper()
	for _, line := range strings.Split(logs, "\n") {
		var rec struct {
			Msg      string `json:"msg"`
			Expired  int    `json:"expired"`
			Finished int    `json:"finished"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "swept bookings" {
			counts[0] += rec.Expired
			counts[1] += rec.Finished
		}
	}
	return counts
}

func TestDemo(t *testing.T) {
	t.Parallel()
	dbURL := bookingtest.NewDatabaseURL(t)
	s := startServer(t, dbURL)
	getenv := environ(dbURL, "BASE_URL", s.base)

	stdout, stderr, err := runBooking(t, getenv, "demo")
	if err != nil {
		t.Fatalf("demo: %v\nstderr:\n%s", err, stderr)
	}
	for _, who := range []string{"employee", "receptionist", "admin"} {
		re := regexp.MustCompile(`(?m)^\s+` + who + `\s+\S.*<\S+@\S+>\s+[0-9a-f-]{36}$`)
		if !re.MatchString(stdout) {
			t.Errorf("stdout does not name the %s with e-mail and id:\n%s", who, stdout)
		}
	}
	if !strings.Contains(stdout, " bookings") {
		t.Errorf("stdout does not count the demo bookings:\n%s", stdout)
	}
	m := exportToken.FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("stdout has no export TOKEN= line:\n%s", stdout)
	}
	tok := m[1]
	c := curl.FindStringSubmatch(stdout)
	if c == nil {
		t.Fatalf("stdout has no curl command:\n%s", stdout)
	}
	if !strings.HasPrefix(c[1], s.base+"/api/v1/") {
		t.Fatalf("curl URL = %q, want one under BASE_URL %s/api/v1/", c[1], s.base)
	}

	path := strings.TrimPrefix(c[1], s.base)
	if res := s.get(t, path, tok); res.status != http.StatusOK {
		t.Errorf("GET %s with the demo token = %d %s, want 200", path, res.status, res.body)
	}
	if res := s.get(t, path, ""); res.status != http.StatusUnauthorized {
		t.Errorf("GET %s without a token = %d, want 401", path, res.status)
	}

	tables := []string{"organizations", "users", "resources", "bookings"}
	before := counts(t, dbURL, tables...)
	if before["bookings"] == 0 {
		t.Errorf("no bookings after the first demo")
	}
	stdout, stderr, err = runBooking(t, getenv, "demo")
	if err != nil {
		t.Fatalf("second demo: %v\nstderr:\n%s", err, stderr)
	}
	if strings.Contains(stdout, " bookings") {
		t.Errorf("second demo says it loaded bookings again:\n%s", stdout)
	}
	if !exportToken.MatchString(stdout) {
		t.Errorf("second demo prints no export TOKEN= line:\n%s", stdout)
	}
	after := counts(t, dbURL, tables...)
	for _, table := range tables {
		if got, want := after[table], before[table]; got != want {
			t.Errorf("%s after the second demo = %d, want %d as after the first", table, got, want)
		}
	}
	s.stop(t)
}

// TestCommandHelp checks that every command prints its usage on stdout for -h and --help and does
// nothing else: it creates, migrates or loads no database, opens no file and listens on no address.
func TestCommandHelp(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"serve", "migrate", "import", "token", "demo", "domain"} {
		for _, flag := range []string{"--help", "-h"} {
			t.Run(cmd+flag, func(t *testing.T) {
				t.Parallel()
				name := randomDatabaseName(t)
				args := []string{cmd, flag}
				if cmd == "serve" {
					args = append(args, "--addr", "127.0.0.1:0")
				}
				stdout, stderr, err := runBooking(t, environ(databaseURL(t, name)), args...)
				if err != nil && !errors.Is(err, cli.ErrHelp) {
					t.Errorf("booking %s %s: %v, want its help", cmd, flag, err)
				}
				if !strings.HasPrefix(stdout, "usage: booking "+cmd) || strings.Contains(stdout, "listening") {
					t.Errorf("stdout = %q, want only the usage of %s", stdout, cmd)
				}
				if stderr != "" {
					t.Errorf("stderr = %q, want nothing", stderr)
				}
				if databaseExists(t, name) {
					t.Errorf("booking %s %s created the database %s", cmd, flag, name)
				}
			})
		}
	}
}

// TestCommandUnexpectedArguments checks that a command refuses an argument it does not take, prints
// its usage and does nothing else.
func TestCommandUnexpectedArguments(t *testing.T) {
	t.Parallel()
	path := writeFile(t, bookingtest.Layout())
	for _, args := range [][]string{
		{"migrate", "extra"},
		{"demo", "extra"},
		{"serve", "--addr", "127.0.0.1:0", "extra"},
		{"token", "--user", bookingtest.Alice.String(), "extra"},
		{"import", path, "extra"},
		{"import"},
	} {
		t.Run(strings.Join(args, "_"), func(t *testing.T) {
			t.Parallel()
			name := randomDatabaseName(t)
			stdout, stderr, err := runBooking(t, environ(databaseURL(t, name)), args...)
			if err == nil || errors.Is(err, cli.ErrHelp) {
				t.Fatalf("booking %s: %v, want an error", strings.Join(args, " "), err)
			}
			if !strings.Contains(err.Error(), `"extra"`) && !strings.Contains(err.Error(), "FILE.json is missing") {
				t.Errorf("error = %q, want it to name what is wrong", err)
			}
			if !strings.HasPrefix(stderr, "usage: booking "+args[0]) {
				t.Errorf("stderr = %q, want the usage of %s", stderr, args[0])
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			if databaseExists(t, name) {
				t.Errorf("booking %s created the database %s", strings.Join(args, " "), name)
			}
		})
	}
}

// TestCommandMistakes checks that common newcomer mistakes get an error that says what to do instead.
func TestCommandMistakes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		env  func(string) string
		args []string
		want string
	}{
		{"TokenWithoutUser", environ(""), []string{"token"}, "--user is required"},
		{"NotPostgreSQL", environ("mysql://root:secret@127.0.0.1:3306/booking"), []string{"migrate"},
			`DATABASE_URL: a "mysql" URL is not PostgreSQL: a postgres:// URL is expected`},
		{"SweepEveryWithoutUnit", environ(""), []string{"serve", "--addr", "127.0.0.1:0", "--sweep-every", "5"},
			"--sweep-every 5: a unit is needed, e.g. 5s"},
		{"SweepEveryWithoutUnitAfterEquals", environ(""), []string{"serve", "--sweep-every=5"},
			"--sweep-every 5: a unit is needed, e.g. 5s"},
		{"TTLWithoutUnit", environ(""), []string{"token", "--user", bookingtest.Alice.String(), "--ttl", "30"},
			"--ttl 30: a unit is needed, e.g. 30s"},
		{"DemoBadAddr", environ(""), []string{"demo", "--addr", "8080"}, `--addr "8080": want host:port`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, stderr, err := runBooking(t, tc.env, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("booking %s: %v, want an error containing %q", strings.Join(tc.args, " "), err, tc.want)
			}
			if strings.Contains(err.Error()+stderr, "secret") {
				t.Errorf("the error or stderr shows the password of DATABASE_URL: %v %s", err, stderr)
			}
		})
	}
}

// TestDemoAddr checks that the demo's links and curl command use the address given to --addr.
func TestDemoAddr(t *testing.T) {
	t.Parallel()
	dbURL := bookingtest.NewDatabaseURL(t)
	for addr, base := range map[string]string{"127.0.0.1:18099": "http://127.0.0.1:18099", "0.0.0.0:9000": "http://127.0.0.1:9000"} {
		stdout := mustRun(t, dbURL, "demo", "--addr", addr)
		c := curl.FindStringSubmatch(stdout)
		if c == nil || !strings.HasPrefix(c[1], base+"/api/v1/") {
			t.Errorf("demo --addr %s: curl %v, want one under %s/api/v1/\n%s", addr, c, base, stdout)
		}
		if strings.Contains(stdout, "8080") {
			t.Errorf("demo --addr %s still prints 8080:\n%s", addr, stdout)
		}
	}
}

// TestDomainApprove checks that the operator verifies an organization's e-mail domain, and that a public
// domain, another organization's domain and a bad organization id are refused.
func TestDomainApprove(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	orgA, orgB := bookingtest.OrgA.String(), bookingtest.OrgB.String()
	stdout := mustRun(t, dbURL, "domain", "approve", orgA, "ACME.test")
	if want := "acme.test is verified for organization " + orgA; !strings.Contains(stdout, want) {
		t.Errorf("stdout = %q, want it to contain %q", stdout, want)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"domain", "approve", orgB, "acme.test"}, "domains: acme.test cannot be used"},
		{[]string{"domain", "approve", orgB, "gmail.com"}, "domains: gmail.com cannot be used"},
		{[]string{"domain", "approve", "initech", "initech.test"}, `"initech" is not an organization id`},
		{[]string{"domain", "approve", uuid.NewString(), "initech.test"}, "no organization"},
		{[]string{"domain", "list"}, "the only subcommand is approve"},
	} {
		if _, _, err := runBooking(t, environ(dbURL), tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("booking %s: %v, want an error containing %q", strings.Join(tc.args, " "), err, tc.want)
		}
	}
	conn, err := pgx.Connect(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var got []string
	rows, err := conn.Query(t.Context(), `SELECT organization_id || ' ' || domain || ' ' || coalesce(verified_by, '-') FROM organization_email_domains ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	if d := cmp.Diff([]string{orgA + " acme.test OPERATOR"}, got); d != "" {
		t.Errorf("domains (-want +got):\n%s", d)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/cmd/internal/pgcluster"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The fault tests drive a real `serve` with several clients at once, as a rush of bookings would.
// The limits per user and per address are off: four fixture users on one address are not an office.
var unlimited = []string{"--rate-per-user", "0", "--rate-per-address", "0"}

// answer is what a client saw for one request.
type answer struct {
	started, ended time.Time
	status         int
	code           int      // the problem's code; 0 when none
	ids            []string // the bookings answered 201
	err            error    // no HTTP answer at all
}

// bookingLoad books distinct 15-minute slots of the fixture's desks from several clients, each sending
// its next request when the last is answered, and keeps every answer.
type bookingLoad struct {
	bases  []string // the instances, taken in turn
	tokens []string // the users, taken in turn
	client *http.Client
	next   atomic.Int64 // the next slot
	day    time.Time    // the first slot's start

	mu      sync.Mutex
	answers []answer
}

func newBookingLoad(t *testing.T, dbURL string, bases ...string) *bookingLoad {
	t.Helper()
	var tokens []string
	for _, u := range []uuid.UUID{bookingtest.Alice, bookingtest.Bob, bookingtest.Rita, bookingtest.Adam} {
		tokens = append(tokens, mintToken(t, dbURL, u))
	}
	tomorrow := time.Now().In(bookingtest.Madrid).AddDate(0, 0, 1)
	return &bookingLoad{
		bases: bases, tokens: tokens,
		// A request never waits longer than this: a hung request shows as an error.
		client: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		day:    time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), 0, 0, 0, 0, bookingtest.Madrid),
	}
}

// run sends requests from clients goroutines until ctx ends.
func (l *bookingLoad) run(ctx context.Context, clients int) {
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				a := l.book(l.bases[(c+i)%len(l.bases)], l.tokens[(c+i)%len(l.tokens)], l.next.Add(1))
				l.mu.Lock()
				l.answers = append(l.answers, a)
				l.mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// book asks for slot n: desk n%2, the nth quarter hour from the first day's midnight.
func (l *bookingLoad) book(base, token string, n int64) answer {
	// Every slot has a time of its own: the people of the load share desks, and a person may hold only
	// one desk at a time.
	desk := []uuid.UUID{bookingtest.DeskOne, bookingtest.DeskTwo}[n%2]
	start := l.day.Add(time.Duration(n) * 15 * time.Minute)
	body := fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d}]`,
		desk, start.UnixMilli(), start.Add(15*time.Minute).UnixMilli())
	return send(l.client, http.MethodPost, base+"/api/v1/users/me/bookings/workstations/standard", token, body)
}

// send makes one request and reads its answer.
func send(client *http.Client, method, url, token, body string) answer {
	a := answer{started: time.Now()}
	defer func() { a.ended = time.Now() }()
	req, err := http.NewRequest(method, url, bytes.NewBufferString(body))
	if err != nil {
		a.err = err
		return a
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		a.err = err
		a.ended = time.Now()
		return a
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	a.ended, a.status, a.err = time.Now(), res.StatusCode, err
	var parsed struct {
		Code     int `json:"code"`
		Bookings []struct {
			ID string `json:"id"`
		} `json:"bookings"`
	}
	if json.Unmarshal(data, &parsed) != nil && err == nil {
		a.err = fmt.Errorf("status %d: body is not JSON: %q", res.StatusCode, data)
	}
	a.code = parsed.Code
	for _, b := range parsed.Bookings {
		a.ids = append(a.ids, b.ID)
	}
	return a
}

// between returns the answers to requests sent at from or later and answered before to.
func (l *bookingLoad) between(from, to time.Time) []answer {
	l.mu.Lock()
	defer l.mu.Unlock()
	var in []answer
	for _, a := range l.answers {
		if !a.started.Before(from) && a.ended.Before(to) {
			in = append(in, a)
		}
	}
	return in
}

// created lists the bookings answered 201.
func (l *bookingLoad) created() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var ids []string
	for _, a := range l.answers {
		if a.status == http.StatusCreated {
			ids = append(ids, a.ids...)
		}
	}
	return ids
}

// wantAllExist checks that every booking answered 201 is in the database, and that the desks hold no
// booking that nobody was told about.
func wantAllExist(t *testing.T, dbURL string, ids []string) {
	t.Helper()
	var found, held int
	err := connect(t, dbURL).QueryRow(t.Context(), `
		SELECT (SELECT count(*) FROM bookings WHERE id = ANY ($1::uuid[])),
		       (SELECT count(*) FROM bookings WHERE resource_id = ANY ($2::uuid[]))`,
		ids, []uuid.UUID{bookingtest.DeskOne, bookingtest.DeskTwo}).Scan(&found, &held)
	if err != nil {
		t.Fatal(err)
	}
	if found != len(ids) {
		t.Errorf("%d of the %d bookings answered 201 are in the database, want all", found, len(ids))
	}
	if held != len(ids) {
		t.Errorf("the desks hold %d bookings, want the %d answered 201", held, len(ids))
	}
}

// freePort returns a TCP port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// privateCluster starts a PostgreSQL server of the test's own, which the test may stop and start again.
func privateCluster(t *testing.T) *pgcluster.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a PostgreSQL server of its own")
	}
	// Not t.TempDir: the server may run as the postgres user, who must be able to reach its directory.
	root, err := os.MkdirTemp("", "booking-faults-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	var log syncBuffer
	c, err := pgcluster.New(root, freePort(t), &log)
	if err != nil {
		t.Fatalf("private PostgreSQL: %v", err)
	}
	if err := c.Start(); err != nil {
		t.Fatalf("start PostgreSQL: %v\n%s", err, log.String())
	}
	t.Cleanup(func() {
		if c.Listening() {
			_ = c.Stop()
		}
	})
	return c
}

// While the database is away, every call answers at once 503 with code 5030 and /readyz fails; when it
// is back, the service recovers by itself; every booking answered 201 is there.
func TestServeThroughDatabaseRestart(t *testing.T) {
	t.Parallel()
	cluster := privateCluster(t)
	dbURL := cluster.URL("booking")
	mustRun(t, dbURL, "import", writeFile(t, bookingtest.Layout()))
	s := startServer(t, dbURL, unlimited...)
	load := newBookingLoad(t, dbURL, s.base)
	ctx, stopLoad := context.WithCancel(t.Context())
	loaded := make(chan struct{})
	const clients = 8
	go func() { defer close(loaded); load.run(ctx, clients) }()
	defer func() { stopLoad(); <-loaded }()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stderr:\n%s", s.stderr)
		}
	})

	bookingtest.WaitFor(t, "a booking made before the database stops", func() bool { return len(load.created()) > 0 })
	if err := cluster.Stop(); err != nil {
		t.Fatal(err)
	}
	down := time.Now()
	if res := s.get(t, "/readyz", ""); res.status != http.StatusServiceUnavailable {
		t.Errorf("GET /readyz with the database down = %d, want 503", res.status)
	}
	bookingtest.WaitFor(t, "answers to requests sent while the database is down, as many as there are clients", func() bool {
		return len(load.between(down, time.Now().Add(time.Hour))) >= clients
	})
	up := time.Now()
	if err := cluster.Start(); err != nil {
		t.Fatal(err)
	}
	// Recovered: a booking asked for after the restart is made.
	bookingtest.WaitFor(t, "a booking made after the database's return", func() bool {
		return slices.ContainsFunc(load.between(up, time.Now().Add(time.Hour)), func(a answer) bool { return a.status == http.StatusCreated })
	})
	stopLoad()
	<-loaded
	if res := s.get(t, "/readyz", ""); res.status != http.StatusOK {
		t.Errorf("GET /readyz after the database's return = %d, want 200", res.status)
	}

	outage := load.between(down, up)
	if len(outage) == 0 {
		t.Fatal("no request was answered while the database was down")
	}
	var slowest time.Duration
	for _, a := range outage {
		if a.err != nil || a.status != http.StatusServiceUnavailable || a.code != 5030 {
			t.Errorf("while the database was down: status %d code %d (err %v), want 503 5030", a.status, a.code, a.err)
		}
		slowest = max(slowest, a.ended.Sub(a.started))
	}
	counts := map[string]int{}
	for _, a := range load.between(time.Time{}, time.Now().Add(time.Hour)) {
		switch {
		case a.err != nil:
			t.Errorf("a request had no answer: %v", a.err)
		case a.status != http.StatusCreated && a.status != http.StatusServiceUnavailable:
			t.Errorf("status %d code %d, want 201, or 503 while the database was away", a.status, a.code)
		}
		counts[strconv.Itoa(a.status)]++
	}
	t.Logf("answers %v; %d while the database was down, the slowest in %s", counts, len(outage), slowest)
	wantAllExist(t, dbURL, load.created())
	s.stop(t)
}

// SIGTERM (the cancelled context of run) under load: the requests in flight are answered, later ones find
// no server, and the database holds exactly the bookings answered 201.
func TestServeStopsCleanlyUnderLoad(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	s := startServer(t, dbURL, unlimited...)
	load := newBookingLoad(t, dbURL, s.base)
	ctx, stopLoad := context.WithCancel(t.Context())
	loaded := make(chan struct{})
	go func() { defer close(loaded); load.run(ctx, 8) }()
	defer func() { stopLoad(); <-loaded }()

	bookingtest.WaitFor(t, "a booking made before the stop", func() bool { return len(load.created()) > 0 })
	stopping := time.Now()
	s.stop(t)
	stopped := time.Now()
	bookingtest.WaitFor(t, "a request sent after the stop, failed", func() bool {
		return slices.ContainsFunc(load.between(stopped, time.Now().Add(time.Hour)), func(a answer) bool { return a.err != nil })
	})
	stopLoad()
	<-loaded

	var inFlight, refused int
	for _, a := range load.between(time.Time{}, time.Now().Add(time.Hour)) {
		switch {
		case a.err == nil && a.status == http.StatusCreated:
			if a.started.Before(stopping) && a.ended.After(stopping) {
				inFlight++
			}
		case a.err == nil:
			t.Errorf("status %d code %d, want 201", a.status, a.code)
		case !a.started.Before(stopped):
			refused++ // no server any more
		case errors.Is(a.err, syscall.ECONNREFUSED) && a.ended.After(stopping):
			// Connected once the stop had closed the listener: nothing was sent.
		case errors.Is(a.err, io.EOF) || errors.Is(a.err, syscall.ECONNRESET) || strings.Contains(a.err.Error(), "server closed idle connection"):
			// Sent as the server closed an idle connection: the request was not read, so nothing was done.
		default:
			t.Errorf("a request sent before the stop failed: %v", a.err)
		}
	}
	if inFlight == 0 {
		t.Error("no request in flight when the server stopped was answered 201")
	}
	if refused == 0 {
		t.Error("no request was refused after the stop")
	}
	t.Logf("%d bookings answered 201 while the server stopped; %d requests refused after", inFlight, refused)
	wantAllExist(t, dbURL, load.created())
}

// Two instances on one database, under contention: each slot has exactly one winner, wherever the
// requests land, and every other answer is 409 4001.
func TestTwoInstancesOneWinnerPerSlot(t *testing.T) {
	t.Parallel()
	dbURL := withFixture(t)
	a := startServer(t, dbURL, unlimited...)
	b := startServer(t, dbURL, unlimited...)
	load := newBookingLoad(t, dbURL, a.base, b.base)
	const rounds, clients = 20, 12
	for round := range rounds {
		var wg sync.WaitGroup
		start := make(chan struct{})
		answers := make([]answer, clients)
		slot := load.next.Add(1)
		for c := range clients {
			base, token := load.bases[c%2], load.tokens[c%len(load.tokens)]
			wg.Go(func() {
				<-start
				answers[c] = load.book(base, token, slot)
			})
		}
		close(start)
		wg.Wait()
		var won []string
		for _, an := range answers {
			switch {
			case an.err == nil && an.status == http.StatusCreated:
				won = append(won, an.ids...)
			case an.err == nil && an.status == http.StatusConflict && an.code == 4001:
			default:
				t.Errorf("round %d: status %d code %d (err %v), want 201 or 409 4001", round, an.status, an.code, an.err)
			}
		}
		if len(won) != 1 {
			t.Errorf("round %d: %d winners, want 1", round, len(won))
		}
		load.mu.Lock()
		load.answers = append(load.answers, answers...)
		load.mu.Unlock()
	}
	wantAllExist(t, dbURL, load.created())
	a.stop(t)
	b.stop(t)
}

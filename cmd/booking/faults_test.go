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

// The fault tests run a real `serve` and send it requests from several clients at once, like a rush
// of bookings. unlimited turns the rate limits off: the four fixture users all send from one address,
// far faster than real users would, and the limits would refuse most of the load.
var unlimited = []string{"--rate-per-user", "0", "--rate-per-address", "0"}

// answer is what a client got back for one request.
type answer struct {
	started, ended time.Time
	status         int
	code           int      // the error code in the problem body; 0 if there is none
	ids            []string // IDs of the bookings created (201)
	err            error    // set when no HTTP response came back
}

// bookingLoad books distinct 15-minute slots on the fixture's desks from several clients and keeps
// every answer. Each client sends its next request as soon as the previous one is answered.
type bookingLoad struct {
	bases  []string // base URLs of the server instances, used in turn
	tokens []string // the users' tokens, used in turn
	client *http.Client
	next   atomic.Int64 // number of the next slot to book
	day    time.Time    // start of slot 0

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
		// The timeout turns a hung request into an error instead of a stuck test.
		client: &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}},
		day:    time.Date(tomorrow.Year(), tomorrow.Month(), tomorrow.Day(), 0, 0, 0, 0, bookingtest.Madrid),
	}
}

// run sends requests from the given number of concurrent clients until ctx is done.
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

// book asks for slot n: desk n%2, the nth quarter hour from the first day's midnight. header holds
// further headers of the request, as name and value pairs.
func (l *bookingLoad) book(base, token string, n int64, header ...string) answer {
	// Every slot has a time of its own: the people of the load share desks, and a person may hold only
	// one desk at a time.
	desk := []uuid.UUID{bookingtest.DeskOne, bookingtest.DeskTwo}[n%2]
	start := l.day.Add(time.Duration(n) * 15 * time.Minute)
	body := fmt.Sprintf(`[{"resource":{"id":%q},"startDate":%d,"endDate":%d}]`,
		desk, start.UnixMilli(), start.Add(15*time.Minute).UnixMilli())
	return send(l.client, http.MethodPost, base+"/api/v1/users/me/bookings/workstations/standard", token, body, header...)
}

// send makes one request, with header's name and value pairs as further headers, and reads its answer.
func send(client *http.Client, method, url, token, body string, header ...string) answer {
	a := answer{started: time.Now()}
	defer func() { a.ended = time.Now() }()
	req, err := http.NewRequest(method, url, bytes.NewBufferString(body))
	if err != nil {
		a.err = err
		return a
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
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

// between returns the answers to requests sent at or after from and answered before to.
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

// created returns the IDs of all bookings created so far.
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

// wantAllExist checks that every booking answered 201 is in the database, and that the desks have no
// other bookings (none that a client was not told about).
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

// freePort returns a TCP port that nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// privateCluster starts a PostgreSQL server for this test alone, so the test can stop and restart it.
func privateCluster(t *testing.T) *pgcluster.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a PostgreSQL server of its own")
	}
	// Not t.TempDir: the server may run as the postgres user, who needs access to its data directory.
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

// TestServeThroughDatabaseRestart checks that while the database is down, every request fails at once
// with 503 and code 5030, and /readyz fails. When the database is back, the service recovers on its own,
// and every booking that was answered 201 is in the database.
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
	// The service has recovered once a booking requested after the restart succeeds.
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

// TestServeStopsCleanlyUnderLoad stops serve under load, as SIGTERM does, by cancelling run's context.
// The requests in flight get their answers, later requests find no server, and the database holds
// exactly the bookings that were answered 201.
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
			refused++ // sent after the server stopped
		case errors.Is(a.err, syscall.ECONNREFUSED) && a.ended.After(stopping):
			// The connection was attempted after the stop closed the listener, so nothing was sent.
		case errors.Is(a.err, io.EOF) || errors.Is(a.err, syscall.ECONNRESET) || strings.Contains(a.err.Error(), "server closed idle connection"):
			// The server closed an idle connection while the request was being sent. It did not read the
			// request, so nothing was booked.
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

// TestTwoInstancesOneWinnerPerSlot runs two instances on one database, with clients competing for the
// same slots. Each slot is booked exactly once, whichever instance gets the request, and every other
// request is refused with 409 and code 4001.
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

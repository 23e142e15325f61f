package main

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/alexedwards/scs/pgxstore"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// seeded is a fresh database holding the small organization, and a server on it.
func seeded(t *testing.T) (dbURL, base string) {
	t.Helper()
	dbURL = bookingtest.NewDatabaseURL(t)
	var out bytes.Buffer
	if err := run(t.Context(), []string{"loadtest", "seed", "--size", "small"}, env(dbURL), &out, &out); err != nil {
		t.Fatalf("seed: %v\n%s", err, out.String())
	}
	pool, err := pgxpool.New(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	svc := booking.NewService(pool)
	tokens, err := web.NewTokens(t.Context(), svc, web.OIDCConfig{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.NewServer(web.Deps{
		Bookings: svc, Tokens: tokens, Logger: slog.New(slog.DiscardHandler), Sessions: pgxstore.NewWithCleanupInterval(pool, 0),
	}))
	t.Cleanup(srv.Close)
	return dbURL, srv.URL
}

func env(dbURL string) func(string) string {
	return func(k string) string {
		if k == "DATABASE_URL" {
			return dbURL
		}
		return ""
	}
}

// Every scenario runs against a real server and writes a result whose checks pass.
func TestScenarios(t *testing.T) {
	t.Parallel()
	dbURL, base := seeded(t)
	for _, sc := range scenarios {
		t.Run(sc, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), sc+".json")
			var out, progress bytes.Buffer
			args := []string{"loadtest", "run", "--size", "small", "--scenario", sc, "--base", base, "--c", "4",
				"--duration", "700ms", "--rounds", "3", "--server-pid", "1", "--out", path}
			if err := run(t.Context(), args, env(dbURL), &out, &progress); err != nil {
				t.Fatalf("run: %v\n%s%s", err, out.String(), progress.String())
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var r result
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatalf("result %s: %v", data, err)
			}
			if !r.OK || r.Requests == 0 || r.Overlaps != 0 || r.Found201 != r.Answered201 || r.LatencyMS.P99 <= 0 {
				t.Errorf("result %s", data)
			}
			for status := range r.Statuses {
				if strings.HasPrefix(status, "5") || status == "transport error" {
					t.Errorf("answers %v: none may be a 5xx or go unanswered", r.Statuses)
				}
			}
			switch sc {
			case "book":
				if r.Bookings == 0 || r.Statuses["201"] != r.Requests {
					t.Errorf("book: %d bookings, answers %v; want every request answered 201", r.Bookings, r.Statuses)
				}
			case "contend":
				if r.Rounds != 3 || r.RoundsOneWinner != 3 || r.Statuses["201"] != 3 || r.Statuses["409 4001"] != 9 {
					t.Errorf("contend: %d of %d rounds with one winner, answers %v; want 3 winners and 9 × 409 4001",
						r.RoundsOneWinner, r.Rounds, r.Statuses)
				}
			case "status", "free", "availability":
				if r.Statuses["200"] != r.Requests {
					t.Errorf("%s: answers %v, want all 200", sc, r.Statuses)
				}
			}
			if !strings.Contains(out.String(), "ok") {
				t.Errorf("summary:\n%s", out.String())
			}
		})
	}
}

// The overlap check finds double bookings when there are some: here forced in past the constraint.
func TestOverlapCheckFindsDoubleBookings(t *testing.T) {
	t.Parallel()
	dbURL, _ := seeded(t)
	pool, err := pgxpool.New(t.Context(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	if n, err := overlaps(t.Context(), pool); err != nil || n != 0 {
		t.Fatalf("seeded database: %d overlaps (%v), want 0", n, err)
	}
	_, err = pool.Exec(t.Context(), `
		ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
		INSERT INTO bookings (organization_id, id, resource_id, creator_id, organizer_id, start_date, end_date, status,
		                      resource_type, check_in_opens_at, check_in_closes_at)
		SELECT organization_id, gen_random_uuid(), resource_id, creator_id, organizer_id, start_date + interval '30 minutes',
		       end_date, 'PENDING', resource_type, check_in_opens_at, check_in_closes_at
		FROM bookings WHERE status = 'PENDING' LIMIT 1`)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := overlaps(t.Context(), pool); err != nil || n != 1 {
		t.Errorf("after forcing a double booking: %d overlaps (%v), want 1", n, err)
	}
}

func TestRefusesWhatIsNotLoopbackOrBounded(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--base", "http://192.0.2.1:8080"},
		{"--base", "http://example.com"},
		{"--duration", "10m"},
		{"--c", "5000"},
		{"--scenario", "stampede"},
	} {
		all := append([]string{"loadtest", "run", "--scenario", "status", "--size", "small"}, args...)
		var out bytes.Buffer
		if err := run(t.Context(), all, env("postgres://127.0.0.1:1/none"), &out, &out); err == nil {
			t.Errorf("%v: accepted", args)
		}
	}
	for _, base := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:80"} {
		if err := loopback(base); err != nil {
			t.Errorf("loopback(%q): %v", base, err)
		}
	}
}

func TestPercentiles(t *testing.T) {
	var took []time.Duration
	for i := 1; i <= 100; i++ {
		took = append(took, time.Duration(i)*time.Millisecond)
	}
	got := percentiles(took)
	if got.P50 != 50 || got.P95 != 95 || got.P99 != 99 || got.Max != 100 {
		t.Errorf("percentiles of 1..100 ms = %+v", got)
	}
}

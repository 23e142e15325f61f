package web_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestMetrics(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	start := fx.At(1, 10, 0)
	goya := []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}
	// One request that makes two bookings, then one that is refused: two bookings made, one conflict.
	two := append(goya, spaceBooking(fx.RoomVelazquez, start, start.Add(time.Hour)))
	wantStatus(t, tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), two), http.StatusCreated)
	wantStatus(t, tb.call(t, fx.Bob, http.MethodPost, bookingsPath("me"), goya), http.StatusConflict)
	wantStatus(t, tb.call(t, fx.Alice, http.MethodGet, statusPath("me", "MAD-R1"), nil), http.StatusOK)
	// Unknown paths and unknown methods do not create series of their own.
	wantStatus(t, tb.call(t, uuid.Nil, http.MethodGet, "/no/such/page/"+fx.RoomGoya.String(), nil), http.StatusNotFound)
	wantStatus(t, tb.call(t, uuid.Nil, "BREW", "/healthz", nil), http.StatusMethodNotAllowed)
	// A no-show whose check-in closed half an hour ago, for the sweep to expire.
	_, err := tb.Pool.Exec(t.Context(), `
		INSERT INTO bookings (organization_id, id, resource_id, floor_id, creator_id, organizer_id, start_date, end_date,
		                      status, resource_type, check_in_opens_at, check_in_closes_at)
		SELECT $1, gen_random_uuid(), $2, floor_id, $3, $3, $4::timestamptz - interval '1 hour', $4::timestamptz + interval '1 hour',
		       'PENDING', 'SPACE', $4::timestamptz - interval '70 minutes', $4::timestamptz - interval '30 minutes'
		FROM resources WHERE organization_id = $1 AND id = $2`,
		fx.OrgA, fx.RoomVelazquez, fx.Alice, fx.Now)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := tb.Service.Sweep(t.Context()); err != nil || res.Expired != 1 {
		t.Fatalf("sweep: %+v, %v", res, err)
	}

	res := tb.call(t, uuid.Nil, http.MethodGet, "/metrics", nil)
	if res.status != http.StatusOK || !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("GET /metrics = %d %s", res.status, res.header.Get("Content-Type"))
	}
	text := string(res.body)
	lines := strings.Split(text, "\n")
	// Each wanted line must match a whole line of the output, so "… 1" does not match "… 10". A wanted
	// line that ends in a space matches the series with any value.
	for _, want := range []string{
		`booking_http_requests_total{method="POST",route="/api/v1/users/:userId/bookings/spaces/standard",status="201"} 1`,
		`booking_http_requests_total{method="POST",route="/api/v1/users/:userId/bookings/spaces/standard",status="409"} 1`,
		`booking_http_request_duration_seconds_count{method="POST",route="/api/v1/users/:userId/bookings/spaces/standard"} 2`,
		`booking_http_request_duration_seconds_bucket{method="POST",route="/api/v1/users/:userId/bookings/spaces/standard",le="10"} 2`,
		`booking_http_requests_total{method="GET",route="/api/v1/users/:userId/resources/statusinfo",status="200"} 1`,
		`booking_http_requests_total{method="OTHER",route="/healthz",status="405"} 1`,
		`booking_http_request_duration_seconds_count{method="GET",route="/api/v1/users/:userId/resources/statusinfo"} 1`,
		"booking_bookings_created_total 2",
		"booking_conflicts_total 1",
		"booking_bookings_expired_total 1",
		"booking_bookings_finished_total 0",
		// Two bookings and a no-show wait in the outbox: this server works no jobs.
		"booking_outbox_up 1",
		"booking_outbox_queued ",
		"booking_outbox_oldest_waiting_seconds ",
		"booking_outbox_discarded 0",
		`booking_outbox_delivered_total{channel="mail"} 0`,
		"booking_outbox_failed_total 0",
		"booking_db_connections_max ",
		"booking_db_acquires_total ",
		"go_goroutines ",
		"process_resident_memory_bytes ",
	} {
		if !slices.ContainsFunc(lines, func(line string) bool {
			return line == want || strings.HasSuffix(want, " ") && strings.HasPrefix(line, want)
		}) {
			t.Errorf("/metrics lacks the line %q", want)
		}
	}
	if strings.Contains(text, fx.RoomGoya.String()) || strings.Contains(text, `route="/api/v1/users/me`) ||
		strings.Contains(text, "/no/such") || strings.Contains(text, "BREW") {
		t.Error("/metrics labels a raw path or method; routes are labelled by their template, unknown methods OTHER")
	}
}

// TestMetricsAreNotPublic checks that /metrics answers only this machine and private networks. From any
// other address it returns 404, as if the page did not exist.
func TestMetricsAreNotPublic(t *testing.T) {
	t.Parallel()
	s := web.NewServer(web.Deps{Logger: slog.New(slog.DiscardHandler)})
	for addr, want := range map[string]int{
		"203.0.113.9:4000": http.StatusNotFound, "[2001:db8::1]:4000": http.StatusNotFound,
		"172.32.0.1:4000": http.StatusNotFound, "[fe80::1]:4000": http.StatusNotFound, "[::ffff:203.0.113.9]:4000": http.StatusNotFound,
		"127.0.0.1:4000": http.StatusOK, "[::1]:4000": http.StatusOK, "10.1.2.3:4000": http.StatusOK,
		"172.16.0.1:4000": http.StatusOK, "192.168.1.20:4000": http.StatusOK, "[fd00::1]:4000": http.StatusOK,
		"[::ffff:10.0.0.1]:4000": http.StatusOK,
	} {
		req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
		req.RemoteAddr = addr
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("GET /metrics from %s = %d, want %d", addr, rec.Code, want)
		}
		if want == http.StatusNotFound && strings.Contains(rec.Body.String(), "booking_http_requests_total") {
			t.Errorf("GET /metrics from %s shows the metrics", addr)
		}
	}
}

package web_test

import (
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestRequestLogs checks that each request's log line carries its X-Request-Id and, for the API, the
// calling user. The log line of a failed request does too.
func TestRequestLogs(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	tb := setup(t, func(d *web.Deps) { d.Logger = slog.New(slog.NewJSONHandler(&logs, nil)) })
	// Use one token for every call. The server caches it, so it still knows Alice after the pool is closed.
	alice := http.Header{"Authorization": {"Bearer " + tb.mint(t, tb.User(t, fx.OrgA, fx.Alice), time.Hour)}}
	find := func(msg, id string) map[string]any {
		for _, l := range logs.lines(t) {
			if l["msg"] == msg && l["id"] == id {
				return l
			}
		}
		t.Fatalf("no %q log line with id %q in\n%s", msg, id, logs.String())
		return nil
	}

	ok := tb.callWith(t, uuid.Nil, http.MethodGet, statusPath("me", "MAD-R1"), nil, alice)
	wantStatus(t, ok, http.StatusOK)
	id := ok.header.Get("X-Request-Id")
	if line := find("request", id); line["user"] != fx.Alice.String() || line["route"] != "/api/v1/users/:userId/resources/statusinfo" {
		t.Errorf("request log = %v, want Alice's id as user and the route template", line)
	}

	// With the pool closed, a booking fails with an internal error. The token is cached, so Alice is known.
	tb.Pool.Close()
	start := fx.At(1, 10, 0)
	failed := tb.callWith(t, uuid.Nil, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, start, start.Add(time.Hour))}, alice)
	wantProblem(t, failed, http.StatusInternalServerError, booking.CodeInternal, noIndex)
	id = failed.header.Get("X-Request-Id")
	if line := find("request", id); line["user"] != fx.Alice.String() || line["level"] != "ERROR" {
		t.Errorf("request log = %v, want Alice's id as user, at level ERROR", line)
	}
	if line := find("request failed", id); line["user"] != fx.Alice.String() || line["error"] == nil {
		t.Errorf("failure log = %v, want Alice's id as user and the error", line)
	}

	// A request without authentication has no user in the log.
	anon := tb.call(t, uuid.Nil, http.MethodGet, "/healthz", nil)
	if line := find("request", anon.header.Get("X-Request-Id")); line["user"] != "" {
		t.Errorf("request log of /healthz names user %v, want none", line["user"])
	}
}

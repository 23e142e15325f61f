package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// syncBuffer is a log destination the test reads while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// lines returns the JSON log lines written so far.
func (s *syncBuffer) lines(t *testing.T) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(s.b.Bytes()))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// The request log names the request (its X-Request-Id) and, for the API, the user who called; so does the
// log line of a request that failed.
func TestRequestLogs(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	tokens, err := web.NewTokens(t.Context(), b.Service, web.OIDCConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	s := web.NewServer(web.Deps{Bookings: b.Service, Tokens: tokens, Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	tok, err := tokens.Mint(b.User(t, fx.OrgA, fx.Alice), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	call := func(method, path, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec
	}
	find := func(msg, id string) map[string]any {
		for _, l := range logs.lines(t) {
			if l["msg"] == msg && l["id"] == id {
				return l
			}
		}
		t.Fatalf("no %q log line with id %q in\n%s", msg, id, logs.b.String())
		return nil
	}

	ok := call(http.MethodGet, "/api/v1/users/me/resources/statusinfo?postercode=MAD-R1", "")
	if ok.Code != http.StatusOK {
		t.Fatalf("statusinfo = %d %s", ok.Code, ok.Body)
	}
	id := ok.Header().Get("X-Request-Id")
	if line := find("request", id); line["user"] != fx.Alice.String() || line["route"] != "/api/v1/users/:userId/resources/statusinfo" {
		t.Errorf("request log = %v, want Alice's id as user and the route template", line)
	}

	// On a closed pool, a booking fails on our side (the token is remembered, so Alice is known).
	b.Pool.Close()
	start := fx.At(1, 10, 0)
	failed := call(http.MethodPost, "/api/v1/users/me/bookings/spaces/standard", `[{"resource":{"id":"`+fx.RoomGoya.String()+
		`"},"startDate":`+strconv.FormatInt(start.UnixMilli(), 10)+`,"endDate":`+strconv.FormatInt(start.Add(time.Hour).UnixMilli(), 10)+`}]`)
	if failed.Code != http.StatusInternalServerError {
		t.Fatalf("create on a closed pool = %d %s, want 500", failed.Code, failed.Body)
	}
	id = failed.Header().Get("X-Request-Id")
	if line := find("request", id); line["user"] != fx.Alice.String() || line["level"] != "ERROR" {
		t.Errorf("request log = %v, want Alice's id as user, at level ERROR", line)
	}
	if line := find("request failed", id); line["user"] != fx.Alice.String() || line["error"] == nil {
		t.Errorf("failure log = %v, want Alice's id as user and the error", line)
	}

	// Before authentication there is no user.
	anon := httptest.NewRecorder()
	s.ServeHTTP(anon, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if line := find("request", anon.Header().Get("X-Request-Id")); line["user"] != "" {
		t.Errorf("request log of /healthz names user %v, want none", line["user"])
	}
}

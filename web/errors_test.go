package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// TestCodeTable checks booking's code table: the codes are in increasing order, each has an error status,
// an upper-case name and a meaning, and Codes, Name and String agree with the table.
func TestCodeTable(t *testing.T) {
	t.Parallel()
	table := booking.CodeTable()
	upper := regexp.MustCompile(`^[A-Z][A-Z_]*[A-Z]$`)
	var codes []booking.Code
	for i, info := range table {
		codes = append(codes, info.Code)
		if i > 0 && info.Code <= table[i-1].Code {
			t.Errorf("%d comes after %d: want increasing codes", info.Code, table[i-1].Code)
		}
		if info.Status < 400 || info.Status > 599 || http.StatusText(info.Status) == "" {
			t.Errorf("%d: status %d, want an HTTP error status", info.Code, info.Status)
		}
		if !upper.MatchString(info.Name) {
			t.Errorf("%d: name %q, want upper case and underscores", info.Code, info.Name)
		}
		if info.Meaning == "" {
			t.Errorf("%d: no meaning", info.Code)
		}
		if got, want := info.Code.String(), fmt.Sprintf("%d - %s", int(info.Code), info.Name); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
		if got := info.Code.Name(); got != info.Name {
			t.Errorf("%d: Name() = %q, want %q", info.Code, got, info.Name)
		}
	}
	if diff := cmp.Diff(codes, booking.Codes()); diff != "" {
		t.Errorf("Codes() differs from the table (-table +Codes):\n%s", diff)
	}
}

// TestHandleErrorAnswersEveryCode checks the HTTP response for every code in the table: an error with
// any code gets the table's status, name and title.
func TestHandleErrorAnswersEveryCode(t *testing.T) {
	t.Parallel()
	s := NewServer(Deps{Logger: slog.New(slog.DiscardHandler)})
	for _, info := range booking.CodeTable() {
		rec := httptest.NewRecorder()
		c := s.echo.NewContext(httptest.NewRequest(http.MethodGet, "/api/v1/x", nil), rec)
		s.handleError(booking.Errorf(info.Code, "why"), c)
		want := kit.Problem{
			Status: info.Status, Code: int(info.Code), Name: info.Name,
			Title: fmt.Sprintf("%d - %s", int(info.Code), info.Name), Detail: "why",
		}
		var got kit.Problem
		if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
			t.Fatalf("%d: body %s: %v", info.Code, rec.Body, err)
		}
		if rec.Code != info.Status {
			t.Errorf("%d: status = %d, want %d", info.Code, rec.Code, info.Status)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d: body differs (-want +got):\n%s", info.Code, diff)
		}
	}
}

// TestErrorCatalogueInDocs checks that the error catalogue in docs/api.md matches the code table: the same
// codes in the same order, with the same names, statuses, origins and meanings.
func TestErrorCatalogueInDocs(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "docs", "api.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := docsCodeTable(t, string(raw))
	if diff := cmp.Diff(booking.CodeTable(), got); diff != "" {
		t.Errorf("docs/api.md's error catalogue differs from booking's code table (-table +docs):\n%s", diff)
	}
}

// docsCatalogueRow matches one row of the error catalogue in docs/api.md, such as:
// | 1002 - RESOURCE_NOT_FOUND | 404 | interface | unknown resource … |
var docsCatalogueRow = regexp.MustCompile(`^\| (\d+) - ([A-Z_]+) \| (\d{3}) \| (interface|ours) \| (.+) \|$`)

// docsCatalogueStart matches the start of a catalogue row: a table cell that starts with a digit.
var docsCatalogueStart = regexp.MustCompile(`^\| \d`)

// docsCodeTable parses the error catalogue in docs/api.md: every table row that starts with a code.
func docsCodeTable(t *testing.T, doc string) []booking.CodeInfo {
	t.Helper()
	var table []booking.CodeInfo
	for line := range strings.Lines(doc) {
		line = strings.TrimRight(line, "\n")
		if !docsCatalogueStart.MatchString(line) {
			continue
		}
		m := docsCatalogueRow.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("docs/api.md: a catalogue row not of the form | CODE - NAME | STATUS | interface or ours | MEANING |:\n%s", line)
			continue
		}
		code, _ := strconv.Atoi(m[1])
		status, _ := strconv.Atoi(m[3])
		table = append(table, booking.CodeInfo{
			Code: booking.Code(code), Name: m[2], Status: status, Published: m[4] == "interface", Meaning: m[5],
		})
	}
	if len(table) == 0 {
		t.Error("docs/api.md has no error catalogue (rows | CODE - NAME | STATUS | … |)")
	}
	return table
}

// TestCodeStatuses pins the name and HTTP status of every code, so that none changes unnoticed. The codes
// from the published interface keep the names and statuses of its section 7; our own codes follow
// DESIGN.md.
func TestCodeStatuses(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code   booking.Code
		name   string
		status int
	}{
		// Codes from the interface (section 7).
		{1002, "RESOURCE_NOT_FOUND", http.StatusNotFound},
		{1011, "BOOKING_NOT_FOUND", http.StatusNotFound},
		{1012, "NO_BOOKING_TO_CHECK_IN", http.StatusNotFound},
		{1043, "RESOURCE_RESERVABLE_NOT_FOUND", http.StatusNotFound},
		{4072, "INVALID_DATE_BY_MIN_CANCELLATION_OF_THE_RESERVABLE", http.StatusConflict},
		{4077, "INVALID_RESERVABLE_DELIVERY_TIME", http.StatusConflict},
		{4078, "INVALID_RESERVABLE_QUANTITY", http.StatusConflict},
		{4079, "ADDITIONAL_SERVICES_MODULE_NOT_ACTIVE", http.StatusConflict},
		// Our own codes.
		{1000, "UNAUTHORIZED", http.StatusUnauthorized},
		{1001, "FORBIDDEN", http.StatusForbidden},
		{1003, "USER_NOT_FOUND", http.StatusNotFound},
		{1004, "BUILDING_NOT_FOUND", http.StatusNotFound},
		{1005, "SUBCATEGORY_NOT_FOUND", http.StatusNotFound},
		{1006, "FLOOR_NOT_FOUND", http.StatusNotFound},
		{1013, "OBJECT_NOT_FOUND", http.StatusNotFound},
		{2000, "INVALID_REQUEST", http.StatusBadRequest},
		{4001, "RESOURCE_NOT_AVAILABLE", http.StatusConflict},
		{4002, "INVALID_DATE_IN_THE_PAST", http.StatusConflict},
		{4003, "INVALID_DATE_OUTSIDE_RESOURCE_HOURS", http.StatusConflict},
		{4004, "INVALID_DURATION_EXCEEDS_MAXIMUM", http.StatusConflict},
		{4005, "INVALID_DATE_EXCEEDS_MAXIMUM_ADVANCE", http.StatusConflict},
		{4006, "RESOURCE_NOT_A_SPACE", http.StatusConflict},
		{4007, "BOOKING_NOT_MODIFIABLE", http.StatusConflict},
		{4010, "CHECK_IN_NOT_OPEN_YET", http.StatusConflict},
		{4011, "CHECK_IN_CLOSED", http.StatusConflict},
		{4012, "ALL_DAY_BOOKINGS_NOT_ALLOWED", http.StatusConflict},
		{4013, "USER_ALREADY_HAS_WORKSTATION", http.StatusConflict},
		{4014, "RESOURCE_CLOSED", http.StatusConflict},
		{4015, "OBJECT_IN_USE", http.StatusConflict},
		{4016, "CLOSURE_COVERS_BOOKINGS", http.StatusConflict},
		{4017, "LAST_ADMIN", http.StatusConflict},
		{4120, "PRECONDITION_FAILED", http.StatusPreconditionFailed},
		{4130, "PAYLOAD_TOO_LARGE", http.StatusRequestEntityTooLarge},
		{4220, "IDEMPOTENCY_KEY_REUSED", http.StatusUnprocessableEntity},
		{4290, "TOO_MANY_REQUESTS", http.StatusTooManyRequests},
		{5000, "INTERNAL_ERROR", http.StatusInternalServerError},
		{5030, "SERVICE_UNAVAILABLE", http.StatusServiceUnavailable},
	}
	pinned := map[booking.Code]bool{}
	for _, tc := range tests {
		pinned[tc.code] = true
	}
	for _, c := range booking.Codes() {
		if !pinned[c] {
			t.Errorf("%v: no expected name and status in this table", c)
		}
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(int(tc.code)), func(t *testing.T) {
			if got := tc.code.Name(); got != tc.name {
				t.Errorf("Name() = %q, want %q", got, tc.name)
			}
			if got := kit.HTTPStatus(tc.code); got != tc.status {
				t.Errorf("kit.HTTPStatus(%d) = %d, want %d", int(tc.code), got, tc.status)
			}
		})
	}
}

func TestHandleError(t *testing.T) {
	t.Parallel()
	s := NewServer(Deps{Logger: slog.New(slog.DiscardHandler)})
	index := 2
	for _, tc := range []struct {
		name       string
		method     string
		err        error
		wantStatus int
		wantBody   map[string]any // nil means no body
	}{
		{"DomainError", http.MethodGet, booking.Errorf(booking.CodeBookingNotFound, "no booking x"), http.StatusNotFound,
			map[string]any{"status": 404.0, "code": 1011.0, "name": "BOOKING_NOT_FOUND", "title": "1011 - BOOKING_NOT_FOUND", "detail": "no booking x"}},
		{"WrappedWithIndex", http.MethodPost, fmt.Errorf("create: %w", &booking.Error{Code: booking.CodeResourceNotAvailable, Message: "taken", Index: &index}), http.StatusConflict,
			map[string]any{"status": 409.0, "code": 4001.0, "name": "RESOURCE_NOT_AVAILABLE", "title": "4001 - RESOURCE_NOT_AVAILABLE", "detail": "taken", "index": 2.0}},
		{"Unauthorized", http.MethodGet, booking.Errorf(booking.CodeUnauthorized, "token"), http.StatusUnauthorized,
			map[string]any{"status": 401.0, "code": 1000.0, "name": "UNAUTHORIZED", "title": "1000 - UNAUTHORIZED", "detail": "token"}},
		{"UnknownCode", http.MethodGet, booking.Errorf(booking.Code(1234), "odd"), http.StatusInternalServerError,
			map[string]any{"status": 500.0, "code": 1234.0, "name": "UNKNOWN", "title": "1234 - UNKNOWN", "detail": "odd"}},
		{"UnexpectedRevealsNothing", http.MethodGet, errors.New("pq: password authentication failed for user secret"), http.StatusInternalServerError,
			map[string]any{"status": 500.0, "code": 5000.0, "name": "INTERNAL_ERROR", "title": "5000 - INTERNAL_ERROR",
				"detail": "something went wrong on our side; nothing was changed"}},
		{"HeadHasNoBody", http.MethodHead, booking.Errorf(booking.CodeResourceNotFound, "none"), http.StatusNotFound, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := httptest.NewRecorder()
			c := s.echo.NewContext(httptest.NewRequest(tc.method, "/api/v1/x", nil), rec)
			s.handleError(tc.err, c)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d", rec.Code, tc.wantStatus)
			}
			if got, want := rec.Header().Get("Content-Type"), "application/problem+json"; got != want {
				t.Errorf("Content-Type = %q, want %q", got, want)
			}
			if got := rec.Header().Get("WWW-Authenticate"); (tc.wantStatus == http.StatusUnauthorized) != strings.HasPrefix(got, "Bearer ") {
				t.Errorf("WWW-Authenticate = %q for status %d", got, tc.wantStatus)
			}
			if tc.wantBody == nil {
				if rec.Body.Len() != 0 {
					t.Errorf("body = %s, want none", rec.Body)
				}
				return
			}
			var got map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatalf("body %s: %v", rec.Body, err)
			}
			if diff := cmp.Diff(tc.wantBody, got); diff != "" {
				t.Errorf("body differs (-want +got):\n%s", diff)
			}
		})
	}
}

package web_test

import (
	"net/http"
	"testing"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestTextThatCannotBeStored checks text that PostgreSQL cannot store or compare: a NUL character, or
// bytes that are not valid UTF-8. Such text is the client's mistake (400 with code 2000), never a 500, and
// the request changes nothing.
func TestTextThatCannotBeStored(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, tc := range []struct {
		name, method, path string
		body               any
	}{
		{"PosterCodeNotUTF8", http.MethodGet, api + "/users/me/resources/statusinfo?postercode=%FF", nil},
		{"PosterCodeWithNUL", http.MethodPost, api + "/users/me/resources/checkin?postercode=a%00b", nil},
		{"SubjectWithNUL", http.MethodPost, api + "/users/me/bookings/spaces/standard", []map[string]any{{
			"resource": map[string]any{"id": fx.RoomGoya.String()}, "subject": "a\u0000b",
			"startDate": fx.At(1, 10, 0).UnixMilli(), "endDate": fx.At(1, 11, 0).UnixMilli(),
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tb.call(t, fx.Alice, tc.method, tc.path, tc.body)
			wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		})
	}
	var n int
	if err := tb.Pool.QueryRow(t.Context(), "SELECT count(*) FROM bookings").Scan(&n); err != nil || n != 0 {
		t.Errorf("bookings = %d (%v), want 0", n, err)
	}
}

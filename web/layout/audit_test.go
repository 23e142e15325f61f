package layout_test

import (
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
)

// TestAuditLimit checks Audit's limit: 1 to MaxAuditEntries, and 0 for 100.
func TestAuditLimit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for range 101 {
		if _, _, err := b.admin.Put(t.Context(), b.adam, layout.Features, uuid.New(), []byte(`{"name": "X"}`), ""); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
	tests := []struct {
		limit       int32
		wantEntries int
		wantCode    booking.Code
	}{
		{0, 100, 0},
		{1, 1, 0},
		{101, 101, 0},
		{layout.MaxAuditEntries, 101, 0},
		{-1, 0, booking.CodeInvalidRequest},
		{layout.MaxAuditEntries + 1, 0, booking.CodeInvalidRequest},
	}
	for _, tc := range tests {
		got, err := b.admin.Audit(t.Context(), b.adam, booking.AuditFilter{Limit: tc.limit})
		if code := booking.ErrorCode(err); len(got) != tc.wantEntries || code != tc.wantCode {
			t.Errorf("Audit(Limit %d) = %d entries, code %v; want %d, %v", tc.limit, len(got), code, tc.wantEntries, tc.wantCode)
		}
	}
}

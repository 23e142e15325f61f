package console

import (
	"net/url"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
)

// TestAuditFilters checks how the audit log page reads its address: dates are whole days in the
// zone chosen (the first building's by default), until included; a page holds one change more than it
// shows, to know of a next.
func TestAuditFilters(t *testing.T) {
	t.Parallel()
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	zones := []views.Option{{Value: "Europe/Madrid"}, {Value: "America/New_York"}}
	day := func(d int) *time.Time { v := time.Date(2026, 11, d, 0, 0, 0, 0, madrid); return &v }
	nyDay := func(d int) *time.Time { v := time.Date(2026, 11, d, 0, 0, 0, 0, newYork); return &v }
	person, object := uuid.MustParse("00000000-0000-4000-8000-000000000104"), uuid.MustParse("00000000-0000-4000-8000-000000000701")
	before := int64(42)
	tests := []struct {
		query string
		want  booking.AuditFilter
	}{
		{"", booking.AuditFilter{Limit: AuditPageSize + 1}},
		{"collection=users", booking.AuditFilter{Collection: "users", Limit: AuditPageSize + 1}},
		{"person=" + person.String(), booking.AuditFilter{ActorID: &person, Limit: AuditPageSize + 1}},
		{"object=" + object.String(), booking.AuditFilter{ObjectID: &object, Limit: AuditPageSize + 1}},
		{"from=2026-11-23", booking.AuditFilter{From: day(23), Limit: AuditPageSize + 1}},
		{"to=2026-11-23", booking.AuditFilter{To: day(24), Limit: AuditPageSize + 1}},
		{"from=2026-11-23&to=2026-11-23", booking.AuditFilter{From: day(23), To: day(24), Limit: AuditPageSize + 1}},
		{"before=42", booking.AuditFilter{BeforeID: &before, Limit: AuditPageSize + 1}},
		{"zone=America/New_York&from=2026-11-23", booking.AuditFilter{From: nyDay(23), Limit: AuditPageSize + 1}},
	}
	for _, tc := range tests {
		t.Run("?"+tc.query, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			_, got, err := auditFilters(t.Context(), q, zones)
			if err != nil {
				t.Fatalf("auditFilters: %v", err)
			}
			// Instants compare as instants, whatever their location.
			if diff := cmp.Diff(tc.want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("filter (-want +got):\n%s", diff)
			}
		})
	}
}

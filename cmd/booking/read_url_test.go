package main

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// DATABASE_READ_URL gets a pool of its own, which the listing of free desks reads from; a malformed one
// stops serve before it listens.
func TestServeReadURL(t *testing.T) {
	t.Parallel()
	t.Run("FreeDesksReadThere", func(t *testing.T) {
		t.Parallel()
		dbURL := withFixture(t)
		tok := mintToken(t, dbURL, bookingtest.Alice)
		// The same database, told apart by the name its connections carry.
		s := startServerWith(t, environ(dbURL, "DATABASE_READ_URL", dbURL+"&application_name=booking-reads"))
		start := time.Now().Add(24 * time.Hour).Truncate(time.Hour)
		free := fmt.Sprintf("/api/v1/users/me/buildings/%s/workstations/subcategories/%s/free?"+
			"bookingDays[0].startDate=%d&bookingDays[0].endDate=%d",
			bookingtest.BuildingMadrid, bookingtest.SubDesk, start.UnixMilli(), start.Add(time.Hour).UnixMilli())
		if res := s.get(t, free, tok); res.status != http.StatusOK {
			t.Fatalf("free desks = %d %s, want 200", res.status, res.body)
		}
		var reads int
		err := connect(t, dbURL).QueryRow(t.Context(),
			`SELECT count(*) FROM pg_stat_activity WHERE application_name = 'booking-reads' AND datname = current_database()`).Scan(&reads)
		if err != nil {
			t.Fatal(err)
		}
		if reads == 0 {
			t.Error("no connection of DATABASE_READ_URL after a listing of free desks, want one")
		}
	})
	t.Run("Malformed", func(t *testing.T) {
		t.Parallel()
		_, _, err := runBooking(t, environ(withFixture(t), "DATABASE_READ_URL", "postgres://%zz"), "serve", "--addr", "127.0.0.1:0")
		if err == nil || !strings.Contains(err.Error(), "DATABASE_READ_URL") {
			t.Errorf("serve with a malformed DATABASE_READ_URL: %v, want an error naming it", err)
		}
	})
}

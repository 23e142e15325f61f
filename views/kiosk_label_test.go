package views

import (
	"testing"
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

// TestKioskEndLabels: the last end offered is called "as long as possible" only when nothing later may be
// chosen; a late walk-up whose last choice is two hours past midnight names it by its length.
func TestKioskEndLabels(t *testing.T) {
	madrid, err := time.LoadLocation("Europe/Madrid")
	if err != nil {
		t.Fatal(err)
	}
	at := func(day, h, m int) time.Time { return time.Date(2026, 11, 24+day, h, m, 0, 0, madrid) }
	status := func(from, freeUntil, bookUntil time.Time) booking.PosterStatus {
		return booking.PosterStatus{
			ResourceStatus: booking.ResourceStatus{IsFree: true, FreeUntil: &freeUntil},
			State:          booking.PosterFree, Location: madrid, BookFrom: from, BookUntil: &bookUntil,
			Window: booking.Interval{Start: at(0, 0, 0), End: at(1, 0, 0)},
		}
	}
	for _, tc := range []struct {
		name string
		st   booking.PosterStatus
		want []string
	}{
		{"Morning", status(at(0, 9, 0), at(1, 0, 0), at(1, 9, 0)), []string{
			"30 minutes, until 09:30", "1 hour, until 10:00", "2 hours, until 11:00", "15 hours, until midnight"}},
		{"LateEvening", status(at(0, 23, 20), at(1, 0, 0), at(1, 8, 0)), []string{
			"30 minutes, until 23:50", "1 hour, until Wed 25 Nov 00:20", "2 hours, until Wed 25 Nov 01:20"}},
		{"UntilTheNextBooking", status(at(0, 9, 0), at(0, 10, 0), at(0, 10, 0)), []string{
			"30 minutes, until 09:30", "As long as possible, until 10:00"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ends := tc.st.EndChoices()
			var got []string
			for i, end := range ends {
				got = append(got, kioskEndLabel(tc.st, end, i == len(ends)-1))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("labels = %q, want %q", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("label %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

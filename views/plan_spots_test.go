package views

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
)

func rect(x1, y1, x2, y2 int32) booking.MapCoordinates {
	return booking.MapCoordinates{TopLeftX: x1, TopLeftY: y1, BottomRightX: x2, BottomRightY: y2}
}

func TestSpotHits(t *testing.T) {
	// Two desks side by side 4 apart, a third 40 below the first, and the plan's edge 10 to the left.
	got := spotHits([]booking.MapCoordinates{rect(10, 100, 66, 136), rect(70, 100, 126, 136), rect(10, 176, 66, 212)}, 1200, 800)
	want := []hitRect{
		{X: 0, Y: 76, W: 68, H: 80},  // left to the edge, right half the 4 gap, up hitGrowth, down half of 40
		{X: 68, Y: 76, W: 82, H: 80}, // left half the gap, right by hitGrowth, down to the corner split
		{X: 0, Y: 156, W: 90, H: 80}, // up half of 40, the others by hitGrowth (the edge on the left)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hit areas (-want +got):\n%s", diff)
	}
	for i := range got {
		for j := range got {
			a, b := got[i], got[j]
			if i != j && a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H {
				t.Errorf("hit areas %d and %d overlap: %+v, %+v", i, j, a, b)
			}
		}
	}
	// A desk alone at the plan's far corner stops at the plan's edges.
	if got := spotHits([]booking.MapCoordinates{rect(1180, 780, 1200, 800)}, 1200, 800); got[0] != (hitRect{X: 1156, Y: 756, W: 44, H: 44}) {
		t.Errorf("corner desk's hit area = %+v", got[0])
	}
}

func TestShortName(t *testing.T) {
	for name, want := range map[string]string{"Desk 0.02": "0.02", "Desk 12": "12", "Goya": "", "Sala Goya": "", "Room 2B": "2B"} {
		if got := shortName(name); got != want {
			t.Errorf("shortName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSpotTip(t *testing.T) {
	loc := time.FixedZone("Madrid", 3600)
	at := func(h, m int) time.Time { return time.Date(2026, 11, 25, h, m, 0, 0, loc) }
	iv := func(a, b time.Time) booking.Interval { return booking.Interval{Start: a, End: b} }
	day := func(state booking.SpotState, busy ...booking.Interval) booking.SearchResult {
		return booking.SearchResult{Resource: booking.Resource{Name: "Desk 0.03"}, State: state,
			Days: []booking.SearchDay{{Hours: iv(at(9, 0), at(17, 0)), Busy: busy, State: state, FreeUntil: at(21, 0)}}}
	}
	for _, tt := range []struct {
		name string
		r    booking.SearchResult
		want string
	}{
		{"Free", day(booking.SpotFree), "Desk 0.03: free until 21:00 Madrid time"},
		{"BusyThenFree", day(booking.SpotBusy, iv(at(8, 0), at(10, 0)), iv(at(10, 0), at(14, 0))), "Desk 0.03: busy, free from 14:00"},
		{"BusyLater", day(booking.SpotBusy, iv(at(12, 0), at(13, 0))), "Desk 0.03: busy 12:00–13:00 Madrid time"},
		{"BusyAllDay", day(booking.SpotBusy, iv(at(9, 0), at(18, 0))), "Desk 0.03: busy, not free again before 17:00"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := spotTip(context.Background(), tt.r, "Madrid time", at(8, 0)); got != tt.want {
				t.Errorf("spotTip = %q, want %q", got, tt.want)
			}
		})
	}
}

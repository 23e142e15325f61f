package booking_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
)

func rect(x1, y1, x2, y2 int32) booking.MapCoordinates {
	return booking.MapCoordinates{TopLeftX: x1, TopLeftY: y1, BottomRightX: x2, BottomRightY: y2}
}

func TestFreeSpace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		taken  []booking.MapCoordinates
		w, h   int32
		want   booking.MapCoordinates
		wantOK bool
	}{
		{"EmptyPlanCentres", nil, 100, 40, rect(450, 380, 550, 420), true},
		{"BesideAWideRoom", []booking.MapCoordinates{rect(0, 0, 1000, 400)}, 100, 40,
			rect(450, 580, 550, 620), true},
		// Free: the right strip (x 520–980, all heights) is larger than the bottom one (y 420–780).
		{"LargestOfTwo", []booking.MapCoordinates{rect(0, 0, 500, 400)}, 100, 40,
			rect(700, 380, 800, 420), true},
		// The largest free rectangle (the bottom strip, 59 high) is too low for the block: the
		// narrower right one holds it.
		{"LargestThatHoldsIt", []booking.MapCoordinates{rect(0, 0, 920, 701)}, 40, 60,
			rect(940, 370, 980, 430), true},
		{"FullPlan", []booking.MapCoordinates{rect(0, 0, 1000, 770)}, 60, 40, booking.MapCoordinates{}, false},
		{"BlockLargerThanThePlan", nil, 2000, 40, booking.MapCoordinates{}, false},
		{"OutsideThePlanIgnored", []booking.MapCoordinates{rect(2000, 2000, 2100, 2100)}, 100, 40,
			rect(450, 380, 550, 420), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := booking.FreeSpace(1000, 800, tc.taken, tc.w, tc.h, 20)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v (got %+v)", ok, tc.wantOK, got)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("place (-want +got):\n%s", d)
			}
		})
	}
}

package booking_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/workspacebooking/booking/web/booking"
)

func TestCompareNames(t *testing.T) {
	t.Parallel()
	got := []string{"Desk B 10", "desk b 3", "Desk B 2", "Desk 10 window", "Velázquez", "Desk 9 window", "Desk B 1", "Velazquez", "Goya"}
	slices.SortFunc(got, booking.CompareNames)
	want := []string{"Desk 9 window", "Desk 10 window", "Desk B 1", "Desk B 2", "desk b 3", "Desk B 10", "Goya", "Velazquez", "Velázquez"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

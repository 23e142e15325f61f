package report_test

import (
	"slices"
	"testing"

	"github.com/workspacebooking/booking/web/report"
)

func TestSuppress(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		people []int
		size   []int64
		k      int
		total  bool
		want   []bool
	}{
		{"NothingSmall", []int{5, 9}, []int64{1, 2}, 5, true, []bool{false, false}},
		{"OneSmallHidesTheNextSmallest", []int{4, 9, 6}, []int64{1, 2, 3}, 5, true, []bool{true, false, true}},
		{"TieOnPeopleHidesTheSmallerSize", []int{4, 6, 6}, []int64{1, 9, 3}, 5, true, []bool{true, false, true}},
		{"TwoSmallNeedNoComplement", []int{4, 3, 9}, []int64{1, 2, 3}, 5, true, []bool{true, true, false}},
		{"NoTotalNoComplement", []int{4, 9, 6}, []int64{1, 2, 3}, 5, false, []bool{true, false, false}},
		{"AHigherThreshold", []int{6, 9, 12}, []int64{1, 2, 3}, 10, true, []bool{true, true, false}},
		{"ALoneCellStaysHidden", []int{2}, []int64{1}, 5, true, []bool{true}},
		{"Empty", nil, nil, 5, true, []bool{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := report.Suppress(tc.people, tc.size, tc.k, tc.total); !slices.Equal(got, tc.want) {
				t.Errorf("Suppress(%v, %v, %d, %v) = %v, want %v", tc.people, tc.size, tc.k, tc.total, got, tc.want)
			}
		})
	}
}

package report

import "sort"

// MinThreshold is the smallest number of distinct people a published figure may be built from. An
// organization may raise its threshold, never lower it below this.
const MinThreshold = 5

// MaxThreshold bounds the threshold an organization may set.
const MaxThreshold = 1000

// Suppress says which cells of a group to hide. people[i] is the number of distinct people cell i is
// built from, size[i] its size (booked ms), used to pick the complementary cells. A cell built from fewer
// than k people is hidden. When total is true, the group's total is published, so one hidden cell could
// be found again as the total minus the shown cells: the next smallest shown cell (fewest people, then
// smallest size, then first) is hidden too, so that at least two cells are hidden whenever any is.
func Suppress(people []int, size []int64, k int, total bool) []bool {
	hidden := make([]bool, len(people))
	n := 0
	for i, p := range people {
		if p < k {
			hidden[i] = true
			n++
		}
	}
	if !total || n != 1 || len(people) < 2 {
		return hidden
	}
	order := make([]int, 0, len(people))
	for i := range people {
		if !hidden[i] {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if people[i] != people[j] {
			return people[i] < people[j]
		}
		return size[i] < size[j]
	})
	hidden[order[0]] = true
	return hidden
}

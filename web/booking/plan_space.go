package booking

import "slices"

// FreeSpace returns a place for a block of w × h on a plan of planW × planH that keeps at least gap
// away from every rectangle of taken and from the plan's edges: the centre of the largest free
// rectangle that holds the block. ok is false when no free rectangle holds it.
func FreeSpace(planW, planH int32, taken []MapCoordinates, w, h, gap int32) (place MapCoordinates, ok bool) {
	bounds := MapCoordinates{TopLeftX: gap, TopLeftY: gap, BottomRightX: planW - gap, BottomRightY: planH - gap}
	if w < 1 || h < 1 || bounds.BottomRightX-bounds.TopLeftX < w || bounds.BottomRightY-bounds.TopLeftY < h {
		return MapCoordinates{}, false
	}
	xs, ys, takenCell := planCells(bounds, taken, gap)
	cols, rows := len(xs)-1, len(ys)-1

	// Row by row from the top, the free height above each column ends a histogram; the largest
	// rectangle under it is found with a stack (every maximal free rectangle is one of these).
	var best MapCoordinates
	var bestArea int64
	height := make([]int32, cols)
	stack := make([]int, 0, cols+1)
	for r := range rows {
		bottom := ys[r+1]
		for c := range cols {
			if takenCell[r*cols+c] {
				height[c] = 0
			} else {
				height[c] += ys[r+1] - ys[r]
			}
		}
		stack = stack[:0]
		for c := 0; c <= cols; c++ {
			var hc int32
			if c < cols {
				hc = height[c]
			}
			for len(stack) > 0 && height[stack[len(stack)-1]] >= hc {
				top := height[stack[len(stack)-1]]
				stack = stack[:len(stack)-1]
				left := 0
				if len(stack) > 0 {
					left = stack[len(stack)-1] + 1
				}
				width := xs[c] - xs[left]
				if area := int64(width) * int64(top); width >= w && top >= h && area > bestArea {
					bestArea = area
					best = MapCoordinates{TopLeftX: xs[left], TopLeftY: bottom - top, BottomRightX: xs[c], BottomRightY: bottom}
				}
			}
			stack = append(stack, c)
		}
	}
	if bestArea == 0 {
		return MapCoordinates{}, false
	}
	x := best.TopLeftX + (best.BottomRightX-best.TopLeftX-w)/2
	y := best.TopLeftY + (best.BottomRightY-best.TopLeftY-h)/2
	return MapCoordinates{TopLeftX: x, TopLeftY: y, BottomRightX: x + w, BottomRightY: y + h}, true
}

// planCells cuts the bounds into cells along the edges of every rectangle of taken grown by gap, and
// says which cells are taken (row by row, cols := len(xs)-1 of them in a row). A cell is either wholly
// taken or wholly free.
func planCells(bounds MapCoordinates, taken []MapCoordinates, gap int32) (xs, ys []int32, takenCell []bool) {
	// What the block must stay clear of: each rectangle grown by gap, cut to the bounds.
	var blocks []MapCoordinates
	xs = []int32{bounds.TopLeftX, bounds.BottomRightX}
	ys = []int32{bounds.TopLeftY, bounds.BottomRightY}
	for _, t := range taken {
		b := MapCoordinates{
			TopLeftX: max(t.TopLeftX-gap, bounds.TopLeftX), TopLeftY: max(t.TopLeftY-gap, bounds.TopLeftY),
			BottomRightX: min(t.BottomRightX+gap, bounds.BottomRightX), BottomRightY: min(t.BottomRightY+gap, bounds.BottomRightY),
		}
		if b.TopLeftX >= b.BottomRightX || b.TopLeftY >= b.BottomRightY {
			continue
		}
		blocks = append(blocks, b)
		xs, ys = append(xs, b.TopLeftX, b.BottomRightX), append(ys, b.TopLeftY, b.BottomRightY)
	}
	slices.Sort(xs)
	slices.Sort(ys)
	xs, ys = slices.Compact(xs), slices.Compact(ys)

	// The plan cut into cells along every edge: a cell is either wholly taken or wholly free.
	cols, rows := len(xs)-1, len(ys)-1
	takenCell = make([]bool, cols*rows)
	for _, b := range blocks {
		x0, _ := slices.BinarySearch(xs, b.TopLeftX)
		x1, _ := slices.BinarySearch(xs, b.BottomRightX)
		y0, _ := slices.BinarySearch(ys, b.TopLeftY)
		y1, _ := slices.BinarySearch(ys, b.BottomRightY)
		for r := y0; r < y1; r++ {
			for c := x0; c < x1; c++ {
				takenCell[r*cols+c] = true
			}
		}
	}
	return xs, ys, takenCell
}

package views

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/workspacebooking/booking/web/booking"
)

// spotName is a resource's name as a plan writes it inside the resource's shape: one or two lines,
// centred on X, Y, Size high, over a backing rectangle that keeps them legible on any pattern or
// drawing.
type spotName struct {
	Lines              []string
	Full               bool // the lines hold the whole name, not only its number
	X, Y, Size         float64
	BgX, BgY, BgW, BgH float64
}

// The size of the names on a plan, as a share of the plan's width: at most 1/55 of it, and at least
// 1/85 of it, below which a name is hard to read on a plan as wide as a laptop's or a phone's screen.
const (
	nameMaxShare = 55
	nameMinShare = 85
	// nameCharWidth is the width of an average character of the plan's bold sans-serif font, in ems.
	nameCharWidth = 0.62
	// nameLineHeight is the distance between two lines of a name, in ems.
	nameLineHeight = 1.2
)

// nameOnPlan fits name inside the rectangle m of a plan planW wide, clear of a corner × corner square at
// the rectangle's top left (where the floor plan draws the state's symbol; 0 for none). The name is
// written as large as fits, up to planW/55: on one line, else on two, else (when it ends with a number,
// as "Desk 12" does) that number alone, the first of these that is at least planW/85 high; when none
// is, the largest. ok is false when the rectangle is too small for any of them.
func nameOnPlan(m booking.MapCoordinates, name string, planW, corner int32) (n spotName, ok bool) {
	maxSize, minSize := float64(planW)/nameMaxShare, float64(planW)/nameMinShare
	words := strings.Fields(name)
	if len(words) == 0 {
		return spotName{}, false
	}
	candidates := [][]string{{strings.Join(words, " ")}}
	if len(words) > 1 {
		candidates = append(candidates, twoLines(words))
		if last := words[len(words)-1]; strings.ContainsFunc(last, unicode.IsDigit) {
			candidates = append(candidates, []string{last})
		}
	}
	var best spotName
	for i, lines := range candidates {
		n, ok := fitName(m, lines, maxSize, float64(corner))
		if !ok {
			continue
		}
		n.Full = i < 2
		if n.Size >= minSize {
			return n, true
		}
		if n.Size > best.Size {
			best = n
		}
	}
	// Small, but better than nothing: the page can be zoomed.
	return best, best.Size >= minSize/2
}

// twoLines splits words into two lines as even as can be.
func twoLines(words []string) []string {
	best, bestLong := 1, math.MaxInt
	for i := 1; i < len(words); i++ {
		a, b := utf8.RuneCountInString(strings.Join(words[:i], " ")), utf8.RuneCountInString(strings.Join(words[i:], " "))
		if long := max(a, b); long < bestLong {
			best, bestLong = i, long
		}
	}
	return []string{strings.Join(words[:best], " "), strings.Join(words[best:], " ")}
}

// fitName places lines as large as they fit, up to maxSize, in one of the rectangle's free areas: the
// whole rectangle when they clear the corner there, else beside or below the corner.
func fitName(m booking.MapCoordinates, lines []string, maxSize, corner float64) (spotName, bool) {
	longest := 0
	for _, l := range lines {
		longest = max(longest, utf8.RuneCountInString(l))
	}
	x1, y1, x2, y2 := float64(m.TopLeftX), float64(m.TopLeftY), float64(m.BottomRightX), float64(m.BottomRightY)
	const inset = 2
	areas := [][4]float64{{x1 + inset, y1 + inset, x2 - inset, y2 - inset}}
	if corner > 0 {
		areas = append(areas, [4]float64{x1 + corner, y1 + inset, x2 - inset, y2 - inset}, [4]float64{x1 + inset, y1 + corner, x2 - inset, y2 - inset})
	}
	// The backing is 0.3 em wider than the text on each side, and 0.15 em taller than its lines.
	wide, high := nameCharWidth*float64(longest)+0.6, nameLineHeight*float64(len(lines))+0.15
	var best spotName
	for i, a := range areas {
		w, h := a[2]-a[0], a[3]-a[1]
		if w <= 0 || h <= 0 {
			continue
		}
		size := min(maxSize, w/wide, h/high)
		if size <= best.Size {
			continue
		}
		n := spotName{Lines: lines, X: (a[0] + a[2]) / 2, Y: (a[1] + a[3]) / 2, Size: size, BgW: size * wide, BgH: size * high}
		n.BgX, n.BgY = n.X-n.BgW/2, n.Y-n.BgH/2
		if i == 0 && corner > 0 && n.BgX < x1+corner && n.BgY < y1+corner {
			continue // centred in the whole rectangle, it would cover the symbol
		}
		best = n
	}
	return best, best.Size > 0
}

// lineShift is how far line i of n is from the name's centre, in ems.
func lineShift(i, n int) string {
	if i == 0 {
		return planNum(-nameLineHeight*float64(n-1)/2) + "em"
	}
	return planNum(nameLineHeight) + "em"
}

// planNum writes a length of the plan with at most one decimal.
func planNum(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

package views

import (
	"context"
	"strings"
	"time"
	"unicode"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// hitRect is the area of the plan that chooses a resource: its drawn shape grown towards its
// neighbours, in the plan's units.
type hitRect struct{ X, Y, W, H int32 }

// hitGrowth is how far, at most, a hit area reaches beyond its shape on each side, in the plan's units.
const hitGrowth = 24

// spotHits returns the hit area of every resource of the plan, in the order given. Each side of a shape
// moves out half-way to the nearest shape in that direction (one that faces it across the gap), by at
// most hitGrowth, and never past the plan's edge. Dense desks thus get larger targets without two
// targets overlapping.
func spotHits(rs []booking.MapCoordinates, planW, planH int32) []hitRect {
	out := make([]hitRect, len(rs))
	for i, r := range rs {
		left, right, up, down := int32(hitGrowth), int32(hitGrowth), int32(hitGrowth), int32(hitGrowth)
		for j, o := range rs {
			if i == j {
				continue
			}
			facesX := o.TopLeftY < r.BottomRightY && o.BottomRightY > r.TopLeftY // beside, across x
			facesY := o.TopLeftX < r.BottomRightX && o.BottomRightX > r.TopLeftX // above or below
			switch {
			case facesX && o.BottomRightX <= r.TopLeftX:
				left = min(left, (r.TopLeftX-o.BottomRightX)/2)
			case facesX && o.TopLeftX >= r.BottomRightX:
				right = min(right, (o.TopLeftX-r.BottomRightX)/2)
			case facesY && o.BottomRightY <= r.TopLeftY:
				up = min(up, (r.TopLeftY-o.BottomRightY)/2)
			case facesY && o.TopLeftY >= r.BottomRightY:
				down = min(down, (o.TopLeftY-r.BottomRightY)/2)
			}
		}
		x1, y1 := max(r.TopLeftX-left, 0), max(r.TopLeftY-up, 0)
		x2, y2 := r.BottomRightX+right, r.BottomRightY+down
		if planW > 0 {
			x2 = min(x2, planW)
		}
		if planH > 0 {
			y2 = min(y2, planH)
		}
		out[i] = hitRect{X: x1, Y: y1, W: max(x2-x1, 1), H: max(y2-y1, 1)}
	}
	// Shapes that are diagonal neighbours can both grow into the corner between them: such a pair is
	// split half-way across its wider gap.
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if overlaps(out[i], out[j]) {
				split(&out[i], &out[j], rs[i], rs[j])
			}
		}
	}
	return out
}

func overlaps(a, b hitRect) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// split shrinks the hit areas a and b of the shapes ra and rb so that they meet half-way across the
// wider of the gaps between the shapes. Shapes that overlap keep their areas.
func split(a, b *hitRect, ra, rb booking.MapCoordinates) {
	gx := max(ra.TopLeftX-rb.BottomRightX, rb.TopLeftX-ra.BottomRightX)
	gy := max(ra.TopLeftY-rb.BottomRightY, rb.TopLeftY-ra.BottomRightY)
	if gx < 0 && gy < 0 {
		return
	}
	if gy >= gx {
		if ra.TopLeftY > rb.TopLeftY {
			a, b, ra, rb = b, a, rb, ra
		}
		mid := (ra.BottomRightY + rb.TopLeftY) / 2 // a is above b
		a.H = min(a.H, mid-a.Y)
		if b.Y < mid {
			b.H, b.Y = b.H-(mid-b.Y), mid
		}
		return
	}
	if ra.TopLeftX > rb.TopLeftX {
		a, b, ra, rb = b, a, rb, ra
	}
	mid := (ra.BottomRightX + rb.TopLeftX) / 2 // a is left of b
	a.W = min(a.W, mid-a.X)
	if b.X < mid {
		b.W, b.X = b.W-(mid-b.X), mid
	}
}

// shortName is the part of a name a plan writes when the whole name does not fit: its last word when
// that holds a digit ("0.02" of "Desk 0.02"), else nothing.
func shortName(name string) string {
	words := strings.Fields(name)
	if len(words) < 2 {
		return ""
	}
	if last := words[len(words)-1]; strings.ContainsFunc(last, unicode.IsDigit) {
		return last
	}
	return ""
}

// spotTip is what the plan says of a resource on hover and focus, in a few words: "Desk 0.02: free
// until 18:00", "Desk 0.03: busy, free from 14:00", "Desk 0.04: busy, not free again before 18:00".
// With several days it says the state of each day that is not free, as the list does.
func spotTip(ctx context.Context, r booking.SearchResult, zone string, now time.Time) string {
	name := r.Resource.Name + ": " + strings.ToLower(spotStateLabel(ctx, r.State, r.Resource))
	if len(r.Days) != 1 || r.State != booking.SpotBusy {
		return name + " " + StateText(ctx, r, zone, now)
	}
	d := r.Days[0]
	if t, _ := freeFrom(d); t.Equal(d.Hours.Start) { // free at first, busy later on
		return name + " " + StateText(ctx, r, zone, now)
	}
	if t, ok := freeFrom(d); ok {
		return name + ", " + lang.T(ctx, "find.tipFreeFrom", map[string]any{"Time": dayClock(t, dayMidnight(d))})
	}
	return name + ", " + lang.T(ctx, "find.tipNotFreeBefore", map[string]any{"Time": dayClock(d.Hours.End, dayMidnight(d))})
}

// freeFrom is the first moment of the day's searched hours after their start at which the resource is
// free, if there is one before they end.
func freeFrom(d booking.SearchDay) (time.Time, bool) {
	t := d.Hours.Start
	for _, b := range d.Busy { // earliest first
		if !b.Start.After(t) && b.End.After(t) {
			t = b.End
		}
	}
	return t, t.Before(d.Hours.End)
}

// hits are the hit areas of the plan's resources, in the order of p.Spots.
func (p FloorPlan) hits() []hitRect {
	rs := make([]booking.MapCoordinates, len(p.Spots))
	for i, r := range p.Spots {
		rs[i] = r.Resource.Map
	}
	return spotHits(rs, p.Width, p.Height)
}

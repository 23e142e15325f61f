package views

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// FloorResults are the results of one floor: the free resources, and the others.
type FloorResults struct {
	Floor   booking.Floor
	Free    []booking.SearchResult
	NotFree []booking.SearchResult
}

// FindResults is the answer to a search as the list shows it, with the booking form of the chosen resources.
type FindResults struct {
	Search  FindSearch
	Floors  []FloorResults
	Free    int      // resources free on every day
	Dropped []string // chosen resources taken out of the booking: no longer free for the search's hours
	Booking BookingForm
	Held    *booking.HeldWorkstation // the desk the user already has during the search's hours, if any
}

// ZeroReason says in a few words why a search found nothing free, when every result fails for the same
// reason: "outside opening hours, 08:00–20:00 Madrid time", "too far ahead", or one closure of them all
// ("Madrid HQ is closed on Sat 28 Nov: Christmas"). It is "" otherwise (some are busy, or the reasons
// differ). It is in ctx's language, but for the words of a closure's reason, as the admin wrote them.
func (r FindResults) ZeroReason(ctx context.Context) string {
	if r.Free > 0 || r.Search.Problem != "" {
		return ""
	}
	var code booking.Code
	var closed *booking.Closure
	var closedRes booking.Resource
	var window *booking.ResourceRule // the hours of every result, while they agree
	sameHours := true
	for _, g := range r.Floors {
		for _, res := range g.NotFree {
			if res.State != booking.SpotUnavailable {
				return ""
			}
			rule := res.Resource.Rule
			switch {
			case window == nil:
				window = &rule
			case window.StartTime != rule.StartTime || window.EndTime != rule.EndTime:
				sameHours = false
			}
			for _, d := range res.Days {
				switch {
				case d.State != booking.SpotUnavailable:
				case code == 0:
					code = d.RefusalCode
				case d.RefusalCode != code:
					return ""
				}
				if d.Closed != nil {
					if closed != nil && closed.ID != d.Closed.ID {
						return ""
					}
					closed, closedRes = d.Closed, res.Resource
				}
			}
		}
	}
	switch code {
	case booking.CodeDateOutsideResourceHours:
		if window != nil && sameHours {
			return lang.T(ctx, "find.zeroOutsideHoursAt", map[string]any{
				"Hours": findHoursLabel(window.StartTime) + "–" + findHoursLabel(window.EndTime), "Zone": r.Search.Zone(ctx),
			})
		}
		return lang.T(ctx, "find.zeroOutsideHours")
	case booking.CodeDateExceedsMaximumAdvance:
		return lang.T(ctx, "find.zeroTooFarAhead")
	case booking.CodeDateInThePast:
		return lang.T(ctx, "find.zeroPast")
	case booking.CodeDurationExceedsMaximum:
		return lang.T(ctx, "find.zeroTooLong")
	case booking.CodeResourceClosed:
		if closed != nil {
			return closedPlaceWords(ctx, closedRes, *closed, r.Search.Now)
		}
	}
	return ""
}

// closedPlaceWords says that what c closes is closed, named as res's building, its floor or res itself:
// "Madrid HQ is closed on Sat 28 Nov: Christmas", in res's building's time zone (as
// booking.ClosedPlaceWords does, in ctx's language).
func closedPlaceWords(ctx context.Context, res booking.Resource, c booking.Closure, now time.Time) string {
	name := res.Name
	switch {
	case c.BuildingID != nil:
		name = res.Floor.Building.Name
	case c.FloorID != nil:
		name = floorName(ctx, res.Floor)
	}
	return lang.T(ctx, "find.closedPlace", map[string]any{
		"Place": name, "When": booking.ClosureSpanOf(c.Interval(), res.Floor.Building.Timezone, now), "Reason": c.Reason,
	})
}

// HeldNotice says which desk the user already has during the search's hours: "You already have Desk 1.02
// then (from 09:00 to 18:00 Madrid time on Tue 24 Nov)."
func HeldNotice(ctx context.Context, h *booking.HeldWorkstation, now time.Time) string {
	return lang.T(ctx, "find.heldNotice", map[string]any{"Name": h.ResourceName, "When": booking.SpanOf(h.Interval, h.Timezone, now)})
}

// GroupByFloor groups results by floor, in their order, the free ones apart.
func GroupByFloor(results []booking.SearchResult) ([]FloorResults, int) {
	var out []FloorResults
	free := 0
	for _, r := range results {
		if len(out) == 0 || out[len(out)-1].Floor.ID != r.Resource.Floor.ID {
			out = append(out, FloorResults{Floor: r.Resource.Floor})
		}
		g := &out[len(out)-1]
		if r.State == booking.SpotFree {
			g.Free, free = append(g.Free, r), free+1
		} else {
			g.NotFree = append(g.NotFree, r)
		}
	}
	return out, free
}

// Where says where a resource is: "1st floor · Madrid HQ" ("Floor 1 · Madrid HQ" for a floor without a
// name).
func Where(ctx context.Context, r booking.Resource) string {
	return floorName(ctx, r.Floor) + " · " + r.Floor.Building.Name
}

// floorName is a floor's name, or for one without a name its number: "Floor 1" ("Planta 1").
func floorName(ctx context.Context, f booking.Floor) string {
	if f.Name != "" {
		return f.Name
	}
	return lang.T(ctx, "find.floorNumber", map[string]any{"Number": strconv.Itoa(int(f.FloorNumber))})
}

// findCapacityLabel is "1 person", "8 people".
func findCapacityLabel(ctx context.Context, c *int32) string {
	if c == nil {
		return ""
	}
	return lang.N(ctx, "find.capacity", int(*c))
}

// findFeatureNames lists a resource's features: "Screen, Whiteboard".
func findFeatureNames(fs []booking.Feature) string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return strings.Join(names, ", ")
}

// findResourceFacts is a resource's kind, capacity and features: "Meeting room · 8 people · Screen".
func findResourceFacts(ctx context.Context, r booking.Resource) string {
	parts := []string{r.Subcategory.Name}
	if c := findCapacityLabel(ctx, r.Capacity); c != "" {
		parts = append(parts, c)
	}
	if f := findFeatureNames(r.Features); f != "" {
		parts = append(parts, f)
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " · ")
}

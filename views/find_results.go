package views

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/workspacebooking/booking/web/booking"
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
// differ).
func (r FindResults) ZeroReason() string {
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
			return "outside opening hours, " + findHoursLabel(window.StartTime) + "–" + findHoursLabel(window.EndTime) + " " + r.Search.Zone()
		}
		return "outside opening hours"
	case booking.CodeDateExceedsMaximumAdvance:
		return "too far ahead"
	case booking.CodeDateInThePast:
		return "that time is over"
	case booking.CodeDurationExceedsMaximum:
		return "longer than a booking may last"
	case booking.CodeResourceClosed:
		if closed != nil {
			return booking.ClosedPlaceWords(closedRes, *closed, r.Search.Now)
		}
	}
	return ""
}

// HeldNotice says which desk the user already has during the search's hours: "You already have Desk 1.02
// then (from 09:00 to 18:00 Madrid time on Tue 24 Nov)."
func HeldNotice(h *booking.HeldWorkstation, now time.Time) string {
	return "You already have " + h.ResourceName + " then (" + booking.Span(h.Interval, h.Timezone, now) + ")."
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
func Where(r booking.Resource) string {
	floor := r.Floor.Name
	if floor == "" {
		floor = "Floor " + strconv.Itoa(int(r.Floor.FloorNumber))
	}
	return floor + " · " + r.Floor.Building.Name
}

// findCapacityLabel is "1 person", "8 people".
func findCapacityLabel(c *int32) string {
	if c == nil {
		return ""
	}
	if *c == 1 {
		return "1 person"
	}
	return strconv.Itoa(int(*c)) + " people"
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
func findResourceFacts(r booking.Resource) string {
	parts := []string{r.Subcategory.Name}
	if c := findCapacityLabel(r.Capacity); c != "" {
		parts = append(parts, c)
	}
	if f := findFeatureNames(r.Features); f != "" {
		parts = append(parts, f)
	}
	return strings.Join(slices.DeleteFunc(parts, func(s string) bool { return s == "" }), " · ")
}

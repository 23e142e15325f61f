package report

import (
	"sort"
	"strconv"

	"github.com/google/uuid"
)

// dayCells are the building's days, in order, each with that day's distinct people.
func (d data) dayCells() []Cell {
	out := make([]Cell, len(d.days))
	for i, r := range d.days {
		out[i] = Cell{Day: r.Day.Time, people: int(r.People), Measures: Measures{Bookable: r.BookableMs,
			Booked: r.BookedMs, CheckedIn: r.CheckedInMs, NoShow: r.NoShowMs, Released: r.ReleasedMs}}
	}
	return out
}

// hourCells are the hours of the local day that had bookable time or bookings, in order.
func (d data) hourCells() []Cell {
	out := make([]Cell, 0, len(d.hours))
	for _, r := range d.hours {
		if r.BookableMs == 0 && r.BookedMs == 0 {
			continue
		}
		out = append(out, Cell{Key: strconv.Itoa(int(r.Hour)), Hour: int(r.Hour), people: int(r.People),
			Measures: Measures{Bookable: r.BookableMs, Booked: r.BookedMs, CheckedIn: r.CheckedInMs, NoShow: r.NoShowMs, Released: r.ReleasedMs}})
	}
	return out
}

// peakDays are the PeakCount days with the most booked time among those built from at least k people,
// most first. The days are the cells of their own group, suppressed as such.
func peakDays(days []Cell, k int) []Cell {
	hideCells(days, k, true)
	out := make([]Cell, 0, len(days))
	for _, c := range days {
		if !c.Hidden && c.Booked > 0 {
			out = append(out, c)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Booked > out[j].Booked })
	return out[:min(len(out), PeakCount)]
}

// resourceLists returns the most and least used resources by share of bookable time booked. A resource
// is listed only when its own figures may be shown (Suppress over the building's resources) and its floor
// is not hidden in the report by floor, so that the lists never complete a hidden floor's figures.
func (d data) resourceLists(k int) (most, least []Cell) {
	sums := map[uuid.UUID]*Cell{}
	floors := map[uuid.UUID]uuid.UUID{}
	for _, r := range d.resources {
		c := sums[r.ResourceID]
		if c == nil {
			c = &Cell{Key: r.ResourceID.String(), Label: d.names[r.ResourceID]}
			sums[r.ResourceID] = c
		}
		c.Measures.add(measuresOf(r))
		c.people = max(c.people, int(r.People))
		floors[r.ResourceID] = r.FloorID
	}
	hiddenFloor := map[string]bool{}
	floorCells := d.groupCells(ByFloor)
	hideCells(floorCells, k, true)
	for _, c := range floorCells {
		hiddenFloor[c.Key] = c.Hidden
	}
	all := make([]Cell, 0, len(sums))
	for _, c := range sums {
		all = append(all, *c)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Key < all[j].Key })
	hideCells(all, k, true)
	shown := all[:0]
	for _, c := range all {
		if !c.Hidden && !hiddenFloor[floors[uuid.MustParse(c.Key)].String()] && c.Bookable > 0 {
			shown = append(shown, c)
		}
	}
	sort.SliceStable(shown, func(i, j int) bool { return shown[i].Share(shown[i].Booked) > shown[j].Share(shown[j].Booked) })
	n := min(len(shown), ListCount)
	most = append([]Cell(nil), shown[:n]...)
	for i := len(shown) - 1; i >= len(shown)-n; i-- {
		least = append(least, shown[i])
	}
	return most, least
}

// serviceList lists the services ordered, most ordered first; one ordered by fewer than k people in
// every day is hidden. No total of services is published.
func (d data) serviceList(k int) []Ordered {
	out := make([]Ordered, len(d.services))
	people, size := make([]int, len(d.services)), make([]int64, len(d.services))
	for i, r := range d.services {
		out[i] = Ordered{ID: r.ReservableID, Name: r.Name, Quantity: r.Quantity, Bookings: r.Bookings, people: int(r.People)}
		people[i], size[i] = int(r.People), r.Quantity
	}
	for i, h := range Suppress(people, size, k, false) {
		if h {
			out[i] = Ordered{ID: out[i].ID, Name: out[i].Name, Hidden: true}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Quantity != out[j].Quantity {
			return out[i].Quantity > out[j].Quantity
		}
		return out[i].Name < out[j].Name
	})
	return out
}

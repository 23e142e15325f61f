package report

import (
	"context"
	"fmt"
	"sort"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// data is what a report is made of, as read from the roll-ups.
type data struct {
	resources []queries.ReportResourcesRow
	days      []queries.ReportDaysRow
	hours     []queries.ReportHoursRow
	people    map[string]map[uuid.UUID]int // dimension → cell → most distinct people in one day
	services  []queries.ReportServicesRow
	names     map[uuid.UUID]string
}

// read reads the roll-ups of r's building and period, and the names of its cells.
func (s *Service) read(ctx context.Context, org uuid.UUID, r Request) (data, error) {
	first, last := date(r.From), date(r.To)
	var d data
	var err error
	if d.resources, err = s.q.ReportResources(ctx, queries.ReportResourcesParams{OrganizationID: org, BuildingID: r.BuildingID, First: first, Last: last}); err != nil {
		return d, fmt.Errorf("read resources: %w", err)
	}
	if d.days, err = s.q.ReportDays(ctx, queries.ReportDaysParams{OrganizationID: org, BuildingID: r.BuildingID, First: first, Last: last}); err != nil {
		return d, fmt.Errorf("read days: %w", err)
	}
	if r.By == ByHour {
		if d.hours, err = s.q.ReportHours(ctx, queries.ReportHoursParams{OrganizationID: org, BuildingID: r.BuildingID, First: first, Last: last}); err != nil {
			return d, fmt.Errorf("read hours: %w", err)
		}
	}
	people, err := s.q.ReportPeople(ctx, queries.ReportPeopleParams{OrganizationID: org, BuildingID: r.BuildingID, First: first, Last: last})
	if err != nil {
		return d, fmt.Errorf("read people: %w", err)
	}
	d.people = map[string]map[uuid.UUID]int{}
	for _, p := range people {
		if d.people[p.Dimension] == nil {
			d.people[p.Dimension] = map[uuid.UUID]int{}
		}
		d.people[p.Dimension][p.Cell] = int(p.People)
	}
	if d.services, err = s.q.ReportServices(ctx, queries.ReportServicesParams{OrganizationID: org, BuildingID: r.BuildingID, First: first, Last: last}); err != nil {
		return d, fmt.Errorf("read services: %w", err)
	}
	names, err := s.q.ReportNames(ctx, queries.ReportNamesParams{OrganizationID: org, BuildingID: r.BuildingID})
	if err != nil {
		return d, fmt.Errorf("read names: %w", err)
	}
	d.names = make(map[uuid.UUID]string, len(names))
	for _, n := range names {
		d.names[n.ID] = n.Name
	}
	return d, nil
}

// fill computes rep's cells, total, peak days, resource lists and services, and hides what the
// threshold asks to hide.
func (d data) fill(rep *Report) {
	k := rep.Threshold
	for _, r := range d.resources {
		rep.Total.Measures.add(measuresOf(r))
	}
	rep.Total.people = d.people["BUILDING"][rep.BuildingID]
	switch rep.By {
	case ByDay:
		rep.Cells = d.dayCells()
	case ByHour:
		rep.Cells = d.hourCells()
	default:
		rep.Cells = d.groupCells(rep.By)
	}
	hideCells(rep.Cells, k, true)
	if rep.Total.people < k {
		rep.Total = hiddenCell(rep.Total)
	}
	rep.PeakDays = peakDays(d.dayCells(), k)
	rep.MostUsed, rep.LeastUsed = d.resourceLists(k)
	rep.Services = d.serviceList(k)
}

func measuresOf(r queries.ReportResourcesRow) Measures {
	return Measures{Bookable: r.BookableMs, Booked: r.BookedMs, CheckedIn: r.CheckedInMs, NoShow: r.NoShowMs, Released: r.ReleasedMs}
}

// hiddenCell is c without its figures.
func hiddenCell(c Cell) Cell {
	return Cell{Key: c.Key, Label: c.Label, Day: c.Day, Hour: c.Hour, Hidden: true, people: c.people}
}

// hideCells hides the cells of one group that Suppress says to hide.
func hideCells(cells []Cell, k int, total bool) {
	people, size := make([]int, len(cells)), make([]int64, len(cells))
	for i, c := range cells {
		people[i], size[i] = c.people, c.Booked
	}
	for i, h := range Suppress(people, size, k, total) {
		if h {
			cells[i] = hiddenCell(cells[i])
		}
	}
}

// dimensions names the roll-ups' dimension of each grouping by place.
var dimensions = map[Grouping]string{ByFloor: "FLOOR", BySubcategory: "SUBCATEGORY", ByNeighbourhood: "NEIGHBOURHOOD"}

// groupCells sums the resources into the cells of a grouping by place, ordered by name. Resources in no
// neighbourhood form no cell.
func (d data) groupCells(by Grouping) []Cell {
	sums := map[uuid.UUID]*Cell{}
	for _, r := range d.resources {
		key := map[Grouping]*uuid.UUID{ByFloor: &r.FloorID, BySubcategory: &r.SubcategoryID, ByNeighbourhood: r.NeighbourhoodID}[by]
		if key == nil {
			continue
		}
		c := sums[*key]
		if c == nil {
			c = &Cell{Key: key.String(), Label: d.names[*key], people: d.people[dimensions[by]][*key]}
			sums[*key] = c
		}
		c.Measures.add(measuresOf(r))
	}
	out := make([]Cell, 0, len(sums))
	for _, c := range sums {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Label != out[j].Label {
			return out[i].Label < out[j].Label
		}
		return out[i].Key < out[j].Key
	})
	return out
}

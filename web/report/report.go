// Package report builds the utilisation reports of a building for its organization's admins, from the
// daily roll-ups the sweep writes, and keeps the organization's report threshold and retention. A report
// holds aggregates only: a figure built from fewer distinct people than the threshold is hidden, with
// complementary suppression (Suppress). It knows nothing of HTTP or HTML.
package report

import (
	"time"

	"github.com/google/uuid"
	"github.com/workspacebooking/booking/web/booking"
)

// Grouping says what the cells of a report are.
type Grouping string

// The groupings a report offers.
const (
	ByFloor         Grouping = "floor"
	BySubcategory   Grouping = "subcategory"
	ByNeighbourhood Grouping = "neighbourhood"
	ByDay           Grouping = "day"
	ByHour          Grouping = "hour"
)

// Groupings lists every grouping, in the order a form offers them.
var Groupings = []Grouping{ByFloor, BySubcategory, ByNeighbourhood, ByDay, ByHour}

// MaxDays is the longest period a report covers; DefaultDays the period a report covers when none is
// chosen.
const (
	MaxDays     = 366
	DefaultDays = 30
)

// DefaultPeriod returns the period of a report when none is chosen: the last DefaultDays days closed at
// now in the time zone named timezone (today is not rolled up yet), as dates at UTC midnight, as Request
// reads them. A zone that does not load is read as UTC.
func DefaultPeriod(timezone string, now time.Time) (from, to time.Time) {
	loc, err := booking.Location(timezone)
	if err != nil {
		loc = time.UTC
	}
	y, m, d := now.In(loc).Date()
	to = time.Date(y, m, d-1, 0, 0, 0, 0, time.UTC)
	return to.AddDate(0, 0, 1-DefaultDays), to
}

// Request asks for a building's report over the local days From to To, both included.
type Request struct {
	BuildingID uuid.UUID
	From, To   time.Time // local dates (midnight UTC of the date)
	By         Grouping
}

// Measures are a cell's hours in ms: bookable (the rules' windows minus closures), booked, checked in,
// not shown up for (expired without a check-in) and released (given back by an early check-out).
type Measures struct {
	Bookable, Booked, CheckedIn, NoShow, Released int64
}

func (m *Measures) add(o Measures) {
	m.Bookable += o.Bookable
	m.Booked += o.Booked
	m.CheckedIn += o.CheckedIn
	m.NoShow += o.NoShow
	m.Released += o.Released
}

// Share is part as a share of the bookable time, from 0 to 1; 0 when nothing was bookable.
func (m Measures) Share(part int64) float64 {
	if m.Bookable <= 0 {
		return 0
	}
	return float64(part) / float64(m.Bookable)
}

// Cell is one row of a report. A hidden cell carries no figures: its Measures are zero.
type Cell struct {
	Key    string    // the id of the floor, subcategory, neighbourhood or resource; the hour; empty for a day
	Label  string    // its name, when it has one
	Day    time.Time // the local date, for a day
	Hour   int       // the hour of the local day, for an hour
	Hidden bool
	Measures
	people int
}

// Ordered is a service ordered with the period's bookings.
type Ordered struct {
	ID       uuid.UUID
	Name     string
	Quantity int64
	Bookings int64
	Hidden   bool
	people   int
}

// Report is a building's utilisation over a period.
type Report struct {
	BuildingID   uuid.UUID
	BuildingName string
	Timezone     string
	From, To     time.Time
	By           Grouping
	Threshold    int    // cells built from fewer distinct people are hidden
	Cells        []Cell // in the grouping's order
	Total        Cell   // the building over the period; hidden too when built from too few people
	PeakDays     []Cell // the days with the most booked time, at most PeakCount, none hidden
	MostUsed     []Cell // resources with the largest share booked, at most ListCount, none hidden
	LeastUsed    []Cell // resources with the smallest share booked, at most ListCount, none hidden
	Services     []Ordered
}

// PeakCount and ListCount bound the peak days and the resource lists.
const (
	PeakCount = 5
	ListCount = 5
)

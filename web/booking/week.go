package booking

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// WeekDays is the number of days the week view shows, from today; UsualLookback how far back the usual
// desk is looked for.
const (
	WeekDays      = 14
	UsualLookback = 8 * 7 * 24 * time.Hour
)

// Week is a person's next WeekDays days in one building: their own bookings, where their team and the
// colleagues they starred sit (as far as those let them see), and whether their usual desk is free.
type Week struct {
	Building Building
	Location *time.Location
	Usual    *Resource // nil when the person has no usual desk in this building
	Days     []WeekDay
}

// WeekDay is one local day of a Week.
type WeekDay struct {
	Date       time.Time  // the local midnight
	Mine       []Presence // the person's own bookings that day
	Colleagues []Presence // their team's and starred colleagues' bookings that day
	Usual      SpotState  // the usual desk's state during its bookable hours; "" without one
	// Nearest is the free desk nearest to the colleagues' desks (NearestToTeam), looked for only on a
	// day without the person's own booking and without their usual desk free.
	Nearest *Resource
}

// UsualDesk returns the desk u booked most often in the last UsualLookback (ties: the latest), else the
// first desk they starred; nil when neither can be booked.
func (s *Service) UsualDesk(ctx context.Context, u User) (*Resource, error) {
	org := u.OrganizationID
	ids, err := s.q.UsualDesk(ctx, queries.UsualDeskParams{OrganizationID: org, UserID: u.ID, Since: s.now().Add(-UsualLookback)})
	if err != nil {
		return nil, fmt.Errorf("usual desk: %w", err)
	}
	f, err := s.FavouritesOf(ctx, u)
	if err != nil {
		return nil, err
	}
	for _, id := range append(ids, f.Resources...) {
		res, err := bookableResource(ctx, s.q, org, id)
		if err != nil {
			continue // gone or hidden since
		}
		if res.Subcategory.Category == CategoryWorkstation {
			return &res, nil
		}
	}
	return nil, nil
}

// Week returns u's next WeekDays days in the building, from today in its time zone.
// Codes: 1004 no such building.
func (s *Service) Week(ctx context.Context, u User, buildingID uuid.UUID) (Week, error) {
	b, err := s.visibleBuilding(ctx, u.OrganizationID, buildingID)
	if err != nil {
		return Week{}, err
	}
	loc, err := Location(b.Timezone)
	if err != nil {
		return Week{}, err
	}
	today := atOffset(s.now(), loc, 0)
	w := Week{Building: buildingFromRow(b), Location: loc, Days: make([]WeekDay, WeekDays)}
	for i := range w.Days {
		w.Days[i].Date = today.AddDate(0, 0, i)
	}
	end := today.AddDate(0, 0, WeekDays)
	seen, err := s.WhoIsIn(ctx, u, PresenceQuery{BuildingID: &buildingID, From: today, Until: end})
	if err != nil {
		return Week{}, err
	}
	for i := range w.Days {
		day := Interval{Start: w.Days[i].Date, End: w.Days[i].Date.AddDate(0, 0, 1)}
		for _, p := range seen {
			switch {
			case !p.Interval.Overlaps(day):
			case p.Person.ID == u.ID:
				w.Days[i].Mine = append(w.Days[i].Mine, p)
			case p.Team || p.Favourite:
				w.Days[i].Colleagues = append(w.Days[i].Colleagues, p)
			}
		}
	}
	if w.Usual, err = s.UsualDesk(ctx, u); err != nil {
		return w, err
	}
	if w.Usual != nil && w.Usual.Floor.Building.ID != buildingID {
		w.Usual = nil
	}
	if w.Usual != nil {
		if err := s.usualStates(ctx, u, &w); err != nil {
			return w, err
		}
	}
	for i, d := range w.Days {
		if len(d.Mine) > 0 || len(d.Colleagues) == 0 || d.Usual == SpotFree {
			continue
		}
		if w.Days[i].Nearest, err = s.NearestToTeam(ctx, u, buildingID, d); err != nil {
			return w, err
		}
	}
	return w, nil
}

// usualStates fills in the state of w's usual desk on each day, during its rule's bookable hours.
func (s *Service) usualStates(ctx context.Context, u User, w *Week) error {
	days := make([]time.Time, len(w.Days))
	for i, d := range w.Days {
		days[i] = d.Date
	}
	rule := w.Usual.Rule
	found, err := s.Search(ctx, u, SearchQuery{
		BuildingID: w.Building.ID, ResourceID: &w.Usual.ID, Days: days, From: rule.StartTime, To: rule.EndTime,
	})
	if err != nil {
		return err
	}
	if len(found.Results) != 1 {
		return nil
	}
	for i, d := range found.Results[0].Days {
		if i < len(w.Days) {
			w.Days[i].Usual = d.State
		}
	}
	return nil
}

// BookDay books the desk for u on day's date (read in day's own location) in the desk's building: the whole bookable window when
// its rule allows all-day bookings, otherwise from the window's start (or now, once it has begun) for as
// long as the rule allows. It is the week view's one tap.
// Codes: as CreateBookings.
func (s *Service) BookDay(ctx context.Context, u User, deskID uuid.UUID, day time.Time) (Booking, error) {
	res, err := bookableResource(ctx, s.q, u.OrganizationID, deskID)
	if err != nil {
		return Booking{}, err
	}
	loc, err := Location(res.Floor.Building.Timezone)
	if err != nil {
		return Booking{}, err
	}
	nb := NewBooking{ResourceID: deskID, AllDay: res.Rule.AllDayBookings}
	y, m, d := day.Date()
	w := res.Rule.Window(time.Date(y, m, d, 12, 0, 0, 0, loc), loc)
	if now := s.now().Truncate(time.Minute); now.After(w.Start) {
		w.Start = now
	}
	nb.Start, nb.End = w.Start, w.End
	if m := res.Rule.MaximumDuration; m > 0 && nb.End.Sub(nb.Start) > m {
		nb.End = nb.Start.Add(m)
	}
	made, err := s.CreateBookings(ctx, CreateRequest{Creator: u, Organizer: u, Category: res.Subcategory.Category, Bookings: []NewBooking{nb}})
	if err != nil {
		return Booking{}, err
	}
	return made[0], nil
}

// NearestToTeam returns the free desk nearest to where the colleagues of day (WeekDay.Colleagues) sit:
// on the floor where most of them have a desk, the desk free during the usual search hours whose centre is
// closest to the middle of theirs. It returns nil when none of them has a desk that day, or no desk is
// free on that floor.
func (s *Service) NearestToTeam(ctx context.Context, u User, buildingID uuid.UUID, day WeekDay) (*Resource, error) {
	perFloor := map[uuid.UUID][]Presence{}
	var floor uuid.UUID
	for _, p := range day.Colleagues {
		if p.ResourceType != string(CategoryWorkstation) {
			continue
		}
		perFloor[p.FloorID] = append(perFloor[p.FloorID], p)
		if len(perFloor[p.FloorID]) > len(perFloor[floor]) {
			floor = p.FloorID
		}
	}
	if len(perFloor[floor]) == 0 {
		return nil, nil
	}
	var cx, cy float64
	for _, p := range perFloor[floor] {
		cx += float64(p.Centre[0]) / float64(len(perFloor[floor]))
		cy += float64(p.Centre[1]) / float64(len(perFloor[floor]))
	}
	desk := CategoryWorkstation
	found, err := s.Search(ctx, u, SearchQuery{BuildingID: buildingID, FloorID: &floor, Category: &desk,
		Days: []time.Time{day.Date}, From: DefaultSearchHours[0], To: DefaultSearchHours[1]})
	if err != nil {
		return nil, err
	}
	var best *Resource
	bestDistance := math.Inf(1)
	for _, r := range found.Results {
		m := r.Resource.Map
		dx, dy := float64(m.TopLeftX+m.BottomRightX)/2-cx, float64(m.TopLeftY+m.BottomRightY)/2-cy
		if d := dx*dx + dy*dy; r.State == SpotFree && d < bestDistance {
			best, bestDistance = &r.Resource, d
		}
	}
	return best, nil
}

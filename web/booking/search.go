package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// This file serves the "Find a space" pages: which resources can be booked for the same hours on one or
// more days, what each resource looks like on each day, and which day and hours a search starts with.

// MaxSearchDays is the largest number of days one search may cover.
const MaxSearchDays = 31

// SearchQuery asks whether a building's bookable resources are free during the same hours on one or more
// days. Days are calendar dates: only the year, month and day of each are used, as a day in the building's
// time zone. From and To are the hours on every day, as offsets from local midnight with
// 0 ≤ From < To ≤ 24 h, read as clock times (as ResourceRule.Window does). The other fields narrow the
// resources as in AvailabilityQuery. If ResourceID is set, only that resource is searched and BuildingID
// is ignored.
type SearchQuery struct {
	BuildingID  uuid.UUID
	ResourceID  *uuid.UUID
	FloorID     *uuid.UUID
	Category    *Category
	FeatureIDs  []uuid.UUID
	MinCapacity *int32
	Days        []time.Time
	From, To    time.Duration
}

// SpotState is the state of a resource during the hours of a search.
type SpotState string

// The states of a resource in a search, from best to worst. A result over several days takes the worst
// state of its days.
const (
	SpotFree        SpotState = "free"        // it can be booked for the hours
	SpotUnavailable SpotState = "unavailable" // its rule refuses the hours (outside its window, too long, too far ahead, past)
	SpotBusy        SpotState = "busy"        // someone else's booking covers part of the hours
	SpotMine        SpotState = "mine"        // the actor's booking (as organizer or attendee) covers part of the hours
)

// SearchDay is the state of a resource on one day of a search. Its times are in the building's time zone.
type SearchDay struct {
	Hours     Interval   // the searched hours on this day
	Window    Interval   // the hours the rule allows bookings on this day
	Busy      []Interval // blocking bookings during the whole local day, clipped to it, earliest first
	Mine      []Interval // the actor's own bookings among Busy
	State     SpotState  // the state during Hours
	FreeUntil time.Time  // if free: the start of the next busy interval after Hours, or else the window's end
	Refusal   string     // if unavailable: why the rule refuses the hours, or why it is closed, in words
	// RefusalCode is the code of that refusal: 4002 already begun or over, 4003 outside the bookable
	// hours, 4004 longer than a booking may last, 4005 too far ahead, 4014 closed.
	RefusalCode Code
	// Closed is the closure that covers part of the hours, if any: the state is then unavailable, and
	// Refusal is "closed: " and its reason.
	Closed *Closure
	// Why is the refusal whose message Refusal is, with its code; nil when the day is not unavailable.
	// It is a phrase (lang.Phrase): a message's data written in the reader's language says it in their
	// words ("closed: Carpet cleaning", "cerrado: Carpet cleaning").
	Why *Error
}

// MinFreeTime is the shortest free time that FreeNext offers on a busy search day.
const MinFreeTime = 15 * time.Minute

// FreeTime is the next free time of a resource on one day of a search, and the part of it that one
// booking may take.
type FreeTime struct {
	Free Interval // until the next booking or the end of the day's bookable window
	Book Interval // the same start, lasting at most the rule's maximum duration
	// From and To are Book as clock times, offsets from local midnight as in SearchQuery: 11:00 is 11 h
	// even on a day the clocks change, and the next midnight is 24 h.
	From, To time.Duration
}

// FreeNext returns the first free time of at least MinFreeTime on the day, starting no earlier than the
// searched hours nor the opening of the bookable window. The free time runs until the next booking or the
// end of the window; Book is the part of it that one booking may take under rule. ok is false if no such
// time is left that day.
func (d SearchDay) FreeNext(rule ResourceRule) (free FreeTime, ok bool) {
	t := d.Hours.Start
	if t.Before(d.Window.Start) {
		t = d.Window.Start // hours asked from before the resource opens: nothing is bookable before it does
	}
	for {
		end := d.Window.End
		moved := false
		for _, b := range d.Busy {
			switch {
			case !b.Start.After(t) && b.End.After(t):
				t, moved = b.End, true // t is inside this booking: try again from its end
			case b.Start.After(t) && b.Start.Before(end):
				end = b.Start
			}
		}
		if moved {
			continue
		}
		if !t.Before(d.Window.End) {
			return FreeTime{}, false
		}
		if end.Sub(t) >= MinFreeTime {
			free.Free = Interval{Start: t, End: end}
			break
		}
		t = end
	}
	free.Book = free.Free
	if max := rule.MaximumDuration; max > 0 && free.Book.End.Sub(free.Book.Start) > max {
		free.Book.End = free.Book.Start.Add(max) // elapsed time, not clock time: the rule limits how long a booking lasts
	}
	midnight := atOffset(d.Hours.Start, d.Hours.Start.Location(), 0)
	free.From, free.To = timeOfDay(free.Book.Start, midnight), timeOfDay(free.Book.End, midnight)
	return free, true
}

// SearchResult is a resource and its state on each day of a search. State is the worst state over the
// days, from worst to best: mine (the actor holds it on some day), busy, unavailable (its rule refuses
// the hours on some day), free (it can be booked for the hours on every day).
type SearchResult struct {
	Resource Resource // with floor, building, subcategory, rule and features
	Days     []SearchDay
	State    SpotState
}

// Found is the result of a search: the building, its time zone, the days (as local midnights, sorted,
// without repeats) and one result per resource, ordered by floor number and name.
type Found struct {
	Building Building
	Location *time.Location
	Days     []time.Time
	From, To time.Duration
	Results  []SearchResult
	// Held is set when the search is for workstations and the actor already holds one during the hours
	// of one of the days: they cannot book another then.
	Held *HeldWorkstation
}

// searchRank ranks the states from best (0) to worst, to pick the worst state of a result's days.
func searchRank(s SpotState) int {
	switch s {
	case SpotUnavailable:
		return 1
	case SpotBusy:
		return 2
	case SpotMine:
		return 3
	}
	return 0
}

// Search returns the state of each matching resource on each day of q. It runs one availability query
// per day, over the whole local day so that a free resource can say how long it stays free, and checks
// the resources' rules and the actor's own blocking bookings.
// Codes: 2000 no days, more than MaxSearchDays, hours not within one day or To not after From, or a bad
// category; 1002 ResourceID names no bookable resource; 1004, 1005, 1006 as for Availability.
func (s *Service) Search(ctx context.Context, actor User, q SearchQuery) (Found, error) {
	if len(q.Days) == 0 {
		return Found{}, FieldRefuse(CodeInvalidRequest, "date", "refusal.search.chooseDay")
	}
	if q.From < 0 || q.To > 24*time.Hour || q.To <= q.From {
		return Found{}, FieldRefuse(CodeInvalidRequest, "to", "refusal.search.toAfterFrom")
	}
	org := actor.OrganizationID
	if q.ResourceID != nil {
		res, err := bookableResource(ctx, s.q, org, *q.ResourceID)
		if err != nil {
			return Found{}, err
		}
		q.BuildingID, q.FloorID = res.Floor.Building.ID, &res.Floor.ID
	}
	b, err := s.visibleBuilding(ctx, org, q.BuildingID)
	if err != nil {
		return Found{}, err
	}
	loc, err := Location(b.Timezone)
	if err != nil {
		return Found{}, err
	}
	days := searchLocalDays(q.Days, loc)
	if len(days) > MaxSearchDays {
		return Found{}, FieldRefuse(CodeInvalidRequest, "date", "refusal.search.tooManyDays", map[string]any{"Max": MaxSearchDays})
	}
	found := Found{Building: buildingFromRow(b), Location: loc, Days: days, From: q.From, To: q.To}

	busy, closed, ids, err := s.busyByDay(ctx, actor, q, days, loc)
	if err != nil {
		return Found{}, err
	}
	resources, err := resourcesByID(ctx, s.q, org, ids)
	if err != nil {
		return Found{}, err
	}
	mine, err := s.searchOwnBusy(ctx, actor, ids, days[0], atOffset(days[len(days)-1], loc, 24*time.Hour))
	if err != nil {
		return Found{}, err
	}

	if q.Category != nil && *q.Category == CategoryWorkstation {
		hours := make([]Interval, len(days))
		for i, day := range days {
			hours[i] = Interval{Start: atOffset(day, loc, q.From), End: atOffset(day, loc, q.To)}
		}
		if found.Held, err = s.workstationHeld(ctx, actor, hours); err != nil {
			return Found{}, err
		}
	}

	now := s.now()
	for _, id := range ids {
		res, ok := resources[id]
		if !ok {
			continue // deleted between the two queries
		}
		found.Results = append(found.Results, searchResultOf(res, q, days, busy, closed, mine[id], now, loc))
	}
	return found, s.barredFromSearch(ctx, actor, found.Results)
}

// busyByDay returns, for each day, the busy intervals and the closures of each resource the search
// lists, in the building's time zone. It also returns the ids of those resources in listing order.
func (s *Service) busyByDay(ctx context.Context, actor User, q SearchQuery, days []time.Time, loc *time.Location) ([]map[uuid.UUID][]Interval, []map[uuid.UUID][]Closure, []uuid.UUID, error) {
	busy := make([]map[uuid.UUID][]Interval, len(days))
	closed := make([]map[uuid.UUID][]Closure, len(days))
	var ids []uuid.UUID
	for i, day := range days {
		as, err := s.Availability(ctx, actor, AvailabilityQuery{
			BuildingID: q.BuildingID, From: day, To: atOffset(day, loc, 24*time.Hour), FloorID: q.FloorID,
			Category: q.Category, FeatureIDs: q.FeatureIDs, MinCapacity: q.MinCapacity,
		})
		if err != nil {
			return nil, nil, nil, err
		}
		busy[i] = make(map[uuid.UUID][]Interval, len(as))
		closed[i] = make(map[uuid.UUID][]Closure)
		for _, a := range as {
			if q.ResourceID != nil && a.Resource.ID != *q.ResourceID {
				continue
			}
			for j, iv := range a.Busy {
				a.Busy[j] = Interval{Start: iv.Start.In(loc), End: iv.End.In(loc)}
			}
			busy[i][a.Resource.ID] = a.Busy
			if len(a.Closures) > 0 {
				closed[i][a.Resource.ID] = a.Closures
			}
			if i == 0 {
				ids = append(ids, a.Resource.ID)
			}
		}
	}
	return busy, closed, ids, nil
}

// searchResultOf returns the state of res on each day of the search, and the worst of them as a whole.
func searchResultOf(res Resource, q SearchQuery, days []time.Time, busy []map[uuid.UUID][]Interval, closed []map[uuid.UUID][]Closure, mine []Interval, now time.Time, loc *time.Location) SearchResult {
	r := SearchResult{Resource: res, State: SpotFree, Days: make([]SearchDay, len(days))}
	for i, day := range days {
		d := searchDayOf(res.Rule, day, q.From, q.To, busy[i][res.ID], mine, now, loc)
		if c := closedDuring(closed[i][res.ID], d.Hours); c != nil {
			d.Why = Refuse(CodeResourceClosed, "refusal.search.closed", map[string]any{"Reason": c.Reason})
			d.State, d.Closed, d.RefusalCode, d.Refusal = SpotUnavailable, c, d.Why.Code, d.Why.Message
			d.FreeUntil = time.Time{}
		}
		if searchRank(d.State) > searchRank(r.State) {
			r.State = d.State
		}
		r.Days[i] = d
	}
	return r
}

// searchDayOf returns the state of a resource during the hours [from, to) of day, given its rule, its busy
// intervals on that day and the current time. mine holds the actor's own blocking bookings of the
// resource, on any day.
func searchDayOf(rule ResourceRule, day time.Time, from, to time.Duration, busy, mine []Interval, now time.Time, loc *time.Location) SearchDay {
	d := SearchDay{
		Hours:  Interval{Start: atOffset(day, loc, from), End: atOffset(day, loc, to)},
		Window: rule.Window(day, loc), Busy: busy, State: SpotFree,
	}
	for _, b := range busy {
		own := slices.ContainsFunc(mine, func(m Interval) bool { return m.Overlaps(b) })
		if own {
			d.Mine = append(d.Mine, b)
		}
		if !b.Overlaps(d.Hours) {
			continue
		}
		if own {
			d.State = SpotMine
		} else if d.State != SpotMine {
			d.State = SpotBusy
		}
	}
	if d.State != SpotFree {
		return d
	}
	if err := rule.CheckInterval(d.Hours, now, loc); err != nil {
		d.Why = searchRefusal(err, d.Hours, now)
		d.State, d.Refusal, d.RefusalCode = SpotUnavailable, d.Why.Message, ErrorCode(err)
		return d
	}
	// The rule accepted the hours, so they lie inside the day's window: the resource stays free until the
	// window ends or the next booking starts.
	d.FreeUntil = d.Window.End
	for _, b := range busy {
		if !b.Start.Before(d.Hours.End) && b.Start.Before(d.FreeUntil) {
			d.FreeUntil = b.Start
			break
		}
	}
	return d
}

// closedDuring returns the first of the closures that overlaps hours, or nil.
func closedDuring(cs []Closure, hours Interval) *Closure {
	for i := range cs {
		if cs[i].Interval().Overlaps(hours) {
			return &cs[i]
		}
	}
	return nil
}

// searchRefusal returns why a rule refused the hours, as a refusal whose message says it in words.
func searchRefusal(err error, hours Interval, now time.Time) *Error {
	var e *Error
	switch {
	case !hours.End.After(now):
		return Refuse(ErrorCode(err), "refusal.search.over")
	case ErrorCode(err) == CodeDateInThePast:
		return Refuse(CodeDateInThePast, "refusal.search.begun")
	case errors.As(err, &e):
		return e
	}
	return &Error{Code: ErrorCode(err), Message: err.Error()}
}

// searchLocalDays returns midnight in loc of each date in days, sorted, without repeats.
func searchLocalDays(days []time.Time, loc *time.Location) []time.Time {
	out := make([]time.Time, 0, len(days))
	for _, d := range days {
		y, m, dd := d.Date()
		out = append(out, time.Date(y, m, dd, 0, 0, 0, 0, loc))
	}
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return slices.CompactFunc(out, func(a, b time.Time) bool { return a.Equal(b) })
}

// searchOwnBusy returns the actor's blocking bookings (as organizer or attendee) of the resources in ids
// that overlap [from, to), grouped by resource.
func (s *Service) searchOwnBusy(ctx context.Context, actor User, ids []uuid.UUID, from, to time.Time) (map[uuid.UUID][]Interval, error) {
	out := make(map[uuid.UUID][]Interval)
	if len(ids) == 0 {
		return out, nil
	}
	wanted := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		wanted[id] = true
	}
	const pageRows = 500
	p := queries.BookingsOfUserParams{
		OrganizationID: actor.OrganizationID, UserID: actor.ID, FromDate: &from, ToDate: &to, MaxRows: pageRows,
		Statuses: []string{string(StatusWaitingApproval), string(StatusPending), string(StatusActive)},
	}
	for {
		rows, err := s.q.BookingsOfUser(ctx, p)
		if err != nil {
			return nil, fmt.Errorf("list own bookings: %w", err)
		}
		for _, r := range rows {
			if wanted[r.ResourceID] {
				out[r.ResourceID] = append(out[r.ResourceID], Interval{Start: r.StartDate, End: r.EndDate})
			}
		}
		if len(rows) < pageRows {
			return out, nil
		}
		last := rows[len(rows)-1]
		p.AfterStart, p.AfterID = &last.StartDate, last.ID
	}
}

// SearchStart is the day and hours a search starts with when the user has not chosen them.
type SearchStart struct {
	Day      time.Time     // a local midnight
	From, To time.Duration // offsets from local midnight
}

// DefaultSearchHours are the hours a search starts with in a building that has no resources of the
// category.
var DefaultSearchHours = [2]time.Duration{8 * time.Hour, 18 * time.Hour}

// SearchDefaults returns the day and hours a search of the building's resources of the category (any
// category if nil) starts with. The hours span the widest daily window of those resources' rules, from
// the earliest start to the latest end (DefaultSearchHours if there are no resources). They are cut to
// the longest maximum duration among the rules, unless some rule has no maximum. Today's hours start
// now, rounded up to the quarter hour; once today's window is over, the search starts tomorrow.
// Codes: 1004 no such building, or a hidden one; 2000 a bad category.
func (s *Service) SearchDefaults(ctx context.Context, actor User, buildingID uuid.UUID, category *Category) (SearchStart, error) {
	c, err := optionalCategory(category)
	if err != nil {
		return SearchStart{}, err
	}
	org := actor.OrganizationID
	b, err := s.visibleBuilding(ctx, org, buildingID)
	if err != nil {
		return SearchStart{}, err
	}
	loc, err := Location(b.Timezone)
	if err != nil {
		return SearchStart{}, err
	}
	rows, err := s.q.ResourcesOfBuilding(ctx, queries.ResourcesOfBuildingParams{
		OrganizationID: org, BuildingID: buildingID, Category: c, FeatureIds: []uuid.UUID{},
	})
	if err != nil {
		return SearchStart{}, fmt.Errorf("list resources: %w", err)
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.Resource.ID
	}
	resources, err := resourcesByID(ctx, s.q, org, ids)
	if err != nil {
		return SearchStart{}, err
	}
	start, end := DefaultSearchHours[0], DefaultSearchHours[1]
	var longest time.Duration // the longest maximum duration; 0 if some rule has none
	first := true
	for _, id := range ids {
		r, ok := resources[id]
		if !ok {
			continue
		}
		rule := r.Rule
		if first {
			start, end, longest, first = rule.StartTime, rule.EndTime, rule.MaximumDuration, false
			continue
		}
		start, end = min(start, rule.StartTime), max(end, rule.EndTime)
		if longest > 0 && rule.MaximumDuration > 0 {
			longest = max(longest, rule.MaximumDuration)
		} else {
			longest = 0
		}
	}
	now := s.now().In(loc)
	today := atOffset(now, loc, 0)
	from := start
	if sinceMidnight := time.Duration(now.Hour())*time.Hour + time.Duration(now.Minute())*time.Minute +
		time.Duration(now.Second())*time.Second; sinceMidnight > from {
		from = (sinceMidnight + 15*time.Minute - 1) / (15 * time.Minute) * (15 * time.Minute)
	}
	day := today
	if from >= end {
		day, from = atOffset(today.Add(36*time.Hour), loc, 0), start // tomorrow, even if today is 23 or 25 hours long
	}
	to := end
	if longest > 0 && from+longest < to {
		to = from + longest
	}
	return SearchStart{Day: day, From: from, To: to}, nil
}

// ResourcesByIDs returns the bookable resources of the actor's organization whose ids are in ids, with
// floor, building, subcategory, rule and features, in the order of ids and without repeats. Unknown
// and unbookable ids are skipped.
func (s *Service) ResourcesByIDs(ctx context.Context, actor User, ids []uuid.UUID) ([]Resource, error) {
	ids = distinct(ids)
	if len(ids) == 0 {
		return []Resource{}, nil
	}
	rs, err := resourcesByID(ctx, s.q, actor.OrganizationID, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Resource, 0, len(ids))
	for _, id := range ids {
		if r, ok := rs[id]; ok && r.Bookable() {
			out = append(out, r)
		}
	}
	return out, nil
}

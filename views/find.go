package views

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
)

// The kinds of resources the search offers, as its URL writes them.
const (
	KindDesk = "desk" // workstations
	KindRoom = "room" // spaces: meeting rooms, phone booths
)

// KindCategory is the category of resources a kind names.
func KindCategory(kind string) booking.Category {
	if kind == KindRoom {
		return booking.CategorySpace
	}
	return booking.CategoryWorkstation
}

// DateValue is a day as date inputs and the URL write it: "2026-11-24".
func DateValue(t time.Time) string { return t.Format(time.DateOnly) }

// HoursValue is an offset from midnight as time inputs and the URL write it: "09:30". The end of the day
// (24 h) is written 00:00.
func HoursValue(d time.Duration) string {
	d %= 24 * time.Hour
	return fmt.Sprintf("%02d:%02d", int(d/time.Hour), int(d%time.Hour/time.Minute))
}

// findHoursLabel is an offset from midnight as people read it: the end of the day is 24:00.
func findHoursLabel(d time.Duration) string {
	if d == 24*time.Hour {
		return "24:00"
	}
	return HoursValue(d)
}

// FindSearch is a search as the pages hold it: what the form shows and what every link carries along.
type FindSearch struct {
	Buildings  []booking.Building
	Building   booking.Building
	Features   []booking.Feature // the features some resource of the kind has in the building, to choose from
	Days       []time.Time       // local midnights, in order
	From, To   time.Duration     // the hours of every day, from local midnight
	Kind       string            // KindDesk or KindRoom
	Capacity   string            // at least this many people; "" for any
	FeatureIDs []uuid.UUID       // the resources must have all of them
	Chosen     []uuid.UUID       // resources chosen to book together
	Now        time.Time         // the service's clock: a day of another year than now's shows its year
	Today      time.Time         // today's date in the building (a UTC midnight): earlier days are refused
	Week       time.Time         // the Monday of the week the week strip shows (a UTC midnight)
	// RangeChanged tells that the days were set by a new "From day"/"To day" range.
	RangeChanged bool
	// Auto holds the hours the search started with and the building and kind they suit, while nobody
	// has changed them. HoursChanged tells that the hours were started again for another building or kind.
	Auto         StartedHours
	HoursChanged bool
	// DaysChanged tells that the day was started again with the hours: nobody had changed it either.
	DaysChanged bool
	// HoursNote tells that the hours are still those started again for another building or kind, now or
	// by an earlier change of the search: the note beside them says so. DayNote tells that the day,
	// started again with them, is still that day too.
	HoursNote, DayNote bool
	// KindChanged tells that the kind is not the one the filters were shown for: the number of people
	// (rooms only) and the features to choose from change with it.
	KindChanged bool
	// Problem says, in words, what was wrong with the search as asked; the search was not run.
	// ProblemNotFound tells that it names something that is not there for the person (a building).
	Problem         string
	ProblemNotFound bool
}

// StartedHours are the day and hours a search started with for a building and a kind. The search form
// sends them back as auto_building, auto_kind, auto_day, auto_from and auto_to, so that a day and hours
// nobody changed can start again when the building or the kind changes: after 21:00 in Madrid the search
// starts on tomorrow, while New York's starts today. The zero value means there are none.
type StartedHours struct {
	Building string // the building's id
	Kind     string // KindDesk or KindRoom
	Day      string // YYYY-MM-DD, as DateValue writes it; "" in addresses made before it was kept
	From, To string // HH:MM, as HoursValue writes them
}

// Complete reports whether every field is set; only complete hours are compared with the search's.
func (h StartedHours) Complete() bool {
	return h.Building != "" && h.Kind != "" && h.From != "" && h.To != ""
}

// Zone names the building's time zone: "Madrid time".
func (s FindSearch) Zone() string { return ZoneLabel(s.Building.Timezone) }

// BookingForm is the booking form of the resources for the search's days and hours.
func (s FindSearch) BookingForm(rs []booking.Resource) BookingForm {
	return BookingForm{Resources: rs, Days: s.Days, From: HoursValue(s.From), To: HoursValue(s.To), Zone: s.Zone(), People: s.Capacity}
}

// values are the query parameters of the search, without the chosen resources.
func (s FindSearch) values() url.Values {
	v := url.Values{}
	v.Set("building", s.Building.ID.String())
	for _, d := range s.Days {
		v.Add("date", DateValue(d))
	}
	v.Set("from", HoursValue(s.From))
	v.Set("to", HoursValue(s.To))
	v.Set("kind", s.Kind)
	if s.Capacity != "" {
		v.Set("capacity", s.Capacity)
	}
	for _, f := range s.FeatureIDs {
		v.Add("features", f.String())
	}
	return v
}

// ListURL is the search's list of results, with the resources chosen to book.
func (s FindSearch) ListURL() string {
	v := s.values()
	for _, id := range s.Chosen {
		v.Add("resource", id.String())
	}
	return "/find?" + v.Encode()
}

// PlanURL is the floor plan of the floor for the search's days and hours.
func (s FindSearch) PlanURL(floor uuid.UUID) string {
	v := s.values()
	v.Set("floor", floor.String())
	return "/find/plan?" + v.Encode()
}

// PlanResourceURL is the floor plan with the resource's details and booking form beside it.
func (s FindSearch) PlanResourceURL(floor, resource uuid.UUID) string {
	v := s.values()
	v.Set("floor", floor.String())
	v.Set("resource", resource.String())
	return "/find/plan?" + v.Encode()
}

// ResourceURL is the resource's details and booking form for the search's days and hours.
func (s FindSearch) ResourceURL(resource uuid.UUID) string {
	return "/find/resources/" + resource.String() + "?" + s.values().Encode()
}

func (s FindSearch) hasFeature(id uuid.UUID) bool { return slices.Contains(s.FeatureIDs, id) }
func (s FindSearch) isChosen(id uuid.UUID) bool   { return slices.Contains(s.Chosen, id) }

// firstDay and moreDays split the days: the first is the day input, the others check boxes.
func (s FindSearch) firstDay() string {
	if len(s.Days) == 0 {
		return ""
	}
	return DateValue(s.Days[0])
}
func (s FindSearch) moreDays() []time.Time {
	if len(s.Days) < 2 {
		return nil
	}
	return s.Days[1:]
}

// findKindNoun names the kind: "desk", "room".
func findKindNoun(kind string, n int) string {
	noun := "desk"
	if kind == KindRoom {
		noun = "room"
	}
	if n != 1 {
		noun += "s"
	}
	return noun
}

// findDaysLabel names the days of a search: "Mon 23 Nov", "Mon 23 Nov and Tue 24 Nov", "3 days: Mon 23 Nov, …".
func findDaysLabel(days []time.Time, now time.Time) string {
	names := make([]string, len(days))
	for i, d := range days {
		names[i] = Day(d, now)
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	case 2:
		return names[0] + " and " + names[1]
	}
	return fmt.Sprintf("%d days: %s", len(names), strings.Join(names, ", "))
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

// hoursChangedNote says that the hours nobody had changed started again for another kind or building:
// "The hours changed to 09:00–13:00 to suit meeting rooms in Madrid HQ. Change them if you need others.",
// and with them the day: "The day and hours changed to Mon 23 Nov, 15:30–19:30 to suit …".
func (s FindSearch) hoursChangedNote() string {
	kind := "desks"
	if s.Kind == KindRoom {
		kind = "meeting rooms"
	}
	what, to := "The hours changed to ", ""
	if s.DayNote && len(s.Days) == 1 {
		what, to = "The day and hours changed to ", Day(s.Days[0], s.Now)+", "
	}
	return what + to + findHoursLabel(s.From) + "–" + findHoursLabel(s.To) + " to suit " + kind + " in " +
		s.Building.Name + ". Change them if you need others."
}

// hoursNoteValue is what the search form sends back while the note shows, so that the next search keeps
// it as long as it holds: "day" when it names the day too, else "hours".
func (s FindSearch) hoursNoteValue() string {
	if s.DayNote {
		return "day"
	}
	return "hours"
}

// searchLabel is the search's days and hours: "Mon 23 Nov, 09:00–18:00 Madrid time".
func (s FindSearch) searchLabel() string {
	return findDaysLabel(s.Days, s.Now) + ", " + findHoursLabel(s.From) + "–" + findHoursLabel(s.To) + " " + s.Zone()
}

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

// dayClock writes t as a time of day on the local day that starts at midnight; the next midnight is
// written 24:00.
func dayClock(t, midnight time.Time) string {
	if t.After(midnight) && t.Hour() == 0 && t.Minute() == 0 {
		return "24:00"
	}
	return Clock(t)
}

// daySpan is an interval of one day: "10:00–11:00".
func daySpan(iv booking.Interval, midnight time.Time) string {
	return dayClock(iv.Start, midnight) + "–" + dayClock(iv.End, midnight)
}

// daySpans lists intervals of one day: "10:00–11:00, 14:00–15:00".
func daySpans(ivs []booking.Interval, midnight time.Time) string {
	out := make([]string, len(ivs))
	for i, iv := range ivs {
		out[i] = daySpan(iv, midnight)
	}
	return strings.Join(out, ", ")
}

// dayMidnight returns the local midnight at which the search day d starts.
func dayMidnight(d booking.SearchDay) time.Time {
	t := d.Hours.Start
	y, m, dd := t.Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, t.Location())
}

// StateText says how a result fares, after the badge that names its state: until when a free one stays
// free ("until 20:00 Madrid time"), when a busy or own one is taken ("10:00–11:00 Madrid time"), why the
// rule refuses the hours ("then: that time is over"), or why it is closed ("— Closed: Christmas"). With several days it goes day by day where they
// differ: "until 12:00 on Mon 23 Nov and 20:00 on Tue 24 Nov Madrid time", "Tue 24 Nov: busy 10:00–11:00
// Madrid time".
func StateText(r booking.SearchResult, zone string, now time.Time) string {
	if len(r.Days) == 0 {
		return ""
	}
	if r.State == booking.SpotFree {
		first := dayClock(r.Days[0].FreeUntil, dayMidnight(r.Days[0]))
		same := true
		parts := make([]string, len(r.Days))
		for i, d := range r.Days {
			c := dayClock(d.FreeUntil, dayMidnight(d))
			same = same && c == first
			parts[i] = c + " on " + Day(d.Hours.Start, now)
		}
		if same {
			return "until " + first + " " + zone
		}
		return "until " + findJoin(parts) + " " + zone
	}
	if len(r.Days) == 1 {
		return findDayDetail(r.Days[0], zone)
	}
	var parts []string
	for _, d := range r.Days {
		if d.State != booking.SpotFree {
			parts = append(parts, Day(d.Hours.Start, now)+": "+strings.ToLower(spotStateLabel(d.State))+" "+findDayDetail(d, zone))
		}
	}
	return strings.Join(parts, "; ")
}

// findDayDetail says why a day is not free, after the state's name.
func findDayDetail(d booking.SearchDay, zone string) string {
	switch d.State {
	case booking.SpotMine:
		return daySpans(overlappingHours(d.Mine, d.Hours), dayMidnight(d)) + " " + zone
	case booking.SpotBusy:
		return daySpans(overlappingHours(d.Busy, d.Hours), dayMidnight(d)) + " " + zone
	case booking.SpotUnavailable:
		if d.Closed != nil {
			return "— Closed: " + d.Closed.Reason
		}
		return "then: " + d.Refusal
	}
	return ""
}

func findJoin(parts []string) string {
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// overlappingHours are the intervals that overlap hours.
func overlappingHours(ivs []booking.Interval, hours booking.Interval) []booking.Interval {
	var out []booking.Interval
	for _, iv := range ivs {
		if iv.Overlaps(hours) {
			out = append(out, iv)
		}
	}
	return out
}

// spotStateLabel names a state in a badge.
func spotStateLabel(s booking.SpotState) string {
	switch s {
	case booking.SpotFree:
		return "Free"
	case booking.SpotBusy:
		return "Busy"
	case booking.SpotMine:
		return "Yours"
	}
	return "Unavailable"
}

// spotMark is the symbol the floor plan draws on a resource, besides its pattern.
func spotMark(s booking.SpotState) string {
	switch s {
	case booking.SpotFree:
		return "✓"
	case booking.SpotBusy:
		return "✕"
	case booking.SpotMine:
		return "★"
	}
	return "⊘"
}

// SpotLabel is what the floor plan says of a resource: "Desk 1.07, free until 18:00 Madrid time".
func SpotLabel(r booking.SearchResult, zone string, now time.Time) string {
	return r.Resource.Name + ", " + strings.ToLower(spotStateLabel(r.State)) + " " + StateText(r, zone, now)
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

// ruleDuration writes a duration the way people say it: "4 h", "30 min", "1 h 30 min", "30 days".
func ruleDuration(d time.Duration) string {
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	h, m := d/time.Hour, d%time.Hour/time.Minute
	switch {
	case h > 0 && m > 0:
		return fmt.Sprintf("%d h %d min", h, m)
	case h > 0:
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d min", m)
}

// RuleWords says a resource rule in words: "Bookable 08:00–20:00 Madrid time, up to 4 h, up to 30 days
// ahead, needs approval".
func RuleWords(r booking.ResourceRule, zone string) string {
	parts := []string{"Bookable " + findHoursLabel(r.StartTime) + "–" + findHoursLabel(r.EndTime) + " " + zone}
	if r.StartTime == 0 && r.EndTime == 24*time.Hour {
		parts[0] = "Bookable at any time of day (" + zone + ")"
	}
	if r.MaximumDuration > 0 {
		parts = append(parts, "up to "+ruleDuration(r.MaximumDuration))
	}
	if r.MaximumAdvance > 0 {
		parts = append(parts, "up to "+ruleDuration(r.MaximumAdvance)+" ahead")
	}
	if r.AllDayBookings {
		parts = append(parts, "all-day bookings allowed")
	}
	if r.RequiresApproval {
		parts = append(parts, "needs approval")
	}
	return strings.Join(parts, ", ")
}

// CheckInWords says when check-in opens and closes: "Check in from 10 min before to 15 min after the start".
func CheckInWords(r booking.ResourceRule) string {
	opens := "at the start"
	if r.AdvanceCheckIn > 0 {
		opens = ruleDuration(r.AdvanceCheckIn) + " before the start"
	}
	closes := "until the end"
	if r.ExpirationMargin > 0 {
		closes = "to " + ruleDuration(r.ExpirationMargin) + " after the start, or the booking is released"
	}
	return "Check in from " + opens + " " + closes
}

// FloorPlan is a floor drawn with its resources, coloured by how they fare in the search.
type FloorPlan struct {
	Search        FindSearch
	Floors        []booking.Floor // of the building, for switching floors
	Floor         booking.Floor
	Width, Height int32 // the drawing's coordinate system (the floor image's viewBox)
	Spots         []booking.SearchResult
	Selected      uuid.UUID // the resource whose panel is open, if any
}

// counts are how many resources of the plan are in each state.
func (p FloorPlan) count(s booking.SpotState) int {
	n := 0
	for _, r := range p.Spots {
		if r.State == s {
			n++
		}
	}
	return n
}

// planLinks are the query strings every resource of a plan links with, encoded once for the whole plan.
type planLinks struct {
	plan     string // the floor plan's query, to which each resource adds itself
	resource string // the query of a resource's panel
}

func (p FloorPlan) links() planLinks {
	v := p.Search.values()
	panel := v.Encode()
	v.Set("floor", p.Floor.ID.String())
	return planLinks{plan: "/find/plan?" + v.Encode() + "&resource=", resource: "?" + panel}
}

// planURL is the plan with the resource's panel open; panelURL the resource's panel.
func (l planLinks) planURL(id uuid.UUID) string { return l.plan + id.String() }
func (l planLinks) panelURL(id uuid.UUID) string {
	return "/find/resources/" + id.String() + l.resource
}

// ResourcePanel is a resource's details and its booking form.
type ResourcePanel struct {
	Search FindSearch
	Result booking.SearchResult
	Form   BookingForm
	// PlanInput: the panel also updates the floor plan form's hidden "resource" input (htmx, beside a plan).
	PlanInput bool
}

// FreeNextNote is what the panel of a resource not free for the searched hours says of a day: "Free next
// on Tuesday 24 November: 11:00–20:00 Madrid time." with a link to book as much of it as the rule allows
// ("Book it 11:00–15:00"), or "Not free again on Tuesday 24 November." with none (href "").
func (p ResourcePanel) FreeNextNote(d booking.SearchDay) (text, link, href string) {
	day := d.Hours.Start.Format("Monday 2 January")
	if d.Hours.Start.Year() != p.Search.Now.In(d.Hours.Start.Location()).Year() {
		day = d.Hours.Start.Format("Monday 2 January 2006")
	}
	free, ok := d.FreeNext(p.Result.Resource.Rule)
	if !ok {
		return "Not free again on " + day + ".", "", ""
	}
	m := dayMidnight(d)
	s := p.Search
	s.Days, s.From, s.To = []time.Time{m}, free.From, free.To
	return "Free next on " + day + ": " + daySpan(free.Free, m) + " " + p.Search.Zone() + ".", "Book it " + daySpan(free.Book, m),
		s.ResourceURL(p.Result.Resource.ID)
}

// Bookable tells whether the panel offers the booking form: not while the resource is busy (or already
// the person's own) during the searched hours.
func (p ResourcePanel) Bookable() bool {
	return p.Result.State != booking.SpotBusy && p.Result.State != booking.SpotMine
}

// BookingForm is the form that books the chosen resources on the chosen days, all or none.
type BookingForm struct {
	Resources []booking.Resource // chosen, complete
	Days      []time.Time        // local midnights
	From, To  string             // "15:04" as typed
	AllDay    bool
	Subject   string
	Attendees []booking.User
	Guests    string
	Online    bool
	Zone      string // the time zone label of the chosen resources
	Error     string // why the last attempt was refused, in words
	// People is the search's number of people, "" when not given; the form sends it back so that the
	// services' quantities can start at it.
	People string
	// Services are the services the chosen rooms offer, with what the form holds for each. Until
	// ServicesRead is set they have not been read: htmx reads them when the form loads.
	Services     []ServiceLine
	ServicesRead bool
}

// ServiceLine is one service in the booking form: what is ticked and typed, and what the form says of it.
type ServiceLine struct {
	Reservable booking.Reservable
	// Only names the chosen rooms that offer the service when not all of them do: "Goya".
	Only     string
	Ticked   bool
	Quantity string // as typed, or the number of people
	Delivery string // HH:MM in the building's zone, as typed or the usual time
	Comment  string
	// Moved says that the usual delivery time falls after the end and the start is used instead.
	Moved string
	// TooLate says why the service cannot be ordered for the first chosen day; the line cannot be ticked.
	TooLate string
	// Start and End bound the delivery time: the meeting's hours, HH:MM.
	Start, End string
}

// ServicesField names a field of a service in the booking form: "quantity-<id>".
func ServicesField(name string, rv booking.Reservable) string { return name + "-" + rv.ID.String() }

// servicesTrigger is when htmx reads the services again: on load when they are not read yet, and on the
// "services" event, which app.js sends when the rooms, days, hours or people invited change.
func (f BookingForm) servicesTrigger() string {
	if !f.ServicesRead {
		return "load, services"
	}
	return "services"
}

// spaces tells whether the chosen resources are spaces (meeting rooms), which take a subject and attendees.
func (f BookingForm) spaces() bool {
	for _, r := range f.Resources {
		if r.Subcategory.Category != booking.CategorySpace {
			return false
		}
	}
	return len(f.Resources) > 0
}

// allDayAllowed tells whether every chosen resource may be booked for the whole day.
func (f BookingForm) allDayAllowed() bool {
	for _, r := range f.Resources {
		if !r.Rule.AllDayBookings {
			return false
		}
	}
	return len(f.Resources) > 0
}

// submitLabel says what the button books: "Book Goya", "Book 2 rooms for 3 days".
func (f BookingForm) submitLabel() string {
	what := "the chosen spaces"
	switch n := len(f.Resources); {
	case n == 1:
		what = f.Resources[0].Name
	case n > 1 && f.spaces():
		what = strconv.Itoa(n) + " rooms"
	case n > 1 && !slices.ContainsFunc(f.Resources, func(r booking.Resource) bool { return r.Subcategory.Category != booking.CategoryWorkstation }):
		what = strconv.Itoa(n) + " desks"
	case n > 1:
		what = strconv.Itoa(n) + " spaces"
	}
	if len(f.Days) > 1 {
		return "Book " + what + " for " + strconv.Itoa(len(f.Days)) + " days"
	}
	return "Book " + what
}

// planViewBox is the viewBox of a plan width×height.
func planViewBox(width, height int32) string { return fmt.Sprintf("0 0 %d %d", width, height) }

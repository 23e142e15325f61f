package views

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
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
	// OnlineMeetings says that the service makes online meetings, which the booking form then offers.
	OnlineMeetings bool
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

// Zone names the building's time zone in ctx's language: "Madrid time", "hora de Madrid".
func (s FindSearch) Zone(ctx context.Context) string { return lang.Zone(ctx, s.Building.Timezone) }

// BookingForm is the booking form of the resources for the search's days and hours.
func (s FindSearch) BookingForm(rs []booking.Resource) BookingForm {
	return BookingForm{Resources: rs, Days: s.Days, From: HoursValue(s.From), To: HoursValue(s.To), Timezone: s.Building.Timezone,
		People: s.Capacity, OnlineOffered: s.OnlineMeetings}
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

// findKindPlural names the kind in the plural, as the folded filters show it: "desks", "rooms".
func findKindPlural(ctx context.Context, kind string) string {
	if kind == KindRoom {
		return lang.T(ctx, "find.kindRooms")
	}
	return lang.T(ctx, "find.kindDesks")
}

// findDaysLabel names the days of a search: "Mon 23 Nov", "Mon 23 Nov and Tue 24 Nov", "3 days: Mon 23 Nov, …".
func findDaysLabel(ctx context.Context, days []time.Time, now time.Time) string {
	names := make([]string, len(days))
	for i, d := range days {
		names[i] = lang.Day(ctx, d, now)
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	case 2:
		return findJoin(ctx, names)
	}
	return lang.N(ctx, "find.daysList", len(names), map[string]any{"Days": strings.Join(names, ", ")})
}

// hoursChangedNote says that the hours nobody had changed started again for another kind or building:
// "The hours changed to 09:00–13:00 to suit meeting rooms in Madrid HQ. Change them if you need others.",
// and with them the day: "The day and hours changed to Mon 23 Nov, 15:30–19:30 to suit …".
func (s FindSearch) hoursChangedNote(ctx context.Context) string {
	hours := findHoursLabel(s.From) + "–" + findHoursLabel(s.To)
	data := map[string]any{"Hours": hours, "Building": s.Building.Name}
	if s.DayNote && len(s.Days) == 1 {
		data["Hours"] = lang.Day(ctx, s.Days[0], s.Now) + ", " + hours
		if s.Kind == KindRoom {
			return lang.T(ctx, "find.dayHoursChangedRooms", data)
		}
		return lang.T(ctx, "find.dayHoursChangedDesks", data)
	}
	if s.Kind == KindRoom {
		return lang.T(ctx, "find.hoursChangedRooms", data)
	}
	return lang.T(ctx, "find.hoursChangedDesks", data)
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
func (s FindSearch) searchLabel(ctx context.Context) string {
	return findDaysLabel(ctx, s.Days, s.Now) + ", " + findHoursLabel(s.From) + "–" + findHoursLabel(s.To) + " " + s.Zone(ctx)
}

package pages

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// findQuery is the search of "Find a space" as its address writes it, before any value is checked.
type findQuery struct {
	building  string             // building: the building's id
	kind      string             // kind: views.KindDesk or views.KindRoom
	shownKind string             // shown_kind: the kind the filters on the page were drawn for
	capacity  string             // capacity: at least this many people
	features  []string           // features: the ids of the features every result must have
	resources []string           // resource: the ids of the resources chosen to book
	days      findDays           // start, until, date and the rest (see page_find_days.go)
	from, to  string             // from and to: HH:MM in the building's time zone
	started   views.StartedHours // the hours the search started with (see readStartedHours)
	hoursNote string             // hours_note: the note on hours started again showed ("hours", "day")
}

// readFindQuery reads the search's parameters from the query.
func readFindQuery(q url.Values) findQuery {
	fq := findQuery{
		building: q.Get("building"), kind: q.Get("kind"), shownKind: q.Get("shown_kind"),
		capacity: strings.TrimSpace(q.Get("capacity")), features: q["features"], resources: q["resource"],
		days: readFindDaysQuery(q), from: strings.TrimSpace(q.Get("from")), to: strings.TrimSpace(q.Get("to")),
		started: readStartedHours(q), hoursNote: q.Get("hours_note"),
	}
	return fq
}

// readStartedHours reads auto_building, auto_kind, auto_day, auto_from and auto_to. Without them it reads auto,
// which older addresses use for the same four values, separated by spaces: "BUILDING desk 09:00 00:00".
func readStartedHours(q url.Values) views.StartedHours {
	h := views.StartedHours{
		Building: strings.TrimSpace(q.Get("auto_building")), Kind: strings.TrimSpace(q.Get("auto_kind")),
		Day: strings.TrimSpace(q.Get("auto_day")), From: strings.TrimSpace(q.Get("auto_from")), To: strings.TrimSpace(q.Get("auto_to")),
	}
	if h != (views.StartedHours{}) {
		return h
	}
	if a := strings.Fields(q.Get("auto")); len(a) == 4 {
		return views.StartedHours{Building: a[0], Kind: a[1], From: a[2], To: a[3]}
	}
	return views.StartedHours{}
}

// readFindSearch reads the search from the request's query. building, when not nil, is the building of
// the resource the page shows, and wins over the query and the session. ok is false when the organization
// has no building to search. A value the search cannot use is replaced by where the search starts, and
// Problem says in words what was wrong with it; the other filters keep their values.
func (s *Handlers) readFindSearch(c echo.Context, building *uuid.UUID) (in views.FindSearch, ok bool, err error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	in.Now, in.OnlineMeetings = s.bookings.Now(), s.bookings.OnlineMeetings()
	if in.Buildings, err = s.bookings.Buildings(ctx, actor); err != nil || len(in.Buildings) == 0 {
		return in, false, err
	}
	q := readFindQuery(c.QueryParams())
	if err := s.chooseFindBuilding(ctx, &in, q.building, building); err != nil {
		return in, false, err
	}
	readFindFilters(ctx, &in, q)
	from, to := readFindHours(ctx, &in, q)
	if err := s.startFindSearch(ctx, actor, &in, from, to); err != nil {
		return in, false, err
	}
	in.Week = chooseWeek(&in, q.days)
	if in.Auto == (views.StartedHours{}) && !in.HoursChanged {
		in.Auto = q.started // still the hours the page shows, since nobody changed them
	}
	noteHours(&in, q.hoursNote)
	if in.To <= in.From {
		addProblem(&in, lang.T(ctx, "find.problemEndBeforeStart", map[string]any{"To": views.HoursValue(in.To), "From": views.HoursValue(in.From)}))
	}
	return in, true, nil
}

// noteHours decides whether the note on hours started again shows: when they started again now, or when
// it showed (shown: "hours", or "day" when it named the day too) and the hours are still the ones started
// for this building and kind. The day is named while it is still the one started with them.
func noteHours(in *views.FindSearch, shown string) {
	a := in.Auto
	still := a.Complete() && a.Building == in.Building.ID.String() && a.Kind == in.Kind &&
		a.From == views.HoursValue(in.From) && a.To == views.HoursValue(in.To)
	sameDay := a.Day != "" && len(in.Days) == 1 && views.DateValue(in.Days[0]) == a.Day
	switch {
	case in.HoursChanged:
		in.HoursNote, in.DayNote = true, in.DaysChanged
	case shown != "" && still:
		in.HoursNote, in.DayNote = true, shown == "day" && sameDay
	}
}

// addProblem records what is wrong with the search, in words. Only the first problem is kept.
func addProblem(in *views.FindSearch, problem string) {
	if in.Problem == "" {
		in.Problem = problem
	}
}

// chooseFindBuilding sets the search's building, in this order of preference: fixed, the building named
// by the query (named), the one remembered in the session, the first. A building named by the query is
// remembered for the next search. A fixed building the person cannot book in is refused with 1004; a
// named one is a problem of the search, marked as not found when it is a well-formed id. ctx gives the
// language the problem is said in.
func (s *Handlers) chooseFindBuilding(ctx context.Context, in *views.FindSearch, named string, fixed *uuid.UUID) error {
	index := func(id uuid.UUID) int {
		return slices.IndexFunc(in.Buildings, func(b booking.Building) bool { return b.ID == id })
	}
	in.Building = in.Buildings[0]
	if id, err := uuid.Parse(s.Sessions.GetString(ctx, sessionBuilding)); err == nil {
		if i := index(id); i >= 0 {
			in.Building = in.Buildings[i]
		}
	}
	switch {
	case fixed != nil:
		i := index(*fixed)
		if i < 0 {
			return booking.Refuse(booking.CodeBuildingNotFound, "find.noSuchBuilding", map[string]any{"ID": fixed.String()})
		}
		in.Building = in.Buildings[i]
	case named != "":
		id, err := uuid.Parse(named)
		i := index(id)
		if err != nil || i < 0 {
			addProblem(in, lang.T(ctx, "find.problemBuilding"))
			in.ProblemNotFound = err == nil
			return nil
		}
		in.Building = in.Buildings[i]
		s.Sessions.Put(ctx, sessionBuilding, id.String())
	}
	return nil
}

// readFindFilters sets the search's kind, number of people, features, chosen resources and days from the
// query, noting the first value it cannot use as the search's problem, in ctx's language.
func readFindFilters(ctx context.Context, in *views.FindSearch, q findQuery) {
	switch in.Kind = q.kind; in.Kind {
	case views.KindDesk, views.KindRoom:
	case "":
		in.Kind = views.KindDesk
	default:
		in.Kind = views.KindDesk
		addProblem(in, lang.T(ctx, "find.problemKind"))
	}
	in.KindChanged = q.shownKind != "" && q.shownKind != in.Kind
	if in.Capacity = q.capacity; in.Capacity != "" {
		if n, err := strconv.Atoi(in.Capacity); err != nil || n < 1 {
			addProblem(in, lang.T(ctx, "find.problemPeople"))
		}
	}
	var err error
	if in.FeatureIDs, err = uuidList("features", q.features); err != nil {
		addProblem(in, lang.T(ctx, "find.problemFeatures"))
	}
	if in.Chosen, err = uuidList("resource", q.resources); err != nil {
		addProblem(in, lang.T(ctx, "find.problemChosen"))
	}
	readFindDays(ctx, in, q.days)
}

// readFindHours sets the search's hours from the query. It returns the from and to values it used, ""
// for one that was not given, could not be read, or is to start again. Problems are in ctx's language.
func readFindHours(ctx context.Context, in *views.FindSearch, q findQuery) (from, to string) {
	from, to = q.from, q.to
	// Hours nobody changed start again for another building or kind: a desk's day is not a room's, and
	// "now" in New York is not "now" in Madrid. So does the day, when nobody changed it either.
	if a := q.started; a.Complete() && a.From == from && a.To == to && (a.Building != in.Building.ID.String() || a.Kind != in.Kind) {
		from, to, in.HoursChanged = "", "", true
		if a.Day != "" && len(in.Days) == 1 && views.DateValue(in.Days[0]) == a.Day {
			in.Days, in.DaysChanged = nil, true
		}
	}
	var err error
	if from != "" {
		if in.From, err = parseHours("from", from, false); err != nil {
			addProblem(in, lang.T(ctx, "find.problemFrom", map[string]any{"Value": from}))
			from = ""
		}
	}
	if to != "" {
		if in.To, err = parseHours("to", to, true); err != nil {
			addProblem(in, lang.T(ctx, "find.problemTo", map[string]any{"Value": to}))
			to = ""
		}
	}
	return from, to
}

// startFindSearch fills in the days and hours the search lacks from where the domain starts a search of
// the building and kind (booking.Service.SearchDefaults). from and to are the hours that were given, ""
// for none. When both hours start there, they are recorded in in.Auto.
func (s *Handlers) startFindSearch(ctx context.Context, actor booking.User, in *views.FindSearch, from, to string) error {
	if len(in.Days) > 0 && from != "" && to != "" {
		return nil
	}
	category := views.KindCategory(in.Kind)
	start, err := s.bookings.SearchDefaults(ctx, actor, in.Building.ID, &category)
	if err != nil {
		return err
	}
	if len(in.Days) == 0 {
		in.Days = []time.Time{start.Day}
	}
	switch {
	case from == "" && to == "":
		in.From, in.To = start.From, start.To
		in.Auto = views.StartedHours{
			Building: in.Building.ID.String(), Kind: in.Kind, From: views.HoursValue(in.From), To: views.HoursValue(in.To),
		}
		if len(in.Days) == 1 && views.DateValue(in.Days[0]) == views.DateValue(start.Day) {
			in.Auto.Day = views.DateValue(start.Day)
		}
	case from == "":
		in.From = min(start.From, max(in.To-time.Hour, 0))
	case to == "":
		in.To = start.To
		if in.To <= in.From {
			in.To = min(in.From+time.Hour, 24*time.Hour)
		}
	}
	return nil
}

// findCapacity returns the search's minimum number of people, or nil for any.
func findCapacity(v string) *int32 {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return nil
	}
	c := int32(n)
	return &c
}

// sessionBuilding is the session key of the building the user last searched.
const sessionBuilding = "building"

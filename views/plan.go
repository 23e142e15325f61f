package views

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// FloorPlan is a floor drawn with its resources, coloured by how they fare in the search.
type FloorPlan struct {
	Search        FindSearch
	Floors        []booking.Floor // of the building, for switching floors
	Floor         booking.Floor
	Width, Height int32 // the drawing's coordinate system (the floor image's viewBox)
	Spots         []booking.SearchResult
	Selected      uuid.UUID               // the resource whose panel is open, if any
	Zones         []booking.Neighbourhood // drawn behind the resources, each labelled
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

// planLinks are the query strings every resource of a plan links with, encoded once for the whole plan,
// and the name of the building's time zone its labels end with.
type planLinks struct {
	plan     string // the floor plan's query, to which each resource adds itself
	resource string // the query of a resource's panel
	zone     string // the building's time zone in the page's language: "Madrid time"
}

func (p FloorPlan) links(ctx context.Context) planLinks {
	v := p.Search.values()
	panel := v.Encode()
	v.Set("floor", p.Floor.ID.String())
	return planLinks{plan: "/find/plan?" + v.Encode() + "&resource=", resource: "?" + panel, zone: p.Search.Zone(ctx)}
}

// planURL is the plan with the resource's panel open; panelURL the resource's panel.
func (l planLinks) planURL(id uuid.UUID) string { return l.plan + id.String() }
func (l planLinks) panelURL(id uuid.UUID) string {
	return "/find/resources/" + id.String() + l.resource
}

// planViewBox is the viewBox of a plan width×height.
func planViewBox(width, height int32) string { return fmt.Sprintf("0 0 %d %d", width, height) }

// ResourcePanel is a resource's details and its booking form.
type ResourcePanel struct {
	Search FindSearch
	Result booking.SearchResult
	Form   BookingForm
	// PlanInput: the panel also updates the floor plan form's hidden "resource" input (htmx, beside a plan).
	PlanInput bool
	// Starred: the person starred the resource.
	Starred bool
}

// FreeNextNote is what the panel of a resource not free for the searched hours says of a day: "Free next
// on Tuesday 24 November: 11:00–20:00 Madrid time." with a link to book as much of it as the rule allows
// ("Book it 11:00–15:00"), or "Not free again on Tuesday 24 November." with none (href "").
func (p ResourcePanel) FreeNextNote(ctx context.Context, d booking.SearchDay) (text, link, href string) {
	day := dayLongYearIfOther(ctx, d.Hours.Start, p.Search.Now)
	free, ok := d.FreeNext(p.Result.Resource.Rule)
	if !ok {
		return lang.T(ctx, "find.notFreeAgain", map[string]any{"Day": day}), "", ""
	}
	m := dayMidnight(d)
	s := p.Search
	s.Days, s.From, s.To = []time.Time{m}, free.From, free.To
	return lang.T(ctx, "find.freeNext", map[string]any{"Day": day, "Hours": daySpan(free.Free, m), "Zone": p.Search.Zone(ctx)}),
		lang.T(ctx, "find.bookIt", map[string]any{"Hours": daySpan(free.Book, m)}),
		s.ResourceURL(p.Result.Resource.ID)
}

// dayLongYearIfOther writes a date in full, with its year only when that is not now's year there:
// "Tuesday 24 November" ("martes, 24 de noviembre"), "Tuesday 5 January 2027". It is lang.DayLong less
// the year, which every language's long date ends with (find.longDateYear says how).
func dayLongYearIfOther(ctx context.Context, t, now time.Time) string {
	long := lang.DayLong(ctx, t)
	if t.Year() != now.In(t.Location()).Year() {
		return long
	}
	return strings.TrimSuffix(long, lang.T(ctx, "find.longDateYear", map[string]any{"Year": strconv.Itoa(t.Year())}))
}

// Bookable tells whether the panel offers the booking form: not while the resource is busy (or already
// the person's own) during the searched hours.
func (p ResourcePanel) Bookable() bool {
	return p.Result.State != booking.SpotBusy && p.Result.State != booking.SpotMine
}

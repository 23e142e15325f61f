package views

import (
	"context"
	"net/url"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// WeekPage is the start page: the person's next two weeks in one building.
type WeekPage struct {
	Chrome    Chrome
	Buildings []booking.Building
	Week      booking.Week
	Now       time.Time
	Notice    string // what the last one tap did, in words
	Refused   bool   // Notice is a refusal
}

// MaxWeekNames bounds the colleagues named on one day of the week; the others are counted.
const MaxWeekNames = 5

// whosInPath is the address of "Who's in" for a day of the week page's building.
func (p WeekPage) whosInPath(d booking.WeekDay) string {
	return "/whos-in?" + url.Values{"building": {p.Week.Building.ID.String()}, "date": {DateValue(d.Date)}}.Encode()
}

// findPath is the address of the search for desks on a day of the week page's building.
func (p WeekPage) findPath(d booking.WeekDay) string {
	return "/find?" + url.Values{"building": {p.Week.Building.ID.String()}, "kind": {KindDesk}, "date": {DateValue(d.Date)}}.Encode()
}

// hoursOn writes an interval's hours on the local day that starts at midnight: "09:00–17:00", and
// "00:00–24:00" for the whole day.
func hoursOn(iv booking.Interval, midnight time.Time) string {
	loc := midnight.Location()
	return daySpan(booking.Interval{Start: iv.Start.In(loc), End: iv.End.In(loc)}, midnight)
}

// hasDesk tells whether the person has a desk booked on the day.
func hasDesk(d booking.WeekDay) bool {
	for _, p := range d.Mine {
		if p.ResourceType == string(booking.CategoryWorkstation) {
			return true
		}
	}
	return false
}

// WhosInPage is "Who's in": the colleagues the person may see in one building on one day, by floor.
type WhosInPage struct {
	Chrome    Chrome
	Buildings []booking.Building
	Building  booking.Building
	Day       time.Time // the local midnight
	Now       time.Time
	Floors    []WhosInFloor
	Starred   map[string]bool // the colleagues the person starred, by id
	Notice    string
}

// WhosInFloor is one floor's people on the "Who's in" page, with its plan when it has one.
type WhosInFloor struct {
	Floor         booking.Floor
	Width, Height int32 // the plan's coordinate system (booking.Service.PlanDrawingSize)
	People        []booking.Presence
}

// path is the address of the page as it is, to come back to after starring someone.
func (p WhosInPage) path() string {
	return "/whos-in?" + url.Values{"building": {p.Building.ID.String()}, "date": {DateValue(p.Day)}}.Encode()
}

// VisibilityWords names a choice of who may see a person's bookings: "Nobody".
func VisibilityWords(ctx context.Context, v string) string { return visibilityWords(ctx, v) }

// visibilityWords names a choice of who may see a person's bookings.
func visibilityWords(ctx context.Context, v string) string {
	switch v {
	case "NOBODY":
		return lang.T(ctx, "visibility.nobody")
	case "ORGANIZATION":
		return lang.T(ctx, "visibility.organization")
	}
	return lang.T(ctx, "visibility.team")
}

package views

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
)

// AdminBuilding is a building as its admin form shows it.
type AdminBuilding struct {
	ID       string // "" for a new one
	Name     string
	Country  string
	City     string
	Address  string
	Timezone string
	Active   bool // status ACTIVATED
	Visible  bool
	ETag     string
	Floors   int // how many floors it has, on the list
}

// AdminFloor is a floor as its admin form shows it.
type AdminFloor struct {
	ID           string // "" for a new one
	BuildingID   string
	BuildingName string
	Name         string
	Number       int32
	Image        string // the plan's URL, "" when it has none
	Active       bool
	Visible      bool
	ETag         string
	Resources    int // how many resources it has, on the list
}

// AdminResource is a desk or room as its admin form and the plan editor show it.
type AdminResource struct {
	ID            string // "" for a new one
	FloorID       string
	FloorName     string
	SubcategoryID string
	Kind          string // the subcategory's name, on the list
	RuleID        string
	FeatureIDs    []string
	ReservableIDs []string
	Name          string
	PosterCode    string
	Capacity      string // rooms only; "" when not set
	Image         string
	Phone         string
	X1, Y1        int32 // the rectangle on the floor plan
	X2, Y2        int32
	Approachable  bool
	Visible       bool
	Active        bool
	ETag          string
}

// place is the resource's rectangle on the floor plan.
func (r AdminResource) place() booking.MapCoordinates {
	return booking.MapCoordinates{TopLeftX: r.X1, TopLeftY: r.Y1, BottomRightX: r.X2, BottomRightY: r.Y2}
}

// AdminOption is one choice of a select or a group of check boxes.
type AdminOption struct {
	Value, Label string
}

// AdminProblem is a refusal shown next to a form, in words: every form of the console shows its refusal
// in this one shape. Field is the form field it is about, when it is about one. Stale is set when
// someone else saved the object since the form was opened: the form then shows the current version.
type AdminProblem struct {
	Title, Message string
	Field          string
	Stale          bool
}

// AdminBuildingsPage is the list of buildings.
type AdminBuildingsPage struct {
	Buildings []AdminBuilding
	Flash     string
}

// AdminBuildingPage is the form of one building, with its floors.
type AdminBuildingPage struct {
	Building AdminBuilding
	Floors   []AdminFloor
	Problem  *AdminProblem
	Flash    string
	Now      time.Time
}

// AdminFloorsPage is the list of floors, by building.
type AdminFloorsPage struct {
	Buildings []AdminBuilding
	Floors    []AdminFloor
	Flash     string
}

// AdminFloorPage is the form of one floor, its plan upload and its resources.
type AdminFloorPage struct {
	Floor     AdminFloor
	Buildings []AdminOption
	Resources []AdminResource
	Problem   *AdminProblem
	Upload    *AdminProblem // a refused plan upload
	Flash     string
}

// AdminPlanPage is the plan editor of a floor.
type AdminPlanPage struct {
	Floor         AdminFloor
	Width, Height int32
	Grows         bool // the plan's size is not known: it is as large as what is on it
	Resources     []AdminResource
	Subcategories []AdminOption
	Rules         []AdminOption
	Grid          AdminGrid
	Problem       *AdminProblem
	Flash         string
	Zones         []AdminZone   // the floor's neighbourhoods, by name
	Teams         []AdminOption // the teams a neighbourhood may be given to
	NewZone       AdminZone     // the form that adds a neighbourhood
	MaxZones      int
}

// AdminGrid is the "add a row or grid of desks" form.
type AdminGrid struct {
	Rows, Columns string
	Prefix, Start string
	SubcategoryID string
	RuleID        string
}

// AdminResourcesPage is the list of resources, and the form that changes the ones ticked in it.
type AdminResourcesPage struct {
	Resources     []AdminResource
	Floors        []AdminOption
	FloorID       string // the floor the list is limited to, "" for all
	Flash         string
	Rules         []AdminOption
	Subcategories []AdminOption
	Features      []AdminOption
	Bulk          AdminBulk
	BulkProblem   *AdminProblem
}

// AdminBulk is the "change selected" form as sent: the ids ticked, the rule and kind chosen ("" to keep
// each one's) and the features to add and to take away.
type AdminBulk struct {
	IDs           []string
	RuleID        string
	SubcategoryID string
	Add, Remove   []string
}

// AdminResourcePage is the form of one resource.
type AdminResourcePage struct {
	Resource      AdminResource
	Floors        []AdminOption
	Subcategories []AdminOption
	Rules         []AdminOption
	Features      []AdminOption
	Reservables   []AdminOption
	Problem       *AdminProblem
	Flash         string
}

// zoneCache holds the loaded time zones, to say the local time of each without reading the database of
// zones again.
var adminZones sync.Map // name → *time.Location

func adminZone(name string) *time.Location {
	if v, ok := adminZones.Load(name); ok {
		return v.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	adminZones.Store(name, loc)
	return loc
}

// ZoneChoices are the time zones a building may choose, with the one it has first kept in the list when
// the list lacks it.
func ZoneChoices(current string) []string {
	for _, z := range timeZones {
		if z == current {
			return timeZones
		}
	}
	if current == "" {
		return timeZones
	}
	return append([]string{current}, timeZones...)
}

// ZoneOptionLabel names a time zone in the list in words of ctx's language, with its region (as the
// IANA name writes it) and its offset from UTC now: "Madrid time (Europe, UTC+01:00)", "Buenos Aires
// time (America, Argentina, UTC-03:00)"; "hora de Madrid (Europe, UTC+01:00)".
func ZoneOptionLabel(ctx context.Context, name string, now time.Time) string {
	label := lang.Zone(ctx, name)
	loc := adminZone(name)
	if loc == nil || name == "UTC" {
		return label
	}
	_, off := now.In(loc).Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	parts := strings.Split(name, "/")
	region := strings.ReplaceAll(strings.Join(parts[:len(parts)-1], ", "), "_", " ")
	if region != "" {
		region += ", "
	}
	return fmt.Sprintf("%s (%sUTC%s%02d:%02d)", label, region, sign, off/3600, off%3600/60)
}

// LocalTime is the weekday and time of day now in the zone, "Mon 14:05" ("lun 14:05"), or "" for an
// unknown zone.
func LocalTime(ctx context.Context, name string, now time.Time) string {
	loc := adminZone(name)
	if loc == nil {
		return ""
	}
	t := now.In(loc)
	return lang.Weekday(ctx, t.Weekday()) + " " + lang.Clock(t)
}

// StatusWordsIn says a status in words of ctx's language: "Active", "Deactivated".
func StatusWordsIn(ctx context.Context, active bool) string {
	if active {
		return lang.T(ctx, "admin.common.active")
	}
	return lang.T(ctx, "admin.common.deactivated")
}

func adminStatusClass(active bool) string {
	if active {
		return "badge ACTIVATED"
	}
	return "badge DEACTIVATED"
}

func adminInt(n int32) string { return strconv.Itoa(int(n)) }

func adminContains(list []string, v string) bool {
	for _, s := range list {
		if s == v {
			return true
		}
	}
	return false
}

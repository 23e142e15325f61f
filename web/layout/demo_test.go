package layout

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// demoTestNow is a fixed Monday morning: 08:30 in Madrid, 03:30 in New York.
var demoTestNow = time.Date(2025, 3, 3, 7, 30, 0, 0, time.UTC)

func TestDemoLayoutContents(t *testing.T) {
	l := DemoLayout(demoTestNow)
	if len(l.Organizations) != 1 {
		t.Fatalf("organizations = %d, want 1", len(l.Organizations))
	}
	zones := map[string]bool{}
	for _, b := range l.Buildings {
		zones[b.Timezone] = true
	}
	if len(l.Buildings) < 2 || len(zones) < 2 {
		t.Errorf("buildings = %d in %d time zones, want ≥ 2 in ≥ 2", len(l.Buildings), len(zones))
	}
	subcategory := map[string]LayoutSubcategory{}
	for _, s := range l.Subcategories {
		subcategory[s.ID] = s
	}
	var desks, rooms int
	for _, r := range l.Resources {
		switch s := subcategory[r.SubcategoryID]; {
		case s.Category == "WORKSTATION":
			desks++
			if r.Capacity != nil || r.Phone != "" {
				t.Errorf("desk %s has a capacity or a phone", r.PosterCode)
			}
		case s.Name == "Meeting room":
			rooms++
			if r.Capacity == nil || *r.Capacity < 4 || *r.Capacity > 16 {
				t.Errorf("room %s: capacity %v, want 4–16", r.PosterCode, r.Capacity)
			}
			if len(r.ReservableIDs) != len(l.Reservables) {
				t.Errorf("room %s has %d reservables, want all %d", r.PosterCode, len(r.ReservableIDs), len(l.Reservables))
			}
		}
		if s := subcategory[r.SubcategoryID]; s.Name != "Meeting room" && len(r.ReservableIDs) > 0 {
			t.Errorf("%s (%s) has reservables", r.PosterCode, s.Name)
		}
	}
	if desks < 90 || rooms < 8 {
		t.Errorf("desks = %d, rooms = %d, want ≥ 90 and ≥ 8", desks, rooms)
	}
	roles := map[string]int{}
	for _, u := range l.Users {
		roles[u.Role]++
	}
	if roles["RECEPTIONIST"] < 1 || roles["ADMIN"] < 1 || roles["EMPLOYEE"] < 1 {
		t.Errorf("roles = %v, want at least one EMPLOYEE, RECEPTIONIST and ADMIN", roles)
	}
	if len(l.Users) == 0 || l.Users[0].Role != "EMPLOYEE" {
		t.Errorf("the first user is not an EMPLOYEE")
	}
	if len(l.Bookings) == 0 {
		t.Errorf("no bookings")
	}
}

func TestDemoLayoutReferences(t *testing.T) {
	l := DemoLayout(demoTestNow)
	ids := map[string]string{} // id → the kind of object it names
	add := func(kind, id string) {
		if id == "" {
			t.Errorf("%s without id", kind)
		} else if other, dup := ids[id]; dup {
			t.Errorf("id %s used by a %s and a %s", id, other, kind)
		}
		ids[id] = kind
	}
	for _, o := range l.Organizations {
		add("organization", o.ID)
	}
	for _, o := range l.UserRules {
		add("userRule", o.ID)
	}
	for _, o := range l.MobileRoles {
		add("mobileRole", o.ID)
	}
	for _, o := range l.Users {
		add("user", o.ID)
	}
	for _, o := range l.Buildings {
		add("building", o.ID)
	}
	for _, o := range l.Floors {
		add("floor", o.ID)
	}
	for _, o := range l.Subcategories {
		add("subcategory", o.ID)
	}
	for _, o := range l.ResourceRules {
		add("resourceRule", o.ID)
	}
	for _, o := range l.Features {
		add("feature", o.ID)
	}
	for _, o := range l.Reservables {
		add("reservable", o.ID)
	}
	for _, o := range l.Resources {
		add("resource", o.ID)
	}
	for _, o := range l.Bookings {
		add("booking", o.ID)
	}

	ref := func(where, kind, id string) {
		if ids[id] != kind {
			t.Errorf("%s: %s %q not in the layout", where, kind, id)
		}
	}
	for _, o := range l.UserRules {
		ref("userRule "+o.Name, "organization", o.OrganizationID)
	}
	for _, o := range l.MobileRoles {
		ref("mobileRole "+o.Name, "organization", o.OrganizationID)
	}
	emails := map[string]bool{}
	for _, o := range l.Users {
		ref("user "+o.Email, "organization", o.OrganizationID)
		if o.UserRule == nil || o.MobileRole == nil {
			t.Errorf("user %s: no userRule or mobileRole", o.Email)
			continue
		}
		ref("user "+o.Email, "userRule", o.UserRule.ID)
		ref("user "+o.Email, "mobileRole", o.MobileRole.ID)
		if emails[o.Email] {
			t.Errorf("email %s used twice", o.Email)
		}
		emails[o.Email] = true
	}
	for _, o := range l.Buildings {
		ref("building "+o.Name, "organization", o.OrganizationID)
	}
	for _, o := range l.Floors {
		ref("floor "+o.Name, "organization", o.OrganizationID)
		ref("floor "+o.Name, "building", o.BuildingID)
	}
	for _, o := range l.Subcategories {
		ref("subcategory "+o.Name, "organization", o.OrganizationID)
	}
	for _, o := range l.ResourceRules {
		ref("resourceRule "+o.Name, "organization", o.OrganizationID)
	}
	for _, o := range l.Features {
		ref("feature "+o.Name, "organization", o.OrganizationID)
	}
	for _, o := range l.Reservables {
		ref("reservable "+o.Name, "organization", o.OrganizationID)
	}
	posters := map[string]bool{}
	for _, o := range l.Resources {
		where := "resource " + o.PosterCode
		ref(where, "organization", o.OrganizationID)
		ref(where, "floor", o.FloorID)
		ref(where, "subcategory", o.SubcategoryID)
		ref(where, "resourceRule", o.ResourceRuleID)
		for _, id := range o.FeatureIDs {
			ref(where, "feature", id)
		}
		for _, id := range o.ReservableIDs {
			ref(where, "reservable", id)
		}
		if o.PosterCode == "" || posters[o.PosterCode] {
			t.Errorf("poster code %q empty or used twice", o.PosterCode)
		}
		posters[o.PosterCode] = true
	}
	for _, o := range l.Bookings {
		where := "booking " + o.Subject
		ref(where, "organization", o.OrganizationID)
		ref(where, "resource", o.ResourceID)
		ref(where, "user", o.CreatorID)
		ref(where, "user", o.OrganizerID)
	}
}

var demoViewBox = regexp.MustCompile(`viewBox="([^"]*)"`)

// demoReadViewBox reads a floor plan under ../../static and returns its viewBox.
func demoReadViewBox(t *testing.T, image string) (box [4]float64, ok bool) {
	t.Helper()
	rel, found := strings.CutPrefix(image, "/static/")
	if !found {
		t.Errorf("floor image %q is not under /static/", image)
		return box, false
	}
	svg, err := os.ReadFile(filepath.Join("..", "..", "static", filepath.FromSlash(rel)))
	if err != nil {
		t.Errorf("floor image: %v", err)
		return box, false
	}
	m := demoViewBox.FindSubmatch(svg)
	if m == nil {
		t.Errorf("%s: no viewBox", image)
		return box, false
	}
	fields := strings.Fields(strings.ReplaceAll(string(m[1]), ",", " "))
	if len(fields) != 4 {
		t.Errorf("%s: viewBox %q", image, m[1])
		return box, false
	}
	for i, f := range fields {
		if box[i], err = strconv.ParseFloat(f, 64); err != nil {
			t.Errorf("%s: viewBox %q: %v", image, m[1], err)
			return box, false
		}
	}
	return box, true
}

func TestDemoLayoutFloorPlans(t *testing.T) {
	l := DemoLayout(demoTestNow)
	byFloor := map[string][]LayoutResource{}
	for _, r := range l.Resources {
		byFloor[r.FloorID] = append(byFloor[r.FloorID], r)
	}
	for _, f := range l.Floors {
		box, ok := demoReadViewBox(t, f.Image)
		if !ok {
			continue
		}
		minX, minY, maxX, maxY := box[0], box[1], box[0]+box[2], box[1]+box[3]
		rs := byFloor[f.ID]
		if len(rs) == 0 {
			t.Errorf("floor %s has no resources", f.Image)
		}
		for i, r := range rs {
			c := r.MapCoordinates
			if c.TopLeftX >= c.BottomRightX || c.TopLeftY >= c.BottomRightY {
				t.Errorf("%s: empty rectangle %+v", r.PosterCode, c)
			}
			if float64(c.TopLeftX) < minX || float64(c.TopLeftY) < minY ||
				float64(c.BottomRightX) > maxX || float64(c.BottomRightY) > maxY {
				t.Errorf("%s: %+v outside the viewBox of %s", r.PosterCode, c, f.Image)
			}
			for _, o := range rs[:i] {
				d := o.MapCoordinates
				if c.TopLeftX < d.BottomRightX && d.TopLeftX < c.BottomRightX &&
					c.TopLeftY < d.BottomRightY && d.TopLeftY < c.BottomRightY {
					t.Errorf("%s and %s overlap on %s", r.PosterCode, o.PosterCode, f.Image)
				}
			}
		}
	}
}

func TestDemoLayoutBookings(t *testing.T) {
	for _, now := range []time.Time{
		demoTestNow,
		time.Date(2025, 3, 30, 10, 0, 0, 0, time.UTC), // Madrid springs forward
		time.Date(2025, 11, 2, 14, 0, 0, 0, time.UTC), // New York falls back
		time.Date(2025, 12, 31, 23, 30, 0, 0, time.UTC),
	} {
		l := DemoLayout(now)
		rule := map[string]LayoutResourceRule{}
		for _, r := range l.ResourceRules {
			rule[r.ID] = r
		}
		building := map[string]LayoutBuilding{}
		for _, b := range l.Buildings {
			building[b.ID] = b
		}
		floor := map[string]LayoutFloor{}
		for _, f := range l.Floors {
			floor[f.ID] = f
		}
		resource := map[string]LayoutResource{}
		for _, r := range l.Resources {
			resource[r.ID] = r
		}
		perResource := map[string][]LayoutBooking{}
		for _, b := range l.Bookings {
			res := resource[b.ResourceID]
			rl := rule[res.ResourceRuleID]
			bl := building[floor[res.FloorID].BuildingID]
			loc, err := time.LoadLocation(bl.Timezone)
			if err != nil {
				t.Fatalf("time zone of %s: %v", bl.Name, err)
			}
			start, end := time.UnixMilli(b.StartDate).In(loc), time.UnixMilli(b.EndDate).In(loc)
			where := now.Format(time.RFC3339) + " " + res.PosterCode + " " + start.Format(time.RFC3339)
			if !end.After(start) {
				t.Errorf("%s: ends at %s", where, end)
				continue
			}
			if rl.MaximumDuration > 0 && b.EndDate-b.StartDate > rl.MaximumDuration {
				t.Errorf("%s: longer than the rule's maximum", where)
			}
			// The start day's window, both as clock time and as time elapsed since midnight.
			y, m, d := start.Date()
			midnight := time.Date(y, m, d, 0, 0, 0, 0, loc)
			wall := func(t time.Time) int64 {
				days := int64(0)
				if ty, tm, td := t.Date(); ty != y || tm != m || td != d {
					days = 1
				}
				return days*24*3600000 + int64(t.Hour()*3600000+t.Minute()*60000+t.Second()*1000)
			}
			for _, off := range [][2]int64{
				{wall(start), wall(end)},
				{b.StartDate - midnight.UnixMilli(), b.EndDate - midnight.UnixMilli()},
			} {
				if off[0] < rl.StartTime || off[1] > rl.EndTime {
					t.Errorf("%s: %d–%d ms outside the window %d–%d of %s", where, off[0], off[1], rl.StartTime, rl.EndTime, rl.Name)
				}
			}
			want := "PENDING"
			if !end.After(now) {
				want = "FINISHED"
			} else if !start.After(now) {
				want = "ACTIVE"
			} else if rl.RequiresApproval {
				want = "WAITING_APPROVAL"
			}
			if b.Status != want {
				t.Errorf("%s: status %s, want %s", where, b.Status, want)
			}
			if b.CreatorID != b.OrganizerID || b.Subject == "" || b.Body.BodyType != "TEXT" {
				t.Errorf("%s: creator, organizer, subject or body", where)
			}
			for _, o := range perResource[b.ResourceID] {
				if b.StartDate < o.EndDate && o.StartDate < b.EndDate {
					t.Errorf("%s: overlaps another booking of the resource", where)
				}
			}
			perResource[b.ResourceID] = append(perResource[b.ResourceID], b)
		}
	}
}

func TestDemoLayoutDeterministic(t *testing.T) {
	a, err := json.Marshal(DemoLayout(demoTestNow))
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(DemoLayout(demoTestNow.In(time.FixedZone("elsewhere", 5*3600))))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Errorf("two calls with the same time give different layouts")
	}
	tomorrow, err := json.Marshal(DemoLayout(demoTestNow.Add(24 * time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	var x, y Layout
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(tomorrow, &y); err != nil {
		t.Fatal(err)
	}
	if x.Resources[0].ID != y.Resources[0].ID || x.Bookings[0].ID == y.Bookings[0].ID {
		t.Errorf("another day should keep the resources' ids and give the bookings new ones")
	}
}

func TestDemoLayoutTimeZones(t *testing.T) {
	for _, b := range DemoLayout(demoTestNow).Buildings {
		if _, err := time.LoadLocation(b.Timezone); err != nil {
			t.Errorf("%s: time zone %q: %v", b.Name, b.Timezone, err)
		}
	}
}

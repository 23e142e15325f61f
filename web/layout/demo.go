package layout

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// Time spans of the demo's rules and services, in milliseconds.
const (
	demoMinute = int64(60 * 1000)
	demoHour   = 60 * demoMinute
	demoDay    = 24 * demoHour
)

// Floor-plan geometry shared by every demo floor, in pixels of the SVGs in /static/floors, whose viewBox
// is 0 0 1200 800 (TestDemoLayoutFloorPlans checks this). Meeting rooms and phone booths line the top
// band from the left. Desks sit in clusters of 2 rows × 4 desks in the bottom band, filled column by
// column.
const (
	demoRoomLeft   = 60  // x of the first room
	demoRoomTop    = 60  // y of every room
	demoRoomBottom = 330 // bottom y of every room
	demoRoomGap    = 16  // wall between two rooms
	demoBoothW     = 100 // a phone booth's width
	demoBoothH     = 120 // a phone booth's height; booths stack vertically
	demoBoothStepY = 150

	demoDeskW          = 56
	demoDeskH          = 36
	demoDeskPitchX     = 60 // a desk and its gap, across
	demoDeskPitchY     = 40 // a desk and its gap, down
	demoClusterSize    = 8  // desks of a cluster: 2 rows × 4 columns
	demoClusterLeft    = 70
	demoClusterStepX   = 280
	demoClusterTop     = 475
	demoClusterStepY   = 146
	demoClustersPerCol = 2
)

// demoBuilding describes one building of the demo and its floors.
type demoBuilding struct {
	code     string // prefix of poster codes: MAD-1-D07
	slug     string // prefix of floor-plan files: madrid-1.svg
	name     string
	timezone string
	country  string
	city     string
	address  string
	lat, lon float64
	phone    string // room extensions: fmt pattern taking one number
	floors   []demoFloor
}

// demoFloor is one demo floor: its rooms from left to right, then its phone booths, then its desks.
// anyHour marks a floor whose desks are bookable round the clock, so that the demo can be tried at any
// hour; the other desks keep office hours.
type demoFloor struct {
	number  int32
	name    string
	rooms   []demoRoom
	booths  int
	desks   int
	anyHour bool
}

// demoRoom is a meeting room. Its features are names from demoFeatures.
type demoRoom struct {
	name      string
	capacity  int32
	boardroom bool
	features  []string
}

var demoBuildings = []demoBuilding{
	{
		code: "MAD", slug: "madrid", name: "Madrid HQ", timezone: "Europe/Madrid", country: "ES", city: "Madrid",
		address: "Paseo de la Castellana 95, 28046 Madrid", lat: 40.4478, lon: -3.6925, phone: "+34 910 000 %03d",
		floors: []demoFloor{
			{number: 0, name: "Ground floor", desks: 16, rooms: []demoRoom{
				{name: "Retiro", capacity: 6, features: []string{"Screen", "Whiteboard", "Wheelchair accessible"}},
				{name: "Prado", capacity: 10, features: []string{"Screen", "Video conferencing", "Wheelchair accessible"}},
			}},
			{number: 1, name: "1st floor", desks: 32, booths: 1, rooms: []demoRoom{
				{name: "Cibeles", capacity: 4, features: []string{"Screen"}},
				{name: "Alcalá", capacity: 8, features: []string{"Screen", "Whiteboard", "Video conferencing"}},
			}},
			{number: 2, name: "2nd floor", desks: 16, rooms: []demoRoom{
				{name: "Sol", capacity: 6, features: []string{"Screen", "Whiteboard"}},
				{name: "Castellana Boardroom", capacity: 16, boardroom: true,
					features: []string{"Screen", "Video conferencing", "Wheelchair accessible"}},
			}},
		},
	},
	{
		code: "NYC", slug: "new-york", name: "New York Office", timezone: "America/New_York", country: "US",
		city: "New York", address: "200 Park Avenue South, New York, NY 10003", lat: 40.7368, lon: -73.9897,
		phone: "+1 212 555 0%03d",
		floors: []demoFloor{
			{number: 1, name: "1st floor", desks: 16, booths: 1, rooms: []demoRoom{
				{name: "Hudson", capacity: 8, features: []string{"Screen", "Video conferencing", "Wheelchair accessible"}},
				{name: "Brooklyn", capacity: 4, features: []string{"Screen", "Whiteboard", "Wheelchair accessible"}},
			}},
			{number: 2, name: "2nd floor", desks: 32, rooms: []demoRoom{
				{name: "Central Park", capacity: 12, features: []string{"Screen", "Whiteboard", "Video conferencing"}},
				{name: "Liberty", capacity: 6, features: []string{"Screen", "Whiteboard"}},
			}},
		},
	},
	{
		// A small coworking space of its own, open day and night: in a building of the offices, its hours
		// would start every search of their desks at midnight.
		code: "HUB", slug: "madrid-hub", name: "Madrid Hub", timezone: "Europe/Madrid", country: "ES", city: "Madrid",
		address: "Calle de Alcalá 21, 28014 Madrid", lat: 40.4189, lon: -3.6987, phone: "+34 910 001 %03d",
		floors: []demoFloor{
			{number: 0, name: "Open space", desks: 8, anyHour: true},
		},
	},
}

// demoFeatures are the demo's features, each with the e-mail of the team to contact about it.
var demoFeatures = []struct{ name, email string }{
	{"Monitor", "it-support@acme.example"},
	{"Docking station", "it-support@acme.example"},
	{"Standing desk", "facilities@acme.example"},
	{"Window seat", "facilities@acme.example"},
	{"Screen", "av-support@acme.example"},
	{"Whiteboard", "facilities@acme.example"},
	{"Video conferencing", "av-support@acme.example"},
	{"Wheelchair accessible", "facilities@acme.example"},
}

// demoPeople are the demo's users, employees first. home is the code of the building they work in.
var demoPeople = []struct{ name, surname, email, language, role, home string }{
	{"Lucía", "Fernández", "lucia.fernandez@acme.example", "es", "EMPLOYEE", "MAD"},
	{"Javier", "Moreno", "javier.moreno@acme.example", "es", "EMPLOYEE", "MAD"},
	{"Carmen", "Ruiz", "carmen.ruiz@acme.example", "es", "EMPLOYEE", "MAD"},
	{"Pablo", "Navarro", "pablo.navarro@acme.example", "es", "EMPLOYEE", "MAD"},
	{"Elena", "Castillo", "elena.castillo@acme.example", "es", "EMPLOYEE", "MAD"},
	{"Hannah", "Schmidt", "hannah.schmidt@acme.example", "en", "EMPLOYEE", "MAD"},
	{"Maya", "Johnson", "maya.johnson@acme.example", "en", "EMPLOYEE", "NYC"},
	{"Daniel", "Kim", "daniel.kim@acme.example", "en", "EMPLOYEE", "NYC"},
	{"Priya", "Patel", "priya.patel@acme.example", "en", "EMPLOYEE", "NYC"},
	{"Marcus", "Williams", "marcus.williams@acme.example", "en", "EMPLOYEE", "NYC"},
	{"Sofía", "Ramírez", "sofia.ramirez@acme.example", "es", "EMPLOYEE", "NYC"},
	{"Ethan", "Brooks", "ethan.brooks@acme.example", "en", "EMPLOYEE", "NYC"},
	{"Rosa", "Delgado", "rosa.delgado@acme.example", "es", "RECEPTIONIST", "MAD"},
	{"Alex", "Morgan", "alex.morgan@acme.example", "en", "ADMIN", "NYC"},
}

// demoMeetings are the room bookings of each building and day, in local time. room is an index into the
// building's meeting rooms; it is shifted by the day so that tomorrow looks different.
var demoMeetings = []struct {
	room                       int
	startH, startM, endH, endM int
	subject, body              string
}{
	{0, 9, 0, 10, 0, "Sprint planning", "Pick the stories for the next two weeks."},
	{1, 9, 30, 10, 30, "Weekly sync", "Status round and blockers."},
	{2, 11, 0, 12, 30, "Design review", "Walk through the new onboarding flow."},
	{0, 14, 0, 15, 0, "Customer call", "Quarterly check-in with the customer."},
	{3, 16, 0, 17, 0, "Quarterly roadmap", "Agree on the priorities for next quarter."},
}

// demoDesksBookedPerDay is how many desks in each building are booked for the whole desk window each day.
const demoDesksBookedPerDay = 6

// demoID derives the stable id of a demo object from its name.
func demoID(name string) string {
	return uuid.NewSHA1(uuid.NameSpaceURL, []byte("workspace-booking-demo:"+name)).String()
}

// demoRoomWidth returns the width on the plan of a room for capacity people.
func demoRoomWidth(capacity int32) int32 { return 120 + 12*capacity }

// demoDeskRect returns the rectangle of the i-th desk (counting from 0) on a floor.
func demoDeskRect(i int) LayoutMapCoordinates {
	cluster, seat := i/demoClusterSize, i%demoClusterSize
	x := int32(demoClusterLeft + cluster/demoClustersPerCol*demoClusterStepX + seat/2*demoDeskPitchX)
	y := int32(demoClusterTop + cluster%demoClustersPerCol*demoClusterStepY + seat%2*demoDeskPitchY)
	return LayoutMapCoordinates{TopLeftX: x, TopLeftY: y, BottomRightX: x + demoDeskW, BottomRightY: y + demoDeskH}
}

// DemoLayout returns the demo office that `booking demo` loads: the organization "Acme Workspaces" with
// a Madrid and a New York building (five floors, drawn in /static/floors/*.svg), 112 desks, ten meeting
// rooms, two phone booths, fourteen people, and bookings for today and tomorrow with statuses that match
// now. The desks of a third, small building, Madrid Hub, are bookable round the clock, so that the demo
// can be tried at any hour; the other desks 07:00–21:00 and the rooms 08:00–20:00, local time.
//
// Every id is derived from a stable name, so loading the demo again updates it in place. Booking ids
// include their local date, so loading it on another day adds that day's bookings.
func DemoLayout(now time.Time) Layout {
	org := demoID("organization")
	l := demoCatalogue(org)
	employees := map[string][]string{} // building code → ids of the employees working there
	l.Users = demoUsers(org, employees)
	for _, b := range demoBuildings {
		building := demoID("building:" + b.code)
		l.Buildings = append(l.Buildings, LayoutBuilding{ID: building, OrganizationID: org, Name: b.name,
			Timezone: b.timezone, Address: LayoutAddress{Country: b.country, City: b.city, Address: b.address,
				Coordinates: &LayoutCoordinates{Latitude: b.lat, Longitude: b.lon}}})
		var rooms, desks []LayoutResource // of the building, for its bookings
		for _, f := range b.floors {
			floor := demoID(fmt.Sprintf("floor:%s-%d", b.code, f.number))
			l.Floors = append(l.Floors, LayoutFloor{ID: floor, OrganizationID: org, BuildingID: building,
				Name: f.name, FloorNumber: f.number, Image: fmt.Sprintf("/static/floors/%s-%d.svg", b.slug, f.number)})
			fr, fb, fd := demoFloorResources(org, floor, b, f)
			rooms, desks = append(rooms, fr...), append(desks, fd...)
			l.Resources = append(append(append(l.Resources, fr...), fb...), fd...)
		}
		l.Bookings = append(l.Bookings, demoBookings(now, org, b, rooms, desks, employees[b.code])...)
	}
	return l
}

// demoCatalogue returns the demo organization and the objects its resources refer to: a user rule, a
// mobile role, the subcategories, the rules, the features and the services.
func demoCatalogue(org string) Layout {
	yes := true
	userRule := LayoutNamed{ID: demoID("user-rule:standard"), OrganizationID: org, Name: "Standard"}
	mobileRole := LayoutNamed{ID: demoID("mobile-role:standard"), OrganizationID: org, Name: "Standard"}
	roomRule := LayoutResourceRule{ID: demoID("rule:meeting-rooms"), OrganizationID: org, Name: "Meeting rooms",
		StartTime: 8 * demoHour, EndTime: 20 * demoHour, MaximumDuration: 4 * demoHour, MaximumAdvance: 60 * demoDay,
		AdvanceCheckIn: 10 * demoMinute, ExpirationMargin: 15 * demoMinute}
	boardRule := roomRule
	boardRule.ID, boardRule.Name, boardRule.RequiresApproval = demoID("rule:boardroom"), "Boardroom", true
	deskRule := LayoutResourceRule{ID: demoID("rule:desks"), OrganizationID: org, Name: "Desks",
		StartTime: 7 * demoHour, EndTime: 21 * demoHour, MaximumDuration: 0, MaximumAdvance: 30 * demoDay,
		AdvanceCheckIn: 15 * demoMinute, ExpirationMargin: 30 * demoMinute,
		AllDayBookings: true, AllDayBookingsCheckInMS: 11 * demoHour}
	anyHourRule := deskRule
	anyHourRule.ID, anyHourRule.Name = demoID("rule:desks-round-the-clock"), "Desks, round the clock"
	anyHourRule.StartTime, anyHourRule.EndTime = 0, demoDay
	l := Layout{
		Organizations: []LayoutOrganization{{ID: org, Name: "Acme Workspaces", AdditionalServicesActive: true}},
		UserRules:     []LayoutNamed{userRule},
		MobileRoles:   []LayoutNamed{mobileRole},
		Subcategories: []LayoutSubcategory{
			{ID: demoID("subcategory:desk"), OrganizationID: org, Name: "Desk", Category: "WORKSTATION", CanBeSearched: &yes},
			{ID: demoID("subcategory:meeting-room"), OrganizationID: org, Name: "Meeting room", Category: "SPACE", CanBeSearched: &yes},
			{ID: demoID("subcategory:phone-booth"), OrganizationID: org, Name: "Phone booth", Category: "SPACE", CanBeSearched: &yes},
		},
		ResourceRules: []LayoutResourceRule{deskRule, anyHourRule, roomRule, boardRule},
		Reservables: []LayoutReservable{
			{ID: demoID("reservable:coffee"), OrganizationID: org, Name: "Coffee service",
				Type: "SERVICE", Description: "Coffee, tea and water for the attendees.",
				ChooseQuantity: true, ChooseDeliveryTime: true, AllowComments: true, MinimumCancellationMs: 2 * demoHour},
			{ID: demoID("reservable:lunch"), OrganizationID: org, Name: "Lunch",
				Type: "SERVICE", Description: "Sandwiches, salads and fruit, served 3 h 30 min after the start.",
				ChooseQuantity: true, AllowComments: true, MinimumCancellationMs: 24 * demoHour,
				StandardDeliveryTimeMs: 3*demoHour + 30*demoMinute},
			{ID: demoID("reservable:av-setup"), OrganizationID: org, Name: "AV setup",
				Type: "SERVICE", Description: "A technician checks the screen, camera and microphones beforehand.",
				MinimumCancellationMs: demoHour},
		},
	}
	for _, f := range demoFeatures {
		l.Features = append(l.Features, LayoutFeature{ID: demoFeature(f.name), OrganizationID: org, Name: f.name, Email: f.email})
	}
	return l
}

// demoFeature returns the id of the demo feature with the given name.
func demoFeature(name string) string { return demoID("feature:" + name) }

// demoUsers returns the demo's people, and adds the employees to the buildings they work in.
func demoUsers(org string, employees map[string][]string) []LayoutUser {
	yes := true
	var out []LayoutUser
	for _, p := range demoPeople {
		id := demoID("user:" + p.email)
		out = append(out, LayoutUser{
			ID: id, OrganizationID: org, Name: p.name, Surname: p.surname, Alias: p.name, Email: p.email,
			UserRule:      &LayoutRef{ID: demoID("user-rule:standard")},
			MobileRole:    &LayoutRef{ID: demoID("mobile-role:standard")},
			CanBeSearched: &yes, UserLanguage: p.language, Role: p.role,
		})
		if p.role == string(booking.RoleEmployee) {
			employees[p.home] = append(employees[p.home], id)
		}
	}
	return out
}

// demoFloorResources returns the meeting rooms, the phone booths and the desks of one floor, placed on
// its plan.
func demoFloorResources(org, floor string, b demoBuilding, f demoFloor) (rooms, booths, desks []LayoutResource) {
	resource := func(kind byte, n int, name, sub, rule string) LayoutResource {
		poster := fmt.Sprintf("%s-%d-%c%02d", b.code, f.number, kind, n)
		return LayoutResource{ID: demoID("resource:" + poster), OrganizationID: org, FloorID: floor,
			SubcategoryID: demoID("subcategory:" + sub), ResourceRuleID: demoID("rule:" + rule), Name: name, PosterCode: poster}
	}
	services := []string{demoID("reservable:coffee"), demoID("reservable:lunch"), demoID("reservable:av-setup")}
	x := int32(demoRoomLeft)
	for i, r := range f.rooms {
		rule := "meeting-rooms"
		if r.boardroom {
			rule = "boardroom"
		}
		res := resource('R', i+1, r.name, "meeting-room", rule)
		for _, name := range r.features {
			res.FeatureIDs = append(res.FeatureIDs, demoFeature(name))
		}
		res.ReservableIDs = services // meeting rooms only
		res.Phone = fmt.Sprintf(b.phone, 100*(int(f.number)+1)+i+1)
		res.Capacity = &r.capacity
		w := demoRoomWidth(r.capacity)
		res.MapCoordinates = LayoutMapCoordinates{TopLeftX: x, TopLeftY: demoRoomTop,
			BottomRightX: x + w, BottomRightY: demoRoomBottom}
		x += w + demoRoomGap
		rooms = append(rooms, res)
	}
	for i := range f.booths {
		res := resource('P', i+1, fmt.Sprintf("Phone booth %d%c", f.number, 'A'+i), "phone-booth", "meeting-rooms")
		res.FeatureIDs = []string{demoFeature("Video conferencing")}
		one := int32(1)
		res.Capacity = &one
		y := int32(demoRoomTop + i*demoBoothStepY)
		res.MapCoordinates = LayoutMapCoordinates{TopLeftX: x, TopLeftY: y,
			BottomRightX: x + demoBoothW, BottomRightY: y + demoBoothH}
		booths = append(booths, res)
	}
	deskRule := "desks"
	if f.anyHour {
		deskRule = "desks-round-the-clock"
	}
	for i := range f.desks {
		res := resource('D', i+1, fmt.Sprintf("Desk %d.%02d", f.number, i+1), "desk", deskRule)
		res.FeatureIDs = demoDeskFeatures(i)
		res.MapCoordinates = demoDeskRect(i)
		desks = append(desks, res)
	}
	return rooms, booths, desks
}

// demoDeskFeatures returns the features of the i-th desk (counting from 0) on a floor. Every desk has a
// monitor.
func demoDeskFeatures(i int) []string {
	out := []string{demoFeature("Monitor")}
	if i%2 == 0 {
		out = append(out, demoFeature("Docking station"))
	}
	if i%6 == 1 { // odd, so never with a docking station: at most 3 features
		out = append(out, demoFeature("Standing desk"))
	}
	if i%demoClusterSize < 2 && i < demoClusterSize*demoClustersPerCol { // along the west windows
		out = append(out, demoFeature("Window seat"))
	}
	return out
}

// demoBookings returns one building's bookings for today's and tomorrow's local dates: the meetings of
// demoMeetings, and a few desks booked for the whole desk window (07:00–21:00). Bookings that ended
// before now are FINISHED and those covering now are ACTIVE. The rest are PENDING, or WAITING_APPROVAL
// if the rule requires approval (tomorrow's board meetings wait for the admin). A building where no
// employee works (Madrid Hub) has none: its desks stay free to try.
func demoBookings(now time.Time, org string, b demoBuilding, rooms, desks []LayoutResource, people []string) []LayoutBooking {
	if len(people) == 0 {
		return nil
	}
	loc, err := time.LoadLocation(b.timezone)
	if err != nil {
		loc = time.UTC // no time zone database: the demo still loads, in UTC
	}
	local := now.In(loc)
	var out []LayoutBooking
	add := func(res LayoutResource, day string, start, end time.Time, subject, body string) {
		status := booking.StatusPending
		if !end.After(now) {
			status = booking.StatusFinished
		} else if !start.After(now) {
			status = booking.StatusActive
		} else if res.ResourceRuleID == demoID("rule:boardroom") {
			status = booking.StatusWaitingApproval
		}
		who := people[len(out)%len(people)]
		out = append(out, LayoutBooking{
			ID:             demoID(fmt.Sprintf("booking:%s:%s:%s", day, res.PosterCode, start.In(loc).Format("1504"))),
			OrganizationID: org, ResourceID: res.ID, CreatorID: who, OrganizerID: who,
			StartDate: start.UnixMilli(), EndDate: end.UnixMilli(), Status: string(status), Subject: subject,
			Body: LayoutBody{Content: body, BodyType: "TEXT"}, Importance: "LOW", BuildingAccessStatus: booking.BuildingAccessPending,
		})
	}
	for d := range 2 {
		y, m, dd := local.AddDate(0, 0, d).Date()
		day := fmt.Sprintf("%04d-%02d-%02d", y, m, dd)
		at := func(h, min int) time.Time { return time.Date(y, m, dd, h, min, 0, 0, loc) }
		for _, mt := range demoMeetings {
			res := rooms[(mt.room+d)%len(rooms)]
			add(res, day, at(mt.startH, mt.startM), at(mt.endH, mt.endM), mt.subject, mt.body)
		}
		// Read the desk window both as clock time and as time elapsed since midnight, and keep the part
		// inside both, so that the bookings still fit on days the clocks change.
		midnight := at(0, 0)
		start, end := at(7, 0), at(21, 0)
		if elapsed := midnight.Add(7 * time.Hour); elapsed.After(start) {
			start = elapsed
		}
		if elapsed := midnight.Add(21 * time.Hour); elapsed.Before(end) {
			end = elapsed
		}
		for j := range demoDesksBookedPerDay {
			res := desks[(d*7+j*5)%len(desks)]
			add(res, day, start, end, "Office day", "Desk booked for the whole day.")
		}
		for _, res := range rooms {
			if d == 1 && res.ResourceRuleID == demoID("rule:boardroom") {
				add(res, day, at(10, 0), at(12, 0), "Board meeting", "Results of the quarter; needs approval.")
			}
		}
	}
	return out
}

// DemoResult reports what LoadDemo loaded, and the people to try the service as.
type DemoResult struct {
	Summary      ImportSummary
	Employee     booking.User
	Receptionist booking.User
	Admin        booking.User
	Room         booking.Resource // a meeting room, for a first status lookup
	// AnyHour is a desk bookable round the clock that the demo's bookings leave free, to try the poster
	// page and the kiosk at any hour.
	AnyHour booking.Resource
}

// LoadDemo imports the demo office (DemoLayout) and returns the people to try the service as. If the
// organization already has bookings, the demo's bookings are left out, so that loading the demo again
// never collides with bookings made since.
func (s *Service) LoadDemo(ctx context.Context, now time.Time) (DemoResult, error) {
	svc := s.svc
	l := DemoLayout(now)
	org := uuid.MustParse(l.Organizations[0].ID)
	err := s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		n, err := q.BookingCount(ctx, org)
		if err != nil {
			return fmt.Errorf("count bookings: %w", err)
		}
		if n > 0 {
			l.Bookings = nil
		}
		return write(ctx, svc, q, ev, l, Operator)
	})
	if err != nil {
		return DemoResult{}, err
	}
	res := DemoResult{Summary: summarize(l)}
	// The first person of each role, and the first room.
	byRole := map[booking.Role]*booking.User{booking.RoleEmployee: &res.Employee, booking.RoleReceptionist: &res.Receptionist, booking.RoleAdmin: &res.Admin}
	for _, u := range l.Users {
		dst := byRole[booking.Role(cmp.Or(u.Role, string(booking.RoleEmployee)))]
		if dst == nil || dst.ID != uuid.Nil {
			continue
		}
		if *dst, err = svc.UserByID(ctx, org, uuid.MustParse(u.ID)); err != nil {
			return DemoResult{}, err
		}
	}
	for _, r := range l.Resources {
		if r.Capacity == nil {
			continue
		}
		if res.Room, err = demoResource(ctx, svc, res.Admin, r.ID); err != nil {
			return DemoResult{}, err
		}
		break
	}
	booked := map[string]bool{}
	for _, b := range DemoLayout(now).Bookings {
		booked[b.ResourceID] = true
	}
	for _, r := range l.Resources {
		if r.ResourceRuleID != demoID("rule:desks-round-the-clock") || booked[r.ID] {
			continue
		}
		if res.AnyHour, err = demoResource(ctx, svc, res.Admin, r.ID); err != nil {
			return DemoResult{}, err
		}
		break
	}
	return res, nil
}

// demoResource reads the demo's resource with the given id, with its floor and building; the zero
// Resource when it is not bookable.
func demoResource(ctx context.Context, svc *booking.Service, actor booking.User, id string) (booking.Resource, error) {
	rs, err := svc.ResourcesByIDs(ctx, actor, []uuid.UUID{uuid.MustParse(id)})
	if err != nil || len(rs) == 0 {
		return booking.Resource{}, err
	}
	return rs[0], nil
}

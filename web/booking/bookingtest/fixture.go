package bookingtest

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/workspacebooking/booking/web/layout"
)

// Madrid is the time zone of the fixture's main building.
var Madrid = mustLocation("Europe/Madrid")

// NewYork is the time zone of the fixture's second building.
var NewYork = mustLocation("America/New_York")

func mustLocation(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

// Now is the time the fixture's clock starts at: Monday 23 November 2026, 09:00 in Madrid.
var Now = time.Date(2026, 11, 23, 9, 0, 0, 0, Madrid)

// At returns hh:mm in Madrid on the day that is days after Now's date.
func At(days, hh, mm int) time.Time { return time.Date(2026, 11, 23+days, hh, mm, 0, 0, Madrid) }

func id(n int) uuid.UUID { return uuid.MustParse(fmt.Sprintf("00000000-0000-4000-8000-%012d", n)) }

// The fixture's ids. Organization A (Acme) has the additional-services module; B (Globex) does not.
var (
	OrgA = id(1)
	OrgB = id(2)

	Alice = id(101) // EMPLOYEE of A
	Bob   = id(102) // EMPLOYEE of A
	Rita  = id(103) // RECEPTIONIST of A
	Adam  = id(104) // ADMIN of A
	Boris = id(201) // EMPLOYEE of B

	BuildingMadrid  = id(301) // A, Europe/Madrid
	BuildingNewYork = id(302) // A, America/New_York
	BuildingB       = id(303) // B

	FloorMadrid  = id(401)
	FloorHidden  = id(402) // in Madrid, not visible
	FloorNewYork = id(403)
	FloorB       = id(404)

	SubDesk  = id(501) // WORKSTATION
	SubRoom  = id(502) // SPACE
	SubRoomB = id(503) // SPACE of B

	RuleRoom     = id(601) // 08:00–20:00, at most 4 h, 30 days ahead, check-in 10 min before to 15 min after
	RuleApproval = id(602) // as RuleRoom, requires approval
	RuleDesk     = id(603) // whole day, no limits, all-day bookings until 11:00
	RuleB        = id(604)

	FeatureScreen     = id(701)
	FeatureWhiteboard = id(702)

	ReservableCoffee = id(801) // quantity, delivery time and comments chosen; 2 h minimum cancellation
	ReservableAV     = id(802) // fixed quantity and delivery (15 min after start); 1 h minimum cancellation
	ReservableLunch  = id(803) // not offered for any room
	ReservableB      = id(804)

	RoomGoya      = id(901) // MAD-R1, capacity 8, screen and whiteboard, coffee and AV
	RoomVelazquez = id(902) // MAD-R2, capacity 4, screen, coffee
	RoomBoard     = id(903) // MAD-R3, capacity 16, requires approval
	DeskOne       = id(904) // MAD-D1, screen
	DeskTwo       = id(905) // MAD-D2
	RoomHidden    = id(906) // MAD-RH, not visible
	RoomOnHidden  = id(907) // MAD-RF, on the hidden floor
	RoomHudson    = id(908) // NYC-R1, capacity 6
	RoomB         = id(909) // Globex's room, poster code MAD-R1 too
)

// Layout returns the fixture as a layout document.
func Layout() layout.Layout {
	return layout.Layout{
		Organizations: []layout.LayoutOrganization{
			{ID: ref(OrgA), Name: "Acme", AdditionalServicesActive: true},
			{ID: ref(OrgB), Name: "Globex"},
		},
		Users:     fixtureUsers(),
		Buildings: fixtureBuildings(),
		Floors:    fixtureFloors(),
		Subcategories: []layout.LayoutSubcategory{
			{ID: ref(SubDesk), OrganizationID: ref(OrgA), Name: "Desk", Category: "WORKSTATION"},
			{ID: ref(SubRoom), OrganizationID: ref(OrgA), Name: "Meeting room", Category: "SPACE"},
			{ID: ref(SubRoomB), OrganizationID: ref(OrgB), Name: "Room", Category: "SPACE"},
		},
		ResourceRules: fixtureRules(),
		Features: []layout.LayoutFeature{
			{ID: ref(FeatureScreen), OrganizationID: ref(OrgA), Name: "Screen", Email: "av@acme.test"},
			{ID: ref(FeatureWhiteboard), OrganizationID: ref(OrgA), Name: "Whiteboard"},
		},
		Reservables: fixtureReservables(),
		Resources:   fixtureResources(),
	}
}

// ref is an id as the layout document writes it.
func ref(u uuid.UUID) string { return u.String() }

// hour and minute are lengths of time in milliseconds, as the layout document writes them.
const hour, minute = int64(time.Hour / time.Millisecond), int64(time.Minute / time.Millisecond)

// fixtureUsers are the fixture's people: four at Acme, one of each role, and one at Globex.
func fixtureUsers() []layout.LayoutUser {
	user := func(i, org uuid.UUID, name, surname, role string) layout.LayoutUser {
		return layout.LayoutUser{ID: ref(i), OrganizationID: ref(org), Name: name, Surname: surname,
			Email: name + "@" + map[uuid.UUID]string{OrgA: "acme.test", OrgB: "globex.test"}[org], Role: role}
	}
	return []layout.LayoutUser{
		user(Alice, OrgA, "alice", "Archer", "EMPLOYEE"), user(Bob, OrgA, "bob", "Baker", ""),
		user(Rita, OrgA, "rita", "Reyes", "RECEPTIONIST"), user(Adam, OrgA, "adam", "Adler", "ADMIN"),
		user(Boris, OrgB, "boris", "Becker", "EMPLOYEE"),
	}
}

// fixtureBuildings are Acme's buildings in Madrid and New York, and Globex's in Madrid.
func fixtureBuildings() []layout.LayoutBuilding {
	building := func(i, org uuid.UUID, name, tz string) layout.LayoutBuilding {
		return layout.LayoutBuilding{ID: ref(i), OrganizationID: ref(org), Name: name, Timezone: tz,
			Address: layout.LayoutAddress{Country: "ES", City: "Madrid", Address: "Calle Mayor 1"}}
	}
	madrid := building(BuildingMadrid, OrgA, "Madrid HQ", "Europe/Madrid")
	madrid.Address.Coordinates = &layout.LayoutCoordinates{Latitude: 40.4168, Longitude: -3.7038}
	newYork := building(BuildingNewYork, OrgA, "New York Office", "America/New_York")
	newYork.Address = layout.LayoutAddress{Country: "US", City: "New York", Address: "5th Avenue 1"}
	return []layout.LayoutBuilding{madrid, newYork, building(BuildingB, OrgB, "Globex Tower", "Europe/Madrid")}
}

// fixtureFloors are one floor of each building, and a hidden second floor in Madrid.
func fixtureFloors() []layout.LayoutFloor {
	no := false
	floor := func(i, org, b uuid.UUID, name string) layout.LayoutFloor {
		return layout.LayoutFloor{ID: ref(i), OrganizationID: ref(org), BuildingID: ref(b), Name: name, FloorNumber: 1,
			Image: "/static/floors/" + name + ".svg"}
	}
	hiddenFloor := floor(FloorHidden, OrgA, BuildingMadrid, "hidden")
	hiddenFloor.Visible = &no
	return []layout.LayoutFloor{
		floor(FloorMadrid, OrgA, BuildingMadrid, "madrid-1"), hiddenFloor,
		floor(FloorNewYork, OrgA, BuildingNewYork, "new-york-1"), floor(FloorB, OrgB, BuildingB, "globex-1"),
	}
}

// fixtureRules are the resource rules: rooms bookable 08:00–20:00 for up to 4 h, the same with approval,
// desks bookable all day, and Globex's copy of the rooms' rule.
func fixtureRules() []layout.LayoutResourceRule {
	room := layout.LayoutResourceRule{
		AdvanceCheckIn: 10 * minute, ExpirationMargin: 15 * minute, StartTime: 8 * hour, EndTime: 20 * hour,
		MaximumDuration: 4 * hour, MaximumAdvance: 30 * 24 * hour,
	}
	approval := room
	approval.ID, approval.OrganizationID, approval.RequiresApproval = ref(RuleApproval), ref(OrgA), true
	room.ID, room.OrganizationID = ref(RuleRoom), ref(OrgA)
	ruleB := room
	ruleB.ID, ruleB.OrganizationID = ref(RuleB), ref(OrgB)
	return []layout.LayoutResourceRule{room, approval,
		{ID: ref(RuleDesk), OrganizationID: ref(OrgA), AllDayBookings: true, AllDayBookingsCheckInMS: 11 * hour}, ruleB}
}

// fixtureReservables are the services rooms may offer.
func fixtureReservables() []layout.LayoutReservable {
	return []layout.LayoutReservable{
		{ID: ref(ReservableCoffee), OrganizationID: ref(OrgA), Name: "Coffee", Description: "Coffee and tea",
			ChooseQuantity: true, ChooseDeliveryTime: true, AllowComments: true, MinimumCancellationMs: 2 * hour,
			Email: "catering@acme.test"},
		{ID: ref(ReservableAV), OrganizationID: ref(OrgA), Name: "AV setup", MinimumCancellationMs: hour,
			StandardDeliveryTimeMs: 15 * minute},
		{ID: ref(ReservableLunch), OrganizationID: ref(OrgA), Name: "Lunch", ChooseQuantity: true},
		{ID: ref(ReservableB), OrganizationID: ref(OrgB), Name: "Globex coffee", ChooseQuantity: true},
	}
}

// fixtureResources are the rooms and desks, as the comments on their ids describe them.
func fixtureResources() []layout.LayoutResource {
	no := false
	capacity := func(n int32) *int32 { return &n }
	res := func(i uuid.UUID, org, floor, sub, rule uuid.UUID, name, code string) layout.LayoutResource {
		return layout.LayoutResource{
			ID: ref(i), OrganizationID: ref(org), FloorID: ref(floor), SubcategoryID: ref(sub), ResourceRuleID: ref(rule),
			Name: name, PosterCode: code,
			MapCoordinates: layout.LayoutMapCoordinates{TopLeftX: 10, TopLeftY: 20, BottomRightX: 110, BottomRightY: 80},
		}
	}
	goya := res(RoomGoya, OrgA, FloorMadrid, SubRoom, RuleRoom, "Goya", "MAD-R1")
	goya.Capacity, goya.Phone = capacity(8), "+34 910 000 001"
	goya.FeatureIDs = []string{ref(FeatureScreen), ref(FeatureWhiteboard)}
	goya.ReservableIDs = []string{ref(ReservableCoffee), ref(ReservableAV)}
	velazquez := res(RoomVelazquez, OrgA, FloorMadrid, SubRoom, RuleRoom, "Velázquez", "MAD-R2")
	velazquez.Capacity, velazquez.FeatureIDs = capacity(4), []string{ref(FeatureScreen)}
	velazquez.ReservableIDs = []string{ref(ReservableCoffee)}
	board := res(RoomBoard, OrgA, FloorMadrid, SubRoom, RuleApproval, "Boardroom", "MAD-R3")
	board.Capacity = capacity(16)
	desk1 := res(DeskOne, OrgA, FloorMadrid, SubDesk, RuleDesk, "Desk 1", "MAD-D1")
	desk1.FeatureIDs = []string{ref(FeatureScreen)}
	desk2 := res(DeskTwo, OrgA, FloorMadrid, SubDesk, RuleDesk, "Desk 2", "MAD-D2")
	hidden := res(RoomHidden, OrgA, FloorMadrid, SubRoom, RuleRoom, "Hidden room", "MAD-RH")
	hidden.Capacity, hidden.Visible = capacity(6), &no
	onHidden := res(RoomOnHidden, OrgA, FloorHidden, SubRoom, RuleRoom, "Room on a hidden floor", "MAD-RF")
	onHidden.Capacity, onHidden.ReservableIDs = capacity(6), []string{ref(ReservableCoffee)}
	hudson := res(RoomHudson, OrgA, FloorNewYork, SubRoom, RuleRoom, "Hudson", "NYC-R1")
	hudson.Capacity = capacity(6)
	roomB := res(RoomB, OrgB, FloorB, SubRoomB, RuleB, "Globex room", "MAD-R1")
	roomB.Capacity, roomB.ReservableIDs = capacity(10), []string{ref(ReservableB)}
	return []layout.LayoutResource{goya, velazquez, board, desk1, desk2, hidden, onHidden, hudson, roomB}
}

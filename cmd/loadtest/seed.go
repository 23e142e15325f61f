package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layoutimport"
	"github.com/workspacebooking/booking/web/postgres"
)

// size is the shape of a synthetic organization.
type size struct {
	Buildings, FloorsPerBuilding, ResourcesPerFloor, RoomsPerFloor, Users, Bookings, Days int
}

var sizes = map[string]size{
	// The organization of the benchmarks: 10 buildings, 50 floors, 10,000 resources of which 1,000 rooms,
	// 5,000 people, 1,000,000 bookings over the 180 days around today.
	"standard": {Buildings: 10, FloorsPerBuilding: 5, ResourcesPerFloor: 200, RoomsPerFloor: 20, Users: 5000, Bookings: 1_000_000, Days: 180},
	// A small one for the tests: 2 buildings, 4 floors, 200 resources of which 20 rooms, 100 people.
	"small": {Buildings: 2, FloorsPerBuilding: 2, ResourcesPerFloor: 50, RoomsPerFloor: 5, Users: 100, Bookings: 5000, Days: 180},
}

func (sz size) floors() int    { return sz.Buildings * sz.FloorsPerBuilding }
func (sz size) resources() int { return sz.floors() * sz.ResourcesPerFloor }
func (sz size) rooms() int     { return sz.floors() * sz.RoomsPerFloor }

// zones is how many time zones the buildings are in: they take zones in turn.
func (sz size) zones() int { return min(sz.Buildings, len(zones)) }

// Every resource may be booked 07:00–21:00 building time, up to 4 h (rooms) or 10 h (desks), up to 150
// days ahead; check-in opens 15 minutes before the start and closes 30 minutes after it. Seeded bookings
// lie between 08:00 and 19:00, so that the evening band, 19:00–21:00, is free on every resource and day:
// the book scenario takes its slots there.
const (
	windowStart      = 7 * time.Hour
	windowEnd        = 21 * time.Hour
	seededFrom       = 8 * time.Hour
	seededUntil      = 19 * time.Hour
	eveningBand      = seededUntil // the band no seeded booking touches, up to windowEnd
	slotLength       = 15 * time.Minute
	slotsPerEvening  = int((windowEnd - eveningBand) / slotLength)
	maximumAdvance   = 150 * 24 * time.Hour
	advanceCheckIn   = 15 * time.Minute
	expirationMargin = 30 * time.Minute
	seededSubject    = "Synthetic booking"
)

// zones are the buildings' time zones, in turn: an organization across the world, so that at most hours
// of the day some building is at work and some bookings are ACTIVE.
var zones = []struct{ tz, city, country string }{
	{"Europe/Madrid", "Madrid", "ES"}, {"America/New_York", "New York", "US"}, {"Asia/Tokyo", "Tokyo", "JP"},
	{"Europe/London", "London", "GB"}, {"America/Los_Angeles", "Los Angeles", "US"}, {"Asia/Kolkata", "Bengaluru", "IN"},
	{"Australia/Sydney", "Sydney", "AU"}, {"America/Sao_Paulo", "São Paulo", "BR"}, {"Europe/Berlin", "Berlin", "DE"},
	{"Asia/Singapore", "Singapore", "SG"},
}

// Kinds of synthetic ids.
const (
	kindOrganization = iota + 1
	kindUserRule
	kindMobileRole
	kindUser
	kindBuilding
	kindFloor
	kindSubcategory
	kindRule
	kindFeature
	kindReservable
	kindResource
	kindBooking
)

// seqID is the synthetic organization's id of the n-th object of a kind: 5eed0000-00KK-8000-8000-NNNNNNNNNNNN
// (a version 8 UUID, readable and stable across seeds).
func seqID(kind, n int) uuid.UUID {
	var u uuid.UUID
	u[0], u[1] = 0x5e, 0xed
	binary.BigEndian.PutUint16(u[4:6], uint16(kind))
	u[6], u[8] = 0x80, 0x80
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	copy(u[10:], b[2:])
	return u
}

// orgID is the synthetic organization.
var orgID = seqID(kindOrganization, 0)

// Fixed objects of the organization.
var (
	roomSubcategory = seqID(kindSubcategory, 0)
	deskRule        = seqID(kindRule, 0)
	roomRule        = seqID(kindRule, 1)
	userRule        = seqID(kindUserRule, 0)
	mobileRole      = seqID(kindMobileRole, 0)
	coffee          = seqID(kindReservable, 0)
	features        = []string{"Monitor", "Docking station", "Screen", "Whiteboard"}
)

// deskSubcategory is the subcategory of the desks of one floor (a zone): the free listing, which has no
// floor filter, then lists one floor's desks, as availability does with floorId.
func deskSubcategory(floor int) uuid.UUID { return seqID(kindSubcategory, floor+1) }

func posterCode(b, f, r int, room bool) string {
	if room {
		return fmt.Sprintf("B%02d-F%d-R%03d", b, f, r)
	}
	return fmt.Sprintf("B%02d-F%d-D%03d", b, f, r)
}

// skeleton is the organization without its people, resources and bookings, loaded through the service's
// own import (which checks it); the bulk rows follow with COPY.
func skeleton(sz size) layoutimport.Layout {
	org := orgID.String()
	l := layoutimport.Layout{
		Organizations: []layoutimport.LayoutOrganization{{ID: org, Name: "Synthetic Corp", AdditionalServicesActive: true}},
		UserRules:     []layoutimport.LayoutNamed{{ID: userRule.String(), OrganizationID: org, Name: "Staff"}},
		MobileRoles:   []layoutimport.LayoutNamed{{ID: mobileRole.String(), OrganizationID: org, Name: "Mobile user"}},
		Subcategories: []layoutimport.LayoutSubcategory{
			{ID: roomSubcategory.String(), OrganizationID: org, Name: "Meeting room", Category: string(booking.CategorySpace)},
		},
		Reservables: []layoutimport.LayoutReservable{{
			ID: coffee.String(), OrganizationID: org, Name: "Coffee service", ChooseQuantity: true, AllowComments: true,
			MinimumCancellationMs: (2 * time.Hour).Milliseconds(),
		}},
	}
	for i, f := range features {
		l.Features = append(l.Features, layoutimport.LayoutFeature{ID: seqID(kindFeature, i).String(), OrganizationID: org, Name: f})
	}
	for _, r := range []struct {
		id      uuid.UUID
		name    string
		longest time.Duration
	}{{deskRule, "Desks", 10 * time.Hour}, {roomRule, "Meeting rooms", 4 * time.Hour}} {
		l.ResourceRules = append(l.ResourceRules, layoutimport.LayoutResourceRule{
			ID: r.id.String(), OrganizationID: org, Name: r.name,
			StartTime: windowStart.Milliseconds(), EndTime: windowEnd.Milliseconds(),
			MaximumDuration: r.longest.Milliseconds(), MaximumAdvance: maximumAdvance.Milliseconds(),
			AdvanceCheckIn: advanceCheckIn.Milliseconds(), ExpirationMargin: expirationMargin.Milliseconds(),
		})
	}
	for b := range sz.Buildings {
		z := zones[b%len(zones)]
		l.Buildings = append(l.Buildings, layoutimport.LayoutBuilding{
			ID: seqID(kindBuilding, b).String(), OrganizationID: org, Name: fmt.Sprintf("B%02d %s", b, z.city), Timezone: z.tz,
			Address: layoutimport.LayoutAddress{Country: z.country, City: z.city, Address: fmt.Sprintf("%d Synthetic Street", b+1)},
		})
		for f := range sz.FloorsPerBuilding {
			floor := b*sz.FloorsPerBuilding + f
			l.Floors = append(l.Floors, layoutimport.LayoutFloor{
				ID: seqID(kindFloor, floor).String(), OrganizationID: org, BuildingID: seqID(kindBuilding, b).String(),
				Name: fmt.Sprintf("Floor %d", f), FloorNumber: int32(f),
			})
			l.Subcategories = append(l.Subcategories, layoutimport.LayoutSubcategory{
				ID: deskSubcategory(floor).String(), OrganizationID: org, Name: fmt.Sprintf("Desks B%02d floor %d", b, f),
				Category: string(booking.CategoryWorkstation),
			})
		}
	}
	return l
}

// seed builds a synthetic organization of size sz into the database at dbURL, which it migrates first.
// The bookings are spread over the sz.Days around now. It analyzes the tables at the end, so that the
// planner knows their sizes from the first query on.
func seed(ctx context.Context, dbURL string, sz size, now time.Time, out io.Writer) error {
	start := time.Now()
	if _, err := postgres.Migrate(ctx, dbURL); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	pool, err := openPool(ctx, dbURL, 4)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := queries.New(pool).OrganizationGet(ctx, orgID); err == nil {
		return errors.New("the synthetic organization is already in this database: seed a fresh one")
	} else if !errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("look for the synthetic organization: %w", err)
	}
	if _, err := layoutimport.Import(ctx, booking.NewService(pool), skeleton(sz)); err != nil {
		return fmt.Errorf("import the organization: %w", err)
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if err := copyPeople(ctx, tx, sz); err != nil {
			return err
		}
		if err := copyResources(ctx, tx, sz); err != nil {
			return err
		}
		fmt.Fprintf(out, "seed: %d buildings, %d floors, %d resources (%d rooms), %d people (%s)\n", sz.Buildings,
			sz.floors(), sz.resources(), sz.rooms(), sz.Users, time.Since(start).Round(time.Millisecond))
		return copyBookings(ctx, tx, sz, now, out)
	})
	if err != nil {
		return err
	}
	analyzed := time.Now()
	if _, err := pool.Exec(ctx, `ANALYZE organizations, user_rules, mobile_roles, users, buildings, floors, subcategories,
		resource_rules, features, resources, resource_features, reservables, resource_reservables, bookings`); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	fmt.Fprintf(out, "seed: analyzed (%s); done in %s\n", time.Since(analyzed).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}

// copyPeople copies the organization's people. The last one is an administrator and one in a hundred is
// a receptionist; the others are employees.
func copyPeople(ctx context.Context, tx pgx.Tx, sz size) error {
	return copyRows(ctx, tx, "users", []string{"organization_id", "id", "name", "surname", "email",
		"user_rule_id", "mobile_role_id", "role", "user_language"}, sz.Users, func(u int) []any {
		role := "EMPLOYEE"
		switch {
		case u == sz.Users-1:
			role = "ADMIN"
		case u%100 == 99:
			role = "RECEPTIONIST"
		}
		return []any{orgID, seqID(kindUser, u), "Person", fmt.Sprintf("%05d", u), fmt.Sprintf("person%05d@synthetic.example", u),
			userRule, mobileRole, role, "en"}
	})
}

// copyResources copies the resources, floor by floor, each floor's rooms first, in a grid on its plan,
// with their features and services.
func copyResources(ctx context.Context, tx pgx.Tx, sz size) error {
	err := copyRows(ctx, tx, "resources", []string{"organization_id", "id", "floor_id", "subcategory_id", "resource_rule_id",
		"name", "poster_code", "top_left_x", "top_left_y", "bottom_right_x", "bottom_right_y", "capacity"},
		sz.resources(), func(n int) []any {
			floor, r := n/sz.ResourcesPerFloor, n%sz.ResourcesPerFloor
			b, f := floor/sz.FloorsPerBuilding, floor%sz.FloorsPerBuilding
			x, y := int32(r%20)*60, int32(r/20)*60
			if r < sz.RoomsPerFloor {
				return []any{orgID, seqID(kindResource, n), seqID(kindFloor, floor), roomSubcategory, roomRule,
					fmt.Sprintf("Room %d.%02d", f, r), posterCode(b, f, r, true), x, y, x + 50, y + 50, int32(4 + r%4*2)}
			}
			return []any{orgID, seqID(kindResource, n), seqID(kindFloor, floor), deskSubcategory(floor), deskRule,
				fmt.Sprintf("Desk %d.%03d", f, r), posterCode(b, f, r, false), x, y, x + 50, y + 30, nil}
		})
	if err != nil {
		return err
	}
	// Every desk has a monitor, and every other desk a docking station. Every room has a screen and a
	// whiteboard, and may order coffee.
	var feats, services [][]any
	for n := range sz.resources() {
		id := seqID(kindResource, n)
		if n%sz.ResourcesPerFloor < sz.RoomsPerFloor {
			feats = append(feats, []any{orgID, id, seqID(kindFeature, 2)}, []any{orgID, id, seqID(kindFeature, 3)})
			services = append(services, []any{orgID, id, coffee})
			continue
		}
		feats = append(feats, []any{orgID, id, seqID(kindFeature, 0)})
		if n%2 == 0 {
			feats = append(feats, []any{orgID, id, seqID(kindFeature, 1)})
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"resource_features"}, []string{"organization_id", "resource_id", "feature_id"},
		pgx.CopyFromRows(feats)); err != nil {
		return fmt.Errorf("copy resource_features: %w", err)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"resource_reservables"}, []string{"organization_id", "resource_id", "reservable_id"},
		pgx.CopyFromRows(services)); err != nil {
		return fmt.Errorf("copy resource_reservables: %w", err)
	}
	return nil
}

// copyBookings generates the bookings and copies them in.
func copyBookings(ctx context.Context, tx pgx.Tx, sz size, now time.Time, out io.Writer) error {
	locs := make([]*time.Location, sz.Buildings)
	for b := range locs {
		var err error
		if locs[b], err = time.LoadLocation(zones[b%len(zones)].tz); err != nil {
			return err
		}
	}
	copied := time.Now()
	g, err := newBookingRows(sz, now, locs)
	if err != nil {
		return err
	}
	n, err := bulkLoad(ctx, tx, "bookings", bookingColumns, g)
	if err != nil {
		return fmt.Errorf("copy bookings: %w", err)
	}
	fmt.Fprintf(out, "seed: %d bookings copied, checked and indexed (%s): %v\n", n, time.Since(copied).Round(time.Millisecond), g.statuses)
	return nil
}

// bulkLoad copies rows into table quickly, as PostgreSQL's "Populating a Database" advises. It drops the
// table's foreign keys and the indexes that back no constraint, and turns its triggers off; after the
// copy it turns the triggers back on and recreates the keys and indexes from their own definitions, so
// each key is checked by one query and each index is built in one pass. The rows must already carry what
// a trigger would have set (a booking's floor); the foreign keys check it.
// The primary key and the exclusion constraints stay in place, so every row is checked against them as it
// arrives: the seeded bookings cannot overlap. The table stays locked until the transaction ends, and a
// failure rolls everything back.
func bulkLoad(ctx context.Context, tx pgx.Tx, table string, columns []string, src pgx.CopyFromSource) (int64, error) {
	if _, err := tx.Exec(ctx, `SET LOCAL maintenance_work_mem = '256MB'`); err != nil {
		return 0, err
	}
	type object struct{ name, def string }
	read := func(query string) ([]object, error) {
		rows, err := tx.Query(ctx, query, table)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, func(r pgx.CollectableRow) (object, error) {
			var o object
			return o, r.Scan(&o.name, &o.def)
		})
	}
	keys, err := read(`SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`)
	if err != nil {
		return 0, fmt.Errorf("read the foreign keys of %s: %w", table, err)
	}
	indexes, err := read(`SELECT c.relname, pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
		WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`)
	if err != nil {
		return 0, fmt.Errorf("read the indexes of %s: %w", table, err)
	}
	t := pgx.Identifier{table}.Sanitize()
	for _, k := range keys {
		if _, err := tx.Exec(ctx, "ALTER TABLE "+t+" DROP CONSTRAINT "+pgx.Identifier{k.name}.Sanitize()); err != nil {
			return 0, err
		}
	}
	for _, i := range indexes {
		if _, err := tx.Exec(ctx, "DROP INDEX "+pgx.Identifier{i.name}.Sanitize()); err != nil {
			return 0, err
		}
	}
	if _, err := tx.Exec(ctx, "ALTER TABLE "+t+" DISABLE TRIGGER USER"); err != nil {
		return 0, err
	}
	n, err := tx.CopyFrom(ctx, pgx.Identifier{table}, columns, src)
	if err != nil {
		return n, err
	}
	if _, err := tx.Exec(ctx, "ALTER TABLE "+t+" ENABLE TRIGGER USER"); err != nil {
		return n, err
	}
	for _, k := range keys {
		if _, err := tx.Exec(ctx, "ALTER TABLE "+t+" ADD CONSTRAINT "+pgx.Identifier{k.name}.Sanitize()+" "+k.def); err != nil {
			return n, fmt.Errorf("restore %s: %w", k.name, err)
		}
	}
	for _, i := range indexes {
		if _, err := tx.Exec(ctx, i.def); err != nil {
			return n, fmt.Errorf("restore %s: %w", i.name, err)
		}
	}
	return n, nil
}

// copyRows copies n rows made by row into table.
func copyRows(ctx context.Context, tx pgx.Tx, table string, columns []string, n int, row func(int) []any) error {
	_, err := tx.CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromSlice(n, func(i int) ([]any, error) {
		return row(i), nil
	}))
	if err != nil {
		return fmt.Errorf("copy %s: %w", table, err)
	}
	return nil
}

var bookingColumns = []string{"organization_id", "id", "resource_id", "floor_id", "creator_id", "organizer_id", "start_date", "end_date",
	"status", "resource_type", "subject", "check_in_opens_at", "check_in_closes_at", "checked_in_at", "created_at", "updated_at"}

// bookingRows generates the seeded bookings for COPY, resource by resource. Each resource gets the same
// number of bookings, spread evenly over the days. When a resource has more bookings than there are days,
// each day is cut into equal blocks with one booking in each. A booking lasts one to four hours between
// 08:00 and 19:00 building time.
// Statuses follow the clock: a booking that has ended is FINISHED (checked in), EXPIRED (a no-show, one in
// twenty) or CANCELLED (one in ten); one in progress is ACTIVE; one to come is PENDING, or CANCELLED (one
// in ten). A person may hold one desk at a time, so a desk booking that still holds its desk goes to
// someone who holds no other desk then, or becomes CANCELLED when nobody is free. The people kept for the
// load's desks (loadDeskPerson) are never given a desk.
type bookingRows struct {
	sz       size
	now      time.Time
	days     [][]time.Time // per building, the local midnight of each day
	per      int           // bookings per resource
	perDay   int           // at most this many a day
	block    time.Duration // the part of the seeded hours each of a day's bookings lies in
	r, i, k  int           // the resource, its booking, the booking's number
	row      []any
	statuses map[string]int
	held     map[[2]int][][2]int64 // the desks held by person and UTC day: [start, end) in Unix seconds
}

func newBookingRows(sz size, now time.Time, locs []*time.Location) (*bookingRows, error) {
	g := &bookingRows{sz: sz, now: now, per: max(1, sz.Bookings/sz.resources()), statuses: map[string]int{}, row: make([]any, len(bookingColumns))}
	g.perDay = (g.per + sz.Days - 1) / sz.Days
	if (seededUntil-seededFrom)/time.Duration(g.perDay) < slotLength {
		return nil, fmt.Errorf("%d bookings a day per resource do not fit between %s and %s", g.perDay, seededFrom, seededUntil)
	}
	g.block = (seededUntil - seededFrom) / time.Duration(g.perDay)
	g.block -= g.block % slotLength
	for _, loc := range locs {
		y, m, d := now.In(loc).Date()
		ds := make([]time.Time, sz.Days)
		for j := range ds {
			ds[j] = time.Date(y, m, d-sz.Days/2+j, 0, 0, 0, 0, loc)
		}
		g.days = append(g.days, ds)
	}
	return g, nil
}

// hash mixes a booking's number into a well-spread value (SplitMix64).
func hash(k int) uint64 {
	z := uint64(k) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (g *bookingRows) Next() bool {
	sz := g.sz
	if g.i == g.per {
		g.r, g.i = g.r+1, 0
	}
	if g.r == sz.resources() || g.k == sz.Bookings {
		return false
	}
	r, i, k := g.r, g.i, g.k
	g.i, g.k = g.i+1, g.k+1
	h := hash(k)

	// The day, and the block of that day this booking lies in.
	day := i * sz.Days / g.per
	firstOfDay := (day*g.per + sz.Days - 1) / sz.Days
	blockStart := seededFrom + time.Duration(i-firstOfDay)*g.block
	length := min(g.block, time.Duration(1+h%4)*time.Hour)
	offset := time.Duration(h>>8%uint64((g.block-length)/slotLength+1)) * slotLength
	floor := r / sz.ResourcesPerFloor
	midnight := g.days[floor/sz.FloorsPerBuilding][day]
	y, m, d := midnight.Date()
	from := blockStart + offset
	start := time.Date(y, m, d, int(from/time.Hour), int(from%time.Hour/time.Minute), 0, 0, midnight.Location())
	end := start.Add(length)

	status, checkedIn := "PENDING", any(nil)
	switch {
	case !end.After(g.now):
		switch h >> 16 % 20 {
		case 0, 1:
			status = "CANCELLED"
		case 2:
			status = "EXPIRED"
		default:
			status, checkedIn = "FINISHED", start.Add(time.Duration(h>>24%20)*time.Minute-10*time.Minute)
		}
	case !start.After(g.now):
		status, checkedIn = "ACTIVE", minTime(g.now, start.Add(time.Duration(h>>24%20)*time.Minute-10*time.Minute))
	case h>>16%10 == 0:
		status = "CANCELLED"
	}
	kind := "WORKSTATION"
	if r%sz.ResourcesPerFloor < sz.RoomsPerFloor {
		kind = "SPACE"
	}
	u := int(h >> 32 % uint64(sz.Users))
	if kind == "WORKSTATION" {
		u = g.deskPerson(u)
		// A person holds one desk at a time: the first person from u on who is free then, or nobody, and the
		// booking was cancelled.
		if status == "PENDING" || status == "ACTIVE" {
			if holder := g.deskHolder(u, start, end); holder >= 0 {
				u = holder
			} else {
				status, checkedIn = "CANCELLED", nil
			}
		}
	}
	g.statuses[status]++
	user := seqID(kindUser, u)
	created := minTime(g.now, start.Add(-time.Duration(1+h>>40%14)*24*time.Hour))
	copy(g.row, []any{orgID, seqID(kindBooking, k), seqID(kindResource, r), seqID(kindFloor, r/sz.ResourcesPerFloor), user, user, start, end, status, kind, seededSubject,
		start.Add(-advanceCheckIn), minTime(end, start.Add(expirationMargin)), checkedIn, created, created})
	return true
}

// loadDeskShare keeps one person in five free of desks. The seed books no desk for them, so the book
// scenario can book desks in their name without giving anyone a second desk (409 4013). In the standard
// organization that is 1,000 of the 5,000 people: as many as a run uses by default, one desk each.
const loadDeskShare = 5

// loadDeskPerson reports whether person u is kept for the load's desks.
func loadDeskPerson(u int) bool { return u%loadDeskShare == 0 }

// deskPerson is u, or the person beside u when u is kept for the load's desks.
func (g *bookingRows) deskPerson(u int) int {
	switch {
	case !loadDeskPerson(u):
		return u
	case u+1 < g.sz.Users:
		return u + 1
	default:
		return u - 1
	}
}

// deskHolder returns the first person, counting from u, who holds no desk during [start, end) and is not
// kept for the load's desks, and records that they now hold one then. It returns -1 when nobody is free.
// Desks held are filed by the UTC day they start on; a booking is compared with those of its own day and
// of the days on either side.
func (g *bookingRows) deskHolder(u int, start, end time.Time) int {
	if g.held == nil {
		g.held = map[[2]int][][2]int64{}
	}
	day := int(start.Unix() / 86400)
	for p := range g.sz.Users {
		who := (u + p) % g.sz.Users
		free := !loadDeskPerson(who)
		for d := day - 1; d <= day+1 && free; d++ {
			for _, iv := range g.held[[2]int{who, d}] {
				if iv[0] < end.Unix() && start.Unix() < iv[1] {
					free = false
					break
				}
			}
		}
		if free {
			k := [2]int{who, day}
			g.held[k] = append(g.held[k], [2]int64{start.Unix(), end.Unix()})
			return who
		}
	}
	return -1
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func (g *bookingRows) Values() ([]any, error) { return g.row, nil }
func (g *bookingRows) Err() error             { return nil }

// openPool opens a pool of at most conns connections on dbURL, configured as the service's (ids in
// PostgreSQL's binary form, its timeouts) but without a statement timeout: the seed's COPY and index
// rebuilds and the check's overlap query run far longer than a request may.
func openPool(ctx context.Context, dbURL string, conns int32) (*pgxpool.Pool, error) {
	cfg, err := postgres.PoolConfig(dbURL)
	if err != nil {
		return nil, err
	}
	cfg.MaxConns = conns
	cfg.ConnConfig.RuntimeParams["statement_timeout"] = "0"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return pool, nil
}

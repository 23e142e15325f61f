package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web/booking"
)

// size is the shape of a synthetic organization.
type size struct {
	Buildings, FloorsPerBuilding, ResourcesPerFloor, RoomsPerFloor, Users, Bookings, Days int
}

var sizes = map[string]size{
	// The standard organization of the benchmarks: 10 buildings, 50 floors, 10,000 resources of which
	// 1,000 rooms, 5,000 people, 1,000,000 bookings over the 180 days around today.
	"standard": {Buildings: 10, FloorsPerBuilding: 5, ResourcesPerFloor: 200, RoomsPerFloor: 20, Users: 5000, Bookings: 1_000_000, Days: 180},
	// A small one for the tests.
	"small": {Buildings: 2, FloorsPerBuilding: 2, ResourcesPerFloor: 50, RoomsPerFloor: 5, Users: 100, Bookings: 5000, Days: 60},
}

// The synthetic organization lives in Madrid; its resources may be booked 07:00–21:00 local time, up
// to 120 days ahead. Seeded bookings lie between 08:00 and 19:00, so that 19:00–21:00 stays free on every
// resource and day for the book scenario.
const (
	zone        = "Europe/Madrid"
	windowStart = 7 * time.Hour
	windowEnd   = 21 * time.Hour
	freeFrom    = 19 * time.Hour // the evening band no seeded booking touches
)

var ns = uuid.MustParse("6f1c1f7e-2d7a-4c1e-9a3b-5b0d2a8e4f10")

// idOf is the synthetic organization's id for a kind of object and its number.
func idOf(kind string, n int) uuid.UUID { return uuid.NewSHA1(ns, fmt.Appendf(nil, "%s-%d", kind, n)) }

var (
	orgID           = idOf("organization", 0)
	roomSubcategory = idOf("subcategory", 0)
)

func deskSubcategory(floor int) uuid.UUID { return idOf("desk-subcategory", floor) }

func posterCode(b, f, r int, room bool) string {
	if room {
		return fmt.Sprintf("B%02d-F%d-R%03d", b, f, r)
	}
	return fmt.Sprintf("B%02d-F%d-D%03d", b, f, r)
}

// layoutOf is the organization without its bookings, as `booking import` reads it.
func layoutOf(sz size) booking.Layout {
	org := orgID.String()
	l := booking.Layout{
		Organizations: []booking.LayoutOrganization{{ID: org, Name: "Synthetic", AdditionalServicesActive: true}},
		// Rooms share a subcategory; desks have one per floor (a zone), so that a floor's desks are one
		// free listing of ~200, like the availability of a floor.
		Subcategories: []booking.LayoutSubcategory{
			{ID: roomSubcategory.String(), OrganizationID: org, Name: "Meeting room", Category: string(booking.CategorySpace)},
		},
	}
	for i, maxHours := range []int64{10, 4} { // desks, rooms
		l.ResourceRules = append(l.ResourceRules, booking.LayoutResourceRule{
			ID: idOf("rule", i).String(), OrganizationID: org, Name: []string{"Desks", "Rooms"}[i],
			StartTime: windowStart.Milliseconds(), EndTime: windowEnd.Milliseconds(),
			MaximumDuration: maxHours * time.Hour.Milliseconds(), MaximumAdvance: 120 * 24 * time.Hour.Milliseconds(),
			AdvanceCheckIn: (15 * time.Minute).Milliseconds(), ExpirationMargin: (30 * time.Minute).Milliseconds(),
		})
	}
	for u := range sz.Users {
		l.Users = append(l.Users, booking.LayoutUser{
			ID: idOf("user", u).String(), OrganizationID: org, Name: "Person", Surname: fmt.Sprintf("%04d", u),
			Email: fmt.Sprintf("person%04d@synthetic.test", u), Role: "EMPLOYEE",
		})
	}
	capacity := int32(8)
	for b := range sz.Buildings {
		l.Buildings = append(l.Buildings, booking.LayoutBuilding{
			ID: idOf("building", b).String(), OrganizationID: org, Name: fmt.Sprintf("Building %02d", b), Timezone: zone,
		})
		for f := range sz.FloorsPerBuilding {
			floor := b*sz.FloorsPerBuilding + f
			l.Subcategories = append(l.Subcategories, booking.LayoutSubcategory{
				ID: deskSubcategory(floor).String(), OrganizationID: org, Name: fmt.Sprintf("Desks, building %02d floor %d", b, f),
				Category: string(booking.CategoryWorkstation),
			})
			l.Floors = append(l.Floors, booking.LayoutFloor{
				ID: idOf("floor", floor).String(), OrganizationID: org, BuildingID: idOf("building", b).String(),
				Name: fmt.Sprintf("Floor %d", f), FloorNumber: int32(f),
			})
			for r := range sz.ResourcesPerFloor {
				room := r < sz.RoomsPerFloor
				kind, sub := 0, deskSubcategory(floor)
				if room {
					kind, sub = 1, roomSubcategory
				}
				res := booking.LayoutResource{
					ID: idOf("resource", floor*sz.ResourcesPerFloor+r).String(), OrganizationID: org,
					FloorID: idOf("floor", floor).String(), SubcategoryID: sub.String(),
					ResourceRuleID: idOf("rule", kind).String(), Name: fmt.Sprintf("%s %d.%03d", []string{"Desk", "Room"}[kind], f, r),
					PosterCode: posterCode(b, f, r, room),
					MapCoordinates: booking.LayoutMapCoordinates{
						TopLeftX: int32(r%20) * 50, TopLeftY: int32(r/20) * 50, BottomRightX: int32(r%20)*50 + 40, BottomRightY: int32(r/20)*50 + 40,
					},
				}
				if room {
					res.Capacity = &capacity
				}
				l.Resources = append(l.Resources, res)
			}
		}
	}
	return l
}

// seed builds the synthetic organization into the database at dbURL: its layout through the import, its
// bookings with COPY.
func seed(ctx context.Context, dbURL string, sz size, now time.Time, out io.Writer) error {
	start := time.Now()
	if _, err := booking.Migrate(ctx, dbURL); err != nil {
		return err
	}
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	l := layoutOf(sz)
	if _, err := booking.NewService(pool).Import(ctx, l); err != nil {
		return fmt.Errorf("import the layout: %w", err)
	}
	fmt.Fprintf(out, "layout: %d buildings, %d floors, %d resources, %d people (%s)\n",
		len(l.Buildings), len(l.Floors), len(l.Resources), len(l.Users), time.Since(start).Round(time.Millisecond))

	// The exclusion constraint is built once over the copied rows rather than kept row by row: many times
	// faster, and it proves the seeded bookings do not overlap.
	copied := time.Now()
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		var def string
		if err := tx.QueryRow(ctx, `SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'bookings_no_overlap'`).Scan(&def); err != nil {
			return fmt.Errorf("read the no-overlap constraint: %w", err)
		}
		if _, err := tx.Exec(ctx, `ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap`); err != nil {
			return err
		}
		n, err := tx.CopyFrom(ctx, pgx.Identifier{"bookings"},
			[]string{"organization_id", "id", "resource_id", "creator_id", "organizer_id", "start_date", "end_date", "status",
				"resource_type", "check_in_opens_at", "check_in_closes_at", "checked_in_at", "subject"},
			&bookingRows{sz: sz, now: now, loc: mustZone()})
		if err != nil {
			return fmt.Errorf("copy bookings: %w", err)
		}
		fmt.Fprintf(out, "bookings: %d copied (%s)\n", n, time.Since(copied).Round(time.Millisecond))
		built := time.Now()
		if _, err := tx.Exec(ctx, `ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap `+def); err != nil {
			return fmt.Errorf("rebuild the no-overlap constraint: %w", err)
		}
		fmt.Fprintf(out, "no-overlap constraint rebuilt (%s)\n", time.Since(built).Round(time.Millisecond))
		return nil
	})
	if err != nil {
		return err
	}
	if _, err := pool.Exec(ctx, `ANALYZE`); err != nil {
		return err
	}
	fmt.Fprintf(out, "seeded in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

func mustZone() *time.Location {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		panic(err)
	}
	return loc
}

// bookingRows generates the bookings: each resource gets Bookings/resources of them, on distinct days
// spread over the Days around today, one or two hours between 08:00 and 19:00. Past ones are finished
// (a tenth cancelled, a fifteenth expired), the one in progress is active, future ones pending (a tenth
// cancelled).
type bookingRows struct {
	sz  size
	now time.Time
	loc *time.Location
	k   int
	row []any
}

func (g *bookingRows) Next() bool {
	if g.k >= g.sz.Bookings {
		return false
	}
	sz, k := g.sz, g.k
	g.k++
	resources := sz.Buildings * sz.FloorsPerBuilding * sz.ResourcesPerFloor
	perResource := max(1, sz.Bookings/resources)
	r, i := k%resources, k/resources
	// Distinct days for each resource, and each day about as busy as the next.
	dayOffset := -sz.Days/2 + (i*sz.Days/perResource+r)%sz.Days
	today := time.Date(g.now.In(g.loc).Year(), g.now.In(g.loc).Month(), g.now.In(g.loc).Day(), 0, 0, 0, 0, g.loc)
	day := today.AddDate(0, 0, dayOffset)
	start := time.Date(day.Year(), day.Month(), day.Day(), 8+(k*7)%10, 0, 0, 0, g.loc)
	end := start.Add(time.Hour)
	if k%3 == 0 {
		end = end.Add(time.Hour)
	}
	status, checkedIn := "PENDING", any(nil)
	switch {
	case !end.After(g.now):
		status = "FINISHED"
		if k%10 == 0 {
			status = "CANCELLED"
		} else if k%15 == 1 {
			status = "EXPIRED"
		} else {
			checkedIn = start
		}
	case !start.After(g.now):
		status, checkedIn = "ACTIVE", start
	case k%10 == 0:
		status = "CANCELLED"
	}
	user := idOf("user", k%sz.Users)
	kind := "WORKSTATION"
	if r%sz.ResourcesPerFloor < sz.RoomsPerFloor {
		kind = "SPACE"
	}
	g.row = []any{orgID, idOf("booking", k), idOf("resource", r), user, user, start, end, status, kind,
		start.Add(-15 * time.Minute), start.Add(30 * time.Minute), checkedIn, "Synthetic booking"}
	return true
}

func (g *bookingRows) Values() ([]any, error) { return g.row, nil }
func (g *bookingRows) Err() error             { return nil }

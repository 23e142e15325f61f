package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/postgres"
)

// size is the shape of a synthetic data set: Organizations alike organizations. The scenarios load the
// first one; the others are there for their weight.
type size struct {
	Organizations int
	// Each organization's buildings, floors, resources and people, and its bookings.
	Buildings, FloorsPerBuilding, ResourcesPerFloor, RoomsPerFloor, Users, Bookings int
	// The bookings lie on the Days around today: DaysAhead of them after today, the rest before.
	Days, DaysAhead int
}

var sizes = map[string]size{
	// The organization of the benchmarks: 10 buildings, 50 floors, 10,000 resources of which 1,000 rooms,
	// 5,000 people, 1,000,000 bookings over the 180 days around today.
	"standard": {Organizations: 1, Buildings: 10, FloorsPerBuilding: 5, ResourcesPerFloor: 200, RoomsPerFloor: 20,
		Users: 5000, Bookings: 1_000_000, Days: 180, DaysAhead: 90},
	// The scale of Seatsurfing's performance test: 100 organizations, each with 1,000 people, 500 resources
	// (one building of two floors, 50 rooms) and 200,000 bookings, 20,000,000 in all. The bookings span two
	// years, most of them history, so that a resource is booked about as often a day as in the standard
	// organization.
	"large": {Organizations: 100, Buildings: 1, FloorsPerBuilding: 2, ResourcesPerFloor: 250, RoomsPerFloor: 25,
		Users: 1000, Bookings: 200_000, Days: 730, DaysAhead: 90},
	// A small one for the tests: 2 buildings, 4 floors, 200 resources of which 20 rooms, 100 people.
	"small": {Organizations: 1, Buildings: 2, FloorsPerBuilding: 2, ResourcesPerFloor: 50, RoomsPerFloor: 5,
		Users: 100, Bookings: 5000, Days: 180, DaysAhead: 90},
}

// The counts of one organization.
func (sz size) floors() int    { return sz.Buildings * sz.FloorsPerBuilding }
func (sz size) resources() int { return sz.floors() * sz.ResourcesPerFloor }
func (sz size) rooms() int     { return sz.floors() * sz.RoomsPerFloor }

// zones is how many time zones the buildings of all organizations are in: they take zones in turn.
func (sz size) zones() int { return min(sz.Organizations*sz.Buildings, len(zones)) }

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

// seed builds a synthetic data set of size sz into the database at dbURL, which it migrates first. The
// bookings are spread over the sz.Days around now. At the end it vacuums and analyzes the tables, so the
// planner knows them from the first query on and no autovacuum of the fresh rows competes with a benchmark.
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
	layouts := layout.New(pool, booking.NewService(pool))
	for o := range synthetic(sz.Organizations) {
		if _, err := layouts.Import(ctx, o.skeleton(sz)); err != nil {
			return fmt.Errorf("import organization %d: %w", o, err)
		}
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if err := copyPeople(ctx, tx, sz); err != nil {
			return err
		}
		if err := copyResources(ctx, tx, sz); err != nil {
			return err
		}
		fmt.Fprintf(out, "seed: %s (%s)\n", sz.layoutText(), time.Since(start).Round(time.Millisecond))
		return copyBookings(ctx, tx, sz, now, out)
	})
	if err != nil {
		return err
	}
	vacuumed := time.Now()
	if _, err := pool.Exec(ctx, `VACUUM (FREEZE, ANALYZE) organizations, user_rules, mobile_roles, users, buildings, floors,
		subcategories, resource_rules, features, resources, resource_features, reservables, resource_reservables, bookings`); err != nil {
		return fmt.Errorf("vacuum: %w", err)
	}
	fmt.Fprintf(out, "seed: vacuumed and analyzed (%s); done in %s\n", time.Since(vacuumed).Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	return nil
}

// layoutText says what the seed builds besides bookings: "10 buildings, 50 floors, …".
func (sz size) layoutText() string {
	n := sz.Organizations
	text := fmt.Sprintf("%d buildings, %d floors, %d resources (%d rooms), %d people",
		n*sz.Buildings, n*sz.floors(), n*sz.resources(), n*sz.rooms(), n*sz.Users)
	if n > 1 {
		text = fmt.Sprintf("%d organizations: %s", n, text)
	}
	return text
}

// copyPeople copies every organization's people. In each, the last one is an administrator and one in a
// hundred is a receptionist; the others are employees.
func copyPeople(ctx context.Context, tx pgx.Tx, sz size) error {
	return copyRows(ctx, tx, "users", []string{"organization_id", "id", "name", "surname", "email",
		"user_rule_id", "mobile_role_id", "role", "user_language"}, sz.Organizations*sz.Users, func(i int) []any {
		o, u := synthetic(i/sz.Users), i%sz.Users
		role := "EMPLOYEE"
		switch {
		case u == sz.Users-1:
			role = "ADMIN"
		case u%100 == 99:
			role = "RECEPTIONIST"
		}
		domain := "synthetic.example"
		if o > 0 {
			domain = fmt.Sprintf("org%03d.synthetic.example", o)
		}
		return []any{o.org(), o.id(kindUser, u), "Person", fmt.Sprintf("%05d", u), fmt.Sprintf("person%05d@%s", u, domain),
			o.userRule(), o.mobileRole(), role, "en"}
	})
}

// copyResources copies every organization's resources, floor by floor, each floor's rooms first, in a
// grid on its plan, with their features and services.
func copyResources(ctx context.Context, tx pgx.Tx, sz size) error {
	per := sz.resources()
	err := copyRows(ctx, tx, "resources", []string{"organization_id", "id", "floor_id", "subcategory_id", "resource_rule_id",
		"name", "poster_code", "top_left_x", "top_left_y", "bottom_right_x", "bottom_right_y", "capacity"},
		sz.Organizations*per, func(i int) []any {
			o, n := synthetic(i/per), i%per
			floor, r := n/sz.ResourcesPerFloor, n%sz.ResourcesPerFloor
			b, f := floor/sz.FloorsPerBuilding, floor%sz.FloorsPerBuilding
			x, y := int32(r%20)*60, int32(r/20)*60
			if r < sz.RoomsPerFloor {
				return []any{o.org(), o.id(kindResource, n), o.id(kindFloor, floor), o.roomSubcategory(), o.roomRule(),
					fmt.Sprintf("Room %d.%02d", f, r), posterCode(b, f, r, true), x, y, x + 50, y + 50, int32(4 + r%4*2)}
			}
			return []any{o.org(), o.id(kindResource, n), o.id(kindFloor, floor), o.deskSubcategory(floor), o.deskRule(),
				fmt.Sprintf("Desk %d.%03d", f, r), posterCode(b, f, r, false), x, y, x + 50, y + 30, nil}
		})
	if err != nil {
		return err
	}
	// Every desk has a monitor, and every other desk a docking station. Every room has a screen and a
	// whiteboard, and may order coffee.
	var feats, services [][]any
	for i := range sz.Organizations * per {
		o, n := synthetic(i/per), i%per
		org, id := o.org(), o.id(kindResource, n)
		if n%sz.ResourcesPerFloor < sz.RoomsPerFloor {
			feats = append(feats, []any{org, id, o.id(kindFeature, 2)}, []any{org, id, o.id(kindFeature, 3)})
			services = append(services, []any{org, id, o.coffee()})
			continue
		}
		feats = append(feats, []any{org, id, o.id(kindFeature, 0)})
		if n%2 == 0 {
			feats = append(feats, []any{org, id, o.id(kindFeature, 1)})
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

// copyBookings generates every organization's bookings and copies them in.
func copyBookings(ctx context.Context, tx pgx.Tx, sz size, now time.Time, out io.Writer) error {
	copied := time.Now()
	g, err := newAllBookings(sz, now)
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
	if _, err := tx.Exec(ctx, `SET LOCAL maintenance_work_mem = '512MB'`); err != nil {
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

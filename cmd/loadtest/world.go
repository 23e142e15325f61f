package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
)

// loadSubject marks the bookings the scenarios make, so that a later run starts after them.
const loadSubject = "Load test"

// world is what the scenarios know of the synthetic organization, read from the database, and the
// requests built from it ahead of the run.
type world struct {
	buildings []building
	floors    []floor
	resources []resource
	rooms     []int // indexes into resources
	desks     []int
	users     []string // one per synthetic person: the Authorization header, "Bearer <JWT>"
	// today is the UTC date the run's days count from; firstDay the first day (counted from today) whose
	// evening band no earlier run used.
	today             time.Time
	firstDay, lastDay int

	statusPaths, freePaths, availabilityPaths []string
}

type building struct {
	id  uuid.UUID
	loc *time.Location
}

type floor struct {
	id              uuid.UUID
	building        int
	deskSubcategory uuid.UUID // uuid.Nil when the floor has no desks
}

type resource struct {
	id         uuid.UUID
	posterCode string
	floor      int
	room       bool
}

// readDays is how many days ahead, from today, the reads look at.
const readDays = 30

// newWorld reads the synthetic organization from the database and mints a bearer token for each of
// (at most) maxUsers of its employees, valid for ttl; days count from now's UTC date.
func newWorld(ctx context.Context, pool *pgxpool.Pool, maxUsers int, ttl time.Duration, now time.Time) (*world, error) {
	w := &world{}
	bIndex, fIndex := map[uuid.UUID]int{}, map[uuid.UUID]int{}
	rows, err := pool.Query(ctx, `SELECT id, timezone FROM buildings WHERE organization_id = $1 ORDER BY id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("read buildings: %w", err)
	}
	for rows.Next() {
		var b building
		var tz string
		if err := rows.Scan(&b.id, &tz); err != nil {
			return nil, err
		}
		if b.loc, err = time.LoadLocation(tz); err != nil {
			return nil, fmt.Errorf("building %s: %w", b.id, err)
		}
		bIndex[b.id] = len(w.buildings)
		w.buildings = append(w.buildings, b)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(w.buildings) == 0 {
		return nil, errors.New("the synthetic organization is not in this database: run `loadtest seed` first")
	}
	rows, err = pool.Query(ctx, `SELECT f.id, f.building_id,
		    (SELECT r.subcategory_id FROM resources r JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
		     WHERE r.organization_id = f.organization_id AND r.floor_id = f.id AND s.category = 'WORKSTATION' LIMIT 1)
		FROM floors f WHERE f.organization_id = $1 ORDER BY f.id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("read floors: %w", err)
	}
	for rows.Next() {
		var f floor
		var b uuid.UUID
		var sub *uuid.UUID
		if err := rows.Scan(&f.id, &b, &sub); err != nil {
			return nil, err
		}
		f.building = bIndex[b]
		if sub != nil {
			f.deskSubcategory = *sub
		}
		fIndex[f.id] = len(w.floors)
		w.floors = append(w.floors, f)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = pool.Query(ctx, `SELECT r.id, r.poster_code, r.floor_id, s.category = 'SPACE'
		FROM resources r JOIN subcategories s ON s.organization_id = r.organization_id AND s.id = r.subcategory_id
		WHERE r.organization_id = $1 ORDER BY r.id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("read resources: %w", err)
	}
	for rows.Next() {
		var r resource
		var f uuid.UUID
		if err := rows.Scan(&r.id, &r.posterCode, &f, &r.room); err != nil {
			return nil, err
		}
		r.floor = fIndex[f]
		if r.room {
			w.rooms = append(w.rooms, len(w.resources))
		} else {
			w.desks = append(w.desks, len(w.resources))
		}
		w.resources = append(w.resources, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(w.rooms) == 0 || len(w.desks) == 0 {
		return nil, errors.New("the synthetic organization has no rooms or no desks")
	}

	svc := booking.NewService(pool)
	tokens, err := web.NewTokens(ctx, svc, web.OIDCConfig{})
	if err != nil {
		return nil, err
	}
	rows, err = pool.Query(ctx, `SELECT id FROM users WHERE organization_id = $1 AND role = 'EMPLOYEE' ORDER BY id LIMIT $2`, orgID, maxUsers)
	if err != nil {
		return nil, fmt.Errorf("read users: %w", err)
	}
	var ids []uuid.UUID
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		// A token names its user and organization only.
		tok, err := tokens.Mint(booking.User{ID: id, OrganizationID: orgID}, ttl)
		if err != nil {
			return nil, fmt.Errorf("mint a token: %w", err)
		}
		w.users = append(w.users, "Bearer "+tok)
	}
	if len(w.users) == 0 {
		return nil, errors.New("the synthetic organization has no employees")
	}

	y, m, d := now.UTC().Date()
	w.today = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if err := w.readFirstDay(ctx, pool); err != nil {
		return nil, err
	}
	// The last day whose evening may be booked: the shortest maximum advance of the rules, less a day.
	var advance int64
	if err := pool.QueryRow(ctx, `SELECT COALESCE(min(NULLIF(maximum_advance, 0)), 0) FROM resource_rules WHERE organization_id = $1`,
		orgID).Scan(&advance); err != nil {
		return nil, fmt.Errorf("read the rules: %w", err)
	}
	w.lastDay = 365
	if advance > 0 {
		w.lastDay = int(time.Duration(advance)*time.Millisecond/(24*time.Hour)) - 1
	}
	w.build()
	if len(w.freePaths) == 0 {
		return nil, errors.New("no floor has desks: nothing to list")
	}
	return w, nil
}

// readFirstDay reads which day the run's evening slots start on: the one thing about the organization
// that a run changes for the next.
func (w *world) readFirstDay(ctx context.Context, pool *pgxpool.Pool) error {
	var last *time.Time
	if err := pool.QueryRow(ctx, `SELECT max(start_date) FROM bookings WHERE organization_id = $1 AND subject = $2`,
		orgID, loadSubject).Scan(&last); err != nil {
		return fmt.Errorf("read the last load-test booking: %w", err)
	}
	// Tomorrow at the earliest; else two days after the last day used (building days and UTC days differ
	// by less than one).
	w.firstDay = 1
	if last != nil {
		w.firstDay = max(1, int(last.Sub(w.today).Hours()/24)+2)
	}
	return nil
}

// build prepares the paths of the read scenarios.
func (w *world) build() {
	for _, r := range w.resources {
		w.statusPaths = append(w.statusPaths, "/api/v1/users/me/resources/statusinfo?postercode="+url.QueryEscape(r.posterCode))
	}
	for _, f := range w.floors {
		b := w.buildings[f.building]
		for day := range readDays {
			from, to := w.localDay(b.loc, day)
			if f.deskSubcategory != uuid.Nil {
				w.freePaths = append(w.freePaths, fmt.Sprintf(
					"/api/v1/users/me/buildings/%s/workstations/subcategories/%s/free?bookingDays%%5B0%%5D.startDate=%d&bookingDays%%5B0%%5D.endDate=%d",
					b.id, f.deskSubcategory, from.UnixMilli(), to.UnixMilli()))
			}
			w.availabilityPaths = append(w.availabilityPaths, fmt.Sprintf(
				"/api/v1/users/me/buildings/%s/availability?from=%d&to=%d&floorId=%s", b.id, from.UnixMilli(), to.UnixMilli(), f.id))
		}
	}
}

// localDay is the day that many days after today, midnight to midnight in loc.
func (w *world) localDay(loc *time.Location, day int) (time.Time, time.Time) {
	y, m, d := w.today.AddDate(0, 0, day).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, loc), time.Date(y, m, d+1, 0, 0, 0, 0, loc)
}

// slot is one quarter hour of the evening band of one resource on one day.
type slot struct {
	resource   int   // index into resources
	start, end int64 // Unix milliseconds
}

// eveningSlot is the n-th free slot of the rooms (room true) or the desks, from the run's first day:
// resource after resource, then quarter after quarter, then day after day, so that consecutive slots
// are on different resources. It is false when the slot lies beyond the last day the rules let be booked.
func (w *world) eveningSlot(n int, room bool) (slot, bool) {
	list := w.desks
	if room {
		list = w.rooms
	}
	r := list[n%len(list)]
	q := n / len(list)
	day, quarter := w.firstDay+q/slotsPerEvening, q%slotsPerEvening
	loc := w.buildings[w.floors[w.resources[r].floor].building].loc
	y, m, d := w.today.AddDate(0, 0, day).Date()
	start := time.Date(y, m, d, int(eveningBand/time.Hour), 0, 0, 0, loc).Add(time.Duration(quarter) * slotLength)
	end := start.Add(slotLength)
	// The slot's UTC day, counted from today: a building's evening may end on the next UTC day.
	utcDay := int(end.Sub(w.today).Hours() / 24)
	return slot{resource: r, start: start.UnixMilli(), end: end.UnixMilli()}, utcDay <= w.lastDay
}

// booking is the request booking a slot.
func (w *world) booking(s slot) (path string, body []byte) {
	path = "/api/v1/users/me/bookings/workstations/standard"
	if w.resources[s.resource].room {
		path = "/api/v1/users/me/bookings/spaces/standard"
	}
	body = make([]byte, 0, 160)
	body = append(body, `[{"resource":{"id":"`...)
	body = append(body, w.resources[s.resource].id.String()...)
	body = append(body, `"},"startDate":`...)
	body = strconv.AppendInt(body, s.start, 10)
	body = append(body, `,"endDate":`...)
	body = strconv.AppendInt(body, s.end, 10)
	body = append(body, `,"subject":"`+loadSubject+`"}]`...)
	return path, body
}

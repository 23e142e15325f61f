package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/identity"
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
	users     []string    // one per synthetic person: the Authorization header, "Bearer <JWT>"
	userIDs   []uuid.UUID // the ids of the same people, in the same order
	// deskPeople counts the first users who hold no desk from the run's first evening slot on. The book
	// scenario books desks as these people only, each person always the same desk.
	deskPeople int
	// today is the UTC date that the run counts days from. firstDay is the first day, counted from today,
	// whose evening no earlier run has booked; lastDay is the last one the rules let be booked.
	today             time.Time
	firstDay, lastDay int

	statusPaths, freePaths, availabilityPaths []string

	pages   pagePaths // the pages scenario's requests
	cookies []string  // the pages scenario: "booking_session=<token>", one per person it opens the pages as
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
	rows, err := queries.New(pool).ResourcesOfOrganization(ctx, orgID)
	if err != nil {
		return nil, fmt.Errorf("read the resources: %w", err)
	}
	if len(rows) == 0 {
		return nil, errors.New("the synthetic organization is not in this database: run `loadtest seed` first")
	}
	// Buildings, floors and resources each in id order, so that the scenarios pick the same ones every run.
	byID := func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) }
	slices.SortFunc(rows, func(a, b queries.ResourcesOfOrganizationRow) int { return byID(a.Resource.ID, b.Resource.ID) })
	timezones := map[uuid.UUID]string{}         // building → its time zone
	floorBuildings := map[uuid.UUID]uuid.UUID{} // floor → its building
	deskSubcategories := map[uuid.UUID]uuid.UUID{}
	var advance int64 // the shortest non-zero maximum advance of the rules, in milliseconds
	for _, r := range rows {
		timezones[r.Building.ID] = r.Building.Timezone
		floorBuildings[r.Floor.ID] = r.Building.ID
		if _, ok := deskSubcategories[r.Floor.ID]; !ok && r.Subcategory.Category == string(booking.CategoryWorkstation) {
			deskSubcategories[r.Floor.ID] = r.Subcategory.ID
		}
		if a := r.ResourceRule.MaximumAdvance; a > 0 && (advance == 0 || a < advance) {
			advance = a
		}
	}
	w := &world{}
	bIndex, fIndex := map[uuid.UUID]int{}, map[uuid.UUID]int{}
	for _, id := range slices.SortedFunc(maps.Keys(timezones), byID) {
		loc, err := time.LoadLocation(timezones[id])
		if err != nil {
			return nil, fmt.Errorf("building %s: %w", id, err)
		}
		bIndex[id] = len(w.buildings)
		w.buildings = append(w.buildings, building{id: id, loc: loc})
	}
	for _, id := range slices.SortedFunc(maps.Keys(floorBuildings), byID) {
		fIndex[id] = len(w.floors)
		w.floors = append(w.floors, floor{id: id, building: bIndex[floorBuildings[id]], deskSubcategory: deskSubcategories[id]})
	}
	for _, r := range rows {
		res := resource{id: r.Resource.ID, posterCode: r.Resource.PosterCode, floor: fIndex[r.Floor.ID],
			room: r.Subcategory.Category == string(booking.CategorySpace)}
		if res.room {
			w.rooms = append(w.rooms, len(w.resources))
		} else {
			w.desks = append(w.desks, len(w.resources))
		}
		w.resources = append(w.resources, res)
	}
	if len(w.rooms) == 0 || len(w.desks) == 0 {
		return nil, errors.New("the synthetic organization has no rooms or no desks")
	}

	y, m, d := now.UTC().Date()
	w.today = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	if err := w.readFirstDay(ctx, pool); err != nil {
		return nil, err
	}
	if err := w.readUsers(ctx, pool, maxUsers, ttl); err != nil {
		return nil, err
	}
	// The last day whose evening may be booked: the shortest maximum advance of the rules, less a day.
	w.lastDay = 365
	if advance > 0 {
		w.lastDay = int(time.Duration(advance)*time.Millisecond/(24*time.Hour)) - 1
	}
	w.build()
	w.buildPagePaths()
	if len(w.freePaths) == 0 {
		return nil, errors.New("no floor has desks: nothing to list")
	}
	return w, nil
}

// readFirstDay finds the first day whose evening no earlier run has booked. It is the only part of the
// world that changes from one run to the next.
func (w *world) readFirstDay(ctx context.Context, pool *pgxpool.Pool) error {
	var last *time.Time
	if err := pool.QueryRow(ctx, `SELECT max(start_date) FROM bookings WHERE organization_id = $1 AND subject = $2`,
		orgID, loadSubject).Scan(&last); err != nil {
		return fmt.Errorf("read the last load-test booking: %w", err)
	}
	// The first day after those the reads look at, so that the reads of every run see the same bookings
	// (an organization of the large data set has 500 resources, and one run of book filled the evenings of
	// eleven days); else two days after the last day an earlier run used, since a building's day and the
	// UTC day differ by less than one day.
	w.firstDay = readDays + 1
	if last != nil {
		w.firstDay = max(w.firstDay, int(last.Sub(w.today).Hours()/24)+2)
	}
	return nil
}

// readUsers reads at most maxUsers employees and mints a bearer token for each, valid for ttl.
// It lists first the people who hold no desk after the run's first evening slot starts (the seed keeps
// some people free of desks), then the others, each group in id order. The book scenario books desks as
// people of the first group only, because a person may hold one desk at a time. Desks booked by earlier
// runs all end before this run's first evening slot.
func (w *world) readUsers(ctx context.Context, pool *pgxpool.Pool, maxUsers int, ttl time.Duration) error {
	rows, err := pool.Query(ctx, `
		SELECT u.id, NOT EXISTS (
		    SELECT 1 FROM bookings bk
		    WHERE bk.organization_id = u.organization_id AND bk.organizer_id = u.id
		      AND bk.resource_type = 'WORKSTATION' AND bk.status IN ('WAITING_APPROVAL', 'PENDING', 'ACTIVE')
		      -- end_date > $3, written so that the one-desk exclusion index can search by time too
		      AND tstzrange(bk.start_date, bk.end_date, '[)') && tstzrange($3, NULL)) AS free
		FROM users u
		WHERE u.organization_id = $1 AND u.role = 'EMPLOYEE'
		ORDER BY free DESC, u.id
		LIMIT $2`, orgID, maxUsers, w.firstEvening())
	if err != nil {
		return fmt.Errorf("read users: %w", err)
	}
	type person struct {
		ID   uuid.UUID
		Free bool
	}
	people, err := pgx.CollectRows(rows, pgx.RowToStructByPos[person])
	if err != nil {
		return fmt.Errorf("read users: %w", err)
	}
	if len(people) == 0 {
		return errors.New("the synthetic organization has no employees")
	}
	svc := booking.NewService(pool)
	tokens, err := web.NewTokens(ctx, identity.New(pool, svc), nil)
	if err != nil {
		return err
	}
	for _, p := range people {
		// A token names its user and organization only.
		tok, err := tokens.Mint(booking.User{ID: p.ID, OrganizationID: orgID}, ttl)
		if err != nil {
			return fmt.Errorf("mint a token: %w", err)
		}
		w.users = append(w.users, "Bearer "+tok)
		w.userIDs = append(w.userIDs, p.ID)
		if p.Free {
			w.deskPeople++
		}
	}
	return nil
}

// firstEvening is when the run's earliest evening slot starts: the evening band of its first day in the
// building furthest east.
func (w *world) firstEvening() time.Time {
	var first time.Time
	y, m, d := w.today.AddDate(0, 0, w.firstDay).Date()
	for _, b := range w.buildings {
		if t := time.Date(y, m, d, int(eveningBand/time.Hour), 0, 0, 0, b.loc); first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first
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
	user       int   // index into users of the person to book it as, or -1 for anyone
}

// bookSlot returns which evening slot the book scenario's n-th request takes: the i-th of the rooms' or of
// the desks'. Rooms and desks are taken in proportion to their numbers, spread evenly (request n takes a
// room when n × rooms / (rooms + desks) passes a whole number), so that both kinds run out of free evenings
// on the same day. Taking them in turn, the 50 rooms of an organization of the large data set ran out
// after some 45,000 bookings, before a benchmark's three runs were over.
func (w *world) bookSlot(n int) (i int, room bool) {
	rooms, desks := len(w.rooms), len(w.bookedDesks())
	r0, r1 := n*rooms/(rooms+desks), (n+1)*rooms/(rooms+desks)
	if r1 > r0 {
		return r0, true
	}
	return n - r0, false
}

// bookedDesks are the desks the scenarios book: only as many as there are people free of desks
// (deskPeople), each always booked by the same person, so nobody ever holds two desks at once.
func (w *world) bookedDesks() []int { return w.desks[:min(len(w.desks), w.deskPeople)] }

// eveningSlot returns the n-th free evening slot of the rooms (room true) or of the desks, counting from
// the run's first day. Slots are numbered resource by resource first, then quarter hour by quarter hour,
// then day by day, so consecutive slots are on different resources. It returns false when the slot lies
// beyond the last day the rules let be booked.
// Desks are the bookedDesks, desk i always booked by person i.
func (w *world) eveningSlot(n int, room bool) (slot, bool) {
	list := w.bookedDesks()
	if room {
		list = w.rooms
	}
	r := list[n%len(list)]
	user := n % len(list)
	if room {
		user = -1
	}
	q := n / len(list)
	day, quarter := w.firstDay+q/slotsPerEvening, q%slotsPerEvening
	loc := w.buildings[w.floors[w.resources[r].floor].building].loc
	y, m, d := w.today.AddDate(0, 0, day).Date()
	start := time.Date(y, m, d, int(eveningBand/time.Hour), 0, 0, 0, loc).Add(time.Duration(quarter) * slotLength)
	end := start.Add(slotLength)
	// The slot's UTC day, counted from today: a building's evening may end on the next UTC day.
	utcDay := int(end.Sub(w.today).Hours() / 24)
	return slot{resource: r, start: start.UnixMilli(), end: end.UnixMilli(), user: user}, utcDay <= w.lastDay
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

package main

import (
	"fmt"
	"time"

	"github.com/workspacebooking/booking/web/booking"
)

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
	o        synthetic
	sz       size
	now      time.Time
	days     [][]time.Time // per building, the local midnight of each day
	per      int           // bookings per resource
	perDay   int           // at most this many a day
	block    time.Duration // the part of the seeded hours each of a day's bookings lies in
	r, i, k  int           // the resource, its booking, the booking's number
	row      []any
	statuses map[string]int        // bookings by status, added to
	held     map[[2]int][][2]int64 // the desks held by person and UTC day: [start, end) in Unix seconds
}

// newBookingRows generates the bookings of organization o, counting them by status into statuses.
func newBookingRows(o synthetic, sz size, now time.Time, statuses map[string]int) (*bookingRows, error) {
	g := &bookingRows{o: o, sz: sz, now: now, per: max(1, sz.Bookings/sz.resources()), statuses: statuses, row: make([]any, len(bookingColumns))}
	g.perDay = (g.per + sz.Days - 1) / sz.Days
	if (seededUntil-seededFrom)/time.Duration(g.perDay) < slotLength {
		return nil, fmt.Errorf("%d bookings a day per resource do not fit between %s and %s", g.perDay, seededFrom, seededUntil)
	}
	g.block = (seededUntil - seededFrom) / time.Duration(g.perDay)
	g.block -= g.block % slotLength
	for b := range sz.Buildings {
		loc, err := time.LoadLocation(zones[o.zone(sz, b)].tz)
		if err != nil {
			return nil, err
		}
		y, m, d := now.In(loc).Date()
		ds := make([]time.Time, sz.Days)
		for j := range ds {
			ds[j] = time.Date(y, m, d-(sz.Days-sz.DaysAhead)+j, 0, 0, 0, 0, loc)
		}
		g.days = append(g.days, ds)
	}
	return g, nil
}

// allBookings generates the bookings of every organization, one organization after the other.
type allBookings struct {
	sz       size
	now      time.Time
	next     synthetic // the organization after the current one
	current  *bookingRows
	statuses map[string]int
}

// newAllBookings checks that the size's bookings fit in its days before any row is generated.
func newAllBookings(sz size, now time.Time) (*allBookings, error) {
	a := &allBookings{sz: sz, now: now, statuses: map[string]int{}}
	if _, err := newBookingRows(0, sz, now, a.statuses); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *allBookings) Next() bool {
	for a.current == nil || !a.current.Next() {
		if int(a.next) == a.sz.Organizations {
			return false
		}
		var err error
		if a.current, err = newBookingRows(a.next, a.sz, a.now, a.statuses); err != nil {
			return false // newAllBookings made the same check
		}
		a.next++
	}
	return true
}

func (a *allBookings) Values() ([]any, error) { return a.current.row, nil }
func (a *allBookings) Err() error             { return nil }

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
	h := hash(k + int(g.o)<<32)

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

	status, checkedIn := g.status(h, start, end)
	kind := booking.CategoryWorkstation
	if r%sz.ResourcesPerFloor < sz.RoomsPerFloor {
		kind = booking.CategorySpace
	}
	u := int(h >> 32 % uint64(sz.Users))
	if kind == booking.CategoryWorkstation {
		u = g.deskPerson(u)
		// A person holds one desk at a time: the desk goes to the first person from u on who is free
		// then. When nobody is, the booking was cancelled.
		if status == booking.StatusPending || status == booking.StatusActive {
			if holder := g.deskHolder(u, start, end); holder >= 0 {
				u = holder
			} else {
				status, checkedIn = booking.StatusCancelled, nil
			}
		}
	}
	g.statuses[string(status)]++
	user := g.o.id(kindUser, u)
	created := minTime(g.now, start.Add(-time.Duration(1+h>>40%14)*24*time.Hour))
	copy(g.row, []any{g.o.org(), g.o.id(kindBooking, k), g.o.id(kindResource, r), g.o.id(kindFloor, r/sz.ResourcesPerFloor), user, user,
		start, end, string(status), string(kind), seededSubject, start.Add(-advanceCheckIn), minTime(end, start.Add(expirationMargin)), checkedIn, created, created})
	return true
}

// status is the status of a booking from start to end, and when it was checked in (nil if it was not),
// by the clock and the booking's hash h.
func (g *bookingRows) status(h uint64, start, end time.Time) (booking.Status, any) {
	checkedIn := start.Add(time.Duration(h>>24%20)*time.Minute - 10*time.Minute)
	switch {
	case !end.After(g.now):
		switch h >> 16 % 20 {
		case 0, 1:
			return booking.StatusCancelled, nil
		case 2:
			return booking.StatusExpired, nil
		default:
			return booking.StatusFinished, checkedIn
		}
	case !start.After(g.now):
		return booking.StatusActive, minTime(g.now, checkedIn)
	case h>>16%10 == 0:
		return booking.StatusCancelled, nil
	}
	return booking.StatusPending, nil
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

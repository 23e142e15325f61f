package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// What the reception's kiosk and the printed posters need: the status of a resource read from its poster,
// walk-up bookings from now, and the resources to print posters for.

// PosterState is what a poster's resource is now.
type PosterState string

// The states of a poster's resource.
const (
	PosterFree        PosterState = "FREE"        // bookable now, until FreeUntil
	PosterBusy        PosterState = "BUSY"        // a blocking booking covers now
	PosterClosed      PosterState = "CLOSED"      // now lies outside today's bookable window
	PosterUnavailable PosterState = "UNAVAILABLE" // the resource, its floor or building is deactivated or hidden
)

// PosterStatus is what the kiosk, and a phone that scanned a poster, show about a resource now: its
// status (as StatusByPosterCode) and what can be done. Times are in Location, the building's time zone.
//
// When FREE, a walk-up booking may run from BookFrom (now, to the minute) until BookUntil at the latest.
// BookUntil is FreeUntil, capped by the rule's maximum duration; when the resource is free to the end of
// today's window and the rule's hours run across midnight, it may reach into the next day's window.
//
// When BUSY, BusyUntil is the end of the booking covering now and of any blocking bookings that follow
// it back to back. BookedBy is its organizer, or nil when the subcategory hides bookings. Window is
// today's bookable window, zero when UNAVAILABLE.
//
// Mine is the actor's booking of the resource covering now, else their next one today (nil: none).
// CanCheckIn tells whether the actor could check in here now.
type PosterStatus struct {
	ResourceStatus
	State         PosterState
	Location      *time.Location
	Now           time.Time
	Window        Interval
	BookFrom      time.Time
	BookUntil     *time.Time
	BusyUntil     *time.Time
	BookedBy      *User
	BookingStatus Status // BUSY: the status of the booking covering now
	Mine          *OwnBooking
	CanCheckIn    bool
}

// OwnBooking is a booking of the person looking at a poster, as the poster page tells it.
type OwnBooking struct {
	ID         uuid.UUID
	Start, End time.Time
	Status     Status
	CheckIn    Interval // when its check-in opens and closes
}

// Covers tells whether the booking holds the resource at t.
func (b OwnBooking) Covers(t time.Time) bool { return !t.Before(b.Start) && t.Before(b.End) }

// PosterStatus returns the status of the resource with the poster code now, for the kiosk and the poster
// page: as StatusByPosterCode, and who holds it until when, or how long a booking made now may last.
// Codes: 1002 no resource with that poster code in the actor's organization.
func (s *Service) PosterStatus(ctx context.Context, actor User, posterCode string) (PosterStatus, error) {
	res, err := s.resourceByPosterCode(ctx, actor.OrganizationID, posterCode)
	if err != nil {
		return PosterStatus{}, err
	}
	loc, err := Location(res.Floor.Building.Timezone)
	if err != nil {
		return PosterStatus{}, err
	}
	now := s.now()
	// From the primary: the page shows it beside the person's own booking, perhaps made a moment ago.
	st, err := s.statusAt(ctx, s.q, res, now)
	if err != nil {
		return PosterStatus{}, err
	}
	ps := PosterStatus{ResourceStatus: st.ResourceStatus, Location: loc, Now: now, Window: st.window}
	if !res.Bookable() {
		ps.State = PosterUnavailable
		return ps, nil
	}
	if err := s.ownBooking(ctx, actor, res, now, loc, &ps); err != nil {
		return PosterStatus{}, err
	}
	switch {
	case st.IsFree:
		ps.State, ps.BookFrom = PosterFree, now.Truncate(time.Minute)
		until, err := s.freeAcrossMidnight(ctx, res, *st.FreeUntil, st.window, ps.BookFrom, loc)
		if err != nil {
			return PosterStatus{}, err
		}
		if max := res.Rule.MaximumDuration; max > 0 && until.Sub(ps.BookFrom) > max {
			until = ps.BookFrom.Add(max)
		}
		ps.BookUntil = &until
		return ps, nil
	case st.covering == nil:
		ps.State = PosterClosed // outside today's window
		return ps, nil
	}
	cur, org := st.covering, actor.OrganizationID
	ps.State, ps.BookingStatus = PosterBusy, Status(cur.Status)
	end, err := s.q.BookingsRunEnd(ctx, queries.BookingsRunEndParams{FromDate: cur.EndDate, OrganizationID: org, ResourceID: res.ID})
	if err != nil {
		return PosterStatus{}, fmt.Errorf("get the end of the bookings back to back: %w", err)
	}
	ps.BusyUntil = &end
	if !res.Subcategory.HideBookings {
		u, err := s.q.UserGet(ctx, queries.UserGetParams{OrganizationID: org, ID: cur.OrganizerID})
		if err != nil {
			return PosterStatus{}, fmt.Errorf("get the organizer: %w", err)
		}
		by := userFromRow(u)
		ps.BookedBy = &by
	}
	return ps, nil
}

// freeAcrossMidnight returns the latest end of a walk-up booking from bookFrom, before the rule's maximum
// duration applies. That is freeUntil, unless the resource is free until the end of today's window and
// the rule's hours run across midnight: then the booking may run into the next day's window, until the
// first of its end, the next blocking booking, and MaxCrossingLength after bookFrom.
func (s *Service) freeAcrossMidnight(ctx context.Context, res Resource, freeUntil time.Time, window Interval, bookFrom time.Time, loc *time.Location) (time.Time, error) {
	if !freeUntil.Equal(window.End) {
		return freeUntil, nil
	}
	next := res.Rule.Window(window.End, loc)
	if !next.Start.Equal(window.End) || !next.End.After(next.Start) {
		return freeUntil, nil
	}
	until := earliest(next.End, bookFrom.Add(MaxCrossingLength))
	rows, err := s.q.BookingsBlockingAfter(ctx, queries.BookingsBlockingAfterParams{
		OrganizationID: res.OrganizationID, ResourceID: res.ID, After: window.End, Until: until,
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("get next bookings: %w", err)
	}
	if len(rows) > 0 {
		until = earliest(until, latest(window.End, rows[0].StartDate))
	}
	return until, nil
}

// ownBooking sets ps.Mine to the actor's booking of the resource that covers now, else their next one
// today, and ps.CanCheckIn to whether checking in now would succeed.
func (s *Service) ownBooking(ctx context.Context, actor User, res Resource, now time.Time, loc *time.Location, ps *PosterStatus) error {
	y, m, d := now.In(loc).Date()
	mine, err := s.q.BookingsOfUserAfter(ctx, queries.BookingsOfUserAfterParams{
		OrganizationID: actor.OrganizationID, ResourceID: res.ID, UserID: actor.ID, After: now,
		Until: time.Date(y, m, d+1, 0, 0, 0, 0, loc),
	})
	if err != nil {
		return fmt.Errorf("get own booking: %w", err)
	}
	if len(mine) > 0 {
		b := mine[0]
		ps.Mine = &OwnBooking{ID: b.ID, Start: b.StartDate, End: b.EndDate, Status: Status(b.Status),
			CheckIn: Interval{Start: b.CheckInOpensAt, End: b.CheckInClosesAt}}
	}
	open, err := s.q.BookingsToCheckIn(ctx, queries.BookingsToCheckInParams{
		OrganizationID: actor.OrganizationID, ResourceID: res.ID, UserID: actor.ID, At: now,
	})
	if err != nil {
		return fmt.Errorf("find booking to check in: %w", err)
	}
	ps.CanCheckIn = len(open) > 0 && Status(open[0].Status) == StatusPending
	return nil
}

// EndChoices returns the ends offered for a walk-up booking of a FREE resource: 30 minutes, 1 hour and
// 2 hours after BookFrom, those not after BookUntil, then the end of today's free time if later. The last
// one is preselected, so a walk-up booking holds a resource overnight only when asked to. It returns
// nothing unless the state is FREE.
func (p PosterStatus) EndChoices() []time.Time {
	if p.State != PosterFree || p.BookUntil == nil {
		return nil
	}
	var out []time.Time
	for _, d := range []time.Duration{30 * time.Minute, time.Hour, 2 * time.Hour} {
		if end := p.BookFrom.Add(d); end.Before(*p.BookUntil) {
			out = append(out, end)
		}
	}
	today := *p.BookUntil
	if p.FreeUntil != nil && p.FreeUntil.Before(today) {
		today = *p.FreeUntil
	}
	if len(out) == 0 || today.After(out[len(out)-1]) {
		out = append(out, today)
	}
	return out
}

// BookNow books the resource with the poster code for organizer, made by creator, from now (to the minute)
// until until: a walk-up booking at the kiosk or from a poster. The category is the resource's; the
// booking waits for approval when the resource's rule requires it.
// Codes: 1002 no resource with that poster code, or one that cannot be booked; 2000 until not after now;
// 4001 the resource is booked during part of that time; 4003, 4004 the rule refuses the end.
func (s *Service) BookNow(ctx context.Context, creator, organizer User, posterCode string, until time.Time, userAccessToken string) (Booking, error) {
	return s.bookNow(ctx, creator, organizer, posterCode, until, userAccessToken, false)
}

// BookNowAndCheckIn books the resource with the poster code for person as BookNow does, and checks them in
// in the same transaction when the booking's check-in is open at once: they are standing at it. The booking
// is ACTIVE then, else PENDING (check-in opens later) or WAITING_APPROVAL. Should the check-in fail, nothing
// is booked.
// Codes: as BookNow.
func (s *Service) BookNowAndCheckIn(ctx context.Context, person User, posterCode string, until time.Time) (Booking, error) {
	return s.bookNow(ctx, person, person, posterCode, until, "", true)
}

func (s *Service) bookNow(ctx context.Context, creator, organizer User, posterCode string, until time.Time, userAccessToken string, checkIn bool) (Booking, error) {
	res, err := s.resourceByPosterCode(ctx, creator.OrganizationID, posterCode)
	if err != nil {
		return Booking{}, err
	}
	start := s.now().Truncate(time.Minute)
	if !until.After(start) {
		return Booking{}, Errorf(CodeInvalidRequest, "the end has passed already: choose a later end")
	}
	bs, err := s.CreateBookings(ctx, CreateRequest{
		Creator: creator, Organizer: organizer, Category: res.Subcategory.Category,
		Bookings:        []NewBooking{{ResourceID: res.ID, Start: start, End: until, checkInNow: checkIn}},
		UserAccessToken: userAccessToken,
	})
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Index != nil {
			c := *e
			c.Index = nil // one booking: no element to name
			return Booking{}, &c
		}
		return Booking{}, err
	}
	return bs[0], nil
}

// UsesKiosk refuses everyone but receptionists and admins: the kiosk acts for anyone.
// Codes: 1001 anyone else.
func UsesKiosk(u User) error {
	if !u.Role.ActsForOthers() {
		return Errorf(CodeForbidden, "the kiosk is for reception: only receptionists and admins may use it")
	}
	return nil
}

// PrintsPosters refuses everyone but admins: they print the posters.
// Codes: 1001 anyone else.
func PrintsPosters(u User) error {
	if u.Role != RoleAdmin {
		return Errorf(CodeForbidden, "posters are printed by admins")
	}
	return nil
}

// PosterQuery names what to print posters for: every bookable resource of a floor, or one resource.
// Exactly one of the two is set.
type PosterQuery struct {
	FloorID    *uuid.UUID
	ResourceID *uuid.UUID
}

// PosterResources returns the resources to print posters for, complete with floor and building, by name,
// and their floor: the bookable resources of a visible floor, or one bookable resource.
// Codes: 1001 the actor is not an admin; 2000 neither or both of floor and resource; 1006 no such visible
// floor; 1002 no such bookable resource.
func (s *Service) PosterResources(ctx context.Context, actor User, q PosterQuery) (Floor, []Resource, error) {
	if err := PrintsPosters(actor); err != nil {
		return Floor{}, nil, err
	}
	org := actor.OrganizationID
	switch {
	case (q.FloorID == nil) == (q.ResourceID == nil):
		return Floor{}, nil, Errorf(CodeInvalidRequest, "choose either a floor or a resource")
	case q.ResourceID != nil:
		res, err := bookableResource(ctx, s.q, org, *q.ResourceID)
		if err != nil {
			return Floor{}, nil, err
		}
		return res.Floor, []Resource{res}, nil
	}
	f, err := s.q.FloorGet(ctx, queries.FloorGetParams{OrganizationID: org, ID: *q.FloorID})
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !f.Visible) {
		return Floor{}, nil, Errorf(CodeFloorNotFound, "no floor %s in your organization", *q.FloorID)
	}
	if err != nil {
		return Floor{}, nil, fmt.Errorf("get floor: %w", err)
	}
	b, err := s.visibleBuilding(ctx, org, f.BuildingID)
	if ErrorCode(err) == CodeBuildingNotFound {
		return Floor{}, nil, Errorf(CodeFloorNotFound, "no floor %s in your organization", *q.FloorID)
	}
	if err != nil {
		return Floor{}, nil, err
	}
	rows, err := s.q.ResourcesOfBuilding(ctx, queries.ResourcesOfBuildingParams{
		OrganizationID: org, BuildingID: f.BuildingID, FloorID: &f.ID, FeatureIds: []uuid.UUID{},
	})
	if err != nil {
		return Floor{}, nil, fmt.Errorf("list resources: %w", err)
	}
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = r.Resource.ID
	}
	rs, err := resourcesByID(ctx, s.q, org, ids)
	if err != nil {
		return Floor{}, nil, err
	}
	out := make([]Resource, 0, len(ids))
	for _, id := range ids {
		if res, ok := rs[id]; ok {
			out = append(out, res)
		}
	}
	return floorFromRow(f, b), out, nil
}

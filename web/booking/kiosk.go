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

// This file serves the reception kiosk and the printed posters: the status of a resource from its poster
// code, walk-up bookings starting now, and the list of resources to print posters for.

// PosterState is the current state of the resource a poster belongs to.
type PosterState string

// The states of a poster's resource.
const (
	PosterFree        PosterState = "FREE"        // bookable now, until FreeUntil
	PosterBusy        PosterState = "BUSY"        // a blocking booking covers the current time
	PosterClosed      PosterState = "CLOSED"      // outside today's bookable window, or a closure covers now (ClosedBy)
	PosterUnavailable PosterState = "UNAVAILABLE" // the resource, its floor or building is deactivated or hidden
)

// PosterStatus is what the kiosk, or a phone that scanned a poster, shows about a resource right now:
// its status (as from StatusByPosterCode) and what the user can do. Times are in Location, the
// building's time zone.
//
// When FREE, a walk-up booking may run from BookFrom (now, truncated to the minute) until BookUntil at
// the latest. BookUntil is FreeUntil, capped by the rule's maximum duration. If the resource is free
// until the end of today's window and the rule's hours run across midnight, BookUntil may reach into
// the next day's window.
//
// When BUSY, BusyUntil is the end of the booking that covers now, extended by any blocking bookings
// that follow it back to back. BookedBy is that booking's organizer, or nil if the subcategory hides
// bookings. Window is today's bookable window, or zero when UNAVAILABLE.
//
// Mine is the actor's booking of the resource that covers now, or else their next one today, or nil.
// CanCheckIn reports whether the actor could check in here now. CheckInOpen reports whether anybody
// could: some PENDING booking of the resource has its check-in window open.
//
// Held is set only by PosterStatusForSelf: the other desk the actor holds during the time a walk-up
// booking of this desk could take. A person holds one desk at a time, so BookUntil is then the start of
// that desk's booking, or nil when it has begun: nothing can be booked here now.
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
	BookingStatus Status // if BUSY: the status of the booking covering now
	Mine          *OwnBooking
	CanCheckIn    bool
	CheckInOpen   bool
	Held          *HeldWorkstation
}

// OwnBooking is a booking of the person looking at a poster, as the poster page shows it.
type OwnBooking struct {
	ID         uuid.UUID
	Start, End time.Time
	Status     Status
	CheckIn    Interval // when its check-in opens and closes
}

// Covers reports whether the booking holds the resource at t.
func (b OwnBooking) Covers(t time.Time) bool { return !t.Before(b.Start) && t.Before(b.End) }

// PosterStatus returns the current status of the resource with the given poster code, for the kiosk
// and the poster page. Beyond StatusByPosterCode it says who holds the resource and until when, or how
// long a booking made now may last.
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
	if ps.CheckInOpen, err = s.q.BookingCheckInOpen(ctx, queries.BookingCheckInOpenParams{
		OrganizationID: actor.OrganizationID, ResourceID: res.ID, At: now,
	}); err != nil {
		return PosterStatus{}, fmt.Errorf("find a booking to check in: %w", err)
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
		ps.State = PosterClosed // outside today's window, or closed (ClosedBy)
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

// PosterStatusForSelf is PosterStatus for the actor about to book the resource for themself, as from
// the poster on it. When the resource is a free workstation and the actor already holds another one
// during the time a walk-up booking could take, it sets Held and ends the booking offered where that
// one starts (see PosterStatus).
// Codes: as PosterStatus.
func (s *Service) PosterStatusForSelf(ctx context.Context, actor User, posterCode string) (PosterStatus, error) {
	ps, err := s.PosterStatus(ctx, actor, posterCode)
	if err != nil || ps.State != PosterFree || ps.BookUntil == nil || ps.Resource.Subcategory.Category != CategoryWorkstation {
		return ps, err
	}
	h, err := s.workstationHeld(ctx, actor, []Interval{{Start: ps.BookFrom, End: *ps.BookUntil}})
	if err != nil || h == nil {
		return ps, err
	}
	ps.Held, ps.BookUntil = h, nil
	if start := h.Interval.Start; start.After(ps.BookFrom) {
		ps.BookUntil = &start
	}
	return ps, nil
}

// freeAcrossMidnight returns the latest end of a walk-up booking starting at bookFrom, before the rule's
// maximum duration is applied. That is freeUntil, unless the resource is free until the end of today's
// window and the rule's hours run across midnight. Then the booking may run into the next day's window,
// and ends at the earliest of that window's end, the next blocking booking, and MaxCrossingLength after
// bookFrom.
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

// ownBooking sets ps.Mine to the actor's booking of the resource that covers now, or else their next one
// today. It sets ps.CanCheckIn to whether checking in now would succeed.
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

// EndChoices returns the end times offered for a walk-up booking of a FREE resource: 30 minutes, 1 hour
// and 2 hours after BookFrom, if before BookUntil, then the end of today's free time if that is later.
// The page preselects the last choice, so a walk-up booking runs overnight only if the user picks it.
// It returns nil unless the state is FREE.
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

// BookNow makes a walk-up booking at the kiosk or from a poster: creator books the resource with the
// given poster code for organizer, from now (truncated to the minute) until until. The booking takes the
// resource's category, and waits for approval if the resource's rule requires it.
// Codes: 1002 no resource with that poster code, or one that cannot be booked; 2000 until not after now;
// 4001 the resource is booked during part of that time; 4003, 4004 the rule refuses the end.
func (s *Service) BookNow(ctx context.Context, creator, organizer User, posterCode string, until time.Time, userAccessToken string) (Booking, error) {
	return s.bookNow(ctx, creator, organizer, posterCode, until, userAccessToken, false)
}

// BookNowAndCheckIn books the resource with the given poster code for person, as BookNow does. If the
// booking's check-in window is already open, it also checks person in, in the same transaction, since
// they are standing at the resource. The booking is then ACTIVE; otherwise it is PENDING (check-in
// opens later) or WAITING_APPROVAL. If the check-in fails, nothing is booked.
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
		return Booking{}, Refuse(CodeInvalidRequest, "refusal.kiosk.endPassed")
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
			c.Index = nil // the request had one booking, so the index tells the caller nothing
			return Booking{}, &c
		}
		return Booking{}, err
	}
	return bs[0], nil
}

// UsesKiosk allows only receptionists and admins, because the kiosk acts on behalf of anyone.
// Codes: 1001 any other role.
func UsesKiosk(u User) error {
	if !u.Role.ActsForOthers() {
		return Refuse(CodeForbidden, "refusal.kiosk.receptionOnly")
	}
	return nil
}

// PrintsPosters allows only admins, who print the posters.
// Codes: 1001 any other role.
func PrintsPosters(u User) error {
	if u.Role != RoleAdmin {
		return Refuse(CodeForbidden, "refusal.kiosk.postersAdminsOnly")
	}
	return nil
}

// PosterQuery says what to print posters for: every bookable resource on a floor, or one resource.
// Exactly one of the two fields must be set.
type PosterQuery struct {
	FloorID    *uuid.UUID
	ResourceID *uuid.UUID
}

// PosterResources returns the resources to print posters for and their floor: either the bookable
// resources of a visible floor, or one bookable resource. Each resource comes with its floor and
// building, and the list is ordered by name.
// Codes: 1001 the actor is not an admin; 2000 neither or both of floor and resource; 1006 no such visible
// floor; 1002 no such bookable resource.
func (s *Service) PosterResources(ctx context.Context, actor User, q PosterQuery) (Floor, []Resource, error) {
	if err := PrintsPosters(actor); err != nil {
		return Floor{}, nil, err
	}
	org := actor.OrganizationID
	switch {
	case (q.FloorID == nil) == (q.ResourceID == nil):
		return Floor{}, nil, Refuse(CodeInvalidRequest, "refusal.kiosk.floorOrResource")
	case q.ResourceID != nil:
		res, err := bookableResource(ctx, s.q, org, *q.ResourceID)
		if err != nil {
			return Floor{}, nil, err
		}
		return res.Floor, []Resource{res}, nil
	}
	f, err := s.q.FloorGet(ctx, queries.FloorGetParams{OrganizationID: org, ID: *q.FloorID})
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !f.Visible) {
		return Floor{}, nil, Refuse(CodeFloorNotFound, "refusal.kiosk.noFloor", map[string]any{"ID": q.FloorID.String()})
	}
	if err != nil {
		return Floor{}, nil, fmt.Errorf("get floor: %w", err)
	}
	b, err := s.visibleBuilding(ctx, org, f.BuildingID)
	if ErrorCode(err) == CodeBuildingNotFound {
		return Floor{}, nil, Refuse(CodeFloorNotFound, "refusal.kiosk.noFloor", map[string]any{"ID": q.FloorID.String()})
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

package booking

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/workspacebooking/booking/queries"
)

// ResourceStatus is what a poster scan shows: the resource, whether it is free now, and until when.
type ResourceStatus struct {
	Resource  Resource
	IsFree    bool
	FreeUntil *time.Time // set only if IsFree
	ClosedBy  *Closure   // the closure of the resource, its floor or its building that covers now, or nil
}

// StatusByPosterCode returns the current status of the resource with the given poster code. A resource
// is free if it, its floor and its building are activated and visible, the current time is inside today's
// bookable window (in the building's time zone), and no blocking booking or closure covers it. It stays
// free until the next blocking booking or closure starts or today's window ends, whichever comes first.
// Codes: 1002 no resource with that poster code in the actor's organization.
func (s *Service) StatusByPosterCode(ctx context.Context, actor User, posterCode string) (ResourceStatus, error) {
	if !utf8.ValidString(posterCode) || strings.ContainsRune(posterCode, 0) {
		return ResourceStatus{}, errUnstorableText // the same error the database would give
	}
	res, err := s.posterResource(ctx, actor.OrganizationID, posterCode)
	if err != nil {
		return ResourceStatus{}, err
	}
	if res == nil {
		return ResourceStatus{}, Refuse(CodeResourceNotFound, "refusal.booking.noPosterCode", map[string]any{"Code": strconv.Quote(posterCode)})
	}
	st, err := s.statusAt(ctx, s.reads, *res, s.now())
	return st.ResourceStatus, err
}

// resourceAt is the status of a resource at one moment, with the facts it was computed from.
type resourceAt struct {
	ResourceStatus
	window   Interval         // today's bookable window; zero if the resource is not bookable
	covering *queries.Booking // the blocking booking covering the moment, or nil
}

// statusAt returns the status of res at now, as described at StatusByPosterCode, using at most one query.
// q is s.reads where a little lag is harmless, or s.q where the caller shows the status beside the
// person's own booking.
func (s *Service) statusAt(ctx context.Context, q *queries.Queries, res Resource, now time.Time) (resourceAt, error) {
	st := resourceAt{ResourceStatus: ResourceStatus{Resource: res}}
	if !res.Bookable() {
		return st, nil
	}
	loc, err := Location(res.Floor.Building.Timezone)
	if err != nil {
		return resourceAt{}, err
	}
	st.window = res.Rule.Window(now, loc)
	closed, err := s.Closures(ctx, res, Interval{Start: now, End: latest(now.Add(time.Millisecond), st.window.End)})
	if err != nil {
		return resourceAt{}, err
	}
	if len(closed) > 0 && !closed[0].Start.After(now) {
		st.ClosedBy = &closed[0]
		return st, nil
	}
	if now.Before(st.window.Start) || !now.Before(st.window.End) {
		return st, nil
	}
	next, err := q.BookingsBlockingAfter(ctx, queries.BookingsBlockingAfterParams{
		OrganizationID: res.OrganizationID, ResourceID: res.ID, After: now, Until: st.window.End,
	})
	if err != nil {
		return resourceAt{}, fmt.Errorf("get next bookings: %w", err)
	}
	until := st.window.End
	if len(closed) > 0 {
		until = closed[0].Start
	}
	if len(next) > 0 {
		if !next[0].StartDate.After(now) {
			st.covering = &next[0]
			return st, nil
		}
		until = earliest(until, next[0].StartDate)
	}
	st.IsFree, st.FreeUntil = true, &until
	return st, nil
}

package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// ResourceStatus is what a poster scan shows: the resource, whether it is free now and until when.
type ResourceStatus struct {
	Resource  Resource
	IsFree    bool
	FreeUntil *time.Time // set when IsFree
}

// StatusByPosterCode returns the status of the resource with the poster code, now. A resource is free when
// it, its floor and its building are activated and visible, now lies inside today's window (in the
// building's time zone) and no blocking booking covers now; it stays free until the earlier of the next
// blocking booking's start and the end of today's window.
// Codes: 1002 no resource with that poster code in the actor's organization.
func (s *Service) StatusByPosterCode(ctx context.Context, actor User, posterCode string) (ResourceStatus, error) {
	row, err := s.q.ResourceGetByPosterCode(ctx, queries.ResourceGetByPosterCodeParams{
		OrganizationID: actor.OrganizationID, PosterCode: posterCode,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return ResourceStatus{}, Errorf(CodeResourceNotFound, "no resource with poster code %q", posterCode)
	}
	if err != nil {
		return ResourceStatus{}, fmt.Errorf("get resource by poster code: %w", err)
	}
	st := ResourceStatus{Resource: fullResource(row.Resource, row.Floor, row.Building, row.Subcategory, row.ResourceRule)}
	if !st.Resource.Bookable() {
		return st, nil
	}
	loc, err := s.location(row.Building.Timezone)
	if err != nil {
		return ResourceStatus{}, err
	}
	now := s.now()
	w := st.Resource.Rule.Window(now, loc)
	if now.Before(w.Start) || !now.Before(w.End) {
		return st, nil
	}
	next, err := s.q.BookingsBlockingAfter(ctx, queries.BookingsBlockingAfterParams{
		OrganizationID: actor.OrganizationID, ResourceID: st.Resource.ID, After: now, Until: w.End,
	})
	if err != nil {
		return ResourceStatus{}, fmt.Errorf("get next bookings: %w", err)
	}
	until := w.End
	if len(next) > 0 {
		if !next[0].StartDate.After(now) {
			return st, nil
		}
		until = next[0].StartDate
	}
	st.IsFree, st.FreeUntil = true, &until
	return st, nil
}

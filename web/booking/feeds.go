package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// The reads of calendar feeds: a person's own bookings, and a room's.

// MaxFeedEvents bounds the bookings one calendar feed lists.
const MaxFeedEvents = 2000

// maxFeedSpan bounds the interval a feed read covers.
const maxFeedSpan = 400 * 24 * time.Hour

// FeedEntry is a booking as a calendar feed shows it, with when it last changed.
type FeedEntry struct {
	Booking
	Changed time.Time
}

// BookingsForFeed returns the bookings of the organization's user userID, as organizer or internal
// attendee, that overlap [from, to): those that hold or held their resource, and those cancelled,
// rejected or expired less than 30 days ago by the database's clock (queries/feeds.sql). It returns at
// most max of them (1 to MaxFeedEvents), earliest first. An id that names nobody of the organization
// has no bookings.
// Codes: 2000 to not after from, a span over 400 days, or max out of bounds.
func (s *Service) BookingsForFeed(ctx context.Context, org, userID uuid.UUID, from, to time.Time, max int) ([]FeedEntry, error) {
	if err := checkFeedRead(from, to, max); err != nil {
		return nil, err
	}
	rows, err := s.q.BookingsOfUserForFeed(ctx, queries.BookingsOfUserForFeedParams{
		OrganizationID: org, UserID: userID, FromDate: from, ToDate: to, MaxRows: int32(max),
	})
	if err != nil {
		return nil, fmt.Errorf("list bookings for a feed: %w", err)
	}
	return s.feedEntries(ctx, org, rows)
}

// ResourceBookingsForFeed returns the room resourceID of the actor's organization and its bookings that
// overlap [from, to), as BookingsForFeed chooses them. The room must be visible to the organization's
// people, on a visible floor of a visible building, as on the floor plans.
// Codes: 1002 no such room visible in the actor's organization (a desk included); 2000 as BookingsForFeed.
func (s *Service) ResourceBookingsForFeed(ctx context.Context, actor User, resourceID uuid.UUID, from, to time.Time, max int) (Resource, []FeedEntry, error) {
	if err := checkFeedRead(from, to, max); err != nil {
		return Resource{}, nil, err
	}
	org := actor.OrganizationID
	rs, err := resourcesByID(ctx, s.q, org, []uuid.UUID{resourceID})
	if err != nil {
		return Resource{}, nil, err
	}
	res, ok := rs[resourceID]
	if !ok || !res.Visible || !res.Floor.Visible || !res.Floor.Building.Visible || res.Subcategory.Category != CategorySpace {
		return Resource{}, nil, Refuse(CodeResourceNotFound, "refusal.catalogue.noRoom", map[string]any{"ID": resourceID.String()})
	}
	rows, err := s.q.BookingsOfResourceForFeed(ctx, queries.BookingsOfResourceForFeedParams{
		OrganizationID: org, ResourceID: resourceID, FromDate: from, ToDate: to, MaxRows: int32(max),
	})
	if err != nil {
		return Resource{}, nil, fmt.Errorf("list a room's bookings for a feed: %w", err)
	}
	entries, err := s.feedEntries(ctx, org, rows)
	return res, entries, err
}

// checkFeedRead refuses a feed read of a bad interval or size.
// Codes: 2000.
func checkFeedRead(from, to time.Time, max int) error {
	switch {
	case !to.After(from):
		return FieldRefuse(CodeInvalidRequest, "to", "refusal.catalogue.feedToAfterFrom")
	case to.Sub(from) > maxFeedSpan:
		return FieldRefuse(CodeInvalidRequest, "to", "refusal.catalogue.feedSpan", map[string]any{
			"Days": fmt.Sprint(int(maxFeedSpan / (24 * time.Hour)))})
	case max < 1 || max > MaxFeedEvents:
		return FieldRefuse(CodeInvalidRequest, "max", "refusal.catalogue.feedMax", map[string]any{"Max": fmt.Sprint(MaxFeedEvents)})
	}
	return nil
}

// feedEntries turns rows into complete bookings with the time each last changed, in the same order.
func (s *Service) feedEntries(ctx context.Context, org uuid.UUID, rows []queries.Booking) ([]FeedEntry, error) {
	bs, err := s.hydrate(ctx, s.q, org, rows)
	if err != nil {
		return nil, err
	}
	out := make([]FeedEntry, len(bs))
	for i, b := range bs {
		out[i] = FeedEntry{Booking: b, Changed: rows[i].UpdatedAt}
	}
	return out, nil
}

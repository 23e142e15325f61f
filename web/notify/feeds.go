package notify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/notify/calendar"
)

// The calendar feeds: a person's own bookings at the secret address of their settings, and a room's
// bookings for the people of its organization.

// The window of the feeds: from FeedPast ago to FeedAhead from now.
const (
	FeedPast  = 30 * 24 * time.Hour
	FeedAhead = 180 * 24 * time.Hour
)

// PersonalFeed returns the calendar (RFC 5545) of the person whose feed secret is secret: their bookings
// as organizer or internal attendee in the feeds' window, at most booking.MaxFeedEvents, earliest first.
// Bookings cancelled, rejected or expired in the last 30 days are in it as cancelled events, so that
// calendars that copied them remove them. Its words are in the person's language: a calendar app reads
// the feed, not a person in a request.
// Errors: ErrUnknownLink for a secret that names nobody, or a person deactivated since.
func (s *Service) PersonalFeed(ctx context.Context, secret string) ([]byte, error) {
	if !plainSecret(secret) {
		return nil, ErrUnknownLink
	}
	r, err := s.q.NoticeSettingsByFeedSecret(ctx, secret)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, ErrUnknownLink
	}
	if err != nil {
		return nil, fmt.Errorf("find feed secret: %w", err)
	}
	u, err := s.bookings.UserByID(ctx, r.OrganizationID, r.UserID)
	if booking.ErrorCode(err) == booking.CodeUnauthorized {
		return nil, ErrUnknownLink // deleted or deactivated: the feed goes with the account
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	entries, err := s.bookings.BookingsForFeed(ctx, u.OrganizationID, u.ID, now.Add(-FeedPast), now.Add(FeedAhead), booking.MaxFeedEvents)
	if err != nil {
		return nil, err
	}
	words := lang.With(ctx, lang.Choose(u.UserLanguage, ""))
	events := make([]calendar.Event, 0, len(entries))
	for _, e := range entries {
		ev, err := s.feedEvent(e)
		if err != nil {
			return nil, err
		}
		ev.Summary, ev.Description = personalWords(words, e, u, s.cfg.BaseURL)
		ev.URL = e.OnlineMeetingURL
		events = append(events, ev)
	}
	return calendar.Feed("Workspace Booking: "+fullName(u), events)
}

// RoomFeed returns the calendar of a room of the actor's organization: its bookings in the feeds'
// window, chosen as PersonalFeed chooses them. Every event is called "Booked", with no organizer,
// subject or attendee: the floor plan shows colleagues no more than that. Its words are in the actor's
// language, who subscribes to it.
// Codes: 1002 no such room visible in the actor's organization.
func (s *Service) RoomFeed(ctx context.Context, actor booking.User, resourceID uuid.UUID) ([]byte, error) {
	now := s.now()
	res, entries, err := s.bookings.ResourceBookingsForFeed(ctx, actor, resourceID, now.Add(-FeedPast), now.Add(FeedAhead), booking.MaxFeedEvents)
	if err != nil {
		return nil, err
	}
	booked := lang.T(lang.With(ctx, lang.Choose(actor.UserLanguage, "")), "calendar.booked")
	events := make([]calendar.Event, 0, len(entries))
	for _, e := range entries {
		ev, err := s.feedEvent(e)
		if err != nil {
			return nil, err
		}
		// A UID of its own: the same booking may be in a person's own calendar, from their feed or
		// invitation, and the two must not be taken for one event.
		ev.UID = "room-" + ev.UID
		ev.Summary = booked
		events = append(events, ev)
	}
	return calendar.Feed(res.Name+", "+res.Floor.Building.Name, events)
}

// feedEvent returns the event of a booking with what every feed shows: when, where and its state.
func (s *Service) feedEvent(e booking.FeedEntry) (calendar.Event, error) {
	b := e.Booking
	zone, err := booking.Location(b.Resource.Floor.Building.Timezone)
	if err != nil {
		return calendar.Event{}, err
	}
	return calendar.Event{
		UID: s.bookingUID(b.ID), Sequence: int(b.Revision), Stamp: e.Changed,
		Start: b.Start, End: b.End, Zone: zone, Status: calendarStatus(b.Status),
		Location:    calendarLocation(b),
		Transparent: b.ResourceType == booking.CategoryWorkstation,
	}, nil
}

// personalWords returns the summary and description of a booking in the feed of u, in ctx's language:
// its subject (or the resource's name), and who organizes it when someone else does, its online meeting
// and its page.
func personalWords(ctx context.Context, e booking.FeedEntry, u booking.User, base string) (summary, description string) {
	b := e.Booking
	summary = b.Subject
	if strings.TrimSpace(summary) == "" {
		summary = b.Resource.Name
	}
	var lines []string
	switch b.Status {
	case booking.StatusWaitingApproval:
		lines = append(lines, lang.T(ctx, "calendar.waitingApproval"))
	case booking.StatusRejected:
		lines = append(lines, lang.T(ctx, "calendar.rejected"))
	case booking.StatusExpired:
		lines = append(lines, lang.T(ctx, "calendar.expired"))
	case booking.StatusCancelled:
		lines = append(lines, lang.T(ctx, "calendar.cancelled"))
	}
	if b.Organizer.ID != u.ID {
		lines = append(lines, lang.T(ctx, "calendar.organizedBy", map[string]any{"Name": fullName(b.Organizer)}))
	}
	if b.OnlineMeetingURL != "" {
		lines = append(lines, lang.T(ctx, "calendar.onlineMeeting", map[string]any{"URL": b.OnlineMeetingURL}))
	}
	if base != "" {
		lines = append(lines, lang.T(ctx, "calendar.details", map[string]any{"URL": strings.TrimSuffix(base, "/") + "/bookings/" + b.ID.String()}))
	}
	return summary, strings.Join(lines, "\n")
}

package booking

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// MaxSeriesListed is the largest number of series UserSeries returns.
const MaxSeriesListed = 100

// Series returns a series with its occurrences: every booking it made, in whatever status, and the days
// that have none. Only the people who may act on its bookings may see it (its organizer, its creator,
// the organization's receptionists and admins).
// Codes: 1011 no such series visible to the actor.
func (s *Service) Series(ctx context.Context, actor User, id uuid.UUID) (Series, error) {
	row, err := s.q.SeriesGet(ctx, queries.SeriesGetParams{OrganizationID: actor.OrganizationID, ID: id})
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && !mayAct(actor, row.OrganizationID, row.OrganizerID, row.CreatorID)) {
		return Series{}, seriesNotFound(id)
	}
	if err != nil {
		return Series{}, fmt.Errorf("get series: %w", err)
	}
	return s.seriesWithOccurrences(ctx, s.q, row)
}

// seriesNotFound is the refusal of a series id the actor may not see. Codes: 1011.
func seriesNotFound(id uuid.UUID) error {
	return Refuse(CodeBookingNotFound, "refusal.series.notFound", map[string]any{"ID": id.String()})
}

// UserSeries returns organizer's series that have not ended (their last day is yesterday in UTC or
// later, so that today in every zone is kept), the earliest first, at most MaxSeriesListed, without
// their occurrences. The caller has checked that the actor may act for organizer (ActingFor).
func (s *Service) UserSeries(ctx context.Context, organizer User) ([]Series, error) {
	since := DateOf(s.now().UTC()).AddDays(-1)
	rows, err := s.q.SeriesOfOrganizer(ctx, queries.SeriesOfOrganizerParams{
		OrganizationID: organizer.OrganizationID, OrganizerID: organizer.ID, Since: pgDate(since), MaxRows: MaxSeriesListed,
	})
	if err != nil {
		return nil, fmt.Errorf("list series: %w", err)
	}
	out := make([]Series, 0, len(rows))
	for _, row := range rows {
		sr, err := s.seriesOfRow(ctx, s.q, row)
		if err != nil {
			return nil, err
		}
		out = append(out, sr)
	}
	return out, nil
}

// seriesOfRow returns the series of row, with its people and resource, without occurrences.
func (s *Service) seriesOfRow(ctx context.Context, q *queries.Queries, row queries.BookingSeries) (Series, error) {
	org := row.OrganizationID
	users, err := q.UsersGetByIDs(ctx, queries.UsersGetByIDsParams{OrganizationID: org, Ids: distinct([]uuid.UUID{row.OrganizerID, row.CreatorID})})
	if err != nil {
		return Series{}, fmt.Errorf("get the people of a series: %w", err)
	}
	people := make(map[uuid.UUID]User, len(users))
	for _, u := range users {
		people[u.ID] = userFromRow(u)
	}
	layout, err := s.organizationLayout(ctx, org)
	if err != nil {
		return Series{}, err
	}
	res := Resource{ID: row.ResourceID, OrganizationID: org}
	if held, ok := layout.byID[row.ResourceID]; ok {
		res = *held
	}
	return Series{
		ID: row.ID, OrganizationID: org, Organizer: people[row.OrganizerID], Creator: people[row.CreatorID], Resource: res,
		Rule: SeriesRule{
			Weekdays: weekdaysOf(row.Weekdays), EveryWeeks: int(row.EveryWeeks), First: dateOfPg(row.FirstDate),
			Until: dateOfPg(row.UntilDate), Start: int(row.StartMinute), End: int(row.EndMinute),
		},
		Timezone: row.Timezone, Subject: row.Subject, Mode: SeriesMode(row.Mode), Status: row.Status, Revision: row.Revision,
	}, nil
}

// seriesWithOccurrences returns the series of row with its bookings and the days that have none.
func (s *Service) seriesWithOccurrences(ctx context.Context, q *queries.Queries, row queries.BookingSeries) (Series, error) {
	sr, err := s.seriesOfRow(ctx, q, row)
	if err != nil {
		return Series{}, err
	}
	loc, err := Location(sr.Timezone)
	if err != nil {
		return Series{}, err
	}
	rows, err := q.SeriesBookings(ctx, queries.SeriesBookingsParams{OrganizationID: sr.OrganizationID, SeriesID: sr.ID})
	if err != nil {
		return Series{}, fmt.Errorf("get the bookings of a series: %w", err)
	}
	bs, err := s.hydrate(ctx, q, sr.OrganizationID, rows)
	if err != nil {
		return Series{}, err
	}
	days, err := q.SeriesDays(ctx, queries.SeriesDaysParams{OrganizationID: sr.OrganizationID, SeriesID: sr.ID})
	if err != nil {
		return Series{}, fmt.Errorf("get the days of a series: %w", err)
	}
	sr.Occurrences = make([]SeriesOccurrence, 0, len(bs)+len(days))
	booked := make(map[Date]bool, len(bs))
	for i := range bs {
		d := DateOf(bs[i].Start.In(loc))
		booked[d] = true
		sr.Occurrences = append(sr.Occurrences, SeriesOccurrence{Date: d, Booking: &bs[i], Skipped: skippedDay(days, d)})
	}
	for _, d := range days {
		if day := dateOfPg(d.Day); !booked[day] && d.Code != nil {
			// The words were kept as they were said when the day was refused, in English.
			sr.Occurrences = append(sr.Occurrences, SeriesOccurrence{Date: day, Refused: &Error{Code: Code(*d.Code), Message: d.Detail}})
		}
	}
	sortOccurrences(sr.Occurrences)
	return sr, nil
}

// skippedDay reports whether day is recorded as skipped among days.
func skippedDay(days []queries.BookingSeriesDay, day Date) bool {
	for _, d := range days {
		if dateOfPg(d.Day) == day {
			return d.Kind == "SKIPPED"
		}
	}
	return false
}

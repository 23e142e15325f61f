package booking

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
)

// A neighbourhood is a zone of a floor given to a team; a resource whose centre lies in it belongs to it.
// One for its team only lets only the team's members organize bookings of its resources, whoever makes
// them (a receptionist at the kiosk too): a booking made, moved into it or changed there for anyone else
// is refused, and a search shows its resources as unavailable to them.

// checkTeamOnly refuses organizer as the organizer of a booking of res when res lies in a neighbourhood
// for its team only and organizer is in none of the teams of such neighbourhoods that hold it.
// Codes: 4001 naming the resource, the neighbourhood and its team.
func checkTeamOnly(ctx context.Context, q *queries.Queries, res Resource, organizer User) error {
	rows, err := q.NeighbourhoodsBarring(ctx, queries.NeighbourhoodsBarringParams{
		OrganizationID: res.OrganizationID, ResourceID: res.ID, UserID: organizer.ID,
	})
	if err != nil {
		return fmt.Errorf("check neighbourhoods: %w", err)
	}
	if len(rows) == 0 {
		return nil
	}
	return Refuse(CodeResourceNotAvailable, "refusal.booking.teamOnly", map[string]any{
		"Resource": res.Name, "Zone": rows[0].Name, "Team": rows[0].TeamName,
	})
}

// teamOnlyResources reads the ids of the organization's resources that lie in a neighbourhood for its team
// only, for the layout held in memory.
func teamOnlyResources(ctx context.Context, q *queries.Queries, org uuid.UUID) (map[uuid.UUID]bool, error) {
	ids, err := q.NeighbourhoodTeamOnlyResources(ctx, org)
	if err != nil {
		return nil, fmt.Errorf("list resources of neighbourhoods: %w", err)
	}
	out := make(map[uuid.UUID]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, nil
}

// barredFromSearch marks the results of resources that actor may not book because of a neighbourhood for
// its team only (markBarred).
func (s *Service) barredFromSearch(ctx context.Context, actor User, results []SearchResult) error {
	l, err := s.organizationLayout(ctx, actor.OrganizationID)
	if err != nil {
		return err
	}
	for i := range results {
		r := &results[i]
		if !l.teamOnly[r.Resource.ID] {
			continue
		}
		var why *Error
		if err := checkTeamOnly(ctx, s.q, r.Resource, actor); errors.As(err, &why) {
			markBarred(r, why)
		} else if err != nil {
			return err
		}
	}
	return nil
}

// markBarred makes every free day of r unavailable because of why, and r's state the worst of its days.
func markBarred(r *SearchResult, why *Error) {
	for j := range r.Days {
		if d := &r.Days[j]; d.State == SpotFree {
			d.State, d.Why, d.RefusalCode, d.Refusal, d.FreeUntil = SpotUnavailable, why, why.Code, why.Message, time.Time{}
		}
		if searchRank(r.Days[j].State) > searchRank(r.State) {
			r.State = r.Days[j].State
		}
	}
}

// Neighbourhood is a zone of a floor given to a team, as the floor plan draws it.
type Neighbourhood struct {
	ID       uuid.UUID
	Name     string
	TeamID   uuid.UUID
	TeamName string
	Area     MapCoordinates
	TeamOnly bool
}

// FloorNeighbourhoods lists the neighbourhoods of a floor of the actor's organization by name; a floor
// of another organization has none.
func (s *Service) FloorNeighbourhoods(ctx context.Context, actor User, floor uuid.UUID) ([]Neighbourhood, error) {
	rows, err := s.q.NeighbourhoodsOfFloor(ctx, queries.NeighbourhoodsOfFloorParams{OrganizationID: actor.OrganizationID, FloorID: floor})
	if err != nil {
		return nil, fmt.Errorf("list neighbourhoods: %w", err)
	}
	out := make([]Neighbourhood, len(rows))
	for i, r := range rows {
		out[i] = Neighbourhood{
			ID: r.ID, Name: r.Name, TeamID: r.TeamID, TeamName: r.TeamName, TeamOnly: r.TeamOnly,
			Area: MapCoordinates{TopLeftX: r.TopLeftX, TopLeftY: r.TopLeftY, BottomRightX: r.BottomRightX, BottomRightY: r.BottomRightY},
		}
	}
	return out, nil
}

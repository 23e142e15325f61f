package layout

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/outbox"
)

// Neighbourhoods are zones of a floor given to a team: a rectangle in the coordinates of the floor's plan
// (as a resource's), holding the resources whose centre lies in it. One for its team only lets only the
// team's members organize bookings there (web/booking checks it). Only admins change them; a change is a
// change of the layout, so bookings checked against the one before are checked again.

// Limits of neighbourhoods.
const (
	MaxNeighbourhoods          = 50  // on one floor
	MaxNeighbourhoodNameLength = 100 // characters
)

// Neighbourhood is a zone of a floor given to a team.
type Neighbourhood struct {
	ID       uuid.UUID
	FloorID  uuid.UUID
	TeamName string
	NeighbourhoodFields
}

// NeighbourhoodFields are what an admin sets of a neighbourhood.
type NeighbourhoodFields struct {
	TeamID   uuid.UUID
	Name     string
	Area     booking.MapCoordinates // TopLeft strictly above and left of BottomRight, within the plan's bounds
	TeamOnly bool
}

// CreateNeighbourhood adds a neighbourhood to a floor of the actor's organization.
// Codes: 1001 not an admin; 1013 no such floor; 2000 a bad field, a team of no such id, or the floor
// has MaxNeighbourhoods already.
func (s *Service) CreateNeighbourhood(ctx context.Context, actor booking.User, floor uuid.UUID, f NeighbourhoodFields) (uuid.UUID, error) {
	if err := requireAdmin(actor); err != nil {
		return uuid.Nil, err
	}
	f, err := normalizeNeighbourhood(f)
	if err != nil {
		return uuid.Nil, err
	}
	id, org := uuid.New(), actor.OrganizationID
	err = s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		if _, err := q.FloorGetForUpdate(ctx, queries.FloorGetForUpdateParams{OrganizationID: org, ID: floor}); errors.Is(err, pgx.ErrNoRows) {
			return booking.Refuse(booking.CodeObjectNotFound, "refusal.neighbourhood.noFloor", map[string]any{"ID": floor.String()})
		} else if err != nil {
			return fmt.Errorf("lock floor: %w", err)
		}
		if n, err := q.NeighbourhoodCount(ctx, queries.NeighbourhoodCountParams{OrganizationID: org, FloorID: floor}); err != nil {
			return fmt.Errorf("count neighbourhoods: %w", err)
		} else if n >= MaxNeighbourhoods {
			return booking.Refuse(booking.CodeInvalidRequest, "refusal.neighbourhood.tooMany", map[string]any{"Max": MaxNeighbourhoods})
		}
		if err := checkTeam(ctx, q, org, f.TeamID); err != nil {
			return err
		}
		if err := q.NeighbourhoodCreate(ctx, queries.NeighbourhoodCreateParams{
			OrganizationID: org, ID: id, FloorID: floor, TeamID: f.TeamID, Name: f.Name, TeamOnly: f.TeamOnly,
			TopLeftX: f.Area.TopLeftX, TopLeftY: f.Area.TopLeftY, BottomRightX: f.Area.BottomRightX, BottomRightY: f.Area.BottomRightY,
		}); err != nil {
			return fmt.Errorf("create neighbourhood: %w", err)
		}
		return touchAndAudit(ctx, q, actor, booking.AuditCreate, id, nil, f.audited(floor))
	})
	return id, err
}

// ChangeNeighbourhood changes a neighbourhood of the actor's organization.
// Codes: 1001; 1013 no such neighbourhood; 2000 as CreateNeighbourhood.
func (s *Service) ChangeNeighbourhood(ctx context.Context, actor booking.User, id uuid.UUID, f NeighbourhoodFields) error {
	if err := requireAdmin(actor); err != nil {
		return err
	}
	f, err := normalizeNeighbourhood(f)
	if err != nil {
		return err
	}
	org := actor.OrganizationID
	return s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		before, err := lockNeighbourhood(ctx, q, org, id)
		if err != nil {
			return err
		}
		if err := checkTeam(ctx, q, org, f.TeamID); err != nil {
			return err
		}
		if err := q.NeighbourhoodUpdate(ctx, queries.NeighbourhoodUpdateParams{
			OrganizationID: org, ID: id, TeamID: f.TeamID, Name: f.Name, TeamOnly: f.TeamOnly,
			TopLeftX: f.Area.TopLeftX, TopLeftY: f.Area.TopLeftY, BottomRightX: f.Area.BottomRightX, BottomRightY: f.Area.BottomRightY,
		}); err != nil {
			return fmt.Errorf("change neighbourhood: %w", err)
		}
		return touchAndAudit(ctx, q, actor, booking.AuditUpdate, id, before.NeighbourhoodFields.audited(before.FloorID), f.audited(before.FloorID))
	})
}

// DeleteNeighbourhood deletes a neighbourhood of the actor's organization; its resources stay.
// Codes: 1001; 1013 no such neighbourhood.
func (s *Service) DeleteNeighbourhood(ctx context.Context, actor booking.User, id uuid.UUID) error {
	if err := requireAdmin(actor); err != nil {
		return err
	}
	org := actor.OrganizationID
	return s.change(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		before, err := lockNeighbourhood(ctx, q, org, id)
		if err != nil {
			return err
		}
		if err := q.NeighbourhoodDelete(ctx, queries.NeighbourhoodDeleteParams{OrganizationID: org, ID: id}); err != nil {
			return fmt.Errorf("delete neighbourhood: %w", err)
		}
		return touchAndAudit(ctx, q, actor, booking.AuditDelete, id, before.NeighbourhoodFields.audited(before.FloorID), nil)
	})
}

// lockNeighbourhood reads a neighbourhood, locked until the transaction ends.
// Codes: 1013.
func lockNeighbourhood(ctx context.Context, q *queries.Queries, org, id uuid.UUID) (Neighbourhood, error) {
	r, err := q.NeighbourhoodGetForUpdate(ctx, queries.NeighbourhoodGetForUpdateParams{OrganizationID: org, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return Neighbourhood{}, booking.Refuse(booking.CodeObjectNotFound, "refusal.neighbourhood.notFound", map[string]any{"ID": id.String()})
	}
	if err != nil {
		return Neighbourhood{}, fmt.Errorf("lock neighbourhood: %w", err)
	}
	return Neighbourhood{ID: r.ID, FloorID: r.FloorID, NeighbourhoodFields: NeighbourhoodFields{
		TeamID: r.TeamID, Name: r.Name, TeamOnly: r.TeamOnly,
		Area: booking.MapCoordinates{TopLeftX: r.TopLeftX, TopLeftY: r.TopLeftY, BottomRightX: r.BottomRightX, BottomRightY: r.BottomRightY},
	}}, nil
}

// checkTeam refuses a team that is not the organization's.
// Codes: 2000.
func checkTeam(ctx context.Context, q *queries.Queries, org, team uuid.UUID) error {
	ok, err := q.NeighbourhoodTeamExists(ctx, queries.NeighbourhoodTeamExistsParams{OrganizationID: org, ID: team})
	if err != nil {
		return fmt.Errorf("find team: %w", err)
	}
	if !ok {
		return booking.FieldRefuse(booking.CodeInvalidRequest, "teamId", "refusal.neighbourhood.noTeam", map[string]any{"ID": team.String()})
	}
	return nil
}

// touchAndAudit marks the layout as changed and writes the change to the audit log.
func touchAndAudit(ctx context.Context, q *queries.Queries, actor booking.User, action booking.AuditAction, id uuid.UUID, before, after map[string]any) error {
	if err := q.OrganizationLayoutTouch(ctx, actor.OrganizationID); err != nil {
		return fmt.Errorf("mark layout changed: %w", err)
	}
	c := booking.Change{OrganizationID: actor.OrganizationID, By: booking.By(actor), Action: action, Object: "neighbourhoods", ObjectID: id, Before: before, After: after}
	e, err := c.Entry()
	if err != nil {
		return err
	}
	return insertAudit(ctx, q, e)
}

// normalizeNeighbourhood trims f and checks it.
// Codes: 2000 naming the bad field.
func normalizeNeighbourhood(f NeighbourhoodFields) (NeighbourhoodFields, error) {
	f.Name = strings.TrimSpace(f.Name)
	a := f.Area
	switch {
	case f.Name == "":
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "name", "refusal.neighbourhood.nameRequired")
	case utf8.RuneCountInString(f.Name) > MaxNeighbourhoodNameLength:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "name", "refusal.neighbourhood.nameTooLong", map[string]any{"Max": MaxNeighbourhoodNameLength})
	case a.TopLeftX < 0 || a.TopLeftY < 0 || a.BottomRightX > booking.MaxPlanUnits || a.BottomRightY > booking.MaxPlanUnits:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "area", "refusal.neighbourhood.outside", map[string]any{"Max": booking.MaxPlanUnits})
	case a.BottomRightX <= a.TopLeftX || a.BottomRightY <= a.TopLeftY:
		return f, booking.FieldRefuse(booking.CodeInvalidRequest, "area", "refusal.neighbourhood.empty")
	}
	return f, nil
}

func (f NeighbourhoodFields) audited(floor uuid.UUID) map[string]any {
	return map[string]any{
		"name": f.Name, "floorId": floor.String(), "teamId": f.TeamID.String(), "teamOnly": f.TeamOnly,
		"area": fmt.Sprintf("%d,%d – %d,%d", f.Area.TopLeftX, f.Area.TopLeftY, f.Area.BottomRightX, f.Area.BottomRightY),
	}
}

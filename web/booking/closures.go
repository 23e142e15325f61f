package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/lang"
)

// Bounds of closures.
const (
	// MaxClosureReason is the longest reason, in characters.
	MaxClosureReason = 200
	// MaxClosureLength is the longest time one closure may cover.
	MaxClosureLength = 400 * 24 * time.Hour
	// MaxOpenClosures is the largest number of closures an organization may have that have not ended
	// (or ended less than closureHorizon ago). The cached layout holds all of them.
	MaxOpenClosures = 5000
	// MaxKeptBookings is the largest number of bookings one closure may keep, and the largest number it
	// may cancel when it is saved.
	MaxKeptBookings = 1000
)

// closureHorizon is how long after its end a closure stays in the cached layout, so that searches of
// the day that has begun still show it.
const closureHorizon = 24 * time.Hour

// Closure takes a building, a floor or a resource out of service during [Start, End), for Reason.
// Exactly one of BuildingID, FloorID and ResourceID is set. No blocking booking overlaps a closure of
// its resource, floor or building, except the bookings in Kept: they existed when the closure was saved
// and the admin chose to keep them.
type Closure struct {
	ID, OrganizationID              uuid.UUID
	BuildingID, FloorID, ResourceID *uuid.UUID
	Start, End                      time.Time
	Reason                          string
	Kept                            []uuid.UUID
	CreatedAt                       time.Time
}

// Interval is the time the closure covers.
func (c Closure) Interval() Interval { return Interval{Start: c.Start, End: c.End} }

// Covers reports whether the closure applies to res: it closes res, its floor or its building.
func (c Closure) Covers(res *Resource) bool {
	switch {
	case c.ResourceID != nil:
		return *c.ResourceID == res.ID
	case c.FloorID != nil:
		return *c.FloorID == res.Floor.ID
	case c.BuildingID != nil:
		return *c.BuildingID == res.Floor.Building.ID
	}
	return false
}

// Keeps reports whether the booking with the given id was kept when the closure was saved.
func (c Closure) Keeps(booking uuid.UUID) bool { return slices.Contains(c.Kept, booking) }

// target is the id of the building, floor or resource the closure closes.
func (c Closure) target() uuid.UUID {
	for _, id := range []*uuid.UUID{c.ResourceID, c.FloorID, c.BuildingID} {
		if id != nil {
			return *id
		}
	}
	return uuid.Nil
}

// closedData is the data of the message refusal.closures.closed: name, res or a place it is in, is
// closed for c, in res's building's time zone.
func closedData(name string, res Resource, c Closure, now time.Time) map[string]any {
	return map[string]any{
		"Name": name, "When": ClosureSpanOf(c.Interval(), res.Floor.Building.Timezone, now), "Reason": c.Reason,
	}
}

// ClosureSpanOf says when a closure applies in the time zone named timezone, as a phrase for a message's
// data: whole days by their dates, "on Mon 23 Dec" or "from Mon 23 Dec to Fri 27 Dec", other times as
// SpanOf (lang.Period).
func ClosureSpanOf(iv Interval, timezone string, now time.Time) lang.PeriodOf {
	start, end := iv.local(timezone)
	return lang.PeriodOf{Start: start, End: end, Now: now}
}

// OverlapChoice says what saving a closure does with the blocking bookings it would cover.
type OverlapChoice string

// The choices. With OverlapAsk, a closure that covers bookings is refused (4016), so that the admin
// sees them and chooses.
const (
	OverlapAsk    OverlapChoice = ""
	OverlapCancel OverlapChoice = "CANCEL" // cancel them, as a cancellation does
	OverlapKeep   OverlapChoice = "KEEP"   // keep them: the closure does not cover them
)

// ClosureSpec is a closure to save, and what to do with the bookings it would cover. Kept and
// CreatedAt are ignored: saving keeps the bookings the stored closure already keeps.
type ClosureSpec struct {
	Closure
	Overlapping OverlapChoice
}

// Validate refuses a spec that is wrong on its own. Messages name the field as the import format does.
// Codes: 2000.
func (c ClosureSpec) Validate() error {
	n := 0
	for _, id := range []*uuid.UUID{c.BuildingID, c.FloorID, c.ResourceID} {
		if id != nil {
			n++
		}
	}
	if n != 1 {
		return FieldRefuse(CodeInvalidRequest, "buildingId", "refusal.closures.oneTarget")
	}
	if err := checkTimes(c.Interval(), "startDate", "endDate"); err != nil {
		return err
	}
	if c.End.Sub(c.Start) > MaxClosureLength {
		return FieldRefuse(CodeInvalidRequest, "endDate", "refusal.closures.tooLong", map[string]any{
			"Days": fmt.Sprint(int(MaxClosureLength / (24 * time.Hour)))})
	}
	reason := strings.TrimSpace(c.Reason)
	switch {
	case reason == "":
		return FieldRefuse(CodeInvalidRequest, "reason", "refusal.closures.reasonRequired")
	case !utf8.ValidString(reason) || strings.ContainsRune(reason, 0):
		return FieldRefuse(CodeInvalidRequest, "reason", "refusal.closures.reasonUnstorable")
	case utf8.RuneCountInString(reason) > MaxClosureReason:
		return FieldRefuse(CodeInvalidRequest, "reason", "refusal.closures.reasonTooLong", map[string]any{"Max": fmt.Sprint(MaxClosureReason)})
	}
	switch c.Overlapping {
	case OverlapAsk, OverlapCancel, OverlapKeep:
	default:
		return FieldRefuse(CodeInvalidRequest, "overlapping", "refusal.closures.overlappingInvalid", map[string]any{
			"Value": strconv.Quote(string(c.Overlapping))})
	}
	return nil
}

// targetField is the name of the field that names the closure's target.
func (c Closure) targetField() string {
	switch {
	case c.ResourceID != nil:
		return "resourceId"
	case c.FloorID != nil:
		return "floorId"
	}
	return "buildingId"
}

// OpenCountParams returns the parameters of the query that counts the organization's closures, other
// than c, that have not ended closureHorizon before now: those the cached layout holds.
func (c Closure) OpenCountParams(now time.Time) queries.ClosuresOpenCountParams {
	return queries.ClosuresOpenCountParams{OrganizationID: c.OrganizationID, After: now.Add(-closureHorizon), ID: c.ID}
}

// CheckOpenCount refuses c, when it has not ended, if the organization already has open closures
// (OpenCountParams) and may have no more.
// Codes: 2000.
func (c Closure) CheckOpenCount(open int64, now time.Time) error {
	if open >= MaxOpenClosures && c.End.After(now.Add(-closureHorizon)) {
		return FieldRefuse(CodeInvalidRequest, "endDate", "refusal.closures.tooManyOpen", map[string]any{"Count": fmt.Sprint(open)})
	}
	return nil
}

// ResolveOverlaps applies c.Overlapping to the blocking bookings c covers (listed with CoveredParams
// after the building's closure lock) and returns the bookings the closure keeps afterwards, and those to
// cancel: OverlapAsk refuses, OverlapCancel cancels them, OverlapKeep keeps them.
// Codes: 4016 bookings covered and no choice; 2000 more than MaxKeptBookings bookings to cancel or keep.
func (c ClosureSpec) ResolveOverlaps(covered []queries.ClosureBookingsCoveredRow, kept []uuid.UUID, now time.Time) (keep, cancel []uuid.UUID, err error) {
	if len(covered) == 0 {
		return kept, nil, nil
	}
	if c.Overlapping == OverlapAsk {
		return nil, nil, coversBookings(covered, now)
	}
	if len(covered) > MaxKeptBookings || c.Overlapping == OverlapKeep && len(kept)+len(covered) > MaxKeptBookings {
		return nil, nil, FieldRefuse(CodeInvalidRequest, c.targetField(), "refusal.closures.tooManyBookings", map[string]any{
			"Max": fmt.Sprint(MaxKeptBookings)})
	}
	ids := make([]uuid.UUID, len(covered))
	for i, b := range covered {
		ids[i] = b.ID
	}
	if c.Overlapping == OverlapKeep {
		return append(slices.Clone(kept), ids...), nil, nil
	}
	return kept, ids, nil
}

// UnknownTarget is the 2000 refusal of a closure whose building, floor or resource does not exist.
func (c Closure) UnknownTarget() error {
	return FieldRefuse(CodeInvalidRequest, c.targetField(), "refusal.closures.unknownTarget")
}

// coversBookings is the 4016 refusal of a closure that covers bookings: it says how many and names the
// first few.
func coversBookings(covered []queries.ClosureBookingsCoveredRow, now time.Time) error {
	const named = 3
	data := map[string]any{
		"Count": fmt.Sprint(len(covered)), "Max": fmt.Sprint(MaxKeptBookings),
		"List": coveredListOf{slices.Clone(covered[:min(named, len(covered))]), now},
	}
	switch {
	case len(covered) == 1:
		return Refuse(CodeClosureCoversBookings, "refusal.closures.coversOneBooking", data)
	case len(covered) > MaxKeptBookings:
		return Refuse(CodeClosureCoversBookings, "refusal.closures.coversMoreBookings", data)
	case len(covered) > named:
		return Refuse(CodeClosureCoversBookings, "refusal.closures.coversBookingsAndOthers", data)
	}
	return Refuse(CodeClosureCoversBookings, "refusal.closures.coversBookings", data)
}

// coveredListOf names the bookings a closure covers, as a phrase (lang.Phrase) for a refusal's data:
// "Desk 1.02 for Lucía Fernández from 09:00 to 18:00 Madrid time on Mon 23 Nov; …".
type coveredListOf struct {
	rows []queries.ClosureBookingsCoveredRow
	now  time.Time
}

func (l coveredListOf) In(ctx context.Context) string {
	parts := make([]string, len(l.rows))
	for i, b := range l.rows {
		parts[i] = lang.T(ctx, "refusal.closures.coveredBooking", map[string]any{
			"Resource": b.ResourceName, "Who": strings.TrimSpace(b.OrganizerName + " " + b.OrganizerSurname),
			"When": SpanOf(Interval{Start: b.StartDate, End: b.EndDate}, b.Timezone, l.now),
		})
	}
	return strings.Join(parts, "; ")
}

// ClosureOverlaps lists the blocking bookings that saving c would cover, earliest first: those the
// admin must choose to cancel or keep. Bookings the stored closure with c's id already keeps are left
// out. It lists at most MaxKeptBookings of them.
// Codes: 1001 the actor is not an admin; 2000 a bad field, or an unknown building, floor or resource.
func (s *Service) ClosureOverlaps(ctx context.Context, actor User, c ClosureSpec) ([]Booking, error) {
	if actor.Role != RoleAdmin {
		return nil, Refuse(CodeForbidden, "refusal.closures.forbidden")
	}
	c.OrganizationID = actor.OrganizationID
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if _, err := closureBuilding(ctx, s.q, c.Closure); err != nil {
		return nil, err
	}
	kept := []uuid.UUID{}
	if old, err := s.q.ClosureGet(ctx, queries.ClosureGetParams{OrganizationID: c.OrganizationID, ID: c.ID}); err == nil {
		kept = old.KeptBookingIds
	} else if !errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("get closure: %w", err)
	}
	covered, err := s.q.ClosureBookingsCovered(ctx, c.CoveredParams(kept, MaxKeptBookings))
	if err != nil {
		return nil, fmt.Errorf("list the bookings a closure covers: %w", err)
	}
	ids := make([]uuid.UUID, len(covered))
	for i, b := range covered {
		ids[i] = b.ID
	}
	return s.bookingsByID(ctx, c.OrganizationID, ids)
}

// closureBuilding returns the building of the closure's target.
// Codes: 2000 no such building, floor or resource in the organization.
func closureBuilding(ctx context.Context, q *queries.Queries, c Closure) (uuid.UUID, error) {
	building, err := q.ClosureBuilding(ctx, queries.ClosureBuildingParams{
		OrganizationID: c.OrganizationID, BuildingID: c.BuildingID, FloorID: c.FloorID, ResourceID: c.ResourceID,
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return uuid.Nil, c.UnknownTarget()
	}
	if err != nil {
		return uuid.Nil, fmt.Errorf("get the building of a closure: %w", err)
	}
	return building, nil
}

// CoveredParams returns the parameters of the query that lists the blocking bookings c covers, other
// than those kept, at most maxRows of them.
func (c Closure) CoveredParams(kept []uuid.UUID, maxRows int) queries.ClosureBookingsCoveredParams {
	return queries.ClosureBookingsCoveredParams{
		OrganizationID: c.OrganizationID, StartDate: c.Start, EndDate: c.End, BuildingID: c.BuildingID,
		FloorID: c.FloorID, ResourceID: c.ResourceID, Kept: kept, MaxRows: int32(maxRows),
	}
}

func closureFromRow(r queries.Closure) Closure {
	return Closure{
		ID: r.ID, OrganizationID: r.OrganizationID, BuildingID: r.BuildingID, FloorID: r.FloorID,
		ResourceID: r.ResourceID, Start: r.StartDate, End: r.EndDate, Reason: r.Reason,
		Kept: r.KeptBookingIds, CreatedAt: r.CreatedAt,
	}
}

// closures indexes the closures of an organization's layout by the id of the building, floor or
// resource they close.
type closures map[uuid.UUID][]Closure

func newClosures(rows []queries.Closure) closures {
	out := make(closures, len(rows))
	for _, r := range rows {
		c := closureFromRow(r)
		out[c.target()] = append(out[c.target()], c)
	}
	return out
}

// during returns the closures of res, its floor or its building that overlap iv, earliest first.
func (cs closures) during(res *Resource, iv Interval) []Closure {
	var out []Closure
	for _, id := range []uuid.UUID{res.ID, res.Floor.ID, res.Floor.Building.ID} {
		for _, c := range cs[id] {
			if c.Interval().Overlaps(iv) {
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, func(a, b Closure) int { return a.Start.Compare(b.Start) })
	return out
}

// closedFor refuses a booking of res during iv that a closure covers (4014), naming the first such
// closure and its reason.
func (cs closures) closedFor(res *Resource, iv Interval, now time.Time) error {
	if c := cs.during(res, iv); len(c) > 0 {
		return Refuse(CodeResourceClosed, "refusal.closures.closed", closedData(res.Name, *res, c[0], now))
	}
	return nil
}

// Closures returns the closures of the resource, of its floor or of its building that overlap iv,
// earliest first, from the cached layout.
func (s *Service) Closures(ctx context.Context, res Resource, iv Interval) ([]Closure, error) {
	l, err := s.organizationLayout(ctx, res.OrganizationID)
	if err != nil {
		return nil, err
	}
	return l.closures.during(&res, iv), nil
}

// checkMoveClosures refuses moving booking b to m when a closure of m's resource, floor or building
// covers the new time. It first takes the building's closure lock (shared) until the transaction ends,
// and then reads the closures, so a closure saved meanwhile is seen. A closure that kept b lets b stay,
// or get shorter, on its resource, but not grow into more of the closure.
// Codes: 4014.
func checkMoveClosures(ctx context.Context, q *queries.Queries, b Booking, m move, now time.Time) error {
	if err := q.ClosureLockBuildingShared(ctx, m.res.Floor.Building.ID); err != nil {
		return fmt.Errorf("lock the building's closures: %w", err)
	}
	rows, err := q.ClosuresCovering(ctx, queries.ClosuresCoveringParams{
		OrganizationID: b.OrganizationID, StartDate: m.iv.Start, EndDate: m.iv.End,
		ResourceID: &m.res.ID, FloorID: &m.res.Floor.ID, BuildingID: &m.res.Floor.Building.ID,
	})
	if err != nil {
		return fmt.Errorf("list closures: %w", err)
	}
	old := Interval{Start: b.Start, End: b.End}
	within := m.res.ID == b.Resource.ID && !m.iv.Start.Before(old.Start) && !m.iv.End.After(old.End)
	for _, r := range rows {
		c := closureFromRow(r)
		if c.Keeps(b.ID) && within {
			continue
		}
		return Refuse(CodeResourceClosed, "refusal.closures.closed", closedData(m.res.Name, m.res, c, now))
	}
	return nil
}

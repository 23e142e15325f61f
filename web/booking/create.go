package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/outbox"
)

// MaxBookingsPerRequest is the largest number of bookings one CreateBookings request may hold.
const MaxBookingsPerRequest = 100

// CreateRequest asks CreateBookings for one or more bookings of the same category, made by Creator on
// behalf of Organizer.
type CreateRequest struct {
	Creator, Organizer User
	Category           Category
	Bookings           []NewBooking

	// UserAccessToken is Creator's token from the identity provider, or empty. If set, it is stored as
	// Creator's token in the same transaction as the bookings (see KeepUserAccessToken). Nothing is stored
	// when the request is refused or answered with bookings from an earlier run.
	UserAccessToken string
	// IdempotencyKey is Creator's Idempotency-Key for this request, or empty. The caller has already
	// claimed it with ClaimIdempotencyKey. The new bookings are recorded on the key in the same
	// transaction. If the key already has bookings (an earlier run committed but its response was lost),
	// CreateBookings returns those and creates nothing.
	IdempotencyKey string
}

// CreateBookings creates every booking in the request, with the services each element orders, or none. It checks and inserts the elements in
// order; the first element that fails decides the error, which carries that element's index. A new
// booking is PENDING, or WAITING_APPROVAL if its resource's rule requires approval.
//
// Codes: 2000 an invalid element, too many elements, more than MaxAttendees attendees on one element, an
// attendee listed twice (the same user, or the same e-mail address in any case), or a UserAccessToken too
// long; 1002 an unknown, deactivated or hidden resource; 4006 a resource of the other category; 4012 an
// all-day booking the rule does not allow; 4002, 4003, 4004, 4005 the resource's rule refuses the
// interval; 4014 a closure of the resource, its floor or its building covers part of the interval; 1003
// an internal attendee who is not a user of the organization; 4001 the interval overlaps a blocking
// booking or an earlier element, or the resource is in a neighbourhood for a team the organizer is not
// in; 4079, 1043, 4078, 4077, 4072 a service of an element is refused as ContractReservables refuses it
// (a quantity above MaxOrderQuantity is 4078, too many services or a comment too long 2000); 4013 a
// workstation for an organizer who already holds one during part of the interval (booked before, or in
// an earlier element); 5030 the layout kept changing meanwhile.
func (s *Service) CreateBookings(ctx context.Context, r CreateRequest) ([]Booking, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	if made, ok, err := s.madeBefore(ctx, r); ok || err != nil {
		return made, err
	}
	known, err := s.knownUsers(ctx, r.Creator.OrganizationID, internalAttendees(r.Bookings))
	if err != nil {
		return nil, err
	}
	token, err := s.sealUserAccessToken(ctx, r.Creator, r.UserAccessToken)
	if err != nil {
		return nil, err
	}
	out, err := s.withCurrentLayout(ctx, r.Creator.OrganizationID, func(layout *orgLayout) ([]Booking, error) {
		// Checking fills in defaults and all-day intervals in place, so each attempt starts from a fresh
		// copy of the request's elements.
		return s.createBookings(ctx, &creation{
			CreateRequest: r, elements: slices.Clone(r.Bookings), layout: layout, known: known, token: token, now: s.now(),
		})
	})
	if err != nil {
		return nil, err
	}
	s.counts.created.Add(int64(len(out)))
	return out, nil
}

// check refuses a request that is wrong as a whole: a token that is too long, no elements, or too many
// elements. Codes: 2000.
func (r CreateRequest) check() error {
	if err := CheckUserAccessToken(r.UserAccessToken); err != nil {
		return err
	}
	if len(r.Bookings) == 0 {
		return Refuse(CodeInvalidRequest, "refusal.booking.emptyList")
	}
	if len(r.Bookings) > MaxBookingsPerRequest {
		return Refuse(CodeInvalidRequest, "refusal.booking.tooManyBookings", map[string]any{"Max": MaxBookingsPerRequest})
	}
	return nil
}

// madeBefore returns the bookings already recorded on the request's idempotency key, and reports whether
// there were any.
func (s *Service) madeBefore(ctx context.Context, r CreateRequest) ([]Booking, bool, error) {
	if r.IdempotencyKey == "" {
		return nil, false, nil
	}
	org := r.Creator.OrganizationID
	made, err := s.q.IdempotencyKeyBookings(ctx, queries.IdempotencyKeyBookingsParams{OrganizationID: org, UserID: r.Creator.ID, Key: r.IdempotencyKey})
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, false, fmt.Errorf("get the bookings of an idempotency key: %w", err)
	}
	if len(made) == 0 {
		return nil, false, nil
	}
	bs, err := s.bookingsByID(ctx, org, made)
	return bs, true, err
}

// internalAttendees returns the user IDs of every element's internal attendees, so that they can be
// looked up in one query. It skips elements with too many attendees: those are refused later, in turn.
func internalAttendees(reqs []NewBooking) []uuid.UUID {
	var ids []uuid.UUID
	for _, r := range reqs {
		if checkAttendeeCount(r) != nil {
			continue
		}
		for _, a := range r.InternalAttendees {
			ids = append(ids, a.UserID)
		}
	}
	return ids
}

// creation holds the state of one attempt of CreateBookings against one version of the organization's
// layout.
type creation struct {
	CreateRequest
	elements []NewBooking                      // a copy of the request's elements; checking fills in defaults
	layout   *orgLayout                        // the layout the elements are checked against
	known    map[uuid.UUID]bool                // internal attendees who are users of the organization
	token    *queries.UserAccessTokenPutParams // Creator's encrypted token to store, or nil
	now      time.Time
	series   *uuid.UUID // the series the bookings are occurrences of, or nil
}

// createBookings checks and inserts every element of c, all or none. If the organization's layout has
// changed since c.layout was read, it writes nothing and returns errLayoutChanged.
func (s *Service) createBookings(ctx context.Context, c *creation) ([]Booking, error) {
	out := make([]Booking, len(c.elements))
	atomically := s.inTxTelling
	if c.oneStatement() {
		// A single INSERT is atomic on its own, its event included. Skipping BEGIN and COMMIT saves two
		// round trips on the most common request.
		atomically = func(_ context.Context, fn func(*queries.Queries, *outbox.Batch) error) error {
			return Retried(func() error { return fn(s.q, &outbox.Batch{}) })
		}
	}
	err := atomically(ctx, func(q *queries.Queries, ev *outbox.Batch) error {
		// Check and insert each element before moving to the next, so that the first failing element
		// decides the error, whether a check or the no-overlap constraint refuses it.
		for i := range c.elements {
			b, err := s.createElement(ctx, q, c, i)
			if err != nil {
				return err
			}
			out[i] = b // its event was recorded with it, by BookingInsert
		}
		if err := putUserAccessToken(ctx, q, c.token); err != nil {
			return err
		}
		return recordOnIdempotencyKey(ctx, q, c.CreateRequest, out)
	})
	if err != nil {
		return nil, s.nameHeldWorkstation(ctx, err)
	}
	return out, nil
}

// oneStatement reports whether c writes a single row: one booking with no attendees, no services, no
// check-in, no token and no idempotency key.
func (c *creation) oneStatement() bool {
	e := c.elements
	return len(e) == 1 && len(e[0].InternalAttendees)+len(e[0].ExternalAttendees)+len(e[0].Reservables) == 0 && !e[0].checkInNow &&
		c.token == nil && c.IdempotencyKey == ""
}

// createElement checks element i of c and inserts it with its attendees. If the element asks to check
// in now and the check-in window is open, the booking is made ACTIVE.
func (s *Service) createElement(ctx context.Context, q *queries.Queries, c *creation, i int) (Booking, error) {
	res, checkIn, err := s.checkElement(c.elements, i, c.Organizer, c.Category, c.layout.byID, c.known, c.now)
	if err != nil {
		return Booking{}, AtIndex(err, i)
	}
	r := &c.elements[i]
	if err := c.layout.closures.closedFor(&res, Interval{Start: r.Start, End: r.End}, c.now); err != nil {
		return Booking{}, AtIndex(err, i)
	}
	if c.layout.teamOnly[res.ID] {
		if err := checkTeamOnly(ctx, q, res, c.Organizer); err != nil {
			return Booking{}, AtIndex(err, i)
		}
	}
	b := Booking{
		ID: uuid.Must(uuid.NewV7()), OrganizationID: c.Creator.OrganizationID, Start: r.Start, End: r.End,
		Status: StatusPending, AccessControlType: res.Rule.AccessControlType, Creator: c.Creator,
		Organizer: c.Organizer, Resource: res, Subject: r.Subject, Body: r.Body, Importance: r.Importance,
		ResourceType: c.Category, BuildingAccessStatus: BuildingAccessPending, CreateOnlineMeeting: r.CreateOnlineMeeting,
		SipAddress: r.SipAddress, AllDay: r.AllDay, CheckIn: checkIn, Reservables: []BookingReservable{}, SeriesID: c.series,
	}
	b.OnlineMeetingURL = s.meetingURL(b.ID, b.CreateOnlineMeeting)
	if res.Rule.RequiresApproval {
		b.Status = StatusWaitingApproval
	}
	// BookingInsert writes the booking's event itself, taking its state from the row it inserts. The id
	// is a plain uuid.UUID, not a pointer: pgx encodes a *uuid.UUID through its driver.Valuer (text,
	// parsed back), which cost about 5% of a booking's server time with the outbox on.
	// An occurrence of a series records no event of its own: the series is told as one, with one
	// invitation that repeats, not one e-mail per day.
	withEvent := !s.silent && c.series == nil
	var eventID uuid.UUID
	if withEvent {
		eventID = outbox.NewID()
	}
	n, err := q.BookingInsert(ctx, queries.BookingInsertParams{
		OrganizationID: b.OrganizationID, LayoutVersion: c.layout.version, BuildingID: res.Floor.Building.ID, ID: b.ID, ResourceID: res.ID,
		FloorID: res.Floor.ID, CreatorID: c.Creator.ID, OrganizerID: c.Organizer.ID, StartDate: b.Start,
		EndDate: b.End, Status: string(b.Status), AccessControlType: b.AccessControlType, Subject: b.Subject,
		BodyContent: b.Body.Content, BodyType: b.Body.BodyType, Importance: b.Importance,
		ResourceType: string(c.Category), BuildingAccessStatus: b.BuildingAccessStatus,
		CreateOnlineMeeting: b.CreateOnlineMeeting, SipAddress: b.SipAddress,
		AllDay: b.AllDay, CheckInOpensAt: checkIn.Start, CheckInClosesAt: checkIn.End,
		WithEvent: withEvent, EventID: eventID, EventKind: string(outbox.Created), EventAt: c.now, SeriesID: c.series,
	})
	switch {
	case isWorkstationHeld(err):
		return Booking{}, &errWorkstationHeld{person: c.Organizer, iv: Interval{Start: b.Start, End: b.End}, index: &i}
	case isExclusionViolation(err):
		s.counts.conflicts.Add(1)
		return Booking{}, AtIndex(Refuse(CodeResourceNotAvailable, "refusal.booking.alreadyBooked", map[string]any{"Resource": res.Name}), i)
	case n == 0 && err == nil, movedFloor(err):
		return Booking{}, errLayoutChanged // the insert writes no row if c's layout is no longer current
	case err != nil:
		return Booking{}, fmt.Errorf("insert booking: %w", err)
	}
	if err := insertAttendees(ctx, q, b.OrganizationID, b.ID, *r); err != nil {
		return Booking{}, err
	}
	if len(r.Reservables) > 0 {
		if b.Reservables, err = contractNew(ctx, q, b, r.Reservables, c.now); err != nil {
			return Booking{}, AtIndex(err, i)
		}
	}
	if r.checkInNow && b.Status == StatusPending && !c.now.Before(checkIn.Start) && c.now.Before(checkIn.End) {
		return setStatus(ctx, q, b, StatusActive, c.now)
	}
	return b, nil
}

// recordOnIdempotencyKey records the bookings made on the request's idempotency key, if it has one.
func recordOnIdempotencyKey(ctx context.Context, q *queries.Queries, r CreateRequest, made []Booking) error {
	if r.IdempotencyKey == "" {
		return nil
	}
	ids := make([]uuid.UUID, len(made))
	for i, b := range made {
		ids[i] = b.ID
	}
	err := q.IdempotencyKeySetBookings(ctx, queries.IdempotencyKeySetBookingsParams{
		OrganizationID: r.Creator.OrganizationID, UserID: r.Creator.ID, Key: r.IdempotencyKey, BookingIds: ids,
	})
	if err != nil {
		return fmt.Errorf("record the bookings of an idempotency key: %w", err)
	}
	return nil
}

// bookingsByID returns the organization's bookings with the given ids, with their attendees and
// reservables, in the order of ids.
func (s *Service) bookingsByID(ctx context.Context, org uuid.UUID, ids []uuid.UUID) ([]Booking, error) {
	rows, err := s.q.BookingsGetByIDs(ctx, queries.BookingsGetByIDsParams{OrganizationID: org, Ids: ids})
	if err != nil {
		return nil, fmt.Errorf("get bookings: %w", err)
	}
	at := make(map[uuid.UUID]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	slices.SortFunc(rows, func(a, b queries.Booking) int { return at[a.ID] - at[b.ID] })
	return s.hydrate(ctx, s.q, org, rows)
}

// checkElement fills in the defaults of element i and runs every check that needs no other booking: its
// fields, its resource, the resource's rule, overlaps with earlier elements of the request, and its
// internal attendees. An all-day element gets the start and end of its day. It returns the resource and
// the booking's check-in window.
func (s *Service) checkElement(reqs []NewBooking, i int, organizer User, category Category, resources map[uuid.UUID]*Resource, known map[uuid.UUID]bool, now time.Time) (Resource, Interval, error) {
	r := &reqs[i]
	if err := r.normalize(); err != nil {
		return Resource{}, Interval{}, err
	}
	if err := s.checkOnlineMeeting(*r); err != nil {
		return Resource{}, Interval{}, err
	}
	held, ok := resources[r.ResourceID]
	if !ok || !held.Bookable() {
		return Resource{}, Interval{}, Refuse(CodeResourceNotFound, "refusal.booking.noBookableResource", map[string]any{"ID": r.ResourceID.String()})
	}
	res := *held
	if err := checkCategory(res, category); err != nil {
		return Resource{}, Interval{}, err
	}
	loc, err := Location(res.Floor.Building.Timezone)
	if err != nil {
		return Resource{}, Interval{}, err
	}
	rule := res.Rule
	if r.AllDay {
		iv, err := rule.AllDay(r.Start, now, loc)
		if err != nil {
			return Resource{}, Interval{}, err
		}
		r.Start, r.End = iv.Start, iv.End
		rule.MaximumDuration = 0 // a rule that allows all-day bookings allows their length
	}
	iv := Interval{Start: r.Start, End: r.End}
	if err := rule.CheckInterval(iv, now, loc); err != nil {
		return Resource{}, Interval{}, err
	}
	for j := range i {
		if reqs[j].ResourceID == r.ResourceID && iv.Overlaps(Interval{Start: reqs[j].Start, End: reqs[j].End}) {
			return Resource{}, Interval{}, Refuse(CodeResourceNotAvailable, "refusal.booking.overlapsElement", map[string]any{"Index": j})
		}
	}
	// Every element is booked for the same organizer, so two workstations in one request must not overlap.
	if category == CategoryWorkstation {
		for j := range i {
			other := Interval{Start: reqs[j].Start, End: reqs[j].End}
			if iv.Overlaps(other) {
				return Resource{}, Interval{}, Refuse(CodeUserAlreadyHasWorkstation, "refusal.booking.alreadyHasInRequest", map[string]any{
					"Person": FullName(organizer), "Resource": resources[reqs[j].ResourceID].Name,
					"When": SpanOf(other, resources[reqs[j].ResourceID].Floor.Building.Timezone, now), "Index": j})
			}
		}
	}
	for j, a := range r.InternalAttendees {
		if !known[a.UserID] {
			return Resource{}, Interval{}, FieldRefuse(CodeUserNotFound, fmt.Sprintf("internalAttendees[%d]", j), "refusal.booking.noUser", map[string]any{"ID": a.UserID.String()})
		}
	}
	return res, rule.CheckInWindow(iv, r.AllDay, now, loc), nil
}

// knownUsers returns the set of ids that belong to users of the organization.
func (s *Service) knownUsers(ctx context.Context, org uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]bool, error) {
	known := make(map[uuid.UUID]bool, len(ids))
	if len(ids) == 0 {
		return known, nil
	}
	users, err := s.q.UsersGetByIDs(ctx, queries.UsersGetByIDsParams{OrganizationID: org, Ids: distinct(ids)})
	if err != nil {
		return nil, fmt.Errorf("get attendees: %w", err)
	}
	for _, u := range users {
		known[u.ID] = true
	}
	return known, nil
}

func insertAttendees(ctx context.Context, q *queries.Queries, org, bookingID uuid.UUID, r NewBooking) error {
	pos := int32(0)
	for _, a := range r.InternalAttendees {
		id := a.UserID
		if err := q.BookingAttendeeInsert(ctx, queries.BookingAttendeeInsertParams{
			OrganizationID: org, BookingID: bookingID, Position: pos, Type: a.Type, UserID: &id,
		}); err != nil {
			return fmt.Errorf("insert attendee: %w", err)
		}
		pos++
	}
	for _, a := range r.ExternalAttendees {
		email := a.Email
		if err := q.BookingAttendeeInsert(ctx, queries.BookingAttendeeInsertParams{
			OrganizationID: org, BookingID: bookingID, Position: pos, Type: a.Type, Email: &email,
		}); err != nil {
			return fmt.Errorf("insert attendee: %w", err)
		}
		pos++
	}
	return nil
}

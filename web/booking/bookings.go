package booking

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// The page sizes of listings.
const (
	DefaultPageSize = 20
	MaxPageSize     = 100
)

// Page asks for one page of a listing: at most Limit items (DefaultPageSize if 0) after Cursor. Cursor
// is empty for the first page, and the previous page's NextCursor after that.
type Page struct {
	Limit  int
	Cursor string
}

// BookingPage is one page of bookings. NextCursor is empty on the last page.
type BookingPage struct {
	Bookings   []Booking
	NextCursor string
}

// BookingFilter narrows a user's bookings. If From or To is set, only bookings that overlap [From, To)
// are listed; if Statuses is not empty, only bookings in one of those statuses.
type BookingFilter struct {
	From, To *time.Time
	Statuses []Status
	Page     Page
}

// Statuses lists every booking status.
func Statuses() []Status {
	return []Status{StatusWaitingApproval, StatusPending, StatusActive, StatusFinished, StatusExpired,
		StatusCancelled, StatusRejected}
}

// canAct reports whether u may act on the booking in row b (see mayAct).
func canAct(u User, b queries.Booking) bool {
	return mayAct(u, b.OrganizationID, b.OrganizerID, b.CreatorID)
}

// mayAct reports whether u may act on a booking of org with the given organizer and creator. The
// organizer, the creator, and the organization's receptionists and admins may.
func mayAct(u User, org, organizer, creator uuid.UUID) bool {
	return org == u.OrganizationID && (organizer == u.ID || creator == u.ID || u.Role.ActsForOthers())
}

// Booking returns one booking with its contracted reservables. Only people who may act on the booking
// and its internal attendees may see it.
// Codes: 1011 no such booking visible to the actor.
func (s *Service) Booking(ctx context.Context, actor User, id uuid.UUID) (Booking, error) {
	org := actor.OrganizationID
	row, err := s.q.BookingGet(ctx, queries.BookingGetParams{OrganizationID: org, ID: id})
	if errors.Is(err, pgx.ErrNoRows) {
		return Booking{}, notFound(id)
	}
	if err != nil {
		return Booking{}, fmt.Errorf("get booking: %w", err)
	}
	if !canAct(actor, row) {
		attends, err := s.q.BookingHasAttendee(ctx, queries.BookingHasAttendeeParams{OrganizationID: org, BookingID: id, UserID: actor.ID})
		if err != nil {
			return Booking{}, fmt.Errorf("get attendee: %w", err)
		}
		if !attends {
			return Booking{}, notFound(id)
		}
	}
	bs, err := s.hydrate(ctx, s.q, org, []queries.Booking{row})
	if err != nil {
		return Booking{}, err
	}
	return bs[0], nil
}

func notFound(id uuid.UUID) error {
	return Refuse(CodeBookingNotFound, "refusal.booking.noBooking", map[string]any{"ID": id.String()})
}

// UserBookings lists the bookings of user (as organizer or internal attendee), newest start first.
// The actor must be allowed to act for user (see ActingFor).
// Codes: 2000 a bad filter, page size or cursor, or To not after From.
func (s *Service) UserBookings(ctx context.Context, user User, f BookingFilter) (BookingPage, error) {
	limit, after, err := f.Page.read()
	if err != nil {
		return BookingPage{}, err
	}
	for name, t := range map[string]*time.Time{"from": f.From, "to": f.To} {
		if t != nil && (t.Before(MinTime) || t.After(MaxTime)) {
			return BookingPage{}, FieldRefuse(CodeInvalidRequest, name, "refusal.booking.years")
		}
	}
	if f.From != nil && f.To != nil && !f.To.After(*f.From) {
		return BookingPage{}, FieldRefuse(CodeInvalidRequest, "to", "refusal.booking.toAfterFrom")
	}
	statuses := make([]string, 0, len(f.Statuses))
	for _, st := range f.Statuses {
		if !slices.Contains(Statuses(), st) {
			return BookingPage{}, FieldRefuse(CodeInvalidRequest, "status", "refusal.booking.notOneOf", map[string]any{"Value": strconv.Quote(string(st)), "Values": joinStatuses()})
		}
		statuses = append(statuses, string(st))
	}
	rows, err := s.q.BookingsOfUser(ctx, queries.BookingsOfUserParams{
		OrganizationID: user.OrganizationID, UserID: user.ID, FromDate: f.From, ToDate: f.To, Statuses: statuses,
		AfterStart: after.start, AfterID: after.id, MaxRows: int32(limit + 1),
	})
	if err != nil {
		return BookingPage{}, fmt.Errorf("list bookings: %w", err)
	}
	return s.page(ctx, user.OrganizationID, rows, limit)
}

// WaitingApproval lists the bookings of the actor's organization that wait for approval, earliest start
// first.
// Codes: 1001 the actor is not an admin; 2000 a bad page size or cursor.
func (s *Service) WaitingApproval(ctx context.Context, actor User, pg Page) (BookingPage, error) {
	if actor.Role != RoleAdmin {
		return BookingPage{}, Refuse(CodeForbidden, "refusal.booking.onlyAdminsDecide")
	}
	limit, after, err := pg.read()
	if err != nil {
		return BookingPage{}, err
	}
	rows, err := s.q.BookingsWaitingApproval(ctx, queries.BookingsWaitingApprovalParams{
		OrganizationID: actor.OrganizationID, AfterStart: after.start, AfterID: after.id, MaxRows: int32(limit + 1),
	})
	if err != nil {
		return BookingPage{}, fmt.Errorf("list bookings waiting for approval: %w", err)
	}
	return s.page(ctx, actor.OrganizationID, rows, limit)
}

// page turns up to limit+1 rows into a page of at most limit bookings. If there was an extra row, the
// page gets a cursor to the next one.
func (s *Service) page(ctx context.Context, org uuid.UUID, rows []queries.Booking, limit int) (BookingPage, error) {
	var next string
	if len(rows) > limit {
		rows = rows[:limit]
		last := rows[len(rows)-1]
		next = cursor{start: &last.StartDate, id: last.ID}.String()
	}
	bs, err := s.hydrate(ctx, s.q, org, rows)
	if err != nil {
		return BookingPage{}, err
	}
	return BookingPage{Bookings: bs, NextCursor: next}, nil
}

// cursor marks where a page starts: the start and id of the last item of the previous page. The zero
// cursor (nil start) means the beginning.
type cursor struct {
	start *time.Time
	id    uuid.UUID
}

func (c cursor) String() string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(c.start.UnixMicro(), 10) + "_" + c.id.String()))
}

// read checks the page size and decodes the cursor.
// Codes: 2000 a bad page size or cursor.
func (p Page) read() (int, cursor, error) {
	limit := p.Limit
	if limit == 0 {
		limit = DefaultPageSize
	}
	if limit < 1 || limit > MaxPageSize {
		return 0, cursor{}, FieldRefuse(CodeInvalidRequest, "limit", "refusal.booking.limitRange", map[string]any{"Max": MaxPageSize})
	}
	if p.Cursor == "" {
		return limit, cursor{}, nil
	}
	bad := FieldRefuse(CodeInvalidRequest, "cursor", "refusal.booking.badCursor", map[string]any{"Cursor": strconv.Quote(p.Cursor)})
	raw, err := base64.RawURLEncoding.DecodeString(p.Cursor)
	if err != nil {
		return 0, cursor{}, bad
	}
	micros, id, ok := strings.Cut(string(raw), "_")
	us, err := strconv.ParseInt(micros, 10, 64)
	if !ok || err != nil {
		return 0, cursor{}, bad
	}
	uid, err := uuid.Parse(id)
	if err != nil {
		return 0, cursor{}, bad
	}
	start := time.UnixMicro(us)
	return limit, cursor{start: &start, id: uid}, nil
}

func joinStatuses() string {
	names := make([]string, 0, 7)
	for _, st := range Statuses() {
		names = append(names, string(st))
	}
	return strings.Join(names, ", ")
}

// hydrate turns rows into complete bookings, in the same order, with their online-meeting links (see
// hydrateRows).
func (s *Service) hydrate(ctx context.Context, q *queries.Queries, org uuid.UUID, rows []queries.Booking) ([]Booking, error) {
	bs, err := hydrateRows(ctx, q, org, rows)
	if err != nil {
		return nil, err
	}
	return s.withMeetings(bs), nil
}

// hydrateRows turns rows into complete bookings, in the same order. It loads each booking's resource (with
// floor, building, subcategory, rule and features), its creator and organizer, and its contracted
// reservables.
func hydrateRows(ctx context.Context, q *queries.Queries, org uuid.UUID, rows []queries.Booking) ([]Booking, error) {
	if len(rows) == 0 {
		return []Booking{}, nil
	}
	ids, resourceIDs, userIDs := make([]uuid.UUID, len(rows)), make([]uuid.UUID, len(rows)), make([]uuid.UUID, 0, 2*len(rows))
	for i, r := range rows {
		ids[i], resourceIDs[i] = r.ID, r.ResourceID
		userIDs = append(userIDs, r.CreatorID, r.OrganizerID)
	}
	resources, err := resourcesByID(ctx, q, org, distinct(resourceIDs))
	if err != nil {
		return nil, err
	}
	us, err := q.UsersGetByIDs(ctx, queries.UsersGetByIDsParams{OrganizationID: org, Ids: distinct(userIDs)})
	if err != nil {
		return nil, fmt.Errorf("get users: %w", err)
	}
	users := make(map[uuid.UUID]User, len(us))
	for _, u := range us {
		users[u.ID] = userFromRow(u)
	}
	brs, err := q.BookingReservablesOfBookings(ctx, queries.BookingReservablesOfBookingsParams{OrganizationID: org, BookingIds: ids})
	if err != nil {
		return nil, fmt.Errorf("get contracted reservables: %w", err)
	}
	contracted := make(map[uuid.UUID][]BookingReservable)
	for i, c := range contracts(brs) {
		id := brs[i].BookingReservable.BookingID
		contracted[id] = append(contracted[id], c)
	}
	out := make([]Booking, len(rows))
	for i, r := range rows {
		out[i] = assemble(r, resources[r.ResourceID], users[r.CreatorID], users[r.OrganizerID], contracted[r.ID])
	}
	return out, nil
}

// assemble builds a booking from its row and the records the row refers to.
func assemble(r queries.Booking, res Resource, creator, organizer User, reservables []BookingReservable) Booking {
	if reservables == nil {
		reservables = []BookingReservable{}
	}
	return Booking{
		ID: r.ID, OrganizationID: r.OrganizationID, Start: r.StartDate, End: r.EndDate, Status: Status(r.Status),
		AccessControlType: r.AccessControlType, Creator: creator, Organizer: organizer, Resource: res,
		Subject: r.Subject, Body: Body{Content: r.BodyContent, BodyType: r.BodyType}, Importance: r.Importance,
		ResourceType: Category(r.ResourceType), BuildingAccessStatus: r.BuildingAccessStatus,
		CreateOnlineMeeting: r.CreateOnlineMeeting, SipAddress: r.SipAddress, AllDay: r.AllDay,
		CheckIn: Interval{Start: r.CheckInOpensAt, End: r.CheckInClosesAt}, CheckedInAt: r.CheckedInAt,
		Reservables: reservables, Revision: r.Revision, SeriesID: r.SeriesID,
	}
}

package booking

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/workspacebooking/booking/queries"
)

// MaxBookingsPerRequest bounds the elements of one create request.
const MaxBookingsPerRequest = 100

// MaxAttendees bounds the attendees of one booking, internal and external together.
const MaxAttendees = 100

// The attendee types.
const (
	AttendeeRequired = "REQUIRED"
	AttendeeOptional = "OPTIONAL"
)

// InternalAttendee is a user of the organization invited to a booking.
type InternalAttendee struct {
	Type   string
	UserID uuid.UUID
}

// ExternalAttendee is a guest invited by e-mail address.
type ExternalAttendee struct {
	Type  string
	Email string
}

// NewBooking asks for one booking of a resource for [Start, End), or, when AllDay, for the whole bookable
// window of Start's local day (End is then not read).
type NewBooking struct {
	ResourceID          uuid.UUID
	Start, End          time.Time
	AllDay              bool
	Importance          string // LOW (default), NORMAL or HIGH
	Subject             string
	Body                Body // BodyType TEXT (default) or HTML
	InternalAttendees   []InternalAttendee
	ExternalAttendees   []ExternalAttendee
	CreateOnlineMeeting bool
	SipAddress          string

	// checkInNow checks the organizer in, in the transaction that makes the booking, when its check-in is
	// open at once: the person is standing at the resource (BookNowAndCheckIn).
	checkInNow bool
}

// MinTime and MaxTime bound the times a booking may use: the database could not store some times
// outside them.
var (
	MinTime = time.UnixMilli(0)
	MaxTime = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

// checkTimes refuses an interval that does not end after it starts, or that lies outside the range of
// times a booking may use; start and end name its two fields in the message.
// Codes: 2000.
func checkTimes(iv Interval, start, end string) error {
	if !iv.End.After(iv.Start) {
		return Errorf(CodeInvalidRequest, "%s: must be after %s", end, start)
	}
	if iv.Start.Before(MinTime) || iv.End.After(MaxTime) {
		return Errorf(CodeInvalidRequest, "%s and %s: must lie between the years 1970 and 9999", start, end)
	}
	return nil
}

var (
	importances = []string{"LOW", "NORMAL", "HIGH"}
	bodyTypes   = []string{"TEXT", "HTML"}
)

// Importances returns the importances a booking may have; the first is the default.
func Importances() []string { return slices.Clone(importances) }

// BodyTypes returns the types a booking's body may have; the first is the default.
func BodyTypes() []string { return slices.Clone(bodyTypes) }

// normalize fills defaults and checks the fields that need no database.
func (b *NewBooking) normalize() error {
	if b.ResourceID == uuid.Nil {
		return Errorf(CodeInvalidRequest, "resource.id: is required")
	}
	if b.AllDay {
		if b.Start.IsZero() {
			return Errorf(CodeInvalidRequest, "startDate: is required (any moment of the day to book)")
		}
		b.End = b.Start.Add(time.Millisecond) // replaced by the day's window once the resource is known
	}
	if b.Start.IsZero() || b.End.IsZero() {
		return Errorf(CodeInvalidRequest, "startDate and endDate: are required")
	}
	if err := checkTimes(Interval{Start: b.Start, End: b.End}, "startDate", "endDate"); err != nil {
		return err
	}
	if b.Importance == "" {
		b.Importance = "LOW"
	}
	if !slices.Contains(importances, b.Importance) {
		return Errorf(CodeInvalidRequest, "importance: must be one of %s", strings.Join(importances, ", "))
	}
	if b.Body.BodyType == "" {
		b.Body.BodyType = "TEXT"
	}
	if !slices.Contains(bodyTypes, b.Body.BodyType) {
		return Errorf(CodeInvalidRequest, "body.bodyType: must be one of %s", strings.Join(bodyTypes, ", "))
	}
	if len(b.Subject) > 255 {
		return Errorf(CodeInvalidRequest, "subject: at most 255 characters")
	}
	if err := checkAttendeeCount(*b); err != nil {
		return err
	}
	users := make(map[uuid.UUID]int, len(b.InternalAttendees))
	for i, a := range b.InternalAttendees {
		if a.Type != AttendeeRequired && a.Type != AttendeeOptional {
			return Errorf(CodeInvalidRequest, "internalAttendees[%d].type: must be REQUIRED or OPTIONAL", i)
		}
		if a.UserID == uuid.Nil {
			return Errorf(CodeInvalidRequest, "internalAttendees[%d].user.id: is required", i)
		}
		if j, ok := users[a.UserID]; ok {
			return Errorf(CodeInvalidRequest, "internalAttendees[%d].user.id: %s is already listed as internalAttendees[%d]; list each person once", i, a.UserID, j)
		}
		users[a.UserID] = i
	}
	emails := make(map[string]int, len(b.ExternalAttendees))
	for i, a := range b.ExternalAttendees {
		if a.Type != AttendeeRequired && a.Type != AttendeeOptional {
			return Errorf(CodeInvalidRequest, "externalAttendees[%d].type: must be REQUIRED or OPTIONAL", i)
		}
		if addr, err := mail.ParseAddress(a.Email); err != nil || addr.Address != a.Email {
			return Errorf(CodeInvalidRequest, "externalAttendees[%d].email: %q is not an e-mail address", i, a.Email)
		}
		key := strings.ToLower(a.Email)
		if j, ok := emails[key]; ok {
			return Errorf(CodeInvalidRequest, "externalAttendees[%d].email: %s is already listed as externalAttendees[%d]; list each guest once", i, a.Email, j)
		}
		emails[key] = i
	}
	return nil
}

// checkAttendeeCount refuses a booking with more than MaxAttendees attendees, internal and external
// together.
func checkAttendeeCount(b NewBooking) error {
	if n := len(b.InternalAttendees) + len(b.ExternalAttendees); n > MaxAttendees {
		return Errorf(CodeInvalidRequest, "internalAttendees and externalAttendees: %d attendees; at most %d per booking, internal and external together", n, MaxAttendees)
	}
	return nil
}

// CreateBookings books resources of the category for organizer, made by creator: every element or none,
// in one transaction. The first failing element decides the error, which carries its index.
// userAccessToken (the identity provider's token, possibly empty) is kept as creator's (KeepUserAccessToken)
// in the transaction that makes the bookings: a request refused, or answered with bookings made before,
// keeps nothing.
// idempotencyKey, when not empty, is creator's Idempotency-Key of the request, claimed (ClaimIdempotencyKey):
// the bookings made are recorded on it in the same transaction, and when it already has bookings recorded
// (a first run whose answer was never kept), those are returned and nothing is made.
// New bookings are PENDING, or WAITING_APPROVAL when the resource's rule requires approval.
// The elements are checked against the organization's layout as held in memory; a booking is written only
// while that layout is still the organization's, and a refusal is given only then: otherwise they are
// checked again against the layout read anew.
// Codes: 2000 invalid element or too many, more than MaxAttendees attendees on one element, one listed
// twice (the same user, or the same e-mail address in any case), or a userAccessToken too long; 1002
// unknown, deactivated or hidden resource; 4006 a
// resource of the other category; 4012 an all-day booking the rule does not allow; 4002, 4003, 4004,
// 4005 a rule of the resource refuses the interval;
// 1003 an internal attendee unknown in the organization; 4001 the interval overlaps a blocking booking
// or an earlier element of the same request; 4013 a workstation for an organizer who already holds one
// during part of the interval (booked before, or in an earlier element); 5030 the layout kept changing while the bookings were made.
func (s *Service) CreateBookings(ctx context.Context, creator, organizer User, category Category, reqs []NewBooking, userAccessToken, idempotencyKey string) ([]Booking, error) {
	if err := CheckUserAccessToken(userAccessToken); err != nil {
		return nil, err
	}
	if len(reqs) == 0 {
		return nil, Errorf(CodeInvalidRequest, "the list of bookings is empty: at least one booking is required")
	}
	if len(reqs) > MaxBookingsPerRequest {
		return nil, Errorf(CodeInvalidRequest, "at most %d bookings per request", MaxBookingsPerRequest)
	}
	org := creator.OrganizationID
	if idempotencyKey != "" {
		made, err := s.q.IdempotencyKeyBookings(ctx, queries.IdempotencyKeyBookingsParams{OrganizationID: org, UserID: creator.ID, Key: idempotencyKey})
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return nil, fmt.Errorf("get the bookings of an idempotency key: %w", err)
		}
		if len(made) > 0 {
			return s.bookingsByID(ctx, org, made)
		}
	}
	var attendees []uuid.UUID
	for _, r := range reqs {
		if checkAttendeeCount(r) != nil {
			continue // refused when its turn comes; its attendees are not looked up
		}
		for _, a := range r.InternalAttendees {
			attendees = append(attendees, a.UserID)
		}
	}
	known, err := s.knownUsers(ctx, org, attendees)
	if err != nil {
		return nil, err
	}
	token, err := s.sealUserAccessToken(ctx, creator, userAccessToken)
	if err != nil {
		return nil, err
	}
	layout, err := s.organizationLayout(ctx, org)
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		// Checking fills in the elements (defaults, all-day intervals): each attempt starts from the request.
		out, err := s.createBookings(ctx, layout, creator, organizer, category, slices.Clone(reqs), known, token, idempotencyKey)
		if err == nil {
			s.counts.created.Add(int64(len(out)))
			return out, nil
		}
		if !errors.Is(err, errLayoutChanged) {
			if !refusedByLayout(err) {
				return nil, err
			}
			current, err2 := s.q.OrganizationLayoutVersion(ctx, org)
			if err2 != nil {
				return nil, fmt.Errorf("get layout version: %w", err2)
			}
			if current == layout.version {
				return nil, err
			}
		}
		if attempt == 3 {
			return nil, Errorf(CodeUnavailable, "the organization's layout is being changed; please try again shortly")
		}
		// Read anew, past the layout held (and past a read of it that may be under way), and hold that.
		if layout, err = s.readOrganizationLayout(ctx, org); err != nil {
			return nil, err
		}
		s.layouts.orgs.Add(org, layout)
	}
}

// errLayoutChanged tells that the organization's layout changed after the bookings were checked against it:
// nothing was written, and they are to be checked again.
var errLayoutChanged = errors.New("the organization's layout changed")

// refusedByLayout reports whether err is a refusal the layout decided, which an older layout may decide
// otherwise: any refusal but a booking that overlaps another, or a second workstation of one person, which
// the database decided.
func refusedByLayout(err error) bool {
	code := ErrorCode(err)
	return code != 0 && code != CodeResourceNotAvailable && code != CodeUserAlreadyHasWorkstation
}

// createBookings makes the bookings of CreateBookings, checked against the organization's layout, and
// keeps creator's sealed token (nil: none) with them; it returns errLayoutChanged when that layout is no
// longer the organization's.
func (s *Service) createBookings(ctx context.Context, layout *orgLayout, creator, organizer User, category Category, reqs []NewBooking, known map[uuid.UUID]bool, token *queries.UserAccessTokenPutParams, idempotencyKey string) ([]Booking, error) {
	org := creator.OrganizationID
	now := s.now()
	out := make([]Booking, len(reqs))
	atomically := s.inTx
	if len(reqs) == 1 && len(reqs[0].InternalAttendees)+len(reqs[0].ExternalAttendees) == 0 && token == nil && idempotencyKey == "" && !reqs[0].checkInNow {
		// One row written by one statement is all or none by itself: no transaction to open and commit,
		// two round trips fewer for the commonest request.
		atomically = func(_ context.Context, fn func(*queries.Queries) error) error {
			return retried(func() error { return fn(s.q) })
		}
	}
	// Each element is checked and then inserted before the next one is looked at, so that the first failing
	// element decides the error, whether a check or the no-overlap constraint refuses it.
	err := atomically(ctx, func(q *queries.Queries) error {
		for i := range reqs {
			res, checkIn, err := s.checkElement(reqs, i, organizer, category, layout.byID, known, now)
			if err != nil {
				return AtIndex(err, i)
			}
			r := reqs[i]
			b := Booking{
				ID: uuid.Must(uuid.NewV7()), OrganizationID: org, Start: r.Start, End: r.End, Status: StatusPending,
				AccessControlType: res.Rule.AccessControlType, Creator: creator, Organizer: organizer, Resource: res,
				Subject: r.Subject, Body: r.Body, Importance: r.Importance, ResourceType: category,
				BuildingAccessStatus: "PENDING", CreateOnlineMeeting: r.CreateOnlineMeeting, SipAddress: r.SipAddress,
				AllDay: r.AllDay, CheckIn: checkIn, Reservables: []BookingReservable{},
			}
			if res.Rule.RequiresApproval {
				b.Status = StatusWaitingApproval
			}
			n, err := q.BookingInsert(ctx, queries.BookingInsertParams{
				OrganizationID: org, LayoutVersion: layout.version, ID: b.ID, ResourceID: res.ID, FloorID: res.Floor.ID,
				CreatorID: creator.ID, OrganizerID: organizer.ID, StartDate: b.Start, EndDate: b.End,
				Status: string(b.Status), AccessControlType: b.AccessControlType, Subject: b.Subject,
				BodyContent: b.Body.Content, BodyType: b.Body.BodyType, Importance: b.Importance,
				ResourceType: string(category), BuildingAccessStatus: b.BuildingAccessStatus,
				CreateOnlineMeeting: b.CreateOnlineMeeting, SipAddress: b.SipAddress,
				AllDay: b.AllDay, CheckInOpensAt: checkIn.Start, CheckInClosesAt: checkIn.End,
			})
			switch {
			case isWorkstationHeld(err):
				return &errWorkstationHeld{person: organizer, iv: Interval{Start: b.Start, End: b.End}, index: &i}
			case isExclusionViolation(err):
				s.counts.conflicts.Add(1)
				return AtIndex(Errorf(CodeResourceNotAvailable, "%s is already booked during part of that time", res.Name), i)
			case n == 0 && err == nil, movedFloor(err):
				return errLayoutChanged
			case err != nil:
				return fmt.Errorf("insert booking: %w", err)
			}
			if err := insertAttendees(ctx, q, org, b.ID, r); err != nil {
				return err
			}
			if r.checkInNow && b.Status == StatusPending && !now.Before(checkIn.Start) && now.Before(checkIn.End) {
				if b, err = setStatus(ctx, q, b, StatusActive, now); err != nil {
					return err
				}
			}
			out[i] = b
		}
		if err := putUserAccessToken(ctx, q, token); err != nil {
			return err
		}
		if idempotencyKey == "" {
			return nil
		}
		ids := make([]uuid.UUID, len(out))
		for i, b := range out {
			ids[i] = b.ID
		}
		err := q.IdempotencyKeySetBookings(ctx, queries.IdempotencyKeySetBookingsParams{
			OrganizationID: org, UserID: creator.ID, Key: idempotencyKey, BookingIds: ids,
		})
		if err != nil {
			return fmt.Errorf("record the bookings of an idempotency key: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, s.nameHeldWorkstation(ctx, err)
	}
	return out, nil
}

// bookingsByID reads complete bookings of the organization, in the order of ids.
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
	return hydrate(ctx, s.q, org, rows)
}

// checkElement normalizes element i of reqs and checks it against everything but the bookings already
// stored: its fields, its resource, the resource's rule, the earlier elements and its internal attendees.
// An all-day element gets the interval it covers. It returns the resource and the check-in window.
func (s *Service) checkElement(reqs []NewBooking, i int, organizer User, category Category, resources map[uuid.UUID]*Resource, known map[uuid.UUID]bool, now time.Time) (Resource, Interval, error) {
	r := &reqs[i]
	if err := r.normalize(); err != nil {
		return Resource{}, Interval{}, err
	}
	held, ok := resources[r.ResourceID]
	if !ok || !held.Bookable() {
		return Resource{}, Interval{}, Errorf(CodeResourceNotFound, "no bookable resource %s", r.ResourceID)
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
		rule.MaximumDuration = 0 // allowing all-day bookings allows their length
	}
	iv := Interval{Start: r.Start, End: r.End}
	if err := rule.CheckInterval(iv, now, loc); err != nil {
		return Resource{}, Interval{}, err
	}
	for j := range i {
		if reqs[j].ResourceID == r.ResourceID && iv.Overlaps(Interval{Start: reqs[j].Start, End: reqs[j].End}) {
			return Resource{}, Interval{}, Errorf(CodeResourceNotAvailable, "overlaps element %d of the same request", j)
		}
	}
	// Every element books for the same person: two workstations of one request may not overlap either.
	if category == CategoryWorkstation {
		for j := range i {
			other := Interval{Start: reqs[j].Start, End: reqs[j].End}
			if iv.Overlaps(other) {
				return Resource{}, Interval{}, Errorf(CodeUserAlreadyHasWorkstation, "%s already has %s %s (element %d of the same request)",
					FullName(organizer), resources[reqs[j].ResourceID].Name, Span(other, resources[reqs[j].ResourceID].Floor.Building.Timezone), j)
			}
		}
	}
	for j, a := range r.InternalAttendees {
		if !known[a.UserID] {
			return Resource{}, Interval{}, Errorf(CodeUserNotFound, "internalAttendees[%d]: no user %s in your organization", j, a.UserID)
		}
	}
	return res, rule.CheckInWindow(iv, r.AllDay, now, loc), nil
}

// checkCategory refuses a resource of another category than the operation books: a workstation sent to
// the spaces operation is 4006, anything else 2000.
func checkCategory(res Resource, category Category) error {
	if res.Subcategory.Category == category {
		return nil
	}
	if category == CategorySpace {
		return Errorf(CodeResourceNotASpace, "%s is a %s, not a space", res.Name, strings.ToLower(string(res.Subcategory.Category)))
	}
	return Errorf(CodeInvalidRequest, "resource.id: %s is not a %s", res.Name, strings.ToLower(string(category)))
}

// knownUsers returns which of the ids are users of the organization.
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

// bookableResource loads one resource as resourcesByID does.
// Codes: 1002 no such resource in the organization, or one that is deactivated or hidden (or on such a floor
// or building).
func bookableResource(ctx context.Context, q *queries.Queries, org, id uuid.UUID) (Resource, error) {
	rs, err := resourcesByID(ctx, q, org, []uuid.UUID{id})
	if err != nil {
		return Resource{}, err
	}
	res, ok := rs[id]
	if !ok || !res.Bookable() {
		return Resource{}, Errorf(CodeResourceNotFound, "no bookable resource %s", id)
	}
	return res, nil
}

// resourcesByID loads resources with floor, building, subcategory, rule and features; ids not found in the
// organization are left out.
func resourcesByID(ctx context.Context, q *queries.Queries, org uuid.UUID, ids []uuid.UUID) (map[uuid.UUID]Resource, error) {
	out := make(map[uuid.UUID]Resource, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	params := make([]queries.ResourceGetParams, len(ids))
	for i, id := range ids {
		params[i] = queries.ResourceGetParams{OrganizationID: org, ID: id}
	}
	var err error
	q.ResourceGet(ctx, params).QueryRow(func(_ int, r queries.ResourceGetRow, e error) {
		if errors.Is(e, pgx.ErrNoRows) {
			return
		}
		if err = cmp.Or(err, e); err != nil {
			return
		}
		res := fullResource(r.Resource, r.Floor, r.Building, r.Subcategory, r.ResourceRule)
		res.Features = features(org, r.FeatureIds, r.FeatureNames, r.FeatureEmails)
		out[res.ID] = res
	})
	if err != nil {
		return nil, fmt.Errorf("get resources: %w", err)
	}
	return out, nil
}

// features are the features of the organization given as three arrays of the same length.
func features(org uuid.UUID, ids []uuid.UUID, names, emails []string) []Feature {
	out := make([]Feature, len(ids))
	for i, id := range ids {
		out[i] = Feature{ID: id, OrganizationID: org, Name: names[i], Email: emails[i]}
	}
	return out
}

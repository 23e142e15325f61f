package booking_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// goya and velazquez return requests for the two Madrid rooms tomorrow, from hour h1 to hour h2.
func goya(h1, h2 int) booking.NewBooking {
	return bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, h1, 0), bookingtest.At(1, h2, 0))
}

func velazquez(h1, h2 int) booking.NewBooking {
	return bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(1, h1, 0), bookingtest.At(1, h2, 0))
}

// attendee returns a request for Velázquez with Bob and another internal attendee.
func attendee(typ string, id uuid.UUID) booking.NewBooking {
	r := velazquez(12, 13)
	r.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: bookingtest.Bob}, {Type: typ, UserID: id}}
	return r
}

// external returns a request for Velázquez with one guest.
func external(typ, email string) booking.NewBooking {
	r := velazquez(12, 13)
	r.ExternalAttendees = []booking.ExternalAttendee{{Type: typ, Email: email}}
	return r
}

// with returns a request for Velázquez, changed by fn.
func with(fn func(*booking.NewBooking)) booking.NewBooking {
	r := velazquez(12, 13)
	fn(&r)
	return r
}

// made holds the fields of a new booking that TestCreateBookings checks, with the resource reduced to
// its ids and a few fields.
type made struct {
	Status                                  booking.Status
	Start, End                              time.Time
	BuildingAccessStatus, AccessControlType string
	ResourceType                            booking.Category
	Subject                                 string
	Body                                    booking.Body
	Importance, SipAddress                  string
	CreateOnlineMeeting                     bool
	Creator, Organizer                      uuid.UUID
	Resource                                madeResource
}

type madeResource struct {
	ID              uuid.UUID
	Name            string
	Capacity        *int32
	Floor           uuid.UUID
	FloorName       string
	Building        uuid.UUID
	Timezone        string
	Subcategory     uuid.UUID
	Category        booking.Category
	Rule            uuid.UUID
	MaximumDuration time.Duration
	Features        []uuid.UUID
}

func madeOf(b booking.Booking) made {
	r := b.Resource
	m := made{
		Status: b.Status, Start: b.Start, End: b.End, BuildingAccessStatus: b.BuildingAccessStatus,
		AccessControlType: b.AccessControlType, ResourceType: b.ResourceType, Subject: b.Subject, Body: b.Body,
		Importance: b.Importance, SipAddress: b.SipAddress, CreateOnlineMeeting: b.CreateOnlineMeeting,
		Creator: b.Creator.ID, Organizer: b.Organizer.ID,
		Resource: madeResource{
			ID: r.ID, Name: r.Name, Capacity: r.Capacity, Floor: r.Floor.ID, FloorName: r.Floor.Name,
			Building: r.Floor.Building.ID, Timezone: r.Floor.Building.Timezone, Subcategory: r.Subcategory.ID,
			Category: r.Subcategory.Category, Rule: r.Rule.ID, MaximumDuration: r.Rule.MaximumDuration,
		},
	}
	for _, f := range r.Features {
		m.Resource.Features = append(m.Resource.Features, f.ID)
	}
	return m
}

// TestCreateBookings checks the bookings CreateBookings makes: their fields, people and status.
func TestCreateBookings(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("ReturnsPendingBookingWithFullResource", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t, booking.WithOnlineMeetings("https://meet.example.org/{bookingId}"))
		u := fixtureUsers(t, b)
		r := goya(10, 11)
		r.Subject, r.Body = "Planning", booking.Body{Content: "Agenda", BodyType: "HTML"}
		r.Importance, r.SipAddress, r.CreateOnlineMeeting = "HIGH", "sip:goya@acme.test", true
		bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: u.alice, Organizer: u.alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{r}})
		if err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		if got, want := len(bs), 1; got != want {
			t.Fatalf("bookings = %d, want %d", got, want)
		}
		bk := bs[0]
		if bk.ID == uuid.Nil {
			t.Errorf("ID is nil")
		}
		want := made{
			Status: booking.StatusPending, Start: at(1, 10, 0), End: at(1, 11, 0), BuildingAccessStatus: "PENDING",
			AccessControlType: "ANY", ResourceType: booking.CategorySpace, Subject: "Planning",
			Body: booking.Body{Content: "Agenda", BodyType: "HTML"}, Importance: "HIGH", CreateOnlineMeeting: true,
			SipAddress: "sip:goya@acme.test", Creator: bookingtest.Alice, Organizer: bookingtest.Alice,
			Resource: madeResource{
				ID: bookingtest.RoomGoya, Name: "Goya", Capacity: ptr(int32(8)), Floor: bookingtest.FloorMadrid,
				FloorName: "madrid-1", Building: bookingtest.BuildingMadrid, Timezone: "Europe/Madrid",
				Subcategory: bookingtest.SubRoom, Category: booking.CategorySpace, Rule: bookingtest.RuleRoom,
				MaximumDuration: 4 * time.Hour, Features: []uuid.UUID{bookingtest.FeatureScreen, bookingtest.FeatureWhiteboard},
			},
		}
		if diff := cmp.Diff(want, madeOf(bk)); diff != "" {
			t.Errorf("booking made (-want +got):\n%s", diff)
		}
		// The database holds the booking as returned.
		if got := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings WHERE id = $1 AND organization_id = $2 AND resource_id = $3
			AND status = 'PENDING' AND start_date = $4 AND end_date = $5 AND importance = 'HIGH' AND body_type = 'HTML'
			AND resource_type = 'SPACE' AND create_online_meeting`,
			bk.ID, bookingtest.OrgA, bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)); got != 1 {
			t.Errorf("matching bookings rows = %d, want 1", got)
		}
	})

	t.Run("ReceptionistCreatesForAlice", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: u.rita, Organizer: u.alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{goya(10, 11)}})
		if err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		if got, want := bs[0].Creator.ID, bookingtest.Rita; got != want {
			t.Errorf("Creator.ID = %v, want %v (Rita)", got, want)
		}
		if got, want := bs[0].Organizer.ID, bookingtest.Alice; got != want {
			t.Errorf("Organizer.ID = %v, want %v (Alice)", got, want)
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND creator_id = $2 AND organizer_id = $3",
			bs[0].ID, bookingtest.Rita, bookingtest.Alice); got != 1 {
			t.Errorf("rows with creator Rita and organizer Alice = %d, want 1", got)
		}
	})

	t.Run("ApprovalRuleGivesWaitingApproval", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		bs := mustCreate(t, b, fixtureUsers(t, b).alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)), goya(10, 11))
		if got, want := bs[0].Status, booking.StatusWaitingApproval; got != want {
			t.Errorf("Boardroom: Status = %v, want %v", got, want)
		}
		if got, want := bs[1].Status, booking.StatusPending; got != want {
			t.Errorf("Goya: Status = %v, want %v", got, want)
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND status = 'WAITING_APPROVAL'", bs[0].ID); got != 1 {
			t.Errorf("WAITING_APPROVAL rows = %d, want 1", got)
		}
	})

	t.Run("SeveralBookingsInOrder", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		bs := mustCreate(t, b, fixtureUsers(t, b).alice, goya(10, 11), velazquez(10, 11), goya(14, 15))
		var got []uuid.UUID
		for _, bk := range bs {
			got = append(got, bk.Resource.ID)
		}
		if want := []uuid.UUID{bookingtest.RoomGoya, bookingtest.RoomVelazquez, bookingtest.RoomGoya}; !slices.Equal(got, want) {
			t.Errorf("resources = %v, want %v", got, want)
		}
		if got, want := bookingtest.TableCount(t, b, "bookings"), 3; got != want {
			t.Errorf("bookings = %d rows, want %d", got, want)
		}
	})

	t.Run("Defaults", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		bs := mustCreate(t, b, fixtureUsers(t, b).alice, goya(10, 11))
		if got, want := bs[0].Importance, "LOW"; got != want {
			t.Errorf("Importance = %q, want %q", got, want)
		}
		if got, want := bs[0].Body.BodyType, "TEXT"; got != want {
			t.Errorf("Body.BodyType = %q, want %q", got, want)
		}
		if bs[0].CreateOnlineMeeting {
			t.Errorf("CreateOnlineMeeting = true, want false")
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND importance = 'LOW' AND body_type = 'TEXT' AND NOT create_online_meeting",
			bs[0].ID); got != 1 {
			t.Errorf("rows with defaults = %d, want 1", got)
		}
	})
}

// TestCreateBookingsKeepsWithBookings checks what is written together with the bookings: the
// creator's token and the attendees.
func TestCreateBookingsKeepsWithBookings(t *testing.T) {
	t.Parallel()

	t.Run("UserAccessTokenStored", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{goya(10, 11), velazquez(10, 11)}, UserAccessToken: "idp-token-123"})
		if err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		if len(bs) != 2 {
			t.Fatalf("bookings = %d, want 2", len(bs))
		}
		// The token is stored once, as Alice's.
		got, err := b.Service.UserAccessToken(t.Context(), alice)
		if err != nil {
			t.Fatalf("UserAccessToken: %v", err)
		}
		if want := "idp-token-123"; got != want {
			t.Errorf("UserAccessToken = %q, want %q", got, want)
		}
		if n := bookingtest.RowCount(t, b, "SELECT count(*) FROM user_access_tokens WHERE user_id = $1", alice.ID); n != 1 {
			t.Errorf("kept tokens of Alice = %d, want 1", n)
		}
	})

	// The token is stored in the same transaction as the bookings, so a refused request, or a retry that
	// finds its bookings already made, stores nothing.
	t.Run("UserAccessTokenKeptOnlyWithNewBookings", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		create := func(token, key string, reqs ...booking.NewBooking) ([]booking.Booking, error) {
			return b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: reqs, UserAccessToken: token, IdempotencyKey: key})
		}
		kept := func() string {
			t.Helper()
			got, err := b.Service.UserAccessToken(t.Context(), alice)
			if err != nil {
				t.Fatalf("UserAccessToken: %v", err)
			}
			return got
		}
		if _, err := create("", "", goya(10, 11)); err != nil {
			t.Fatal(err)
		}
		_, err := create("refused-overlap", "", goya(10, 11))
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		_, err = create("refused-second-element", "", velazquez(10, 11), goya(10, 11))
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		_, err = create("refused-backwards", "", goya(15, 14))
		bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		_, err = create(strings.Repeat("x", booking.MaxUserAccessToken+1), "", goya(16, 17))
		bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		if n := bookingtest.TableCount(t, b, "user_access_tokens"); n != 0 {
			t.Errorf("kept tokens after refused requests = %d, want 0", n)
		}
		if n := bookingtest.TableCount(t, b, "bookings"); n != 1 {
			t.Errorf("bookings = %d, want 1", n)
		}

		if _, _, err := b.Service.ClaimIdempotencyKey(t.Context(), alice, "k", []byte{1}); err != nil {
			t.Fatal(err)
		}
		if _, err := create("first", "k", goya(12, 13)); err != nil {
			t.Fatal(err)
		}
		if got := kept(); got != "first" {
			t.Errorf("kept token = %q, want %q", got, "first")
		}
		if _, err := create("run-again", "k", goya(12, 13)); err != nil {
			t.Fatalf("the request run again: %v", err)
		}
		if got := kept(); got != "first" {
			t.Errorf("kept token after the request ran again = %q, want %q", got, "first")
		}
	})

	t.Run("AttendeesStored", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		r := goya(10, 11)
		r.InternalAttendees = []booking.InternalAttendee{
			{Type: booking.AttendeeRequired, UserID: bookingtest.Bob},
			{Type: booking.AttendeeOptional, UserID: bookingtest.Adam},
		}
		r.ExternalAttendees = []booking.ExternalAttendee{{Type: booking.AttendeeOptional, Email: "guest@example.com"}}
		bs := mustCreate(t, b, fixtureUsers(t, b).alice, r)
		rows, err := b.Pool.Query(t.Context(), `SELECT position, type, coalesce(user_id::text, ''), coalesce(email, '')
			FROM booking_attendees WHERE organization_id = $1 AND booking_id = $2 ORDER BY position`, bookingtest.OrgA, bs[0].ID)
		if err != nil {
			t.Fatalf("read attendees: %v", err)
		}
		defer rows.Close()
		type attendee struct {
			pos         int
			typ, u, eml string
		}
		var got []attendee
		for rows.Next() {
			var a attendee
			if err := rows.Scan(&a.pos, &a.typ, &a.u, &a.eml); err != nil {
				t.Fatalf("scan: %v", err)
			}
			got = append(got, a)
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("rows: %v", err)
		}
		want := []attendee{
			{0, "REQUIRED", bookingtest.Bob.String(), ""},
			{1, "OPTIONAL", bookingtest.Adam.String(), ""},
			{2, "OPTIONAL", "", "guest@example.com"},
		}
		if !slices.Equal(got, want) {
			t.Errorf("attendees = %+v, want %+v", got, want)
		}
	})
}

// TestCreateBookingsOverlaps checks which existing bookings, and which elements of the same request, a
// new booking must not overlap.
func TestCreateBookingsOverlaps(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("AdjacentBookingsBothSucceed", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		mustCreate(t, b, alice, goya(10, 11))
		mustCreate(t, b, alice, goya(11, 12))
		mustCreate(t, b, alice, goya(8, 9), goya(9, 10))
		if got, want := bookingtest.TableCount(t, b, "bookings"), 4; got != want {
			t.Errorf("bookings = %d rows, want %d", got, want)
		}
	})

	t.Run("CancelledImportedBookingDoesNotBlock", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		importBookings(t, b,
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusCancelled),
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 12, 0), booking.StatusFinished),
		)
		mustCreate(t, b, fixtureUsers(t, b).alice, goya(10, 11))
		if got, want := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE status = 'PENDING'"), 1; got != want {
			t.Errorf("PENDING bookings = %d, want %d", got, want)
		}
	})

	t.Run("OverlappingExistingBookingIs4001", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		existing := mustCreate(t, b, alice, goya(10, 12))
		for _, reqs := range [][]booking.NewBooking{
			{bookingtest.Request(bookingtest.RoomGoya, at(1, 11, 30), at(1, 12, 30))},
			{velazquez(10, 11), bookingtest.Request(bookingtest.RoomGoya, at(1, 9, 30), at(1, 10, 30))},
			{velazquez(10, 11), goya(14, 15), goya(10, 12)},
		} {
			_, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: reqs})
			bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
			wantIndex(t, err, len(reqs)-1)
		}
		if got := bookingtest.TableCount(t, b, "bookings"); got != 1 {
			t.Errorf("bookings = %d rows, want 1", got)
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1", existing[0].ID); got != 1 {
			t.Errorf("the existing booking is gone")
		}
	})

	t.Run("OverlappingImportedWaitingApprovalIs4001", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		importBookings(t, b, bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusWaitingApproval))
		_, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: fixtureUsers(t, b).alice, Organizer: fixtureUsers(t, b).alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{goya(10, 11)}})
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		wantIndex(t, err, 0)
		if got := bookingtest.TableCount(t, b, "bookings"); got != 1 {
			t.Errorf("bookings = %d rows, want 1", got)
		}
	})

	t.Run("OverlappingElementsOfOneRequestIs4001", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		_, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{goya(10, 12), bookingtest.Request(bookingtest.RoomGoya, at(1, 11, 0), at(1, 11, 30))}})
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		wantIndex(t, err, 1)
		wantNoBookings(t, b)
	})
}

// TestCreateBookingsRefusals checks that every refusal names its element and writes nothing, not even
// the valid elements before it.
func TestCreateBookingsRefusals(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	refusals := []struct {
		name    string
		reqs    []booking.NewBooking
		creator func(users) booking.User
		want    booking.Code
		index   int // -1: none
	}{
		{"UnknownResourceIs1002", []booking.NewBooking{goya(10, 11), bookingtest.Request(uuid.New(), at(1, 10, 0), at(1, 11, 0))}, nil, booking.CodeResourceNotFound, 1},
		{"HiddenResourceIs1002", []booking.NewBooking{goya(10, 11), bookingtest.Request(bookingtest.RoomHidden, at(1, 10, 0), at(1, 11, 0))}, nil, booking.CodeResourceNotFound, 1},
		{"ResourceOnHiddenFloorIs1002", []booking.NewBooking{bookingtest.Request(bookingtest.RoomOnHidden, at(1, 10, 0), at(1, 11, 0)), goya(10, 11)}, nil, booking.CodeResourceNotFound, 0},
		{"OtherOrganizationsResourceIs1002", []booking.NewBooking{goya(10, 11), bookingtest.Request(bookingtest.RoomB, at(1, 10, 0), at(1, 11, 0))}, nil, booking.CodeResourceNotFound, 1},
		{"OwnResourceForOtherOrganizationIs1002", []booking.NewBooking{goya(10, 11)}, func(u users) booking.User { return u.boris }, booking.CodeResourceNotFound, 0},
		{"DeskIs4006", []booking.NewBooking{goya(10, 11), bookingtest.Request(bookingtest.DeskOne, at(1, 10, 0), at(1, 11, 0))}, nil, booking.CodeResourceNotASpace, 1},
		{"PastIs4002", []booking.NewBooking{goya(10, 11), bookingtest.Request(bookingtest.RoomVelazquez, at(0, 8, 54), at(0, 10, 0))}, nil, booking.CodeDateInThePast, 1},
		{"OutsideHoursIs4003", []booking.NewBooking{goya(10, 11), velazquez(19, 21)}, nil, booking.CodeDateOutsideResourceHours, 1},
		{"TooLongIs4004", []booking.NewBooking{goya(10, 11), goya(12, 17)}, nil, booking.CodeDurationExceedsMaximum, 1},
		{"TooFarAheadIs4005", []booking.NewBooking{goya(10, 11), bookingtest.Request(bookingtest.RoomGoya, at(31, 10, 0), at(31, 11, 0))}, nil, booking.CodeDateExceedsMaximumAdvance, 1},
		{"OutsideHoursAtIndexZeroIs4003", []booking.NewBooking{velazquez(7, 9), goya(10, 11)}, nil, booking.CodeDateOutsideResourceHours, 0},
		{"NewYorkHoursAreNewYorkTime", []booking.NewBooking{goya(10, 11), bookingtest.Request(bookingtest.RoomHudson, at(1, 10, 0), at(1, 11, 0))}, nil, booking.CodeDateOutsideResourceHours, 1},
		{"UnknownInternalAttendeeIs1003", []booking.NewBooking{goya(10, 11), attendee(booking.AttendeeRequired, uuid.New())}, nil, booking.CodeUserNotFound, 1},
		{"OtherOrganizationsAttendeeIs1003", []booking.NewBooking{goya(10, 11), attendee(booking.AttendeeOptional, bookingtest.Boris)}, nil, booking.CodeUserNotFound, 1},
		{"InternalAttendeeTypeIs2000", []booking.NewBooking{goya(10, 11), attendee("MANDATORY", bookingtest.Adam)}, nil, booking.CodeInvalidRequest, 1},
		{"ExternalAttendeeTypeIs2000", []booking.NewBooking{goya(10, 11), external("", "guest@example.com")}, nil, booking.CodeInvalidRequest, 1},
		{"ExternalAttendeeEmailIs2000", []booking.NewBooking{goya(10, 11), external(booking.AttendeeRequired, "not-an-email")}, nil, booking.CodeInvalidRequest, 1},
		{"ExternalAttendeeNamedEmailIs2000", []booking.NewBooking{goya(10, 11), external(booking.AttendeeRequired, "Guest <guest@example.com>")}, nil, booking.CodeInvalidRequest, 1},
		{"ImportanceIs2000", []booking.NewBooking{goya(10, 11), with(func(r *booking.NewBooking) { r.Importance = "URGENT" })}, nil, booking.CodeInvalidRequest, 1},
		{"LowerCaseImportanceIs2000", []booking.NewBooking{goya(10, 11), with(func(r *booking.NewBooking) { r.Importance = "low" })}, nil, booking.CodeInvalidRequest, 1},
		{"BodyTypeIs2000", []booking.NewBooking{goya(10, 11), with(func(r *booking.NewBooking) { r.Body.BodyType = "MARKDOWN" })}, nil, booking.CodeInvalidRequest, 1},
		{"EndBeforeStartIs2000", []booking.NewBooking{goya(10, 11), velazquez(13, 12)}, nil, booking.CodeInvalidRequest, 1},
		{"EndEqualToStartIs2000", []booking.NewBooking{goya(10, 11), velazquez(13, 13)}, nil, booking.CodeInvalidRequest, 1},
		{"MissingResourceIs2000", []booking.NewBooking{goya(10, 11), bookingtest.Request(uuid.Nil, at(1, 10, 0), at(1, 11, 0))}, nil, booking.CodeInvalidRequest, 1},
		{"MissingDatesIs2000", []booking.NewBooking{goya(10, 11), {ResourceID: bookingtest.RoomVelazquez}}, nil, booking.CodeInvalidRequest, 1},
		{"EmptyRequestIs2000", []booking.NewBooking{}, nil, booking.CodeInvalidRequest, -1},
		{"NilRequestIs2000", nil, nil, booking.CodeInvalidRequest, -1},
		{"MoreThan100Is2000", manyValid(booking.MaxBookingsPerRequest + 1), nil, booking.CodeInvalidRequest, -1},
		// The first failing element decides the error, whatever kind of failure each one has.
		{"FirstFailingDecidesResourceBeforeField", []booking.NewBooking{goya(10, 11), bookingtest.Request(uuid.New(), at(1, 10, 0), at(1, 11, 0)), with(func(r *booking.NewBooking) { r.Importance = "URGENT" })}, nil, booking.CodeResourceNotFound, 1},
		{"FirstFailingDecidesRuleBeforeRule", []booking.NewBooking{goya(10, 11), goya(12, 17), velazquez(19, 21)}, nil, booking.CodeDurationExceedsMaximum, 1},
		{"FirstFailingDecidesAttendeeBeforeDesk", []booking.NewBooking{goya(10, 11), attendee(booking.AttendeeRequired, uuid.New()), bookingtest.Request(bookingtest.DeskOne, at(1, 10, 0), at(1, 11, 0))}, nil, booking.CodeUserNotFound, 1},
		{"FirstFailingDecidesDeskBeforeAttendee", []booking.NewBooking{goya(10, 11), bookingtest.Request(bookingtest.DeskOne, at(1, 10, 0), at(1, 11, 0)), attendee(booking.AttendeeRequired, uuid.New())}, nil, booking.CodeResourceNotASpace, 1},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			creator := u.alice
			if tt.creator != nil {
				creator = tt.creator(u)
			}
			bs, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: creator, Organizer: creator, Category: booking.CategorySpace, Bookings: tt.reqs})
			bookingtest.WantCode(t, err, tt.want)
			wantIndex(t, err, tt.index)
			if bs != nil {
				t.Errorf("bookings = %v, want nil on error", bs)
			}
			wantNoBookings(t, b)
		})
	}

	// A resource whose floor or building is deactivated or hidden cannot be booked either; New York's
	// Hudson, in another building, still can.
	for _, tc := range []struct {
		name   string
		change func(l *layout.Layout)
	}{
		{"ResourceOnDeactivatedFloorIs1002", func(l *layout.Layout) { l.Floors[0].Status = "DEACTIVATED" }},
		{"ResourceInHiddenBuildingIs1002", func(l *layout.Layout) { l.Buildings[0].Visible = ptr(false) }},
		{"ResourceInDeactivatedBuildingIs1002", func(l *layout.Layout) { l.Buildings[0].Status = "DEACTIVATED" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			l := bookingtest.Layout()
			if l.Floors[0].ID != bookingtest.FloorMadrid.String() || l.Buildings[0].ID != bookingtest.BuildingMadrid.String() {
				t.Fatalf("the fixture's first floor and building are not Madrid's")
			}
			tc.change(&l)
			if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
				t.Fatalf("Import: %v", err)
			}
			alice := fixtureUsers(t, b).alice
			hudson := bookingtest.Request(bookingtest.RoomHudson, at(1, 16, 0), at(1, 17, 0)) // 10:00–11:00 in New York
			_, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{hudson, goya(10, 11)}})
			bookingtest.WantCode(t, err, booking.CodeResourceNotFound)
			wantIndex(t, err, 1)
			wantNoBookings(t, b)
			mustCreate(t, b, alice, hudson)
		})
	}
}

// TestCreateBookingsLimits checks the edge cases: the first failure decides, the maximum number of
// elements, and a walk-up booking.
func TestCreateBookingsLimits(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("FirstFailingDecidesOverlapBeforeLaterError", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		mustCreate(t, b, alice, goya(10, 11))
		reqs := []booking.NewBooking{velazquez(10, 11), goya(10, 11), attendee(booking.AttendeeRequired, uuid.New())}
		_, err := b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: reqs})
		bookingtest.WantCode(t, err, booking.CodeResourceNotAvailable)
		wantIndex(t, err, 1)
		if got := bookingtest.TableCount(t, b, "bookings"); got != 1 {
			t.Errorf("bookings = %d rows, want 1", got)
		}
	})

	t.Run("ExactlyMaximumElementsSucceed", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		bs := mustCreate(t, b, fixtureUsers(t, b).alice, manyValid(booking.MaxBookingsPerRequest)...)
		if got, want := len(bs), booking.MaxBookingsPerRequest; got != want {
			t.Errorf("bookings = %d, want %d", got, want)
		}
		if got, want := bookingtest.TableCount(t, b, "bookings"), booking.MaxBookingsPerRequest; got != want {
			t.Errorf("bookings = %d rows, want %d", got, want)
		}
	})

	t.Run("WalkUpFourMinutesAgoSucceeds", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		mustCreate(t, b, fixtureUsers(t, b).alice, bookingtest.Request(bookingtest.RoomGoya, at(0, 8, 56), at(0, 10, 0)))
	})
}

// TestCreateBookingsRace sends the same booking from many goroutines at once. The database lets exactly
// one through, and every other one gets 4001.
func TestCreateBookingsRace(t *testing.T) {
	t.Parallel()
	const n = 24
	b := bookingtest.Setup(t)
	alice := fixtureUsers(t, b).alice
	at := bookingtest.At
	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, errs[i] = b.Service.CreateBookings(t.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0))}})
		}()
	}
	close(start)
	wg.Wait()
	ok := 0
	for i, err := range errs {
		switch booking.ErrorCode(err) {
		case 0:
			ok++
		case booking.CodeResourceNotAvailable:
		default:
			t.Errorf("goroutine %d: %v, want nil or 4001", i, err)
		}
	}
	if got, want := ok, 1; got != want {
		t.Errorf("successes = %d, want %d", got, want)
	}
	if got, want := bookingtest.TableCount(t, b, "bookings"), 1; got != want {
		t.Errorf("bookings = %d rows, want %d", got, want)
	}
}

// manyValid returns n valid one-hour bookings that do not overlap: four a day, on two rooms, from tomorrow.
func manyValid(n int) []booking.NewBooking {
	reqs := make([]booking.NewBooking, n)
	for i := range reqs {
		day, slot := i/4, i%4
		room := bookingtest.RoomGoya
		if slot%2 == 1 {
			room = bookingtest.RoomVelazquez
		}
		reqs[i] = bookingtest.Request(room, bookingtest.At(day+1, 10+slot, 0), bookingtest.At(day+1, 11+slot, 0))
	}
	return reqs
}

package booking_test

import (
	"encoding/base64"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

func ids(bs []booking.Booking) []uuid.UUID {
	out := make([]uuid.UUID, len(bs))
	for i, bk := range bs {
		out[i] = bk.ID
	}
	return out
}

func wantIDs(t *testing.T, name string, got []booking.Booking, want ...uuid.UUID) {
	t.Helper()
	if want == nil {
		want = []uuid.UUID{}
	}
	if g := ids(got); !slices.Equal(g, want) {
		t.Fatalf("%s = %v, want %v", name, g, want)
	}
}

func TestBooking(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	ctx := t.Context()

	// Alice's booking with Bob invited, one without guests, and one Bob made for Alice.
	r := bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 12, 0))
	r.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeOptional, UserID: bookingtest.Bob}}
	r.ExternalAttendees = []booking.ExternalAttendee{{Type: booking.AttendeeRequired, Email: "guest@example.com"}}
	invited := createOne(t, b, u.alice, r)
	alone := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0)))
	madeByBob := mustBook(t, b, u.bob, u.alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, at(2, 10, 0), at(2, 11, 0)))[0]
	if _, err := b.Service.ContractReservables(ctx, u.alice, invited.ID, []booking.ReservableOrder{
		{ReservableID: bookingtest.ReservableCoffee, DeliveryTime: ptr(30 * time.Minute), Quantity: ptr(int32(2)), Comment: "decaf"},
		{ReservableID: bookingtest.ReservableAV},
	}); err != nil {
		t.Fatalf("ContractReservables: %v", err)
	}

	for _, tc := range []struct {
		name  string
		actor booking.User
		id    uuid.UUID
		want  booking.Code
	}{
		{"OrganizerSees", u.alice, alone.ID, 0},
		{"CreatorSees", u.bob, madeByBob.ID, 0},
		{"InternalAttendeeSees", u.bob, invited.ID, 0},
		{"ReceptionistSees", u.rita, alone.ID, 0},
		{"AdminSees", u.adam, alone.ID, 0},
		{"OtherEmployeeIs1011", u.bob, alone.ID, booking.CodeBookingNotFound},
		{"OtherOrganizationIs1011", u.boris, alone.ID, booking.CodeBookingNotFound},
		{"UnknownIs1011", u.adam, uuid.New(), booking.CodeBookingNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := b.Service.Booking(t.Context(), tc.actor, tc.id)
			bookingtest.WantCode(t, err, tc.want)
			if tc.want == 0 && got.ID != tc.id {
				t.Errorf("ID = %v, want %v", got.ID, tc.id)
			}
		})
	}

	t.Run("IsComplete", func(t *testing.T) {
		t.Parallel()
		got, err := b.Service.Booking(t.Context(), u.bob, invited.ID)
		if err != nil {
			t.Fatalf("Booking: %v", err)
		}
		wantSame(t, got, booking.Booking{
			ID: invited.ID, Status: booking.StatusPending, Start: at(1, 10, 0), End: at(1, 12, 0),
			Resource: booking.Resource{Name: "Goya"}, CheckIn: booking.Interval{Start: at(1, 9, 50), End: at(1, 10, 15)},
			Reservables: []booking.BookingReservable{
				{Reservable: booking.Reservable{Name: "AV setup"}, DeliveryTime: 15 * time.Minute, Quantity: 1},
				{Reservable: booking.Reservable{Name: "Coffee"}, DeliveryTime: 30 * time.Minute, Quantity: 2},
			},
		})
		// The fields wantSame does not compare.
		type details struct {
			Coffee                 booking.BookingReservable
			Organizer, Creator     uuid.UUID
			OrganizerName, Subject string
			Timezone               string
			Rule                   uuid.UUID
			Category, ResourceType booking.Category
		}
		coffee := got.Reservables[1]
		wantEqual(t, "booking", details{
			Coffee:    booking.BookingReservable{Reservable: coffee.Reservable, DeliveryTime: 30 * time.Minute, Quantity: 2, Comment: "decaf"},
			Organizer: bookingtest.Alice, Creator: bookingtest.Alice, OrganizerName: "alice", Subject: "Meeting",
			Timezone: "Europe/Madrid", Rule: bookingtest.RuleRoom, Category: booking.CategorySpace, ResourceType: booking.CategorySpace,
		}, details{
			Coffee: coffee, Organizer: got.Organizer.ID, Creator: got.Creator.ID, OrganizerName: got.Organizer.Name, Subject: got.Subject,
			Timezone: got.Resource.Floor.Building.Timezone, Rule: got.Resource.Rule.ID, Category: got.Resource.Subcategory.Category,
			ResourceType: got.ResourceType,
		})
		if coffee.Reservable.ID != bookingtest.ReservableCoffee || coffee.Reservable.MinimumCancellation != 2*time.Hour {
			t.Errorf("Coffee = %+v, want the coffee, 2h minimum cancellation", coffee.Reservable)
		}
	})

	t.Run("NoReservablesIsEmptyNotNil", func(t *testing.T) {
		t.Parallel()
		got, err := b.Service.Booking(t.Context(), u.alice, alone.ID)
		if err != nil {
			t.Fatalf("Booking: %v", err)
		}
		if got.Reservables == nil || len(got.Reservables) != 0 {
			t.Errorf("Reservables = %#v, want an empty slice", got.Reservables)
		}
	})
}

// spread books n one-hour slots for u from tomorrow, newest last. Each day gets 10:00 on Goya and on
// Velázquez (the same start twice), then 12:00 and 14:00 on Goya.
func spread(t *testing.T, b *bookingtest.Bundle, u booking.User, n int) []booking.Booking {
	t.Helper()
	reqs := make([]booking.NewBooking, n)
	for i := range reqs {
		day, slot := 1+i/4, i%4
		switch slot {
		case 0:
			reqs[i] = bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(day, 10, 0), bookingtest.At(day, 11, 0))
		case 1:
			reqs[i] = bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(day, 10, 0), bookingtest.At(day, 11, 0))
		default:
			h := 8 + 2*slot
			reqs[i] = bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(day, h, 0), bookingtest.At(day, h+1, 0))
		}
	}
	return mustCreate(t, b, u, reqs...)
}

// newestFirst sorts bookings as a user's listing does: by start, then id, descending.
func newestFirst(bs []booking.Booking) []uuid.UUID {
	bs = slices.Clone(bs)
	slices.SortFunc(bs, func(x, y booking.Booking) int {
		if c := y.Start.Compare(x.Start); c != 0 {
			return c
		}
		return slices.Compare(y.ID[:], x.ID[:])
	})
	return ids(bs)
}

// listUser returns a page of u's bookings and fails the test on any error.
func listUser(t *testing.T, b *bookingtest.Bundle, u booking.User, f booking.BookingFilter) booking.BookingPage {
	t.Helper()
	p, err := b.Service.UserBookings(t.Context(), u, f)
	if err != nil {
		t.Fatalf("UserBookings: %v", err)
	}
	return p
}

// walkPages reads up to maxPages pages, starting with no cursor and following each NextCursor. It returns
// the ids read and the size of each page.
func walkPages(t *testing.T, maxPages int, page func(cursor string) booking.BookingPage) (got []uuid.UUID, sizes []int) {
	t.Helper()
	cursor := ""
	for range maxPages {
		p := page(cursor)
		got, sizes = append(got, ids(p.Bookings)...), append(sizes, len(p.Bookings))
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	return got, sizes
}

func TestUserBookings(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	list := listUser

	// One bundle for the filters: Alice's a1 (day 1) and a2 (day 2), Bob's b3 with Alice invited (day 3)
	// and b4 without her (day 4), Alice's cancelled a5 (day 5); all 10:00–11:00.
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	a1 := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
	a2 := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(2, 10, 0), at(2, 11, 0)))
	r := bookingtest.Request(bookingtest.RoomVelazquez, at(3, 10, 0), at(3, 11, 0))
	r.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: bookingtest.Alice}}
	b3 := createOne(t, b, u.bob, r)
	b4 := createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomVelazquez, at(4, 10, 0), at(4, 11, 0)))
	a5 := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(5, 10, 0), at(5, 11, 0)))
	if _, err := b.Service.Cancel(t.Context(), u.alice, a5.ID); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	from := func(d, h int) *time.Time { return ptr(at(d, h, 0)) }
	statuses := func(s ...booking.Status) []booking.Status { return s }

	for _, tc := range []struct {
		name string
		user booking.User
		f    booking.BookingFilter
		want []uuid.UUID
	}{
		{"OrganizerOrAttendeeNewestFirst", u.alice, booking.BookingFilter{}, []uuid.UUID{a5.ID, b3.ID, a2.ID, a1.ID}},
		{"BobsOwn", u.bob, booking.BookingFilter{}, []uuid.UUID{b4.ID, b3.ID}},
		{"NoneForRita", u.rita, booking.BookingFilter{}, nil},
		{"NoneAcrossOrganizations", u.boris, booking.BookingFilter{}, nil},
		{"FromTo", u.alice, booking.BookingFilter{From: from(2, 10), To: from(3, 11)}, []uuid.UUID{b3.ID, a2.ID}},
		{"FromIsOverlapNotStart", u.alice, booking.BookingFilter{From: ptr(at(2, 10, 59))}, []uuid.UUID{a5.ID, b3.ID, a2.ID}},
		{"FromAtEndExcludes", u.alice, booking.BookingFilter{From: from(2, 11)}, []uuid.UUID{a5.ID, b3.ID}},
		{"ToAtStartExcludes", u.alice, booking.BookingFilter{To: from(2, 10)}, []uuid.UUID{a1.ID}},
		{"ToIsOverlap", u.alice, booking.BookingFilter{To: ptr(at(2, 10, 1))}, []uuid.UUID{a2.ID, a1.ID}},
		{"Statuses", u.alice, booking.BookingFilter{Statuses: statuses(booking.StatusCancelled)}, []uuid.UUID{a5.ID}},
		{"SeveralStatuses", u.alice, booking.BookingFilter{Statuses: statuses(booking.StatusPending, booking.StatusCancelled)},
			[]uuid.UUID{a5.ID, b3.ID, a2.ID, a1.ID}},
		{"StatusNoneHas", u.alice, booking.BookingFilter{Statuses: statuses(booking.StatusActive)}, nil},
		{"StatusesAndRange", u.alice, booking.BookingFilter{From: from(3, 0), Statuses: statuses(booking.StatusPending)},
			[]uuid.UUID{b3.ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := list(t, b, tc.user, tc.f)
			wantIDs(t, "bookings", p.Bookings, tc.want...)
			if p.NextCursor != "" {
				t.Errorf("NextCursor = %q, want none", p.NextCursor)
			}
		})
	}

	t.Run("AttendeesBookingIsComplete", func(t *testing.T) {
		t.Parallel()
		p := list(t, b, u.alice, booking.BookingFilter{From: from(3, 0), To: from(4, 0)})
		wantIDs(t, "bookings", p.Bookings, b3.ID)
		if got := p.Bookings[0]; got.Organizer.ID != bookingtest.Bob || got.Resource.Name != "Velázquez" || got.Reservables == nil {
			t.Errorf("booking = organizer %v, resource %q, reservables %v; want Bob's Velázquez booking, complete",
				got.Organizer.ID, got.Resource.Name, got.Reservables)
		}
	})

	for _, tc := range []struct {
		name string
		f    booking.BookingFilter
	}{
		{"UnknownStatusIs2000", booking.BookingFilter{Statuses: []booking.Status{"BOGUS"}}},
		{"LowerCaseStatusIs2000", booking.BookingFilter{Statuses: []booking.Status{booking.StatusPending, "pending"}}},
		{"ToEqualToFromIs2000", booking.BookingFilter{From: from(2, 10), To: from(2, 10)}},
		{"ToBeforeFromIs2000", booking.BookingFilter{From: from(2, 10), To: from(1, 10)}},
		{"FromBefore1970Is2000", booking.BookingFilter{From: ptr(time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC))}},
		{"ToAfter9999Is2000", booking.BookingFilter{To: ptr(time.Date(10000, 1, 2, 0, 0, 0, 0, time.UTC))}},
		{"LimitOver100Is2000", booking.BookingFilter{Page: booking.Page{Limit: booking.MaxPageSize + 1}}},
		{"NegativeLimitIs2000", booking.BookingFilter{Page: booking.Page{Limit: -1}}},
		{"CursorNotBase64Is2000", booking.BookingFilter{Page: booking.Page{Cursor: "not a cursor!"}}},
		{"CursorWithoutSeparatorIs2000", booking.BookingFilter{Page: booking.Page{Cursor: enc("1234567890")}}},
		{"CursorWithBadTimeIs2000", booking.BookingFilter{Page: booking.Page{Cursor: enc("soon_" + uuid.NewString())}}},
		{"CursorWithBadIDIs2000", booking.BookingFilter{Page: booking.Page{Cursor: enc("1795420800000000_nope")}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.Service.UserBookings(t.Context(), u.alice, tc.f)
			bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		})
	}

}

func TestUserBookingsPages(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	list := listUser

	t.Run("LimitZeroIs20", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		all := spread(t, b, alice, 25)
		p := list(t, b, alice, booking.BookingFilter{})
		if got, want := len(p.Bookings), booking.DefaultPageSize; got != want {
			t.Fatalf("bookings = %d, want %d", got, want)
		}
		if p.NextCursor == "" {
			t.Fatalf("NextCursor is empty, want one")
		}
		rest := list(t, b, alice, booking.BookingFilter{Page: booking.Page{Cursor: p.NextCursor}})
		if got := append(ids(p.Bookings), ids(rest.Bookings)...); !slices.Equal(got, newestFirst(all)) {
			t.Errorf("pages = %v, want %v", got, newestFirst(all))
		}
		if rest.NextCursor != "" {
			t.Errorf("last NextCursor = %q, want none", rest.NextCursor)
		}
		p = list(t, b, alice, booking.BookingFilter{Page: booking.Page{Limit: booking.MaxPageSize}})
		if got := ids(p.Bookings); !slices.Equal(got, newestFirst(all)) || p.NextCursor != "" {
			t.Errorf("limit 100 = %v, cursor %q, want every booking and no cursor", got, p.NextCursor)
		}
	})

	for _, tc := range []struct {
		name     string
		n, limit int
		pages    []int
	}{
		{"CursorWalksEveryBookingOnce", 23, 5, []int{5, 5, 5, 5, 3}},
		{"NoCursorAfterFullLastPage", 12, 4, []int{4, 4, 4}},
		{"LimitOne", 5, 1, []int{1, 1, 1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			alice := fixtureUsers(t, b).alice
			all := spread(t, b, alice, tc.n)
			got, sizes := walkPages(t, len(tc.pages)+1, func(cursor string) booking.BookingPage {
				return list(t, b, alice, booking.BookingFilter{Page: booking.Page{Limit: tc.limit, Cursor: cursor}})
			})
			wantEqual(t, "page sizes", tc.pages, sizes)
			wantEqual(t, "pages", newestFirst(all), got)
		})
	}

	t.Run("CursorKeepsTheFilter", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := fixtureUsers(t, b).alice
		all := spread(t, b, alice, 12)
		var want []booking.Booking
		for _, bk := range all {
			if bk.Resource.ID == bookingtest.RoomGoya && bk.Start.Before(at(3, 0, 0)) {
				if _, err := b.Service.Cancel(t.Context(), alice, bk.ID); err != nil {
					t.Fatalf("Cancel: %v", err)
				}
				want = append(want, bk)
			}
		}
		f := booking.BookingFilter{Statuses: []booking.Status{booking.StatusCancelled}, Page: booking.Page{Limit: 4}}
		p := list(t, b, alice, f)
		f.Page.Cursor = p.NextCursor
		rest := list(t, b, alice, f)
		if got := append(ids(p.Bookings), ids(rest.Bookings)...); !slices.Equal(got, newestFirst(want)) || rest.NextCursor != "" {
			t.Errorf("pages = %v (cursor %q), want %v", got, rest.NextCursor, newestFirst(want))
		}
	})
}

func enc(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func TestWaitingApproval(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	// Boardroom requests on days 7, 2, 5, 1, 3, 6, 4 (made out of order), Goya bookings that need no
	// approval, one request rejected, one cancelled, and Bob's request.
	var want []uuid.UUID
	byDay := map[int]uuid.UUID{}
	for _, d := range []int{7, 2, 5, 1, 3, 6, 4} {
		byDay[d] = createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(d, 10, 0), at(d, 11, 0))).ID
		createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, at(d, 10, 0), at(d, 11, 0)))
	}
	rejected := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 14, 0), at(1, 15, 0)))
	cancelled := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(2, 14, 0), at(2, 15, 0)))
	bobs := createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomBoard, at(3, 8, 0), at(3, 9, 0)))
	if _, err := b.Service.Decide(t.Context(), u.adam, rejected.ID, false); err != nil {
		t.Fatalf("Decide: %v", err)
	}
	if _, err := b.Service.Cancel(t.Context(), u.alice, cancelled.ID); err != nil {
		t.Fatalf("Cancel: %v", err)
	}
	for d := 1; d <= 7; d++ {
		if d == 3 {
			want = append(want, bobs.ID)
		}
		want = append(want, byDay[d])
	}

	t.Run("EarliestFirst", func(t *testing.T) {
		t.Parallel()
		p, err := b.Service.WaitingApproval(t.Context(), u.adam, booking.Page{})
		if err != nil {
			t.Fatalf("WaitingApproval: %v", err)
		}
		wantIDs(t, "bookings", p.Bookings, want...)
		if p.NextCursor != "" {
			t.Errorf("NextCursor = %q, want none", p.NextCursor)
		}
		for _, bk := range p.Bookings {
			if bk.Status != booking.StatusWaitingApproval || bk.Resource.Name != "Boardroom" {
				t.Errorf("booking %s: %v on %q, want WAITING_APPROVAL on Boardroom", bk.ID, bk.Status, bk.Resource.Name)
			}
		}
	})

	t.Run("Paginated", func(t *testing.T) {
		t.Parallel()
		got, sizes := walkPages(t, 5, func(cursor string) booking.BookingPage {
			p, err := b.Service.WaitingApproval(t.Context(), u.adam, booking.Page{Limit: 3, Cursor: cursor})
			if err != nil {
				t.Fatalf("WaitingApproval: %v", err)
			}
			return p
		})
		wantEqual(t, "page sizes", []int{3, 3, 2}, sizes)
		wantEqual(t, "pages", want, got)
	})

	for _, actor := range []booking.User{u.alice, u.bob, u.rita, u.boris} {
		t.Run(actor.Name+"Is1001", func(t *testing.T) {
			t.Parallel()
			_, err := b.Service.WaitingApproval(t.Context(), actor, booking.Page{})
			bookingtest.WantCode(t, err, booking.CodeForbidden)
		})
	}

	for _, tc := range []struct {
		name string
		pg   booking.Page
	}{
		{"LimitOver100Is2000", booking.Page{Limit: 101}},
		{"BadCursorIs2000", booking.Page{Cursor: "%%%"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := b.Service.WaitingApproval(t.Context(), u.adam, tc.pg)
			bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		})
	}

	t.Run("ApprovedLeavesTheQueue", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		first := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 11, 0)))
		second := createOne(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(2, 10, 0), at(2, 11, 0)))
		if _, err := b.Service.Decide(t.Context(), u.adam, first.ID, true); err != nil {
			t.Fatalf("Decide: %v", err)
		}
		p, err := b.Service.WaitingApproval(t.Context(), u.adam, booking.Page{})
		if err != nil {
			t.Fatalf("WaitingApproval: %v", err)
		}
		wantIDs(t, "bookings", p.Bookings, second.ID)
	})
}

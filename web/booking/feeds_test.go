package booking_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// feedIDs returns the ids of entries, in order.
func feedIDs(entries []booking.FeedEntry) []uuid.UUID {
	out := make([]uuid.UUID, len(entries))
	for i, e := range entries {
		out[i] = e.ID
	}
	return out
}

// feedWindow is the window the feeds read: 30 days back, 180 ahead.
func feedWindow() (time.Time, time.Time) {
	return bookingtest.Now.AddDate(0, 0, -30), bookingtest.Now.AddDate(0, 0, 180)
}

func TestBookingsForFeed(t *testing.T) {
	t.Parallel()
	b, u, byStatus := setupStatuses(t)
	ctx := t.Context()
	// Bob's booking inviting Alice is hers too; Bob's own is not.
	invited := bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(8, 10, 0), bookingtest.At(8, 11, 0))
	invited.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: bookingtest.Alice}}
	attends := createOne(t, b, u.bob, invited)
	createOne(t, b, u.bob, bookingtest.Request(bookingtest.RoomVelazquez, bookingtest.At(9, 10, 0), bookingtest.At(9, 11, 0)))
	from, to := feedWindow()

	t.Run("EveryStatusEarliestFirst", func(t *testing.T) {
		got, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, from, to, booking.MaxFeedEvents)
		if err != nil {
			t.Fatal(err)
		}
		var want []uuid.UUID
		for _, st := range []booking.Status{booking.StatusExpired, booking.StatusActive, booking.StatusFinished,
			booking.StatusCancelled, booking.StatusRejected, booking.StatusWaitingApproval, booking.StatusPending} {
			want = append(want, byStatus[st].ID)
		}
		want = append(want, attends.ID)
		if diff := cmp.Diff(want, feedIDs(got)); diff != "" {
			t.Errorf("feed (-want +got):\n%s", diff)
		}
		for _, e := range got {
			if e.Changed.IsZero() || e.Resource.Floor.Building.Timezone == "" {
				t.Errorf("%s: Changed %v, time zone %q: want both", e.ID, e.Changed, e.Resource.Floor.Building.Timezone)
			}
		}
	})

	t.Run("EndedLongAgoLeaves", func(t *testing.T) {
		// A month and a day after they changed, the cancelled, rejected and expired bookings leave the
		// feed; the finished one stays, as it happened.
		if _, err := b.Pool.Exec(ctx, `UPDATE bookings SET updated_at = now() - interval '31 days'
			WHERE status IN ('CANCELLED', 'REJECTED', 'EXPIRED', 'FINISHED')`); err != nil {
			t.Fatal(err)
		}
		got, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, from, to, booking.MaxFeedEvents)
		if err != nil {
			t.Fatal(err)
		}
		want := []uuid.UUID{byStatus[booking.StatusActive].ID, byStatus[booking.StatusFinished].ID,
			byStatus[booking.StatusWaitingApproval].ID, byStatus[booking.StatusPending].ID, attends.ID}
		if diff := cmp.Diff(want, feedIDs(got)); diff != "" {
			t.Errorf("feed (-want +got):\n%s", diff)
		}
	})

	t.Run("BoundedAndWindowed", func(t *testing.T) {
		got, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, from, to, 2)
		if err != nil || len(got) != 2 {
			t.Errorf("max 2: %d entries (%v), want 2", len(got), err)
		}
		got, err = b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, bookingtest.At(8, 0, 0), to, 10)
		if err != nil || !cmp.Equal(feedIDs(got), []uuid.UUID{attends.ID}) {
			t.Errorf("from day 8: %v (%v), want only the invitation", feedIDs(got), err)
		}
	})

	t.Run("AnotherOrganizationHasNone", func(t *testing.T) {
		got, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgB, bookingtest.Alice, from, to, 10)
		if err != nil || len(got) != 0 {
			t.Errorf("Alice's id in B: %v (%v), want nothing", feedIDs(got), err)
		}
	})

	t.Run("BadReadsAreRefused", func(t *testing.T) {
		for name, read := range map[string]func() error{
			"NoMax": func() error {
				_, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, from, to, 0)
				return err
			},
			"MaxTooHigh": func() error {
				_, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, from, to, 2001)
				return err
			},
			"Backwards": func() error {
				_, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, to, from, 1)
				return err
			},
			"TooLong": func() error {
				_, err := b.Service.BookingsForFeed(ctx, bookingtest.OrgA, bookingtest.Alice, from, from.AddDate(2, 0, 0), 1)
				return err
			},
		} {
			if got := booking.ErrorCode(read()); got != booking.CodeInvalidRequest {
				t.Errorf("%s: code %v, want %v", name, got, booking.CodeInvalidRequest)
			}
		}
	})
}

func TestResourceBookingsForFeed(t *testing.T) {
	t.Parallel()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	ctx := t.Context()
	mine := createOne(t, b, u.alice, goya(10, 11))
	bobs := createOne(t, b, u.bob, goya(12, 13))
	cancelled := createOne(t, b, u.bob, goya(14, 15))
	if _, err := b.Service.Cancel(ctx, u.bob, cancelled.ID); err != nil {
		t.Fatal(err)
	}
	createOne(t, b, u.alice, velazquez(10, 11)) // another room
	from, to := feedWindow()

	res, got, err := b.Service.ResourceBookingsForFeed(ctx, u.alice, bookingtest.RoomGoya, from, to, booking.MaxFeedEvents)
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != bookingtest.RoomGoya || res.Name != "Goya" {
		t.Errorf("resource = %s %q, want Goya", res.ID, res.Name)
	}
	if diff := cmp.Diff([]uuid.UUID{mine.ID, bobs.ID, cancelled.ID}, feedIDs(got)); diff != "" {
		t.Errorf("Goya's feed (-want +got):\n%s", diff)
	}
	for name, c := range map[string]struct {
		as booking.User
		id uuid.UUID
	}{
		"AnotherOrganizationsRoom": {u.boris, bookingtest.RoomGoya},
		"ADesk":                    {u.alice, bookingtest.DeskOne},
		"AHiddenRoom":              {u.alice, bookingtest.RoomHidden},
		"ARoomOnAHiddenFloor":      {u.alice, bookingtest.RoomOnHidden},
		"NoSuchRoom":               {u.alice, uuid.New()},
	} {
		_, entries, err := b.Service.ResourceBookingsForFeed(ctx, c.as, c.id, from, to, 10)
		if got := booking.ErrorCode(err); got != booking.CodeResourceNotFound || entries != nil {
			t.Errorf("%s: code %v and %d entries, want %v and none", name, got, len(entries), booking.CodeResourceNotFound)
		}
	}
}

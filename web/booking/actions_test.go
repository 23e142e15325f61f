package booking_test

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

func TestBookingActionsAt(t *testing.T) {
	t.Parallel()
	coffee := booking.Reservable{Name: "Coffee", MinimumCancellation: 2 * time.Hour}
	// pending is a 10:00–11:00 booking whose check-in window is 09:50–10:15.
	pending := booking.Booking{
		Start: fx.At(0, 10, 0), End: fx.At(0, 11, 0), Status: booking.StatusPending,
		CheckIn: booking.Interval{Start: fx.At(0, 9, 50), End: fx.At(0, 10, 15)},
	}
	with := func(st booking.Status, brs ...booking.BookingReservable) booking.Booking {
		b := pending
		b.Status, b.Reservables = st, brs
		return b
	}
	withCoffee := with(booking.StatusPending, booking.BookingReservable{Reservable: coffee, Quantity: 1})
	activeWithCoffee := with(booking.StatusActive, booking.BookingReservable{Reservable: coffee, Quantity: 1})
	for _, tc := range []struct {
		name string
		b    booking.Booking
		at   time.Time
		want booking.BookingActions
	}{
		{"PendingBeforeCheckInOpens", pending, fx.At(0, 9, 49),
			booking.BookingActions{CheckInLater: true, Change: true, Cancel: true, Services: true}},
		{"PendingWhenCheckInOpens", pending, fx.At(0, 9, 50),
			booking.BookingActions{CheckIn: true, Change: true, Cancel: true, Services: true}},
		{"PendingLastMomentOfCheckIn", pending, fx.At(0, 10, 14),
			booking.BookingActions{CheckIn: true, Change: true, Cancel: true, Services: true}},
		{"PendingWhenCheckInCloses", pending, fx.At(0, 10, 15), booking.BookingActions{CheckInClosed: true}},
		{"WaitingApproval", with(booking.StatusWaitingApproval), fx.At(0, 9, 55),
			booking.BookingActions{Change: true, Cancel: true, Services: true}},
		{"WaitingApprovalTooLong", with(booking.StatusWaitingApproval), fx.At(0, 10, 15), booking.BookingActions{CheckInClosed: true}},
		{"Active", with(booking.StatusActive), fx.At(0, 10, 30), booking.BookingActions{Release: true, Services: true}},
		{"Finished", with(booking.StatusFinished), fx.At(0, 10, 30), booking.BookingActions{}},
		{"Cancelled", with(booking.StatusCancelled), fx.At(0, 9, 0), booking.BookingActions{}},
		{"ServiceAtItsDeadline", withCoffee, fx.At(0, 8, 0),
			booking.BookingActions{CheckInLater: true, Change: true, Cancel: true, Services: true}},
		{"ServicePastItsDeadline", withCoffee, fx.At(0, 8, 1),
			booking.BookingActions{CheckInLater: true, Change: true, CancelLockedBy: &coffee, Services: true}},
		// An overdue booking cannot be cancelled anyway, so the service is not what blocks it.
		{"ServicePastItsDeadlineWhenCheckInCloses", withCoffee, fx.At(0, 10, 15), booking.BookingActions{CheckInClosed: true}},
		// Checked in early: releasing it before its start would cancel the service too late.
		{"ActiveBeforeItsStartWithAServicePastItsDeadline", activeWithCoffee, fx.At(0, 9, 55),
			booking.BookingActions{CancelLockedBy: &coffee, Services: true}},
		{"ActiveAtItsStartWithAServicePastItsDeadline", activeWithCoffee, fx.At(0, 10, 0),
			booking.BookingActions{CancelLockedBy: &coffee, Services: true}},
		{"ActiveAfterItsStartWithAService", activeWithCoffee, fx.At(0, 10, 1), booking.BookingActions{Release: true, Services: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.b.ActionsAt(tc.at)
			if (got.CancelLockedBy == nil) != (tc.want.CancelLockedBy == nil) ||
				got.CancelLockedBy != nil && got.CancelLockedBy.Name != tc.want.CancelLockedBy.Name {
				t.Errorf("CancelLockedBy = %v, want %v", got.CancelLockedBy, tc.want.CancelLockedBy)
			}
			got.CancelLockedBy, tc.want.CancelLockedBy = nil, nil
			if got != tc.want {
				t.Errorf("ActionsAt(%s) = %+v, want %+v", tc.at.Format("15:04"), got, tc.want)
			}
		})
	}
}

func TestBookingActableBy(t *testing.T) {
	t.Parallel()
	org, other := uuid.New(), uuid.New()
	organizer := booking.User{ID: uuid.New(), OrganizationID: org, Role: booking.RoleEmployee}
	creator := booking.User{ID: uuid.New(), OrganizationID: org, Role: booking.RoleEmployee}
	b := booking.Booking{OrganizationID: org, Organizer: organizer, Creator: creator}
	for _, tc := range []struct {
		name string
		u    booking.User
		want bool
	}{
		{"Organizer", organizer, true},
		{"Creator", creator, true},
		{"Receptionist", booking.User{ID: uuid.New(), OrganizationID: org, Role: booking.RoleReceptionist}, true},
		{"Admin", booking.User{ID: uuid.New(), OrganizationID: org, Role: booking.RoleAdmin}, true},
		{"Colleague", booking.User{ID: uuid.New(), OrganizationID: org, Role: booking.RoleEmployee}, false},
		{"AdminOfAnotherOrganization", booking.User{ID: uuid.New(), OrganizationID: other, Role: booking.RoleAdmin}, false},
	} {
		if got := b.ActableBy(tc.u); got != tc.want {
			t.Errorf("%s: ActableBy = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestBookingActionsAgreeWithTheLifecycle checks that ActionsAt predicts what CheckIn, Cancel and CheckOut
// actually do, at moments around the edges of the check-in window and of a service's deadline. If the
// first action checks the booking in, the second finds it ACTIVE (so Cancel is not offered either), and
// the third releases it before its start while check-in is open early.
func TestBookingActionsAgreeWithTheLifecycle(t *testing.T) {
	t.Parallel()
	for _, at := range []time.Time{fx.At(0, 8, 0), fx.At(0, 8, 1), fx.At(0, 9, 49), fx.At(0, 9, 50), fx.At(0, 10, 14), fx.At(0, 10, 15)} {
		t.Run(at.Format("15:04"), func(t *testing.T) {
			t.Parallel()
			b := fx.Setup(t)
			b.Clock.Set(fx.At(0, 7, 0))
			alice := b.User(t, fx.OrgA, fx.Alice)
			bs, err := book(t, b, alice, alice, booking.CategorySpace,
				booking.NewBooking{ResourceID: fx.RoomGoya, Start: fx.At(0, 10, 0), End: fx.At(0, 11, 0)},
				booking.NewBooking{ResourceID: fx.RoomVelazquez, Start: fx.At(0, 10, 0), End: fx.At(0, 11, 0)},
			)
			if err != nil {
				t.Fatalf("book: %v", err)
			}
			if _, err := b.Service.ContractReservables(t.Context(), alice, bs[1].ID,
				[]booking.ReservableOrder{{ReservableID: fx.ReservableCoffee}}); err != nil {
				t.Fatalf("order coffee: %v", err)
			}
			b.Clock.Set(at)
			for i, do := range []func(id uuid.UUID) error{
				func(id uuid.UUID) error { _, err := b.Service.CheckIn(t.Context(), alice, id); return err },
				func(id uuid.UUID) error { _, err := b.Service.Cancel(t.Context(), alice, id); return err },
				func(id uuid.UUID) error { _, err := b.Service.CheckOut(t.Context(), alice, id); return err },
			} {
				for _, bk := range bs {
					cur, err := b.Service.Booking(t.Context(), alice, bk.ID)
					if err != nil {
						t.Fatalf("read booking: %v", err)
					}
					a := cur.ActionsAt(b.Service.Now())
					offered := []bool{a.CheckIn, a.Cancel, a.Release}[i]
					if err := do(cur.ID); (err == nil) != offered {
						t.Errorf("%s, action %d at %s: offered %v, but the lifecycle answered %v", cur.Resource.Name, i, at.Format("15:04"), offered, err)
					}
				}
			}
		})
	}
}

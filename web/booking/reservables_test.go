package booking_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// contracted returns the reservables contracted on a booking, read from the database, one line each,
// ordered by reservable id.
func contracted(t *testing.T, b *bookingtest.Bundle, bookingID uuid.UUID) []string {
	t.Helper()
	rows, err := b.Pool.Query(t.Context(), `SELECT reservable_id, delivery_time_ms, quantity, comment
		FROM booking_reservables WHERE booking_id = $1 ORDER BY reservable_id`, bookingID)
	if err != nil {
		t.Fatalf("read booking_reservables: %v", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var (
			id       uuid.UUID
			delivery int64
			quantity int32
			comment  string
		)
		if err := rows.Scan(&id, &delivery, &quantity, &comment); err != nil {
			t.Fatalf("scan: %v", err)
		}
		out = append(out, fmt.Sprintf("%s delivery=%dms quantity=%d comment=%q", id, delivery, quantity, comment))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("rows: %v", err)
	}
	return out
}

func line(id uuid.UUID, delivery time.Duration, quantity int32, comment string) string {
	return fmt.Sprintf("%s delivery=%dms quantity=%d comment=%q", id, delivery.Milliseconds(), quantity, comment)
}

func wantContracted(t *testing.T, b *bookingtest.Bundle, bookingID uuid.UUID, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	slices.Sort(want)
	wantEqual(t, "booking_reservables", want, contracted(t, b, bookingID))
}

func order(id uuid.UUID, delivery *time.Duration, quantity *int32, comment string) booking.ReservableOrder {
	return booking.ReservableOrder{ReservableID: id, DeliveryTime: delivery, Quantity: quantity, Comment: comment}
}

// goyaTwoHours books Goya tomorrow 10:00–12:00 for Alice and returns the bundle, the users and the booking id.
func goyaTwoHours(t *testing.T) (*bookingtest.Bundle, users, uuid.UUID) {
	t.Helper()
	b := bookingtest.Setup(t)
	u := fixtureUsers(t, b)
	bs := mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(1, 10, 0), bookingtest.At(1, 12, 0)))
	return b, u, bs[0].ID
}

// contractedView is a contracted reservable as ContractReservables returns it, without the reservable's
// description.
type contractedView struct {
	Name                string
	DeliveryTime        time.Duration
	Quantity            int32
	Comment             string
	MinimumCancellation time.Duration
	ChooseQuantity      bool
}

func contractedViews(brs []booking.BookingReservable) []contractedView {
	out := []contractedView{}
	for _, br := range brs {
		out = append(out, contractedView{Name: br.Reservable.Name, DeliveryTime: br.DeliveryTime, Quantity: br.Quantity,
			Comment: br.Comment, MinimumCancellation: br.Reservable.MinimumCancellation, ChooseQuantity: br.Reservable.ChooseQuantity})
	}
	return out
}

// Views of the fixture's coffee and AV setup, with the choices their orders make.
func coffeeView(delivery time.Duration, quantity int32, comment string) contractedView {
	return contractedView{Name: "Coffee", DeliveryTime: delivery, Quantity: quantity, Comment: comment,
		MinimumCancellation: 2 * time.Hour, ChooseQuantity: true}
}

var avView = contractedView{Name: "AV setup", DeliveryTime: 15 * time.Minute, Quantity: 1, MinimumCancellation: time.Hour}

func TestContractReservables(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	coffee, av := bookingtest.ReservableCoffee, bookingtest.ReservableAV
	setup := goyaTwoHours

	t.Run("ContractsAndReturnsSetSortedByName", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		got := contract(t, b, u.alice, id,
			order(coffee, ptr(30*time.Minute), ptr(int32(3)), "oat milk"),
			order(av, nil, nil, ""))
		wantEqual(t, "contracted", []contractedView{avView, coffeeView(30*time.Minute, 3, "oat milk")}, contractedViews(got))
		wantContracted(t, b, id, line(coffee, 30*time.Minute, 3, "oat milk"), line(av, 15*time.Minute, 1, ""))
	})

	t.Run("ReplacesWholeSet", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		contract(t, b, u.alice, id, order(coffee, ptr(30*time.Minute), ptr(int32(3)), "oat milk"))
		got := contract(t, b, u.alice, id, order(av, nil, nil, ""))
		wantEqual(t, "contracted", []contractedView{avView}, contractedViews(got))
		wantContracted(t, b, id, line(av, 15*time.Minute, 1, ""))
		got = contract(t, b, u.alice, id, order(coffee, ptr(time.Hour), ptr(int32(5)), "decaf"), order(av, nil, nil, ""))
		wantEqual(t, "contracted", []contractedView{avView, coffeeView(time.Hour, 5, "decaf")}, contractedViews(got))
		wantContracted(t, b, id, line(coffee, time.Hour, 5, "decaf"), line(av, 15*time.Minute, 1, ""))
	})

	t.Run("EmptyListRemovesAll", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		contract(t, b, u.alice, id, order(coffee, nil, ptr(int32(2)), ""), order(av, nil, nil, ""))
		if got := contract(t, b, u.alice, id); len(got) != 0 {
			t.Errorf("result = %+v, want empty", got)
		}
		wantContracted(t, b, id)
	})

	t.Run("FixedDeliveryIgnoresSentTime", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		got := contract(t, b, u.alice, id, order(av, ptr(50*time.Minute), nil, ""))
		wantEqual(t, "contracted", []contractedView{avView}, contractedViews(got))
		wantContracted(t, b, id, line(av, 15*time.Minute, 1, ""))
	})

	t.Run("FixedDeliveryIgnoresInvalidSentTime", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		contract(t, b, u.alice, id, order(av, ptr(-time.Hour), nil, ""))
		wantContracted(t, b, id, line(av, 15*time.Minute, 1, ""))
	})

	t.Run("ChosenDeliveryWithoutTimeGetsStandard", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		contract(t, b, u.alice, id, order(coffee, nil, nil, ""))
		wantContracted(t, b, id, line(coffee, 0, 1, ""))
	})

	t.Run("CommentDroppedWhereNotAllowed", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		got := contract(t, b, u.alice, id, order(av, nil, nil, "bring an HDMI cable"), order(coffee, nil, nil, "no sugar"))
		wantEqual(t, "contracted", []contractedView{avView, coffeeView(0, 1, "no sugar")}, contractedViews(got))
		wantContracted(t, b, id, line(av, 15*time.Minute, 1, ""), line(coffee, 0, 1, "no sugar"))
	})

	t.Run("NilQuantityIsOne", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		got := contract(t, b, u.alice, id, order(coffee, ptr(time.Hour), nil, ""))
		wantEqual(t, "contracted", []contractedView{coffeeView(time.Hour, 1, "")}, contractedViews(got))
		wantContracted(t, b, id, line(coffee, time.Hour, 1, ""))
	})

	t.Run("DeliveryAtStartAndAtEndAreFine", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		contract(t, b, u.alice, id, order(coffee, ptr(time.Duration(0)), nil, ""))
		wantContracted(t, b, id, line(coffee, 0, 1, ""))
		contract(t, b, u.alice, id, order(coffee, ptr(2*time.Hour), nil, ""))
		wantContracted(t, b, id, line(coffee, 2*time.Hour, 1, ""))
	})

	t.Run("ReceptionistMayActOnAlicesBooking", func(t *testing.T) {
		t.Parallel()
		b, u, id := setup(t)
		contract(t, b, u.rita, id, order(coffee, nil, ptr(int32(4)), ""))
		wantContracted(t, b, id, line(coffee, 0, 4, ""))
		contract(t, b, u.adam, id, order(av, nil, nil, ""))
		wantContracted(t, b, id, line(av, 15*time.Minute, 1, ""))
	})

	t.Run("CreatorMayActOnBookingMadeForOthers", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		// Rita books for Alice; Alice, as the organizer, may contract.
		bs, err := book(t, b, u.rita, u.alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 12, 0)))
		if err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		contract(t, b, u.alice, bs[0].ID, order(coffee, nil, ptr(int32(2)), ""))
		wantContracted(t, b, bs[0].ID, line(coffee, 0, 2, ""))

		// Rita may act on any booking of her organization, so she cannot show the creator's right. Instead
		// Bob, an employee, books for Alice: as the creator (neither the organizer nor a receptionist or
		// admin) he may contract. Adam's booking for Alice stays invisible to him.
		bs, err = book(t, b, u.bob, u.alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 12, 0)))
		if err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		contract(t, b, u.bob, bs[0].ID, order(coffee, nil, ptr(int32(3)), ""))
		wantContracted(t, b, bs[0].ID, line(coffee, 0, 3, ""))
		bs, err = book(t, b, u.adam, u.alice, booking.CategorySpace, bookingtest.Request(bookingtest.RoomGoya, at(2, 10, 0), at(2, 12, 0)))
		if err != nil {
			t.Fatalf("CreateBookings: %v", err)
		}
		_, err = b.Service.ContractReservables(t.Context(), u.bob, bs[0].ID, []booking.ReservableOrder{order(coffee, nil, nil, "")})
		bookingtest.WantCode(t, err, booking.CodeBookingNotFound)
		wantContracted(t, b, bs[0].ID)
	})

	t.Run("WaitingApprovalBookingMayContract", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		// The Boardroom offers coffee in this test.
		l := bookingtest.LayoutWith(t, bookingtest.RoomBoard, func(r *layout.LayoutResource) { r.ReservableIDs = []string{coffee.String()} })
		importLayout(t, b, l)
		bs := mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomBoard, at(1, 10, 0), at(1, 12, 0)))
		contract(t, b, u.alice, bs[0].ID, order(coffee, nil, nil, ""))
		wantContracted(t, b, bs[0].ID, line(coffee, 0, 1, ""))
	})

}

// TestContractReservablesRefused checks the orders that are refused. Each refusal leaves the contracted
// set unchanged: Coffee ×2 at 30 min, with the comment "before".
func TestContractReservablesRefused(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	coffee, av, lunch := bookingtest.ReservableCoffee, bookingtest.ReservableAV, bookingtest.ReservableLunch
	setup := goyaTwoHours

	refusals := []struct {
		name    string
		prepare func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID)
		orders  []booking.ReservableOrder
		want    booking.Code
	}{
		{"SameReservableTwiceIs2000", nil,
			[]booking.ReservableOrder{order(av, nil, nil, ""), order(coffee, nil, nil, ""), order(av, nil, nil, "")},
			booking.CodeInvalidRequest},
		{"UnknownBookingIs1011", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			return u.alice, uuid.New()
		}, []booking.ReservableOrder{order(av, nil, nil, "")}, booking.CodeBookingNotFound},
		{"OtherEmployeeIs1011", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			return u.bob, id
		}, []booking.ReservableOrder{order(av, nil, nil, "")}, booking.CodeBookingNotFound},
		{"OtherOrganizationIs1011", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			return u.boris, id
		}, []booking.ReservableOrder{order(av, nil, nil, "")}, booking.CodeBookingNotFound},
		{"CancelledBookingIs4007", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 14, 0), at(1, 15, 0), booking.StatusCancelled)
			importBookings(t, b, lb)
			return u.alice, uuid.MustParse(lb.ID)
		}, []booking.ReservableOrder{order(av, nil, nil, "")}, booking.CodeBookingNotModifiable},
		{"HiddenRoomIs1002", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			l := bookingtest.LayoutWith(t, bookingtest.RoomGoya, func(r *layout.LayoutResource) { r.Visible = ptr(false) })
			importLayout(t, b, l)
			return u.alice, id
		}, []booking.ReservableOrder{order(av, nil, nil, "")}, booking.CodeResourceNotFound},
		{"DeactivatedRoomIs1002", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			l := bookingtest.LayoutWith(t, bookingtest.RoomGoya, func(r *layout.LayoutResource) { r.Status = "DEACTIVATED" })
			importLayout(t, b, l)
			return u.alice, id
		}, []booking.ReservableOrder{order(av, nil, nil, "")}, booking.CodeResourceNotFound},
		{"ReservableNotOfferedIs1043", nil,
			[]booking.ReservableOrder{order(coffee, ptr(30*time.Minute), ptr(int32(2)), "before"), order(lunch, nil, nil, "")},
			booking.CodeResourceReservableNotFound},
		{"UnknownReservableIs1043", nil,
			[]booking.ReservableOrder{order(uuid.New(), nil, nil, "")}, booking.CodeResourceReservableNotFound},
		{"OtherOrganizationsReservableIs1043", nil,
			[]booking.ReservableOrder{order(bookingtest.ReservableB, nil, nil, "")}, booking.CodeResourceReservableNotFound},
		{"QuantityZeroIs4078", nil,
			[]booking.ReservableOrder{order(coffee, nil, ptr(int32(0)), "")}, booking.CodeReservableQuantity},
		{"NegativeQuantityIs4078", nil,
			[]booking.ReservableOrder{order(coffee, nil, ptr(int32(-1)), "")}, booking.CodeReservableQuantity},
		{"QuantityTwoOfFixedQuantityIs4078", nil,
			[]booking.ReservableOrder{order(av, nil, ptr(int32(2)), "")}, booking.CodeReservableQuantity},
		{"QuantityZeroOfFixedQuantityIs4078", nil,
			[]booking.ReservableOrder{order(av, nil, ptr(int32(0)), "")}, booking.CodeReservableQuantity},
		{"NegativeDeliveryIs4077", nil,
			[]booking.ReservableOrder{order(coffee, ptr(-time.Minute), nil, "")}, booking.CodeReservableDeliveryTime},
		{"DeliveryBeyondDurationIs4077", nil,
			[]booking.ReservableOrder{order(coffee, ptr(2*time.Hour+time.Millisecond), nil, "")}, booking.CodeReservableDeliveryTime},

		// The checks run in the documented order: each request also breaks a later rule, and the earlier
		// rule decides the error.
		{"DuplicateOnUnknownBookingIs2000", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			return u.alice, uuid.New()
		}, []booking.ReservableOrder{order(av, nil, nil, ""), order(av, nil, nil, "")}, booking.CodeInvalidRequest},
		{"CancelledBeforeNotOfferedIs4007", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 14, 0), at(1, 15, 0), booking.StatusCancelled)
			importBookings(t, b, lb)
			return u.alice, uuid.MustParse(lb.ID)
		}, []booking.ReservableOrder{order(lunch, nil, nil, "")}, booking.CodeBookingNotModifiable},
		{"HiddenRoomBeforeNotOfferedIs1002", func(t *testing.T, b *bookingtest.Bundle, u users, id uuid.UUID) (booking.User, uuid.UUID) {
			l := bookingtest.LayoutWith(t, bookingtest.RoomGoya, func(r *layout.LayoutResource) { r.Visible = ptr(false) })
			importLayout(t, b, l)
			return u.alice, id
		}, []booking.ReservableOrder{order(lunch, nil, nil, "")}, booking.CodeResourceNotFound},
		{"NotOfferedBeforeQuantityIs1043", nil,
			[]booking.ReservableOrder{order(lunch, nil, ptr(int32(0)), "")}, booking.CodeResourceReservableNotFound},
		{"QuantityBeforeDeliveryIs4078", nil,
			[]booking.ReservableOrder{order(coffee, ptr(-time.Minute), ptr(int32(0)), "")}, booking.CodeReservableQuantity},
		{"FirstOrderDecidesIs4078", nil,
			[]booking.ReservableOrder{order(coffee, nil, ptr(int32(0)), ""), order(lunch, nil, nil, "")}, booking.CodeReservableQuantity},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, u, id := setup(t)
			contract(t, b, u.alice, id, order(coffee, ptr(30*time.Minute), ptr(int32(2)), "before"))
			actor, target := u.alice, id
			if tt.prepare != nil {
				actor, target = tt.prepare(t, b, u, id)
			}
			before := bookingtest.TableCount(t, b, "booking_reservables")
			got, err := b.Service.ContractReservables(t.Context(), actor, target, tt.orders)
			bookingtest.WantCode(t, err, tt.want)
			if got != nil {
				t.Errorf("result = %+v, want nil on error", got)
			}
			wantContracted(t, b, id, line(coffee, 30*time.Minute, 2, "before"))
			if got := bookingtest.TableCount(t, b, "booking_reservables"); got != before {
				t.Errorf("booking_reservables = %d rows, want %d", got, before)
			}
		})
	}

	t.Run("OrganizationWithoutAdditionalServicesIs4079", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		boris := fixtureUsers(t, b).boris
		bs := mustCreate(t, b, boris, bookingtest.Request(bookingtest.RoomB, at(1, 10, 0), at(1, 12, 0)))
		_, err := b.Service.ContractReservables(t.Context(), boris, bs[0].ID,
			[]booking.ReservableOrder{order(bookingtest.ReservableB, nil, nil, "")})
		bookingtest.WantCode(t, err, booking.CodeAdditionalServicesInactive)
		wantContracted(t, b, bs[0].ID)
		if got := bookingtest.TableCount(t, b, "booking_reservables"); got != 0 {
			t.Errorf("booking_reservables = %d rows, want 0", got)
		}
	})

}

func TestContractReservablesMinimumCancellation(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	coffee, av := bookingtest.ReservableCoffee, bookingtest.ReservableAV
	// Coffee may be changed until 2 h before the start (08:00 tomorrow), AV setup until 1 h (09:00).
	setupLate := func(t *testing.T) (*bookingtest.Bundle, users, uuid.UUID, uuid.UUID) {
		t.Helper()
		b, u, id := goyaTwoHours(t)
		other := mustCreate(t, b, u.alice, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 12, 0)))[0].ID
		contract(t, b, u.alice, id, order(coffee, ptr(30*time.Minute), ptr(int32(2)), "before"))
		b.Clock.Set(at(1, 8, 30))
		return b, u, id, other
	}
	late := []struct {
		name   string
		orders []booking.ReservableOrder
	}{
		{"ChangingQuantityIs4072", []booking.ReservableOrder{order(coffee, ptr(30*time.Minute), ptr(int32(3)), "before")}},
		{"ChangingDeliveryIs4072", []booking.ReservableOrder{order(coffee, ptr(time.Hour), ptr(int32(2)), "before")}},
		{"ChangingCommentIs4072", []booking.ReservableOrder{order(coffee, ptr(30*time.Minute), ptr(int32(2)), "after")}},
		{"RemovingIs4072", []booking.ReservableOrder{}},
		{"RemovingWhileAddingAnotherIs4072", []booking.ReservableOrder{order(av, nil, nil, "")}},
	}
	for _, tt := range late {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b, u, id, _ := setupLate(t)
			_, err := b.Service.ContractReservables(t.Context(), u.alice, id, tt.orders)
			bookingtest.WantCode(t, err, booking.CodeMinCancellationOfReservable)
			wantContracted(t, b, id, line(coffee, 30*time.Minute, 2, "before"))
		})
	}

	t.Run("AddingIs4072", func(t *testing.T) {
		t.Parallel()
		b, u, _, other := setupLate(t)
		_, err := b.Service.ContractReservables(t.Context(), u.alice, other, []booking.ReservableOrder{order(coffee, nil, nil, "")})
		bookingtest.WantCode(t, err, booking.CodeMinCancellationOfReservable)
		wantContracted(t, b, other)
	})

	t.Run("UnchangedContractMayStayWhileAddingAnother", func(t *testing.T) {
		t.Parallel()
		b, u, id, _ := setupLate(t)
		got := contract(t, b, u.alice, id, order(coffee, ptr(30*time.Minute), ptr(int32(2)), "before"), order(av, nil, nil, ""))
		wantEqual(t, "contracted", []contractedView{avView, coffeeView(30*time.Minute, 2, "before")}, contractedViews(got))
		wantContracted(t, b, id, line(coffee, 30*time.Minute, 2, "before"), line(av, 15*time.Minute, 1, ""))
	})

	t.Run("AddingWithShorterMarginPassesUntilItsOwnLimit", func(t *testing.T) {
		t.Parallel()
		// At 09:00, after Coffee's limit (08:00) but exactly at AV setup's (09:00), adding AV is allowed.
		b, u, id, _ := setupLate(t)
		b.Clock.Set(at(1, 9, 0))
		contract(t, b, u.alice, id, order(coffee, ptr(30*time.Minute), ptr(int32(2)), "before"), order(av, nil, nil, ""))
		wantContracted(t, b, id, line(coffee, 30*time.Minute, 2, "before"), line(av, 15*time.Minute, 1, ""))

		// A minute later it is refused.
		b, u, id, _ = setupLate(t)
		b.Clock.Set(at(1, 9, 1))
		_, err := b.Service.ContractReservables(t.Context(), u.alice, id,
			[]booking.ReservableOrder{order(coffee, ptr(30*time.Minute), ptr(int32(2)), "before"), order(av, nil, nil, "")})
		bookingtest.WantCode(t, err, booking.CodeMinCancellationOfReservable)
		wantContracted(t, b, id, line(coffee, 30*time.Minute, 2, "before"))
	})

	t.Run("ExactlyAtTheLimitIsFine", func(t *testing.T) {
		t.Parallel()
		b, u, id, _ := setupLate(t)
		b.Clock.Set(at(1, 8, 0))
		contract(t, b, u.alice, id, order(coffee, ptr(30*time.Minute), ptr(int32(3)), "before"))
		wantContracted(t, b, id, line(coffee, 30*time.Minute, 3, "before"))
	})
}

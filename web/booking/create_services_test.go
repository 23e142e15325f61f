package booking_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// withServices is a request for Goya on the day (days after the fixture's today), 10:00–12:00, with the
// orders.
func withServices(day int, orders ...booking.ReservableOrder) booking.NewBooking {
	r := bookingtest.Request(bookingtest.RoomGoya, bookingtest.At(day, 10, 0), bookingtest.At(day, 12, 0))
	r.Reservables = orders
	return r
}

// wantNothingMade fails the test if any booking, attendee or contract was written.
func wantNothingMade(t *testing.T, b *bookingtest.Bundle) {
	t.Helper()
	wantNoBookings(t, b)
	if got := bookingtest.TableCount(t, b, "booking_reservables"); got != 0 {
		t.Errorf("booking_reservables = %d rows, want 0", got)
	}
}

func TestCreateBookingsWithReservables(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	coffee, av := bookingtest.ReservableCoffee, bookingtest.ReservableAV

	t.Run("ContractsOnEveryBooking", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		orders := []booking.ReservableOrder{order(coffee, ptr(30*time.Minute), ptr(int32(3)), "oat milk"), order(av, nil, nil, "")}
		bs := mustCreate(t, b, u.alice, withServices(1, orders...), withServices(2, orders...), withServices(3, orders...))
		if len(bs) != 3 {
			t.Fatalf("bookings = %d, want 3", len(bs))
		}
		for _, bk := range bs {
			wantEqual(t, "contracts returned", []contractedView{avView, coffeeView(30*time.Minute, 3, "oat milk")}, contractedViews(bk.Reservables))
			wantContracted(t, b, bk.ID, line(coffee, 30*time.Minute, 3, "oat milk"), line(av, 15*time.Minute, 1, ""))
			got, err := b.Service.Booking(t.Context(), u.alice, bk.ID)
			if err != nil {
				t.Fatalf("Booking: %v", err)
			}
			wantEqual(t, "contracts read back", []contractedView{avView, coffeeView(30*time.Minute, 3, "oat milk")}, contractedViews(got.Reservables))
		}
	})

	t.Run("StandardDeliveryAfterTheEndMovesToTheStart", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		// AV setup comes 15 min after the start; this meeting lasts 10 min.
		r := bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 10, 10))
		r.Reservables = []booking.ReservableOrder{order(av, ptr(5*time.Minute), nil, ""), order(coffee, nil, nil, "")}
		bs := mustCreate(t, b, u.alice, r)
		wantContracted(t, b, bs[0].ID, line(av, 0, 1, ""), line(coffee, 0, 1, ""))
	})

	t.Run("ContractsOnlyWhatIsOrdered", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		bs := mustCreate(t, b, u.alice, withServices(1, order(coffee, nil, ptr(int32(2)), "")), withServices(2))
		wantContracted(t, b, bs[0].ID, line(coffee, 0, 2, ""))
		wantContracted(t, b, bs[1].ID)
	})
}

// TestCreateBookingsReservablesRefused checks that a refused service refuses the whole request: no
// booking, no attendee and no contract is written, and the error names the element.
func TestCreateBookingsReservablesRefused(t *testing.T) {
	t.Parallel()
	at := bookingtest.At
	coffee, av, lunch := bookingtest.ReservableCoffee, bookingtest.ReservableAV, bookingtest.ReservableLunch
	good := order(coffee, ptr(30*time.Minute), ptr(int32(3)), "")
	many := make([]booking.ReservableOrder, booking.MaxOrdersPerBooking+1)
	for i := range many {
		many[i] = order(uuid.New(), nil, nil, "")
	}
	refusals := []struct {
		name  string
		reqs  []booking.NewBooking
		want  booking.Code
		index int
	}{
		{"QuantityZeroOnTheSecondDayIs4078",
			[]booking.NewBooking{withServices(1, good), withServices(2, order(coffee, nil, ptr(int32(0)), ""))},
			booking.CodeReservableQuantity, 1},
		{"QuantityAboveTheMaximumIs4078",
			[]booking.NewBooking{withServices(1, order(coffee, nil, ptr(int32(booking.MaxOrderQuantity+1)), ""))},
			booking.CodeReservableQuantity, 0},
		{"QuantityTwoOfFixedQuantityIs4078",
			[]booking.NewBooking{withServices(1, order(av, nil, ptr(int32(2)), ""))},
			booking.CodeReservableQuantity, 0},
		{"NotOfferedIs1043",
			[]booking.NewBooking{withServices(1, good), withServices(2, good, order(lunch, nil, nil, ""))},
			booking.CodeResourceReservableNotFound, 1},
		{"UnknownIs1043",
			[]booking.NewBooking{withServices(1, order(uuid.New(), nil, nil, ""))},
			booking.CodeResourceReservableNotFound, 0},
		{"OtherOrganizationsReservableIs1043",
			[]booking.NewBooking{withServices(1, good, order(bookingtest.ReservableB, nil, nil, ""))},
			booking.CodeResourceReservableNotFound, 0},
		{"DeliveryAfterTheEndIs4077",
			[]booking.NewBooking{withServices(1, order(coffee, ptr(2*time.Hour+time.Minute), nil, ""))},
			booking.CodeReservableDeliveryTime, 0},
		{"DeliveryBeforeTheStartIs4077",
			[]booking.NewBooking{withServices(1, order(coffee, ptr(-time.Minute), nil, ""))},
			booking.CodeReservableDeliveryTime, 0},
		{"InsideTheMinimumCancellationIs4072",
			// Coffee needs 2 h; today's 10:00 is an hour away.
			[]booking.NewBooking{withServices(1, good), {ResourceID: bookingtest.RoomGoya, Start: at(0, 10, 0), End: at(0, 11, 0),
				Reservables: []booking.ReservableOrder{good}}},
			booking.CodeMinCancellationOfReservable, 1},
		{"TwiceIs2000",
			[]booking.NewBooking{withServices(1, good, order(coffee, nil, nil, ""))},
			booking.CodeInvalidRequest, 0},
		{"TooManyIs2000",
			[]booking.NewBooking{withServices(1, many...)},
			booking.CodeInvalidRequest, 0},
		{"CommentTooLongIs2000",
			[]booking.NewBooking{withServices(1, order(coffee, nil, nil, strings.Repeat("é", booking.MaxOrderComment+1)))},
			booking.CodeInvalidRequest, 0},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			u := fixtureUsers(t, b)
			reqs := tt.reqs
			for i := range reqs {
				reqs[i].InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: bookingtest.Bob}}
			}
			got, err := book(t, b, u.alice, u.alice, booking.CategorySpace, reqs...)
			bookingtest.WantCode(t, err, tt.want)
			wantIndex(t, err, tt.index)
			if got != nil {
				t.Errorf("result = %+v, want nil on error", got)
			}
			wantNothingMade(t, b)
		})
	}

	t.Run("CommentOfTheMaximumLengthIsFine", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		long := strings.Repeat("é", booking.MaxOrderComment)
		bs := mustCreate(t, b, u.alice, withServices(1, order(coffee, nil, ptr(int32(booking.MaxOrderQuantity)), long)))
		wantContracted(t, b, bs[0].ID, line(coffee, 0, booking.MaxOrderQuantity, long))
	})

	t.Run("OrganizationWithoutAdditionalServicesIs4079", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		boris := fixtureUsers(t, b).boris
		r := bookingtest.Request(bookingtest.RoomB, at(1, 10, 0), at(1, 12, 0))
		r.Reservables = []booking.ReservableOrder{order(bookingtest.ReservableB, nil, nil, "")}
		_, err := book(t, b, boris, boris, booking.CategorySpace, r)
		bookingtest.WantCode(t, err, booking.CodeAdditionalServicesInactive)
		wantIndex(t, err, 0)
		wantNothingMade(t, b)
	})

	t.Run("OtherOrganizationLeaksNothing", func(t *testing.T) {
		t.Parallel()
		// Boris's organization offers "Globex coffee" with its room; ordering Acme's coffee there is
		// not offered, and the refusal does not name Acme's service.
		b := bookingtest.Setup(t)
		u := fixtureUsers(t, b)
		_, err := book(t, b, u.alice, u.alice, booking.CategorySpace, withServices(1, order(bookingtest.ReservableB, nil, nil, "")))
		bookingtest.WantCode(t, err, booking.CodeResourceReservableNotFound)
		if strings.Contains(err.Error(), "Globex") {
			t.Errorf("the refusal names the other organization's service: %v", err)
		}
		wantNothingMade(t, b)
	})
}

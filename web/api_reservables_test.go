package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

var (
	bookingReservableKeys = []string{
		"reservable", "minimumCancellationMs", "standardDeliveryTimeMs", "deliveryTimeMs", "quantity", "comment",
	}
	reservableKeys = []string{
		"id", "organizationId", "name", "type", "description", "chooseQuantity", "chooseDeliveryTime", "allowComments",
	}
)

// order returns one element of reservableBookingList, with the extra fields in kv.
func order(reservable uuid.UUID, kv ...any) map[string]any {
	o := map[string]any{"reservableId": reservable.String()}
	for i := 0; i+1 < len(kv); i += 2 {
		o[kv[i].(string)] = kv[i+1]
	}
	return o
}

func contract(bookingID string, orders ...map[string]any) map[string]any {
	list := make([]any, len(orders))
	for i, o := range orders {
		list[i] = o
	}
	return map[string]any{"bookingId": bookingID, "reservableBookingList": list}
}

// contracted checks a contract response's status and shape, and returns its n reservables.
func contracted(t *testing.T, r reply, bookingID string, n int) []map[string]any {
	t.Helper()
	wantStatus(t, r, http.StatusCreated)
	body := wantKeys(t, "body", r.object(t), "bookingId", "bookingReservableList")
	wantValue(t, "bookingId", body["bookingId"], bookingID)
	list := array(t, "bookingReservableList", body["bookingReservableList"])
	if len(list) != n {
		t.Fatalf("bookingReservableList = %d elements, want %d: %s", len(list), n, r.body)
	}
	out := make([]map[string]any, n)
	for i, e := range list {
		where := fmt.Sprintf("bookingReservableList[%d]", i)
		out[i] = wantKeys(t, where, e, bookingReservableKeys...)
		wantKeys(t, where+".reservable", out[i]["reservable"], reservableKeys...)
	}
	return out
}

func TestContractReservables(t *testing.T) {
	t.Parallel()

	t.Run("ShapeAndValues", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 12, 0))
		r := tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id,
			order(fx.ReservableCoffee, "deliveryTimeMs", 30*minuteMs, "quantity", 3, "comment", "oat milk"),
			// AV setup has a fixed delivery time and quantity and takes no comment, so these fields are ignored.
			order(fx.ReservableAV, "deliveryTimeMs", 999, "comment", "ignored"),
		))
		list := contracted(t, r, id, 2)

		av, coffee := list[0], list[1] // sorted by reservable name
		rv := av["reservable"].(map[string]any)
		wantValue(t, "AV.reservable.id", rv["id"], fx.ReservableAV.String())
		wantValue(t, "AV.reservable.name", rv["name"], "AV setup")
		wantValue(t, "AV.reservable.chooseQuantity", rv["chooseQuantity"], false)
		wantValue(t, "AV.reservable.chooseDeliveryTime", rv["chooseDeliveryTime"], false)
		wantValue(t, "AV.reservable.allowComments", rv["allowComments"], false)
		wantInt(t, "AV.minimumCancellationMs", av["minimumCancellationMs"], hourMs)
		wantInt(t, "AV.standardDeliveryTimeMs", av["standardDeliveryTimeMs"], 15*minuteMs)
		wantInt(t, "AV.deliveryTimeMs", av["deliveryTimeMs"], 15*minuteMs)
		wantInt(t, "AV.quantity", av["quantity"], 1)
		wantValue(t, "AV.comment", av["comment"], "")

		rv = coffee["reservable"].(map[string]any)
		wantValue(t, "Coffee.reservable.id", rv["id"], fx.ReservableCoffee.String())
		wantValue(t, "Coffee.reservable.organizationId", rv["organizationId"], fx.OrgA.String())
		wantValue(t, "Coffee.reservable.name", rv["name"], "Coffee")
		wantValue(t, "Coffee.reservable.type", rv["type"], "SERVICE")
		wantValue(t, "Coffee.reservable.description", rv["description"], "Coffee and tea")
		wantValue(t, "Coffee.reservable.chooseQuantity", rv["chooseQuantity"], true)
		wantValue(t, "Coffee.reservable.chooseDeliveryTime", rv["chooseDeliveryTime"], true)
		wantValue(t, "Coffee.reservable.allowComments", rv["allowComments"], true)
		wantInt(t, "Coffee.minimumCancellationMs", coffee["minimumCancellationMs"], 2*hourMs)
		wantInt(t, "Coffee.standardDeliveryTimeMs", coffee["standardDeliveryTimeMs"], 0)
		wantInt(t, "Coffee.deliveryTimeMs", coffee["deliveryTimeMs"], 30*minuteMs)
		wantInt(t, "Coffee.quantity", coffee["quantity"], 3)
		wantValue(t, "Coffee.comment", coffee["comment"], "oat milk")

		tb.wantRows(t, "booking_reservables", 2)
		var qty int
		var comment string
		if err := tb.Pool.QueryRow(t.Context(), "SELECT quantity, comment FROM booking_reservables WHERE reservable_id = $1",
			fx.ReservableCoffee).Scan(&qty, &comment); err != nil {
			t.Fatalf("read contract: %v", err)
		}
		if qty != 3 || comment != "oat milk" {
			t.Errorf("stored coffee = %d, %q, want 3, %q", qty, comment, "oat milk")
		}
	})

	t.Run("ReplacesTheSet", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 12, 0))
		contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id,
			order(fx.ReservableCoffee), order(fx.ReservableAV))), id, 2)
		list := contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id,
			order(fx.ReservableCoffee, "quantity", 5))), id, 1)
		wantInt(t, "quantity", list[0]["quantity"], 5)
		// Without a delivery time, the standard one applies; without a quantity, it is 1.
		wantInt(t, "deliveryTimeMs", list[0]["deliveryTimeMs"], 0)
		tb.wantRows(t, "booking_reservables", 1)

		r := tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id))
		contracted(t, r, id, 0)
		if !strings.Contains(string(r.body), `"bookingReservableList":[]`) {
			t.Errorf("body = %s, want an empty array, not null", r.body)
		}
		tb.wantRows(t, "booking_reservables", 0)
	})

	t.Run("ReceptionistOnAlicesBooking", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 12, 0))
		contracted(t, tb.call(t, fx.Rita, http.MethodPut, reservablesPath(id), contract(id, order(fx.ReservableCoffee))), id, 1)
	})

	t.Run("UnchangedInsideCancellationTime", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 12, 0))
		body := contract(id, order(fx.ReservableCoffee, "quantity", 2))
		contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), body), id, 1)
		tb.Clock.Set(fx.At(1, 9, 0)) // less than 2 hours before: Coffee can no longer change, only be resent as is
		contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), body), id, 1)
	})

	t.Run("AppVersionHeaderAccepted", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		id := tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 12, 0))
		contracted(t, tb.callWith(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id, order(fx.ReservableCoffee)),
			http.Header{"App-Version": {"android/2.0.1"}}), id, 1)
	})
}

// hideGoya makes the room Goya not visible.
func hideGoya(t *testing.T, tb *testBundle) {
	t.Helper()
	goya := fx.Layout().Resources[0]
	if goya.ID != fx.RoomGoya.String() {
		t.Fatalf("fixture resource 0 = %s, want Goya", goya.Name)
	}
	hidden := false
	goya.Visible = &hidden
	if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Resources: []layout.LayoutResource{goya}}); err != nil {
		t.Fatalf("hide Goya: %v", err)
	}
}

// aliceGoyaTwoHours books Goya for Alice tomorrow 10:00–12:00 and returns the booking's ID.
func aliceGoyaTwoHours(t *testing.T, tb *testBundle) string {
	t.Helper()
	return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 12, 0))
}

// TestContractReservablesRefused checks refused contracts, and that a refused call leaves the booking's
// reservables as they were.
func TestContractReservablesRefused(t *testing.T) {
	t.Parallel()
	// orders returns a function that builds the contract body with these orders for a booking ID.
	orders := func(os ...map[string]any) func(id string) any {
		return func(id string) any { return contract(id, os...) }
	}
	coffee := orders(order(fx.ReservableCoffee))
	// contractedFirst books as aliceGoyaTwoHours does, then contracts o before the refused call.
	contractedFirst := func(o map[string]any) func(t *testing.T, tb *testBundle) string {
		return func(t *testing.T, tb *testBundle) string {
			id := aliceGoyaTwoHours(t, tb)
			contracted(t, tb.call(t, fx.Alice, http.MethodPut, reservablesPath(id), contract(id, o)), id, 1)
			return id
		}
	}
	for _, tc := range []struct {
		name string
		as   uuid.UUID
		// prepare makes the booking that the path names and returns its ID. It may also contract
		// reservables, which must be unchanged after the call. nil means aliceGoyaTwoHours.
		prepare func(t *testing.T, tb *testBundle) string
		body    func(id string) any
		status  int
		code    booking.Code
		detail  []string
	}{
		{name: "UnknownBooking", as: fx.Alice, prepare: func(*testing.T, *testBundle) string { return uuid.NewString() },
			body: coffee, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "OtherOrganizationsBooking", as: fx.Boris, body: coffee, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "ColleaguesBooking", as: fx.Bob, body: coffee, status: http.StatusNotFound, code: booking.CodeBookingNotFound},
		{name: "RoomHiddenLater", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := contractedFirst(order(fx.ReservableAV))(t, tb)
			hideGoya(t, tb)
			return id
		}, body: coffee, status: http.StatusNotFound, code: booking.CodeResourceNotFound},
		{name: "ReservableNotOfferedForRoom", as: fx.Alice, body: orders(order(fx.ReservableCoffee), order(fx.ReservableLunch)),
			status: http.StatusNotFound, code: booking.CodeResourceReservableNotFound, detail: []string{"reservableBookingList[1]"}},
		{name: "OtherOrganizationsReservable", as: fx.Alice, body: orders(order(fx.ReservableB)),
			status: http.StatusNotFound, code: booking.CodeResourceReservableNotFound},
		{name: "CancelledBooking", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := aliceGoyaTwoHours(t, tb)
			tb.exec(t, "UPDATE bookings SET status = 'CANCELLED' WHERE id = $1", id)
			return id
		}, body: coffee, status: http.StatusConflict, code: booking.CodeBookingNotModifiable},
		{name: "AddInsideCancellationTime", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			// Coffee must be ordered at least 2 hours ahead, and the booking starts in 1 hour.
			return tb.book(t, fx.Alice, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		}, body: coffee, status: http.StatusConflict, code: booking.CodeMinCancellationOfReservable},
		{name: "ChangeInsideCancellationTime", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := contractedFirst(order(fx.ReservableCoffee, "quantity", 2))(t, tb)
			tb.Clock.Set(fx.At(1, 8, 30))
			return id
		}, body: orders(order(fx.ReservableCoffee, "quantity", 4)), status: http.StatusConflict, code: booking.CodeMinCancellationOfReservable},
		{name: "RemoveInsideCancellationTime", as: fx.Alice, prepare: func(t *testing.T, tb *testBundle) string {
			id := contractedFirst(order(fx.ReservableCoffee))(t, tb)
			tb.Clock.Set(fx.At(1, 8, 30))
			return id
		}, body: orders(), status: http.StatusConflict, code: booking.CodeMinCancellationOfReservable},
		{name: "DeliveryAfterTheEnd", as: fx.Alice, body: orders(order(fx.ReservableCoffee, "deliveryTimeMs", 2*hourMs+1)),
			status: http.StatusConflict, code: booking.CodeReservableDeliveryTime, detail: []string{"deliveryTimeMs"}},
		{name: "DeliveryBeforeTheStart", as: fx.Alice, body: orders(order(fx.ReservableCoffee, "deliveryTimeMs", -1)),
			status: http.StatusConflict, code: booking.CodeReservableDeliveryTime},
		{name: "QuantityZero", as: fx.Alice, body: orders(order(fx.ReservableCoffee, "quantity", 0)),
			status: http.StatusConflict, code: booking.CodeReservableQuantity, detail: []string{"quantity"}},
		{name: "FixedQuantityOfTwo", as: fx.Alice, body: orders(order(fx.ReservableAV, "quantity", 2)),
			status: http.StatusConflict, code: booking.CodeReservableQuantity},
		{name: "ModuleNotActive", as: fx.Boris, prepare: func(t *testing.T, tb *testBundle) string {
			return tb.book(t, fx.Boris, fx.RoomB, fx.At(1, 10, 0), fx.At(1, 12, 0))
		}, body: orders(order(fx.ReservableB)), status: http.StatusConflict, code: booking.CodeAdditionalServicesInactive},

		// Malformed requests.
		{name: "BodyBookingIDDiffers", as: fx.Alice, body: func(string) any { return contract(uuid.NewString(), order(fx.ReservableCoffee)) },
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "MissingBodyBookingID", as: fx.Alice, body: func(string) any {
			return map[string]any{"reservableBookingList": []any{order(fx.ReservableCoffee)}}
		}, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "PathBookingIDNotAUUID", as: fx.Alice, prepare: func(*testing.T, *testBundle) string { return "42" },
			body: coffee, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"bookingId"}},
		{name: "MalformedJSON", as: fx.Alice, body: func(id string) any { return `{"bookingId": "` + id + `", "reservableBookingList": [` },
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"JSON"}},
		{name: "ArrayInsteadOfObject", as: fx.Alice, body: func(string) any { return []any{order(fx.ReservableCoffee)} },
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"object"}},
		{name: "MissingList", as: fx.Alice, body: func(id string) any { return map[string]any{"bookingId": id} },
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"reservableBookingList"}},
		{name: "ListNotAnArray", as: fx.Alice, body: func(id string) any {
			return map[string]any{"bookingId": id, "reservableBookingList": order(fx.ReservableCoffee)}
		}, status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"reservableBookingList", "an array"}},
		{name: "ReservableIDNotAUUID", as: fx.Alice, body: orders(order(fx.ReservableCoffee), map[string]any{"reservableId": "coffee"}),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"reservableBookingList[1].reservableId"}},
		{name: "MissingReservableID", as: fx.Alice, body: orders(map[string]any{"quantity": 1}),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"reservableBookingList[0].reservableId"}},
		{name: "QuantityNotAnInteger", as: fx.Alice, body: orders(order(fx.ReservableCoffee, "quantity", "two")),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"quantity", "an integer"}},
		{name: "SameReservableTwice", as: fx.Alice, body: orders(order(fx.ReservableCoffee), order(fx.ReservableCoffee, "quantity", 2)),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"twice"}},
		{name: "TooLarge", as: fx.Alice, body: orders(order(fx.ReservableCoffee, "comment", strings.Repeat("x", 1<<20))),
			status: http.StatusBadRequest, code: booking.CodeInvalidRequest, detail: []string{"larger than"}},
		{name: "NoToken", body: coffee, status: http.StatusUnauthorized, code: booking.CodeUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tb := setup(t)
			prepare := tc.prepare
			if prepare == nil {
				prepare = aliceGoyaTwoHours
			}
			id := prepare(t, tb)
			before := contents(t, tb)
			r := tb.call(t, tc.as, http.MethodPut, reservablesPath(id), tc.body(id))
			wantDetail(t, wantProblem(t, r, tc.status, tc.code, noIndex), tc.detail...)
			if after := contents(t, tb); after != before {
				t.Errorf("booking_reservables = %s, want it unchanged: %s", after, before)
			}
		})
	}
}

// contents returns every contracted reservable as text. Tests compare it before and after a refused
// call to show that nothing changed.
func contents(t *testing.T, tb *testBundle) string {
	t.Helper()
	rows, err := tb.Pool.Query(t.Context(), `SELECT booking_id, reservable_id, delivery_time_ms, quantity, comment
		FROM booking_reservables ORDER BY booking_id, reservable_id`)
	if err != nil {
		t.Fatalf("read contracts: %v", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var bookingID, reservable uuid.UUID
		var delivery int64
		var qty int
		var comment string
		if err := rows.Scan(&bookingID, &reservable, &delivery, &qty, &comment); err != nil {
			t.Fatalf("scan contract: %v", err)
		}
		fmt.Fprintf(&b, "[%s %s %s ×%d %q]", bookingID, reservable, time.Duration(delivery)*time.Millisecond, qty, comment)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("read contracts: %v", err)
	}
	return fmt.Sprintf("%d rows %s", tb.count(t, "booking_reservables"), b.String())
}

package api

import (
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

type contractRequest struct {
	BookingID             *string `json:"bookingId"`
	ReservableBookingList *[]struct {
		ReservableID   *string `json:"reservableId"`
		DeliveryTimeMs *int64  `json:"deliveryTimeMs"`
		Quantity       *int32  `json:"quantity"`
		Comment        string  `json:"comment"`
	} `json:"reservableBookingList"`
}

type contractResponse struct {
	BookingID             string                 `json:"bookingId"`
	BookingReservableList []bookingReservableDTO `json:"bookingReservableList"`
}

// ContractReservables is 4.3: PUT /api/v1/bookings/{bookingId}/reservables/all replaces the set of
// reservables contracted on the booking and answers the resulting set.
func (s *Handlers) ContractReservables(c echo.Context) error {
	bookingID, err := kit.ParseUUID("bookingId", c.Param("bookingId"))
	if err != nil {
		return err
	}
	body, err := kit.ReadBody(c)
	if err != nil {
		return err
	}
	var req *contractRequest
	if err := kit.DecodeJSON(body, "", &req); err != nil {
		return err
	}
	if req == nil {
		return kit.Refuse("refusal.request.objectRequired")
	}
	if req.BookingID == nil {
		return kit.FieldRefuse("bookingId", "refusal.request.required")
	}
	bodyID, err := kit.ParseUUID("bookingId", *req.BookingID)
	if err != nil {
		return err
	}
	if bodyID != bookingID {
		return kit.FieldRefuse("bookingId", "refusal.request.bookingIDDiffers", map[string]any{"Body": bodyID.String(), "Path": bookingID.String()})
	}
	if req.ReservableBookingList == nil {
		return kit.FieldRefuse("reservableBookingList", "refusal.request.reservablesRequired")
	}
	orders := make([]booking.ReservableOrder, len(*req.ReservableBookingList))
	for i, e := range *req.ReservableBookingList {
		field := fmt.Sprintf("reservableBookingList[%d].reservableId", i)
		if e.ReservableID == nil {
			return kit.FieldRefuse(field, "refusal.request.required")
		}
		id, err := kit.ParseUUID(field, *e.ReservableID)
		if err != nil {
			return err
		}
		orders[i] = booking.ReservableOrder{ReservableID: id, Quantity: e.Quantity, Comment: e.Comment}
		if e.DeliveryTimeMs != nil {
			d := time.Duration(math.MaxInt64) // beyond any booking: refused as 4077, never wrapped around
			if ms := *e.DeliveryTimeMs; ms > math.MinInt64/int64(time.Millisecond) && ms < math.MaxInt64/int64(time.Millisecond) {
				d = time.Duration(ms) * time.Millisecond
			}
			orders[i].DeliveryTime = &d
		}
	}
	brs, err := s.bookings.ContractReservables(c.Request().Context(), kit.Actor(c), bookingID, orders)
	if err != nil {
		return err
	}
	out := contractResponse{BookingID: bookingID.String(), BookingReservableList: toDTOs(brs, toBookingReservable)}
	return c.JSON(http.StatusCreated, out)
}

package api

import (
	"time"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/wire"
)

// The JSON shapes of the published interface. Times are ms since the epoch, durations ms. Each resource
// form carries exactly the fields the interface lists for its operation. The shapes of bookings live in
// web/wire, which the webhook deliveries write too; the names below are this package's for them.

type (
	idDTO                = wire.IDRef
	buildingDTO          = wire.Building
	floorDTO             = wire.Floor
	subcategoryDTO       = wire.Subcategory
	resourceRuleDTO      = wire.ResourceRule
	featureDTO           = wire.Feature
	resourceBase         = wire.ResourceBase
	bookingDTO           = wire.Booking
	reservableDTO        = wire.Reservable
	bookingReservableDTO = wire.BookingReservable
	bookingDetailDTO     = wire.BookingDetail
)

func ref(id string) idDTO { return wire.Ref(id) }

// toDTOs converts every element of xs with to. It never returns nil, so that an empty list is written
// as [] rather than null.
func toDTOs[T, D any](xs []T, to func(T) D) []D {
	out := make([]D, len(xs))
	for i, x := range xs {
		out[i] = to(x)
	}
	return out
}

func millis(t time.Time) int64 { return wire.Millis(t) }

func toBuilding(b booking.Building) buildingDTO { return wire.NewBuilding(b) }

func toFloor(f booking.Floor) floorDTO { return wire.NewFloor(f) }

func toSubcategory(s booking.Subcategory) subcategoryDTO { return wire.NewSubcategory(s) }

func toRule(r booking.ResourceRule, withAllDay bool) resourceRuleDTO {
	return wire.NewResourceRule(r, withAllDay)
}

// capacity gives the capacity of a space (0 when unknown) and nothing for a workstation.
func capacity(r booking.Resource) *int32 { return wire.Capacity(r) }

func toResourceBase(r booking.Resource) resourceBase { return wire.NewResourceBase(r) }

// statusResourceDTO is the resource of the status lookup (4.1): floor id only, full subcategory and rule.
type statusResourceDTO struct {
	resourceBase
	Floor        idDTO           `json:"floor"`
	Subcategory  subcategoryDTO  `json:"subcategory"`
	ResourceRule resourceRuleDTO `json:"resourceRule"`
	Visible      bool            `json:"visible"`
}

func toBooking(b booking.Booking) bookingDTO { return wire.NewBooking(b) }

func toBookingReservable(br booking.BookingReservable) bookingReservableDTO {
	return wire.NewBookingReservable(br)
}

func toBookingDetail(b booking.Booking) bookingDetailDTO { return wire.NewBookingDetail(b) }

type bookingPageDTO struct {
	Bookings   []bookingDetailDTO `json:"bookings"`
	NextCursor *string            `json:"nextCursor"`
}

func toBookingPage(p booking.BookingPage) bookingPageDTO {
	d := bookingPageDTO{Bookings: toDTOs(p.Bookings, toBookingDetail)}
	if p.NextCursor != "" {
		d.NextCursor = &p.NextCursor
	}
	return d
}

func toReservable(r booking.Reservable) reservableDTO { return wire.NewReservable(r) }

func toFeature(f booking.Feature) featureDTO { return wire.NewFeature(f) }

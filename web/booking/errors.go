package booking

import (
	"errors"
	"fmt"
)

// Code is a domain error code. The numbers, names and HTTP statuses of the published interface are kept;
// the others are ours and documented as such in the README.
type Code int

// The error codes. Every one has a name and an HTTP status in web/errors.go.
const (
	CodeUnauthorized                Code = 1000
	CodeForbidden                   Code = 1001
	CodeResourceNotFound            Code = 1002
	CodeUserNotFound                Code = 1003
	CodeBuildingNotFound            Code = 1004
	CodeSubcategoryNotFound         Code = 1005
	CodeFloorNotFound               Code = 1006
	CodeBookingNotFound             Code = 1011
	CodeNoBookingToCheckIn          Code = 1012
	CodeResourceReservableNotFound  Code = 1043
	CodeInvalidRequest              Code = 2000
	CodeResourceNotAvailable        Code = 4001
	CodeDateInThePast               Code = 4002
	CodeDateOutsideResourceHours    Code = 4003
	CodeDurationExceedsMaximum      Code = 4004
	CodeDateExceedsMaximumAdvance   Code = 4005
	CodeResourceNotASpace           Code = 4006
	CodeBookingNotModifiable        Code = 4007
	CodeCheckInNotOpenYet           Code = 4010
	CodeCheckInClosed               Code = 4011
	CodeAllDayNotAllowed            Code = 4012
	CodeUserAlreadyHasWorkstation   Code = 4013
	CodeMinCancellationOfReservable Code = 4072
	CodeReservableDeliveryTime      Code = 4077
	CodeReservableQuantity          Code = 4078
	CodeAdditionalServicesInactive  Code = 4079
	CodeIdempotencyKeyReused        Code = 4220
	CodeTooManyRequests             Code = 4290
	CodeInternal                    Code = 5000
	CodeUnavailable                 Code = 5030
)

var codeNames = map[Code]string{
	CodeUnauthorized:                "UNAUTHORIZED",
	CodeForbidden:                   "FORBIDDEN",
	CodeResourceNotFound:            "RESOURCE_NOT_FOUND",
	CodeUserNotFound:                "USER_NOT_FOUND",
	CodeBuildingNotFound:            "BUILDING_NOT_FOUND",
	CodeSubcategoryNotFound:         "SUBCATEGORY_NOT_FOUND",
	CodeFloorNotFound:               "FLOOR_NOT_FOUND",
	CodeBookingNotFound:             "BOOKING_NOT_FOUND",
	CodeNoBookingToCheckIn:          "NO_BOOKING_TO_CHECK_IN",
	CodeResourceReservableNotFound:  "RESOURCE_RESERVABLE_NOT_FOUND",
	CodeInvalidRequest:              "INVALID_REQUEST",
	CodeResourceNotAvailable:        "RESOURCE_NOT_AVAILABLE",
	CodeDateInThePast:               "INVALID_DATE_IN_THE_PAST",
	CodeDateOutsideResourceHours:    "INVALID_DATE_OUTSIDE_RESOURCE_HOURS",
	CodeDurationExceedsMaximum:      "INVALID_DURATION_EXCEEDS_MAXIMUM",
	CodeDateExceedsMaximumAdvance:   "INVALID_DATE_EXCEEDS_MAXIMUM_ADVANCE",
	CodeResourceNotASpace:           "RESOURCE_NOT_A_SPACE",
	CodeBookingNotModifiable:        "BOOKING_NOT_MODIFIABLE",
	CodeCheckInNotOpenYet:           "CHECK_IN_NOT_OPEN_YET",
	CodeCheckInClosed:               "CHECK_IN_CLOSED",
	CodeAllDayNotAllowed:            "ALL_DAY_BOOKINGS_NOT_ALLOWED",
	CodeUserAlreadyHasWorkstation:   "USER_ALREADY_HAS_WORKSTATION",
	CodeMinCancellationOfReservable: "INVALID_DATE_BY_MIN_CANCELLATION_OF_THE_RESERVABLE",
	CodeReservableDeliveryTime:      "INVALID_RESERVABLE_DELIVERY_TIME",
	CodeReservableQuantity:          "INVALID_RESERVABLE_QUANTITY",
	CodeAdditionalServicesInactive:  "ADDITIONAL_SERVICES_MODULE_NOT_ACTIVE",
	CodeIdempotencyKeyReused:        "IDEMPOTENCY_KEY_REUSED",
	CodeTooManyRequests:             "TOO_MANY_REQUESTS",
	CodeInternal:                    "INTERNAL_ERROR",
	CodeUnavailable:                 "SERVICE_UNAVAILABLE",
}

// Codes lists every error code, in numeric order.
func Codes() []Code {
	return []Code{
		CodeUnauthorized, CodeForbidden, CodeResourceNotFound, CodeUserNotFound, CodeBuildingNotFound,
		CodeSubcategoryNotFound, CodeFloorNotFound, CodeBookingNotFound, CodeNoBookingToCheckIn,
		CodeResourceReservableNotFound, CodeInvalidRequest, CodeResourceNotAvailable, CodeDateInThePast,
		CodeDateOutsideResourceHours, CodeDurationExceedsMaximum, CodeDateExceedsMaximumAdvance,
		CodeResourceNotASpace, CodeBookingNotModifiable, CodeCheckInNotOpenYet, CodeCheckInClosed,
		CodeAllDayNotAllowed, CodeUserAlreadyHasWorkstation, CodeMinCancellationOfReservable, CodeReservableDeliveryTime, CodeReservableQuantity,
		CodeAdditionalServicesInactive, CodeIdempotencyKeyReused, CodeTooManyRequests, CodeInternal, CodeUnavailable,
	}
}

// Name is the upper-case name of the code, e.g. RESOURCE_NOT_FOUND.
func (c Code) Name() string {
	if n, ok := codeNames[c]; ok {
		return n
	}
	return "UNKNOWN"
}

// String gives the code as the interface writes it: "1002 - RESOURCE_NOT_FOUND".
func (c Code) String() string { return fmt.Sprintf("%d - %s", int(c), c.Name()) }

// Error is a domain error: a code, a message for people, and for requests that carry several bookings
// the zero-based index of the element that failed.
type Error struct {
	Code    Code
	Message string
	Index   *int
}

func (e *Error) Error() string {
	if e.Index != nil {
		return fmt.Sprintf("%s: element %d: %s", e.Code, *e.Index, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// AtIndex returns a copy of err naming the element i of a multi-element request.
func AtIndex(err error, i int) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Index = &i
	return &c
}

// ErrorCode returns the code of err, CodeInternal when err carries none, and 0 for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

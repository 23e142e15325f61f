package booking

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/workspacebooking/booking/web/lang"
)

// Code is a domain error code, as the API returns it. Codes from the published interface keep their
// numbers, names and HTTP statuses; the others are the service's own. codeTable lists them all.
type Code int

// The error codes, in numeric order. codeTable gives each its name, HTTP status and meaning.
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
	CodeObjectNotFound              Code = 1013
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
	CodeResourceClosed              Code = 4014
	CodeObjectInUse                 Code = 4015
	CodeClosureCoversBookings       Code = 4016
	CodeLastAdmin                   Code = 4017
	CodeMinCancellationOfReservable Code = 4072
	CodeReservableDeliveryTime      Code = 4077
	CodeReservableQuantity          Code = 4078
	CodeAdditionalServicesInactive  Code = 4079
	CodePreconditionFailed          Code = 4120
	CodePayloadTooLarge             Code = 4130
	CodeIdempotencyKeyReused        Code = 4220
	CodeTooManyRequests             Code = 4290
	CodeInternal                    Code = 5000
	CodeUnavailable                 Code = 5030
)

// CodeInfo describes one error code. The HTTP handlers answer with its Status, and docs/api.md and
// web/api/openapi.yaml document it; tests check both documents against codeTable.
type CodeInfo struct {
	Code Code
	// Name is the upper-case name of the code, e.g. RESOURCE_NOT_FOUND.
	Name string
	// Status is the HTTP status of every answer with this code. It is a plain number so that the domain
	// does not import net/http.
	Status int
	// Published is true for the codes the published interface defines (its section 7).
	Published bool
	// Meaning says in words when the code is returned.
	Meaning string
}

// Readable names for CodeInfo.Published in codeTable.
const (
	published = true
	ours      = false
)

// codeTable is the one list of error codes, in numeric order.
var codeTable = []CodeInfo{
	{CodeUnauthorized, "UNAUTHORIZED", 401, ours,
		"missing, malformed, expired or forged bearer token; a token naming nobody or a deactivated person"},
	{CodeForbidden, "FORBIDDEN", 403, ours,
		"acting for another user without being a receptionist or admin; approvals by anyone but an admin"},
	{CodeResourceNotFound, "RESOURCE_NOT_FOUND", 404, published,
		"unknown resource or poster code; for 4.3 and 4.4 also a resource, floor or building not ACTIVATED " +
			"or not visible"},
	{CodeUserNotFound, "USER_NOT_FOUND", 404, ours,
		"`{userId}` or an internal attendee unknown in the organization; acting for a deactivated person"},
	{CodeBuildingNotFound, "BUILDING_NOT_FOUND", 404, ours,
		"unknown building"},
	{CodeSubcategoryNotFound, "SUBCATEGORY_NOT_FOUND", 404, ours,
		"unknown subcategory, or one of the other category"},
	{CodeFloorNotFound, "FLOOR_NOT_FOUND", 404, ours,
		"availability asked for a floor that is not in the building"},
	{CodeBookingNotFound, "BOOKING_NOT_FOUND", 404, published,
		"unknown booking, or one the caller may not see (or act on)"},
	{CodeNoBookingToCheckIn, "NO_BOOKING_TO_CHECK_IN", 404, ours,
		"check-in by poster code: the user has no booking of that resource whose check-in is open now"},
	{CodeObjectNotFound, "OBJECT_NOT_FOUND", 404, ours,
		"admin API: no such collection, or no object with that id in the organization (another " +
			"organization's object is unknown too)"},
	{CodeResourceReservableNotFound, "RESOURCE_RESERVABLE_NOT_FOUND", 404, published,
		"the reservable is not offered for the booked resource"},
	{CodeInvalidRequest, "INVALID_REQUEST", 400, ours,
		"malformed JSON, wrong types, missing fields (and unknown ones in the bodies of PATCH and of an " +
			"approval), bad UUIDs, empty arrays, end ≤ start, body over 1 MiB, a `user-access-token` over 8 KB, " +
			"text with a NUL character or bytes that are not UTF-8; `detail` names the field where it can"},
	{CodeResourceNotAvailable, "RESOURCE_NOT_AVAILABLE", 409, ours,
		"overlaps another booking, or another element of the same request"},
	{CodeDateInThePast, "INVALID_DATE_IN_THE_PAST", 409, ours,
		"starts more than 5 minutes ago; a change that would end in the past; an all-day booking of a day " +
			"whose window is over"},
	{CodeDateOutsideResourceHours, "INVALID_DATE_OUTSIDE_RESOURCE_HOURS", 409, ours,
		"outside the daily window (crossing midnight only where the hours are open on both sides)"},
	{CodeDurationExceedsMaximum, "INVALID_DURATION_EXCEEDS_MAXIMUM", 409, ours,
		"longer than `maximumDuration`, or crossing midnight for more than 24 hours"},
	{CodeDateExceedsMaximumAdvance, "INVALID_DATE_EXCEEDS_MAXIMUM_ADVANCE", 409, ours,
		"starts beyond `maximumAdvance`"},
	{CodeResourceNotASpace, "RESOURCE_NOT_A_SPACE", 409, ours,
		"a workstation sent to the spaces endpoint"},
	{CodeBookingNotModifiable, "BOOKING_NOT_MODIFIABLE", 409, ours,
		"the booking's status does not allow it: reservables of a cancelled, rejected, expired or finished " +
			"booking; a check-in, release, cancellation, change or decision from a status that has no such " +
			"transition; acting on a booking whose check-in closed without a check-in"},
	{CodeCheckInNotOpenYet, "CHECK_IN_NOT_OPEN_YET", 409, ours,
		"check-in before the window opens (`advanceCheckIn` before the start)"},
	{CodeCheckInClosed, "CHECK_IN_CLOSED", 409, ours,
		"check-in after the window closed"},
	{CodeAllDayNotAllowed, "ALL_DAY_BOOKINGS_NOT_ALLOWED", 409, ours,
		"`allDay` on a resource whose rule does not allow all-day bookings"},
	{CodeUserAlreadyHasWorkstation, "USER_ALREADY_HAS_WORKSTATION", 409, ours,
		"the person (the organizer) already holds a workstation during part of that time, booked before or " +
			"in an earlier element of the same request; `detail` names it: \"Lucía Fernández already has " +
			"Desk 1.02 from 09:00 to 18:00 Madrid time on Mon 23 Nov\""},
	{CodeResourceClosed, "RESOURCE_CLOSED", 409, ours,
		"a closure of the resource, its floor or its building covers part of that time; `detail` says " +
			"\"Desk 1.02 is closed from Mon 23 Dec to Fri 27 Dec: Christmas\""},
	{CodeObjectInUse, "OBJECT_IN_USE", 409, ours,
		"admin API: deleting an object something refers to (a building with floors, a resource ever " +
			"booked, a rule a resource uses…); `detail` says what, and to deactivate it instead"},
	{CodeClosureCoversBookings, "CLOSURE_COVERS_BOOKINGS", 409, ours,
		"a closure being saved covers blocking bookings and does not say what to do with them; `detail` " +
			"says how many and names the first few; send `overlapping` CANCEL or KEEP"},
	{CodeLastAdmin, "LAST_ADMIN", 409, ours,
		"a change that would leave the organization without an active admin (deactivating, demoting or " +
			"deleting the last one, by any means)"},
	{CodeMinCancellationOfReservable, "INVALID_DATE_BY_MIN_CANCELLATION_OF_THE_RESERVABLE", 409, published,
		"a reservable changed, or its booking cancelled or moved, later than its minimum cancellation time " +
			"before the start"},
	{CodeReservableDeliveryTime, "INVALID_RESERVABLE_DELIVERY_TIME", 409, published,
		"delivery time outside [0, duration]"},
	{CodeReservableQuantity, "INVALID_RESERVABLE_QUANTITY", 409, published,
		"quantity below 1, or other than 1 where it cannot be chosen"},
	{CodeAdditionalServicesInactive, "ADDITIONAL_SERVICES_MODULE_NOT_ACTIVE", 409, published,
		"the organization has not activated additional services"},
	{CodePreconditionFailed, "PRECONDITION_FAILED", 412, ours,
		"admin API: `If-Match` names a version of the object that is no longer current; nothing changed"},
	{CodePayloadTooLarge, "PAYLOAD_TOO_LARGE", 413, ours,
		"a floor plan larger than 5 MiB (5,242,880 bytes); nothing was read past the limit, nothing changed"},
	{CodeIdempotencyKeyReused, "IDEMPOTENCY_KEY_REUSED", 422, ours,
		"an `Idempotency-Key` already used with another request (method, path or body)"},
	{CodeTooManyRequests, "TOO_MANY_REQUESTS", 429, ours,
		"rate limit of the caller or of its address; `Retry-After` says when to try again"},
	{CodeInternal, "INTERNAL_ERROR", 500, ours,
		"anything unexpected; logged with the request id, nothing changed"},
	{CodeUnavailable, "SERVICE_UNAVAILABLE", 503, ours,
		"the database cannot be reached or refuses connections (down, restarting, too many connections, " +
			"closed to new connections), or did not answer in time (a statement past 5 s, a request past " +
			"10 s), or the organization's layout changed under a booking three times running; answered at " +
			"once, nothing is half-written, try again"},
}

// codeInfos indexes codeTable by code.
var codeInfos = func() map[Code]CodeInfo {
	m := make(map[Code]CodeInfo, len(codeTable))
	for _, info := range codeTable {
		m[info.Code] = info
	}
	return m
}()

// CodeTable returns every error code with its name, status and meaning, in numeric order.
func CodeTable() []CodeInfo { return slices.Clone(codeTable) }

// Codes returns every error code, in numeric order.
func Codes() []Code {
	codes := make([]Code, len(codeTable))
	for i, info := range codeTable {
		codes[i] = info.Code
	}
	return codes
}

// Name returns the upper-case name of the code, e.g. RESOURCE_NOT_FOUND, or UNKNOWN for a number that
// is not a code.
func (c Code) Name() string {
	if info, ok := codeInfos[c]; ok {
		return info.Name
	}
	return "UNKNOWN"
}

// HTTPStatus returns the HTTP status of responses with this code, or 0 if c is not a known code.
func (c Code) HTTPStatus() int { return codeInfos[c].Status }

// String returns the code as the published interface writes it: "1002 - RESOURCE_NOT_FOUND".
func (c Code) String() string { return fmt.Sprintf("%d - %s", int(c), c.Name()) }

// Error is a refusal: a code and a human-readable message. For a request with several bookings, Index
// is the zero-based index of the element that was refused. Field names what was refused when it is one
// field: its JSON path (resources[3].floorId) or form field; the message then starts with it.
type Error struct {
	Code    Code
	Message string
	Index   *int
	Field   string
	// Reason is a short word for the log, such as "email-not-verified", that says why without naming the
	// person; empty for most errors.
	Reason string
	// MessageID and Data make the message's words again in another language (In); "" for a message
	// that is English only.
	MessageID string
	Data      map[string]any
}

// Refuse returns an *Error with the code whose message is the message id of web/lang in English, filled
// with data; dates and times go in data as phrases (lang.DayOf, lang.MomentOf), so that In writes them
// in the reader's language.
func Refuse(code Code, id string, data ...map[string]any) *Error {
	e := &Error{Code: code, MessageID: id}
	if len(data) > 0 {
		e.Data = data[0]
	}
	e.Message = lang.T(context.Background(), id, e.Data)
	return e
}

// FieldRefuse is Refuse for a refusal of one field: the message is the field, a colon and the words.
func FieldRefuse(code Code, field, id string, data ...map[string]any) *Error {
	e := Refuse(code, id, data...)
	e.Field, e.Message = field, field+": "+e.Message
	return e
}

// In returns the message in ctx's language (web/lang): its words said again in that language, after the
// field or path it starts with. A message that is English only is returned as it is.
func (e *Error) In(ctx context.Context) string {
	if e.MessageID == "" {
		return e.Message
	}
	english := lang.T(context.Background(), e.MessageID, e.Data)
	prefix, ok := strings.CutSuffix(e.Message, english)
	if !ok {
		return e.Message
	}
	return prefix + lang.T(ctx, e.MessageID, e.Data)
}

// Error returns the code, the element when there is one, and the message:
// "4001 - RESOURCE_NOT_AVAILABLE: element 2: Alcalá is taken".
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

// FieldErrorf returns an *Error with the code that refuses field: its message is the field, a colon and
// the formatted words ("reason: is required").
func FieldErrorf(code Code, field, format string, args ...any) *Error {
	return &Error{Code: code, Field: field, Message: field + ": " + fmt.Sprintf(format, args...)}
}

// InField returns a copy of err that names its field inside the object at path (path.field), with the
// message saying so too. An err that is not an *Error is returned as it is; one without a field gets
// path as its field.
func InField(err error, path string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	if c.Field == "" {
		c.Field, c.Message = path, path+": "+c.Message
	} else {
		c.Field, c.Message = path+"."+c.Field, path+"."+c.Message
	}
	return &c
}

// AtIndex returns a copy of err that names element i of a request with several bookings. An err that is
// not an *Error is returned as it is.
func AtIndex(err error, i int) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	c := *e
	c.Index = &i
	return &c
}

// ErrorCode returns the code of err: 0 for nil, and CodeInternal for an error that carries no code.
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

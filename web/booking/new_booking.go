package booking

import (
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// The attendee types.
const (
	AttendeeRequired = "REQUIRED"
	AttendeeOptional = "OPTIONAL"
)

// MaxAttendees is the largest number of attendees on one booking, internal and external together.
const MaxAttendees = 100

// InternalAttendee is a user of the organization invited to a booking.
type InternalAttendee struct {
	Type   string
	UserID uuid.UUID
}

// ExternalAttendee is a guest invited by e-mail address.
type ExternalAttendee struct {
	Type  string
	Email string
}

// NewBooking asks for one booking of a resource for [Start, End). If AllDay is set, it asks for the whole
// bookable window of Start's local day instead, and End is ignored.
type NewBooking struct {
	ResourceID          uuid.UUID
	Start, End          time.Time
	AllDay              bool
	Importance          string // LOW (default), NORMAL or HIGH
	Subject             string
	Body                Body // BodyType TEXT (default) or HTML
	InternalAttendees   []InternalAttendee
	ExternalAttendees   []ExternalAttendee
	CreateOnlineMeeting bool
	SipAddress          string
	// Reservables are the services to contract on the booking, in the same transaction: delivery times
	// are offsets from the booking's start, as for ContractReservables. A standard delivery time after
	// the end moves to the start.
	Reservables []ReservableOrder

	// checkInNow asks to check the organizer in, in the same transaction that makes the booking, if its
	// check-in window is already open. BookNowAndCheckIn sets it: the person is standing at the resource.
	checkInNow bool
}

// normalize fills in defaults and checks the fields that need no database lookup.
func (b *NewBooking) normalize() error {
	if b.ResourceID == uuid.Nil {
		return FieldRefuse(CodeInvalidRequest, "resource.id", "refusal.booking.required")
	}
	if b.AllDay {
		if b.Start.IsZero() {
			return FieldRefuse(CodeInvalidRequest, "startDate", "refusal.booking.startDateRequired")
		}
		b.End = b.Start.Add(time.Millisecond) // replaced by the day's window once the resource is known
	}
	if b.Start.IsZero() || b.End.IsZero() {
		return Refuse(CodeInvalidRequest, "refusal.booking.datesRequired")
	}
	if err := checkTimes(Interval{Start: b.Start, End: b.End}, "startDate", "endDate"); err != nil {
		return err
	}
	if b.Importance == "" {
		b.Importance = "LOW"
	}
	if !slices.Contains(importances, b.Importance) {
		return FieldRefuse(CodeInvalidRequest, "importance", "refusal.booking.mustBeOneOf", map[string]any{"Values": strings.Join(importances, ", ")})
	}
	if b.Body.BodyType == "" {
		b.Body.BodyType = "TEXT"
	}
	if !slices.Contains(bodyTypes, b.Body.BodyType) {
		return FieldRefuse(CodeInvalidRequest, "body.bodyType", "refusal.booking.mustBeOneOf", map[string]any{"Values": strings.Join(bodyTypes, ", ")})
	}
	if len(b.Subject) > 255 {
		return FieldRefuse(CodeInvalidRequest, "subject", "refusal.booking.subjectTooLong")
	}
	if err := checkAttendeeCount(*b); err != nil {
		return err
	}
	if err := checkOrders(b.Reservables); err != nil {
		return err
	}
	users := make(map[uuid.UUID]int, len(b.InternalAttendees))
	for i, a := range b.InternalAttendees {
		if a.Type != AttendeeRequired && a.Type != AttendeeOptional {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("internalAttendees[%d].type", i), "refusal.booking.attendeeType")
		}
		if a.UserID == uuid.Nil {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("internalAttendees[%d].user.id", i), "refusal.booking.required")
		}
		if j, ok := users[a.UserID]; ok {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("internalAttendees[%d].user.id", i), "refusal.booking.attendeeListedTwice", map[string]any{"User": a.UserID.String(), "Index": j})
		}
		users[a.UserID] = i
	}
	emails := make(map[string]int, len(b.ExternalAttendees))
	for i, a := range b.ExternalAttendees {
		if a.Type != AttendeeRequired && a.Type != AttendeeOptional {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("externalAttendees[%d].type", i), "refusal.booking.attendeeType")
		}
		if addr, err := mail.ParseAddress(a.Email); err != nil || addr.Address != a.Email {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("externalAttendees[%d].email", i), "refusal.booking.notAnEmail", map[string]any{"Email": strconv.Quote(a.Email)})
		}
		key := strings.ToLower(a.Email)
		if j, ok := emails[key]; ok {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("externalAttendees[%d].email", i), "refusal.booking.guestListedTwice", map[string]any{"Email": a.Email, "Index": j})
		}
		emails[key] = i
	}
	return nil
}

// checkAttendeeCount refuses a booking with more than MaxAttendees attendees, internal and external
// together. Codes: 2000.
func checkAttendeeCount(b NewBooking) error {
	if n := len(b.InternalAttendees) + len(b.ExternalAttendees); n > MaxAttendees {
		return Refuse(CodeInvalidRequest, "refusal.booking.tooManyAttendees", map[string]any{"N": n, "Max": MaxAttendees})
	}
	return nil
}

// Bounds of the services ordered with a new booking.
const (
	MaxOrdersPerBooking = 20    // services on one booking
	MaxOrderQuantity    = 10000 // of one service
	MaxOrderComment     = 500   // characters of one comment
)

// checkOrders refuses more than MaxOrdersPerBooking orders (2000), a service ordered twice (2000), a
// quantity above MaxOrderQuantity (4078) and a comment longer than MaxOrderComment characters (2000).
func checkOrders(orders []ReservableOrder) error {
	if len(orders) > MaxOrdersPerBooking {
		return FieldRefuse(CodeInvalidRequest, orderField, "refusal.booking.tooManyOrders", map[string]any{"N": len(orders), "Max": MaxOrdersPerBooking})
	}
	seen := make(map[uuid.UUID]bool, len(orders))
	for i, o := range orders {
		if seen[o.ReservableID] {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("%s[%d].reservableId", orderField, i), "refusal.booking.listedTwice", map[string]any{"ID": o.ReservableID.String()})
		}
		seen[o.ReservableID] = true
		if o.Quantity != nil && *o.Quantity > MaxOrderQuantity {
			return FieldRefuse(CodeReservableQuantity, fmt.Sprintf("%s[%d].quantity", orderField, i), "refusal.booking.atMost", map[string]any{"Max": MaxOrderQuantity})
		}
		if n := utf8.RuneCountInString(o.Comment); n > MaxOrderComment {
			return FieldRefuse(CodeInvalidRequest, fmt.Sprintf("%s[%d].comment", orderField, i), "refusal.booking.commentTooLong", map[string]any{"N": n, "Max": MaxOrderComment})
		}
	}
	return nil
}

var (
	importances = []string{"LOW", "NORMAL", "HIGH"}
	bodyTypes   = []string{"TEXT", "HTML"}
)

// Importances returns the allowed importance values of a booking; the first is the default.
func Importances() []string { return slices.Clone(importances) }

// BodyTypes returns the allowed types of a booking's body; the first is the default.
func BodyTypes() []string { return slices.Clone(bodyTypes) }

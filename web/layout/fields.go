package layout

import (
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
)

// The fields of a layout document, read and checked one at a time. A refusal names the array, the
// index and the field, as in resources[3].floorId.

// at names one object of the document in error messages, as in resources[3].floorId.
type at struct {
	array string
	index int
}

// path names a field of the object: resources[3].floorId.
func (a at) path(field string) string { return fmt.Sprintf("%s[%d].%s", a.array, a.index, field) }

func (a at) uuid(field, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil || len(v) != 36 {
		return uuid.Nil, booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.notUUID", map[string]any{"Value": strconv.Quote(v)})
	}
	return id, nil
}

func (a at) optionalUUID(field string, ref *LayoutRef) (*uuid.UUID, error) {
	if ref == nil || ref.ID == "" {
		return nil, nil
	}
	id, err := a.uuid(field, ref.ID)
	return &id, err
}

func (a at) required(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.required")
	}
	return nil
}

// MaxEmailLength is the longest contact e-mail address accepted (RFC 5321's limit on a path).
const MaxEmailLength = 254

// optionalEmail refuses v unless it is empty or a bare e-mail address (no display name, no angle
// brackets) of at most MaxEmailLength bytes.
func (a at) optionalEmail(field, v string) error {
	if v == "" {
		return nil
	}
	if len(v) > MaxEmailLength {
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.emailTooLong", map[string]any{"Max": fmt.Sprint(MaxEmailLength)})
	}
	if addr, err := mail.ParseAddress(v); err != nil || addr.Address != v {
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.notEmail", map[string]any{"Value": strconv.Quote(v)})
	}
	return nil
}

// oneOf returns v, or def if v is empty, and refuses a value that is not in allowed.
func (a at) oneOf(field, v, def string, allowed ...string) (string, error) {
	if v == "" {
		v = def
	}
	if !slices.Contains(allowed, v) {
		return "", booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.notOneOf", map[string]any{
			"Value": strconv.Quote(v), "Allowed": strings.Join(allowed, ", ")})
	}
	return v, nil
}

// given returns nil for an empty string, which is a field the document leaves out.
func given(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func boolOr(p *bool, def bool) bool {
	if p == nil {
		return def
	}
	return *p
}

// ids parses the id and organizationId that every object of an organization has.
func (a at) ids(id, org string) (uuid.UUID, uuid.UUID, error) {
	i, err := a.uuid("id", id)
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	o, err := a.uuid("organizationId", org)
	return i, o, err
}

// MaxDurationMS bounds every duration of a rule or a service, in ms: 400 days. Nothing in an office
// needs more, and sums of such durations with an instant never overflow.
const MaxDurationMS = 400 * 24 * int64(time.Hour/time.Millisecond)

// duration refuses a duration in ms outside 0 to MaxDurationMS.
func (a at) duration(field string, v int64) error {
	if v < 0 || v > MaxDurationMS {
		return booking.FieldRefuse(booking.CodeInvalidRequest, a.path(field), "refusal.layout.durationRange", map[string]any{"Max": fmt.Sprint(MaxDurationMS)})
	}
	return nil
}

// uuids parses a list of ids, dropping repeats.
func (a at) uuids(field string, vs []string) ([]uuid.UUID, error) {
	out := make([]uuid.UUID, 0, len(vs))
	for j, v := range vs {
		id, err := a.uuid(fmt.Sprintf("%s[%d]", field, j), v)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, id) { // lists are short
			out = append(out, id)
		}
	}
	return out, nil
}

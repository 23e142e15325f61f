package api

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// actingFor returns the authenticated user and the user the {userId} path segment names: the same user
// for "me", another one when the caller may act for them (booking.Service.ActingFor).
func (s *Handlers) actingFor(c echo.Context) (actor, target booking.User, err error) {
	actor = kit.Actor(c)
	var id *uuid.UUID
	if v := c.Param("userId"); v != "me" {
		parsed, err := kit.ParseUUID("userId", v)
		if err != nil {
			return actor, booking.User{}, err
		}
		id = &parsed
	}
	target, err = s.bookings.ActingFor(c.Request().Context(), actor, id)
	return actor, target, err
}

// decodeObject decodes the body, a JSON object whose keys must be among fields, into v.
func decodeObject(c echo.Context, v any, fields ...string) error {
	body, err := kit.ReadBody(c)
	if err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := kit.DecodeJSON(body, "", &keys); err != nil {
		return err
	}
	if keys == nil {
		return kit.Refuse("refusal.request.objectRequired")
	}
	for k := range keys {
		if !slices.Contains(fields, k) {
			return kit.FieldRefuse(k, "refusal.request.unknownField", map[string]any{"Fields": strings.Join(fields, ", ")})
		}
	}
	return kit.DecodeJSON(body, "", v)
}

// Readers of the query parameters. Each returns the zero value when the parameter is absent, and a 2000
// naming the parameter when it is malformed.

// boolQuery reads an optional boolean query parameter.
func boolQuery(c echo.Context, name string) (bool, error) {
	v := c.QueryParam(name)
	if v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, kit.FieldRefuse(name, "refusal.request.notBool", map[string]any{"Value": strconv.Quote(v)})
	}
	return b, nil
}

// parseMillis parses ms since the epoch, naming the field when v is not a whole number.
func parseMillis(field, v string) (time.Time, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, kit.FieldRefuse(field, "refusal.request.notMillis", map[string]any{"Value": strconv.Quote(v)})
	}
	return time.UnixMilli(n), nil
}

// msQuery reads an optional query parameter holding ms since the epoch.
func msQuery(c echo.Context, name string) (*time.Time, error) {
	return kit.OptionalQuery(c, name, parseMillis)
}

// posterCodeQuery reads postercode, a poster code the caller must send.
func posterCodeQuery(c echo.Context) (string, error) {
	code := c.QueryParam("postercode")
	if code == "" {
		return "", kit.FieldRefuse("postercode", "refusal.request.required")
	}
	return code, nil
}

// categoryQuery reads category, an optional WORKSTATION or SPACE (the service refuses any other).
func categoryQuery(c echo.Context) *booking.Category {
	v := c.QueryParam("category")
	if v == "" {
		return nil
	}
	cat := booking.Category(v)
	return &cat
}

// listQuery reads a list parameter: one comma-separated value, as the interface writes lists, or repeated
// (or both). Blank elements are skipped.
func listQuery(c echo.Context, name string) []string {
	var out []string
	for _, v := range c.QueryParams()[name] {
		for _, e := range strings.Split(v, ",") {
			if e = strings.TrimSpace(e); e != "" {
				out = append(out, e)
			}
		}
	}
	return out
}

// featuresQuery reads features, a list of feature ids.
func featuresQuery(c echo.Context) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	for i, v := range listQuery(c, "features") {
		id, err := kit.ParseUUID(fmt.Sprintf("features[%d]", i), v)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// capacityQuery reads capacity, an optional minimum number of people.
func capacityQuery(c echo.Context) (*int32, error) {
	v := c.QueryParam("capacity")
	if v == "" {
		return nil, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil || n < 0 {
		return nil, kit.FieldRefuse("capacity", "refusal.request.notCapacity", map[string]any{"Value": strconv.Quote(v)})
	}
	minimum := int32(n)
	return &minimum, nil
}

// pageQuery reads limit and cursor.
func pageQuery(c echo.Context) (booking.Page, error) {
	p := booking.Page{Cursor: c.QueryParam("cursor")}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > booking.MaxPageSize {
			return p, kit.FieldRefuse("limit", "refusal.request.limitRange", map[string]any{"Value": strconv.Quote(v), "Max": booking.MaxPageSize})
		}
		p.Limit = n
	}
	return p, nil
}

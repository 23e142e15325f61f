package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/jsonkind"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

func invalid(format string, args ...any) error {
	return booking.Errorf(booking.CodeInvalidRequest, format, args...)
}

// readBody reads the whole request body, refusing more than MaxBodyBytes, and text that cannot be
// stored (checkText). Every JSON body of the API is read here.
func readBody(c echo.Context) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, invalid("request body: larger than %d bytes", MaxBodyBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if err := checkText(body); err != nil {
		return nil, err
	}
	return body, nil
}

// checkText refuses a JSON body with bytes that are not UTF-8, or with a NUL character (written
// \u0000) in a string or a key: PostgreSQL stores neither, and its refusal would name its internals.
func checkText(data []byte) error {
	if !utf8.Valid(data) {
		return invalid("body: holds bytes that are not UTF-8; send the text in UTF-8")
	}
	if holdsNUL(data) {
		return invalid("body: holds a NUL character (\\u0000); send the text without it")
	}
	return nil
}

// holdsNUL reports whether a JSON text holds a NUL character in a string or a key. Malformed JSON
// holds none: decoding it refuses it later with a better message.
func holdsNUL(data []byte) bool {
	if !bytes.Contains(data, []byte(`\u0000`)) {
		return false // the only way to write a NUL in valid JSON
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok && strings.IndexByte(s, 0) >= 0 {
			return true
		}
	}
}

// checkFormText refuses form values or names with a NUL character or bytes that are not UTF-8.
func checkFormText(form url.Values) error {
	bad := func(s string) bool { return !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 }
	for k, vs := range form {
		if bad(k) {
			return invalid("form: a field's name holds a NUL character or bytes that are not UTF-8")
		}
		for _, v := range vs {
			if bad(v) {
				return invalid("%s: holds a NUL character or bytes that are not UTF-8; write it again", k)
			}
		}
	}
	return nil
}

// decodeJSON decodes data into v; errors name the field, prefixed with path (e.g. "[2]").
// Text that is not UTF-8 is refused rather than changed into U+FFFD.
func decodeJSON(data []byte, path string, v any) error {
	if !utf8.Valid(data) {
		return invalid("%sbody: holds bytes that are not UTF-8; send the text in UTF-8", prefix(path))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return jsonError(err, path)
	}
	// dec.More alone misses a stray ']' or '}' after the value; only the end of the input will do.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return invalid("%sbody: unexpected data after the JSON value", prefix(path))
	}
	return nil
}

func prefix(path string) string {
	if path == "" {
		return ""
	}
	return path + "."
}

// jsonError explains a decoding error in terms of the request's fields.
func jsonError(err error, path string) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return invalid("%sbody: a JSON value is required", prefix(path))
	case errors.As(err, &syntax):
		return invalid("%sbody: malformed JSON at byte %d: %v", prefix(path), syntax.Offset, syntax)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return invalid("%s%s: expected %s, got JSON %s", prefix(path), field, jsonkind.Of(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return invalid("%sbody: the JSON ends too early", prefix(path))
	}
	return invalid("%sbody: not JSON this operation reads", prefix(path))
}

// parseUUID parses a required UUID, naming the field when it is not one.
func parseUUID(field, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil || len(v) != 36 {
		return uuid.Nil, invalid("%s: %q is not a UUID", field, v)
	}
	return id, nil
}

// actingFor returns the authenticated user and the user the {userId} path segment names: the same user
// for "me", another one when the caller may act for them (booking.Service.ActingFor).
func (s *Server) actingFor(c echo.Context) (actor, target booking.User, err error) {
	actor = actorFrom(c)
	var id *uuid.UUID
	if v := c.Param("userId"); v != "me" {
		parsed, err := parseUUID("userId", v)
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
	body, err := readBody(c)
	if err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := decodeJSON(body, "", &keys); err != nil {
		return err
	}
	if keys == nil {
		return invalid("body: a JSON object is required")
	}
	for k := range keys {
		if !slices.Contains(fields, k) {
			return invalid("%s: unknown field; the fields are %s", k, strings.Join(fields, ", "))
		}
	}
	return decodeJSON(body, "", v)
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
		return false, invalid("%s: %q is not true or false", name, v)
	}
	return b, nil
}

// parseMillis parses ms since the epoch, naming the field when v is not a whole number.
func parseMillis(field, v string) (time.Time, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, invalid("%s: %q is not a time in ms since the epoch", field, v)
	}
	return time.UnixMilli(n), nil
}

// msQuery reads an optional query parameter holding ms since the epoch.
func msQuery(c echo.Context, name string) (*time.Time, error) {
	return optionalQuery(c, name, parseMillis)
}

// uuidQuery reads an optional query parameter holding a UUID.
func uuidQuery(c echo.Context, name string) (*uuid.UUID, error) {
	return optionalQuery(c, name, parseUUID)
}

// optionalQuery reads the query parameter name with parse. It returns nil when the parameter is absent or
// empty, and parse's error when it refuses the value.
func optionalQuery[T any](c echo.Context, name string, parse func(name, v string) (T, error)) (*T, error) {
	v := c.QueryParam(name)
	if v == "" {
		return nil, nil
	}
	x, err := parse(name, v)
	if err != nil {
		return nil, err
	}
	return &x, nil
}

// posterCodeQuery reads postercode, a poster code the caller must send.
func posterCodeQuery(c echo.Context) (string, error) {
	code := c.QueryParam("postercode")
	if code == "" {
		return "", invalid("postercode: is required")
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
		id, err := parseUUID(fmt.Sprintf("features[%d]", i), v)
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
		return nil, invalid("capacity: %q is not a whole number of people", v)
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
			return p, invalid("limit: %q is not a whole number between 1 and %d", v, booking.MaxPageSize)
		}
		p.Limit = n
	}
	return p, nil
}

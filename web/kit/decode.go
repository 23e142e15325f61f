package kit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/jsonkind"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

// ReadBody reads the whole request body, refusing more than MaxBodyBytes, and text that cannot be
// stored (CheckText). Every JSON body of the API is read here.
func ReadBody(c echo.Context) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, Invalid("request body: larger than %d bytes", MaxBodyBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	if err := CheckText(body); err != nil {
		return nil, err
	}
	return body, nil
}

// CheckText refuses a JSON body with bytes that are not UTF-8, or with a NUL character (written
// \u0000) in a string or a key: PostgreSQL stores neither, and its refusal would name its internals.
func CheckText(data []byte) error {
	if !utf8.Valid(data) {
		return Invalid("body: holds bytes that are not UTF-8; send the text in UTF-8")
	}
	if holdsNUL(data) {
		return Invalid("body: holds a NUL character (\\u0000); send the text without it")
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

// CheckFormText refuses form values or names with a NUL character or bytes that are not UTF-8.
func CheckFormText(form url.Values) error {
	bad := func(s string) bool { return !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 }
	for k, vs := range form {
		if bad(k) {
			return Invalid("form: a field's name holds a NUL character or bytes that are not UTF-8")
		}
		for _, v := range vs {
			if bad(v) {
				return InvalidField(k, "holds a NUL character or bytes that are not UTF-8; write it again")
			}
		}
	}
	return nil
}

// DecodeJSON decodes data into v; errors name the field, prefixed with path (e.g. "[2]").
// Text that is not UTF-8 is refused rather than changed into U+FFFD.
func DecodeJSON(data []byte, path string, v any) error {
	if !utf8.Valid(data) {
		return Invalid("%sbody: holds bytes that are not UTF-8; send the text in UTF-8", Prefix(path))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return jsonError(err, path)
	}
	// dec.More alone misses a stray ']' or '}' after the value; only the end of the input will do.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Invalid("%sbody: unexpected data after the JSON value", Prefix(path))
	}
	return nil
}

// Prefix returns path followed by a dot, or "" for no path.
func Prefix(path string) string {
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
		return Invalid("%sbody: a JSON value is required", Prefix(path))
	case errors.As(err, &syntax):
		return Invalid("%sbody: malformed JSON at byte %d: %v", Prefix(path), syntax.Offset, syntax)
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return Invalid("%s%s: expected %s, got JSON %s", Prefix(path), field, jsonkind.Of(typ.Type), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Invalid("%sbody: the JSON ends too early", Prefix(path))
	}
	return Invalid("%sbody: not JSON this operation reads", Prefix(path))
}

// ParseUUID parses a required UUID, naming the field when it is not one.
func ParseUUID(field, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil || len(v) != 36 {
		return uuid.Nil, InvalidField(field, "%q is not a UUID", v)
	}
	return id, nil
}

// UUIDQuery reads an optional query parameter holding a UUID.
func UUIDQuery(c echo.Context, name string) (*uuid.UUID, error) {
	return OptionalQuery(c, name, ParseUUID)
}

// OptionalQuery reads the query parameter name with parse. It returns nil when the parameter is absent or
// empty, and parse's error when it refuses the value.
func OptionalQuery[T any](c echo.Context, name string, parse func(name, v string) (T, error)) (*T, error) {
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

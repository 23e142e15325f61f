package kit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/jsonkind"
	"github.com/workspacebooking/booking/web/lang"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

// ReadBody reads the whole request body, refusing more than MaxBodyBytes, and text that cannot be
// stored (CheckText). Every JSON body of the API is read here.
func ReadBody(c echo.Context) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(c.Response(), c.Request().Body, MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return nil, Refuse("refusal.request.bodyTooLarge", map[string]any{"Max": MaxBodyBytes})
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
		return Refuse("refusal.request.bodyNotUTF8", map[string]any{"Path": ""})
	}
	if holdsNUL(data) {
		return Refuse("refusal.request.bodyNUL")
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
			return Refuse("refusal.request.formNameBadText")
		}
		for _, v := range vs {
			if bad(v) {
				return FieldRefuse(k, "refusal.request.fieldBadText")
			}
		}
	}
	return nil
}

// DecodeJSON decodes data into v; errors name the field, prefixed with path (e.g. "[2]").
// Text that is not UTF-8 is refused rather than changed into U+FFFD.
func DecodeJSON(data []byte, path string, v any) error {
	if !utf8.Valid(data) {
		return Refuse("refusal.request.bodyNotUTF8", map[string]any{"Path": Prefix(path)})
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return jsonError(err, path)
	}
	// dec.More alone misses a stray ']' or '}' after the value; only the end of the input will do.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Refuse("refusal.request.dataAfterJSON", map[string]any{"Path": Prefix(path)})
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
		return Refuse("refusal.request.jsonRequired", map[string]any{"Path": Prefix(path)})
	case errors.As(err, &syntax):
		return Refuse("refusal.request.malformedJSON", map[string]any{
			"Path": Prefix(path), "Offset": fmt.Sprint(syntax.Offset), "Error": syntax.Error()})
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return Refuse("refusal.request.wrongType", map[string]any{
			"Path": Prefix(path), "Field": field, "Kind": jsonKind(jsonkind.Of(typ.Type)), "Value": typ.Value})
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Refuse("refusal.request.jsonEndsEarly", map[string]any{"Path": Prefix(path)})
	}
	return Refuse("refusal.request.notThisJSON", map[string]any{"Path": Prefix(path)})
}

// jsonKind is a kind of JSON value as jsonkind.Of names it ("an integer"), as a phrase (lang.Phrase) of
// a refusal's data, in the reader's words ("un número entero").
type jsonKind string

func (k jsonKind) In(ctx context.Context) string {
	switch k {
	case "an integer":
		return lang.T(ctx, "refusal.request.kindInteger")
	case "a number":
		return lang.T(ctx, "refusal.request.kindNumber")
	case "a string":
		return lang.T(ctx, "refusal.request.kindString")
	case "a boolean":
		return lang.T(ctx, "refusal.request.kindBoolean")
	case "an array":
		return lang.T(ctx, "refusal.request.kindArray")
	case "an object":
		return lang.T(ctx, "refusal.request.kindObject")
	}
	return string(k)
}

// ParseUUID parses a required UUID, naming the field when it is not one.
func ParseUUID(field, v string) (uuid.UUID, error) {
	id, err := uuid.Parse(v)
	if err != nil || len(v) != 36 {
		return uuid.Nil, FieldRefuse(field, "refusal.request.notUUID", map[string]any{"Value": strconv.Quote(v)})
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

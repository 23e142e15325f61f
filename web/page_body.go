package web

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// MaxPageBody bounds the body of a page request: the largest form a person can fill in is a few KB.
const MaxPageBody = 64 << 10

// limitPageBody refuses a page request whose body is larger than MaxPageBody with 413, before any of it
// becomes a form, whether or not the request says its length; and a form with a NUL character or bytes
// that are not UTF-8 with 400.
func limitPageBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Body == nil || req.Body == http.NoBody {
			return next(c)
		}
		tooLarge := booking.Refuse(booking.CodePayloadTooLarge, "refusal.request.formTooLarge", map[string]any{"Max": MaxPageBody >> 10})
		if req.ContentLength > MaxPageBody {
			return tooLarge
		}
		body, err := io.ReadAll(http.MaxBytesReader(c.Response(), req.Body, MaxPageBody))
		var over *http.MaxBytesError
		if errors.As(err, &over) {
			return tooLarge
		}
		if err != nil {
			return fmt.Errorf("read the form: %w", err)
		}
		if mt, _, _ := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType)); mt == echo.MIMEApplicationForm {
			// Every form is checked here, once: a NUL or bytes that are not UTF-8 are refused with 400.
			form, err := url.ParseQuery(string(body))
			if err != nil {
				return kit.Refuse("layout.formNotFromPage")
			}
			if err := kit.CheckFormText(form); err != nil {
				return err
			}
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		return next(c)
	}
}

// limitUploadBody stops reading an upload request at kit.MaxUploadBody bytes, so that the handler can
// refuse a larger one beside its form.
func limitUploadBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		req.Body = http.MaxBytesReader(c.Response(), req.Body, kit.MaxUploadBody)
		return next(c)
	}
}

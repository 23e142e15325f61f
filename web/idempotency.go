package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/web/booking"
)

// IdempotencyKeyHeader lets a client retry a POST safely: the first answer to a request sent with a key is
// kept for 24 hours, and the same request with the same key gets it again, with Idempotent-Replayed: true,
// without doing anything twice. The same key with another request is 422 4220. An answer of ours that
// failed (5xx) is not kept: nothing was done, and a retry runs again.
const IdempotencyKeyHeader = "Idempotency-Key"

// idempotent serves the POST operations of the API; it comes after requireBearer (keys are per user).
func (s *Server) idempotent(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		key := c.Request().Header.Get(IdempotencyKeyHeader)
		if key == "" {
			return next(c)
		}
		if len(key) > 255 || !printable(key) {
			return invalid("%s: 1 to 255 printable ASCII characters", IdempotencyKeyHeader)
		}
		body, err := readBody(c)
		if err != nil {
			return err
		}
		c.Request().Body = io.NopCloser(bytes.NewReader(body))
		h := sha256.New()
		io.WriteString(h, c.Request().Method+" "+c.Request().URL.RequestURI()+"\n")
		h.Write(body)
		hash := h.Sum(nil)

		ctx, user := c.Request().Context(), actorFrom(c)
		for {
			claimed, answer, err := s.bookings.ClaimIdempotencyKey(ctx, user, key, hash)
			switch {
			case err != nil:
				return err
			case claimed:
				return s.answerOnce(c, next, user, key)
			case answer != nil:
				c.Response().Header().Set("Idempotent-Replayed", "true")
				return c.Blob(answer.Status, answer.ContentType, answer.Body)
			}
			// The first request with the key is still running: wait for its answer (within the deadline).
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(25 * time.Millisecond):
			}
		}
	}
}

// answerOnce runs the request that claimed the key and keeps its answer, or forgets the key when it failed.
func (s *Server) answerOnce(c echo.Context, next echo.HandlerFunc, user booking.User, key string) error {
	res := c.Response()
	rec := &recorder{ResponseWriter: res.Writer}
	res.Writer = rec
	if err := next(c); err != nil {
		c.Error(err) // answered here, so that the answer is recorded
	}
	res.Writer = rec.ResponseWriter
	// The answer is sent: it is kept even when the request's context has ended meanwhile.
	ctx := context.WithoutCancel(c.Request().Context())
	if res.Status >= http.StatusInternalServerError {
		if err := s.bookings.ReleaseIdempotencyKey(ctx, user, key); err != nil {
			s.log.ErrorContext(ctx, "releasing an idempotency key failed", "error", err)
		}
		return nil
	}
	err := s.bookings.CompleteIdempotencyKey(ctx, user, key, booking.StoredAnswer{
		Status: res.Status, ContentType: res.Header().Get(echo.HeaderContentType), Body: rec.body.Bytes(),
	})
	if err != nil {
		s.log.ErrorContext(ctx, "keeping the answer of an idempotency key failed", "error", err)
	}
	return nil
}

// recorder keeps a copy of what is written.
type recorder struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (r *recorder) Write(p []byte) (int, error) {
	r.body.Write(p)
	return r.ResponseWriter.Write(p)
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

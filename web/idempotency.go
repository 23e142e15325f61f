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
	"github.com/workspacebooking/booking/web/kit"
)

// IdempotencyKeyHeader lets a client retry a POST safely: the first answer to a request sent with a key is
// kept for 24 hours, and the same request with the same key gets it again, with Idempotent-Replayed: true,
// without doing anything twice. The same key with another request is 422 4220. An answer of ours that
// failed (5xx) is not kept: nothing was done, and a retry runs again.
const IdempotencyKeyHeader = kit.IdempotencyKeyHeader

// ReplayedHeader marks an answer given again to a retry.
const ReplayedHeader = "Idempotent-Replayed"

// A retry that finds the first request with its key still running checks for its answer after
// idempotencyPoll, then waits twice as long each time, up to idempotencyPollMax. A short wait, the common
// case, ends soon, and a long one does not cost many queries.
const (
	idempotencyPoll    = 10 * time.Millisecond
	idempotencyPollMax = 250 * time.Millisecond
)

// idempotent is the middleware of the API's POST operations that honours IdempotencyKeyHeader. It must
// run after requireBearer, because each key belongs to one user.
func (s *Server) idempotent(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		values, sent := c.Request().Header[IdempotencyKeyHeader]
		if !sent {
			return next(c)
		}
		if len(values) != 1 || !validKey(values[0]) {
			return kit.FieldRefuse(IdempotencyKeyHeader, "refusal.request.badIdempotencyKey")
		}
		key := values[0]
		body, err := kit.ReadBody(c)
		if err != nil {
			return err
		}
		c.Request().Body = io.NopCloser(bytes.NewReader(body))
		hash := requestHash(c.Request(), body)

		ctx, user := c.Request().Context(), kit.Actor(c)
		for wait := idempotencyPoll; ; wait = min(2*wait, idempotencyPollMax) {
			claimed, answer, err := s.bookings.ClaimIdempotencyKey(ctx, user, key, hash)
			switch {
			case err != nil:
				return err
			case claimed:
				return s.answerOnce(c, next, user, key)
			case answer != nil:
				c.Response().Header().Set(ReplayedHeader, "true")
				if answer.ContentType == "" {
					return c.NoContent(answer.Status)
				}
				return c.Blob(answer.Status, answer.ContentType, answer.Body)
			}
			// The first request with the key is still running: wait for its answer (within the deadline).
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
	}
}

// requestHash identifies a request: its method, its path with the query, and its body.
func requestHash(r *http.Request, body []byte) []byte {
	h := sha256.New()
	io.WriteString(h, r.Method)
	h.Write([]byte{' '})
	io.WriteString(h, r.URL.RequestURI())
	h.Write([]byte{'\n'})
	h.Write(body)
	return h.Sum(nil)
}

// answerOnce runs the request that claimed the key and keeps its answer; when there is none to keep (it
// failed on our side, the client went away before anything was done, or the handler panicked), it gives
// the key back, so that a retry runs.
func (s *Server) answerOnce(c echo.Context, next echo.HandlerFunc, user booking.User, key string) (err error) {
	res := c.Response()
	rec := &recorder{ResponseWriter: res.Writer}
	res.Writer = rec
	kept := false
	defer func() {
		res.Writer = rec.ResponseWriter
		if kept {
			return
		}
		// Released even when the request's context has ended: the retry must not wait for a dead key.
		ctx := context.WithoutCancel(c.Request().Context())
		if err := s.bookings.ReleaseIdempotencyKey(ctx, user, key); err != nil {
			s.log.ErrorContext(ctx, "releasing an idempotency key failed", "error", err,
				"id", res.Header().Get(echo.HeaderXRequestID), "user", user.ID.String())
		}
	}()
	if err := next(c); err != nil {
		c.Error(err) // answered here, so that the answer is recorded
	}
	if !res.Committed || res.Status >= http.StatusInternalServerError {
		return nil
	}
	// The answer is sent: it is kept even when the request's context has ended meanwhile.
	ctx := context.WithoutCancel(c.Request().Context())
	kept = true
	err = s.bookings.CompleteIdempotencyKey(ctx, user, key, booking.StoredAnswer{
		Status: res.Status, ContentType: res.Header().Get(echo.HeaderContentType), Body: rec.body.Bytes(),
	})
	if err != nil {
		// The key stays claimed without an answer: retries wait, and after booking.IdempotencyAbandonedAfter
		// the same request runs again.
		s.log.ErrorContext(ctx, "keeping the answer of an idempotency key failed", "error", err,
			"id", res.Header().Get(echo.HeaderXRequestID), "user", user.ID.String())
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

// Unwrap lets http.ResponseController reach the connection's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// validKey reports whether key is 1 to 255 printable ASCII characters.
func validKey(key string) bool {
	if key == "" || len(key) > 255 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x20 || key[i] > 0x7e {
			return false
		}
	}
	return true
}

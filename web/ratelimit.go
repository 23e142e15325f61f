package web

import (
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
)

// Limit is a token bucket: Rate requests a second on average, Burst at once. A zero Rate is no limit.
type Limit struct {
	Rate  float64
	Burst int
}

// Validate refuses a negative rate (or NaN), and a positive rate with a burst under 1, which would let
// nothing through.
func (l Limit) Validate() error {
	if !(l.Rate >= 0) || l.Rate > 0 && l.Burst < 1 {
		return errors.New("the rate must be 0 (no limit) or positive, with a burst of at least 1")
	}
	return nil
}

// Limits bound the requests of each signed-in user (API and pages together) and of each client address
// (the TCP peer: an office behind one NAT address shares it, hence a generous default).
type Limits struct {
	PerUser    Limit
	PerAddress Limit
}

// limiter keeps one bucket per key (a user id, a client address). Buckets idle for longer than it takes
// them to fill again are forgotten, so that the map holds the active keys only; a forgotten bucket comes
// back full, as it would be by then.
type limiter[K comparable] struct {
	limit   Limit
	idle    time.Duration
	mu      sync.Mutex
	buckets map[K]*bucket
	swept   time.Time
}

type bucket struct {
	tokens *rate.Limiter
	seen   time.Time
}

// newLimiter returns the limiter of l; nil (no limit) when its rate is not positive.
func newLimiter[K comparable](l Limit) *limiter[K] {
	if !(l.Rate > 0) { // NaN too
		return nil
	}
	l.Burst = max(1, l.Burst)
	// Time to fill an empty bucket, and a second more; capped, so that a tiny rate keeps no key for ever.
	fill := min(float64(l.Burst)/l.Rate, time.Hour.Seconds())
	idle := time.Duration(fill*float64(time.Second)) + time.Second
	return &limiter[K]{limit: l, idle: idle, buckets: map[K]*bucket{}}
}

// allow takes a token from key's bucket and reports true, or reports false and how long until the
// bucket holds a token again.
func (l *limiter[K]) allow(key K, now time.Time) (ok bool, retryAfter time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > l.idle {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > l.idle {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, found := l.buckets[key]
	if !found {
		b = &bucket{tokens: rate.NewLimiter(rate.Limit(l.limit.Rate), l.limit.Burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.tokens.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// tooMany returns a 4290 (429) and sets Retry-After to after in whole seconds, at least one. who is "user"
// for a signed-in person's or a token's requests, "address" for those of a network address.
func tooMany(c echo.Context, who string, after time.Duration) error {
	secs := max(1, int(math.Ceil(after.Seconds())))
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	if who == "user" {
		return booking.Refuse(booking.CodeTooManyRequests, "refusal.request.tooManyFromUser", map[string]any{"Seconds": secs})
	}
	return booking.Refuse(booking.CodeTooManyRequests, "refusal.request.tooManyFromAddress", map[string]any{"Seconds": secs})
}

// limitUsers refuses, with 429, the requests of a signed-in person beyond their limit, before anything is
// done for them. The pages and the API draw on the same bucket for each person.
func (s *Server) limitUsers(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ok, after := s.perUser.allow(kit.Actor(c).ID, time.Now()); !ok {
			return tooMany(c, "user", after)
		}
		return next(c)
	}
}

// limitAddresses refuses, with 429, the requests of a client address beyond its limit, before anything
// is done for them.
func (s *Server) limitAddresses(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if ok, after := s.perAddress.allow(peer(c.Request()), time.Now()); !ok {
			return tooMany(c, "address", after)
		}
		return next(c)
	}
}

// peer is the client's address: the TCP peer's host, never a header a client can set.
func peer(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

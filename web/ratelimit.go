package web

import (
	"math"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/workspacebooking/booking/web/booking"
)

// Limit is a token bucket: Rate requests a second on average, Burst at once. A zero Rate is no limit.
type Limit struct {
	Rate  float64
	Burst int
}

// Limits bound the requests of each signed-in API user and of each client address (the TCP peer: an
// office behind one NAT address shares it, hence a generous default).
type Limits struct {
	PerUser    Limit
	PerAddress Limit
}

// limiter keeps one bucket per key. Buckets idle for longer than it takes them to fill again are
// forgotten, so that the map holds the active keys only.
type limiter struct {
	limit   Limit
	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens *rate.Limiter
	seen   time.Time
}

func newLimiter(l Limit) *limiter {
	if l.Rate <= 0 {
		return nil
	}
	return &limiter{limit: Limit{Rate: l.Rate, Burst: max(1, l.Burst)}, buckets: map[string]*bucket{}}
}

// allow takes a token for key, or says how long until one is there.
func (l *limiter) allow(key string, now time.Time) (ok bool, retryAfter time.Duration) {
	if l == nil {
		return true, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	idle := time.Duration(float64(l.limit.Burst)/l.limit.Rate*float64(time.Second)) + time.Second
	if now.Sub(l.swept) > idle {
		for k, b := range l.buckets {
			if now.Sub(b.seen) > idle {
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

// tooMany answers 429 4290 with Retry-After in whole seconds, at least one.
func tooMany(c echo.Context, who string, after time.Duration) error {
	secs := max(1, int(math.Ceil(after.Seconds())))
	c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
	return booking.Errorf(booking.CodeTooManyRequests, "too many requests from this %s: try again in %d s", who, secs)
}

// limitAddresses refuses the requests of a client address beyond its limit; nothing is done for them.
func (s *Server) limitAddresses(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		host, _, err := net.SplitHostPort(c.Request().RemoteAddr)
		if err != nil {
			host = c.Request().RemoteAddr
		}
		if ok, after := s.perAddress.allow(host, time.Now()); !ok {
			return tooMany(c, "address", after)
		}
		return next(c)
	}
}

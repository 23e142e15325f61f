package web

import (
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/workspacebooking/booking/web/booking"
)

// metrics are what GET /metrics reports, in the Prometheus text format: requests and their latency by
// route (the route's template, never the raw path), the bookings made, refused for a conflict, expired and
// finished, the database pool, and the Go runtime and process. Each server has a registry of its own.
type metrics struct {
	registry  *prometheus.Registry
	handler   http.Handler
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	conflicts prometheus.Counter
}

func newMetrics(svc *booking.Service) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "booking_http_requests_total", Help: "Requests answered, by route template, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "booking_http_request_duration_seconds", Help: "Time to answer a request, by route template and method.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route", "method"}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "booking_conflicts_total", Help: "Requests refused with 4001 RESOURCE_NOT_AVAILABLE (the resource was taken).",
		}),
	}
	m.registry.MustRegister(m.requests, m.latency, m.conflicts,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if svc != nil {
		stat := func(f func(booking.Stats) int64) func() float64 {
			return func() float64 { return float64(f(svc.Stats())) }
		}
		pool := func(f func(s poolStat) float64) func() float64 {
			return func() float64 { return f(svc.PoolStat()) }
		}
		m.registry.MustRegister(
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_bookings_created_total", Help: "Bookings made."},
				stat(func(s booking.Stats) int64 { return s.BookingsCreated })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_bookings_expired_total", Help: "No-shows expired by this instance's sweeps."},
				stat(func(s booking.Stats) int64 { return s.BookingsExpired })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_bookings_finished_total", Help: "Stays finished by this instance's sweeps."},
				stat(func(s booking.Stats) int64 { return s.BookingsFinished })),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "booking_db_connections", Help: "Database connections open."},
				pool(func(s poolStat) float64 { return float64(s.TotalConns()) })),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "booking_db_connections_in_use", Help: "Database connections in use."},
				pool(func(s poolStat) float64 { return float64(s.AcquiredConns()) })),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "booking_db_connections_idle", Help: "Database connections idle."},
				pool(func(s poolStat) float64 { return float64(s.IdleConns()) })),
			prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "booking_db_connections_max", Help: "Most database connections the pool opens."},
				pool(func(s poolStat) float64 { return float64(s.MaxConns()) })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_db_acquires_total", Help: "Connections taken from the pool."},
				pool(func(s poolStat) float64 { return float64(s.AcquireCount()) })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_db_acquires_waited_total", Help: "Connections taken after waiting for one to be free."},
				pool(func(s poolStat) float64 { return float64(s.EmptyAcquireCount()) })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_db_acquire_seconds_total", Help: "Time spent taking connections from the pool."},
				pool(func(s poolStat) float64 { return s.AcquireDuration().Seconds() })),
		)
	}
	m.handler = promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	return m
}

type poolStat = interface {
	TotalConns() int32
	AcquiredConns() int32
	IdleConns() int32
	MaxConns() int32
	AcquireCount() int64
	EmptyAcquireCount() int64
	AcquireDuration() time.Duration
}

// observe counts an answered request.
func (m *metrics) observe(route, method string, status int, took time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route, method).Observe(took.Seconds())
}

// serveMetrics is GET /metrics, for this machine and private networks only (a scraper inside the
// deployment); anyone else gets a 404, as for a page that does not exist.
func (s *Server) serveMetrics(c echo.Context) error {
	host, _, err := net.SplitHostPort(c.Request().RemoteAddr)
	ip := net.ParseIP(host)
	if err != nil || ip == nil || !(ip.IsLoopback() || ip.IsPrivate()) {
		return echo.ErrNotFound
	}
	s.metrics.handler.ServeHTTP(c.Response(), c.Request())
	return nil
}

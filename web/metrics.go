package web

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
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
	registry *prometheus.Registry
	handler  http.Handler
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec

	// The series of each route, method and status seen so far, resolved once: a request then costs a map
	// lookup and two atomic updates, without allocating. The labels are bounded (routes.go's templates, the
	// methods of httpMethods, three-digit statuses), so the map is too.
	mu     sync.RWMutex
	series map[seriesKey]series
}

type seriesKey struct {
	route, method string
	status        int
}

type series struct {
	requests prometheus.Counter
	latency  prometheus.Observer
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
		series: map[seriesKey]series{},
	}
	m.registry.MustRegister(m.requests, m.latency,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if svc != nil {
		stat := func(f func(booking.Stats) int64) func() float64 {
			return func() float64 { return float64(f(svc.Stats())) }
		}
		m.registry.MustRegister(
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_bookings_created_total", Help: "Bookings made (a request of several counts each)."},
				stat(func(s booking.Stats) int64 { return s.BookingsCreated })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_conflicts_total", Help: "Bookings refused because the resource was taken then (4001 RESOURCE_NOT_AVAILABLE)."},
				stat(func(s booking.Stats) int64 { return s.BookingConflicts })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_bookings_expired_total", Help: "No-shows expired by this instance's sweeps."},
				stat(func(s booking.Stats) int64 { return s.BookingsExpired })),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "booking_bookings_finished_total", Help: "Stays finished by this instance's sweeps."},
				stat(func(s booking.Stats) int64 { return s.BookingsFinished })),
			poolCollector{stat: svc.PoolStat},
		)
	}
	m.handler = promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	return m
}

// httpMethods are the methods labelled by name; any other is labelled OTHER, so that a client cannot
// invent series.
var httpMethods = map[string]string{
	http.MethodGet: http.MethodGet, http.MethodHead: http.MethodHead, http.MethodPost: http.MethodPost,
	http.MethodPut: http.MethodPut, http.MethodPatch: http.MethodPatch, http.MethodDelete: http.MethodDelete,
	http.MethodOptions: http.MethodOptions,
}

// observe counts an answered request. route is the route's template ("" when none matched).
func (m *metrics) observe(route, method string, status int, took time.Duration) {
	method, known := httpMethods[method]
	if !known {
		method = "OTHER"
	}
	if status < 100 || status > 999 {
		status = 0
	}
	k := seriesKey{route: route, method: method, status: status}
	m.mu.RLock()
	s, ok := m.series[k]
	m.mu.RUnlock()
	if !ok {
		s = series{
			requests: m.requests.WithLabelValues(route, method, strconv.Itoa(status)),
			latency:  m.latency.WithLabelValues(route, method),
		}
		m.mu.Lock()
		m.series[k] = s
		m.mu.Unlock()
	}
	s.requests.Inc()
	s.latency.Observe(took.Seconds())
}

// poolCollector reports the database pool, reading its statistics once per scrape.
type poolCollector struct {
	stat func() *pgxpool.Stat
}

var (
	poolConns = prometheus.NewDesc("booking_db_connections", "Database connections open.", nil, nil)
	poolInUse = prometheus.NewDesc("booking_db_connections_in_use", "Database connections in use.", nil, nil)
	poolIdle  = prometheus.NewDesc("booking_db_connections_idle", "Database connections idle.", nil, nil)
	poolMax   = prometheus.NewDesc("booking_db_connections_max", "Most database connections the pool opens.", nil, nil)
	poolTaken = prometheus.NewDesc("booking_db_acquires_total", "Connections taken from the pool.", nil, nil)
	poolWaits = prometheus.NewDesc("booking_db_acquires_waited_total", "Connections taken after waiting for one to be free (the pool had none idle).", nil, nil)
	poolTime  = prometheus.NewDesc("booking_db_acquire_seconds_total", "Time spent taking connections from the pool.", nil, nil)
)

func (poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolConns, poolInUse, poolIdle, poolMax, poolTaken, poolWaits, poolTime} {
		ch <- d
	}
}

func (p poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := p.stat()
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	counter := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v)
	}
	gauge(poolConns, float64(s.TotalConns()))
	gauge(poolInUse, float64(s.AcquiredConns()))
	gauge(poolIdle, float64(s.IdleConns()))
	gauge(poolMax, float64(s.MaxConns()))
	counter(poolTaken, float64(s.AcquireCount()))
	counter(poolWaits, float64(s.EmptyAcquireCount()))
	counter(poolTime, s.AcquireDuration().Seconds())
}

// serveMetrics is GET /metrics, for this machine and private networks only (a scraper inside the
// deployment: loopback, RFC 1918, fc00::/7, by the TCP peer); anyone else gets a 404, as for a page
// that does not exist.
func (s *Server) serveMetrics(c echo.Context) error {
	ip := net.ParseIP(peer(c.Request()))
	if ip == nil || !(ip.IsLoopback() || ip.IsPrivate()) {
		return echo.ErrNotFound
	}
	s.metrics.handler.ServeHTTP(c.Response(), c.Request())
	return nil
}

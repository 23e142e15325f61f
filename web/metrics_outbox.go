package web

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/workspacebooking/booking/web/notify"
)

// outboxCollector reports the outbox: the messages waiting and the age of the oldest, what this instance
// delivered, the failed tries and the jobs given up. It reads the job table once per scrape, with a
// short timeout so that a slow database does not hold /metrics up.
type outboxCollector struct {
	tell *notify.Service
}

var (
	outboxQueued    = prometheus.NewDesc("booking_outbox_queued", "Outbox jobs (events, e-mails, webhook deliveries) waiting to be worked, now or later, across every instance.", nil, nil)
	outboxRunning   = prometheus.NewDesc("booking_outbox_running", "Outbox jobs being worked now, across every instance.", nil, nil)
	outboxOldest    = prometheus.NewDesc("booking_outbox_oldest_waiting_seconds", "Age of the oldest outbox job that is due and not yet done; 0 when none waits.", nil, nil)
	outboxKept      = prometheus.NewDesc("booking_outbox_discarded", "Outbox jobs given up after their last try and still kept (a day), across every instance.", nil, nil)
	outboxDelivered = prometheus.NewDesc("booking_outbox_delivered_total", "Messages this instance delivered, by channel.", []string{"channel"}, nil)
	outboxFailed    = prometheus.NewDesc("booking_outbox_failed_total", "Tries of a delivery that failed on this instance (each retry counts).", nil, nil)
	outboxDiscarded = prometheus.NewDesc("booking_outbox_discarded_total", "Outbox jobs this instance gave up after their last try.", nil, nil)
	outboxUp        = prometheus.NewDesc("booking_outbox_up", "1 if the outbox's figures could be read at this scrape, 0 if not.", nil, nil)
)

func (outboxCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{outboxQueued, outboxRunning, outboxOldest, outboxKept, outboxDelivered, outboxFailed, outboxDiscarded, outboxUp} {
		ch <- d
	}
}

func (o outboxCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s, err := o.tell.Stats(ctx)
	gauge := func(d *prometheus.Desc, v float64) { ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v) }
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	if err != nil {
		gauge(outboxUp, 0)
	} else {
		gauge(outboxUp, 1)
		gauge(outboxQueued, float64(s.Queued))
		gauge(outboxRunning, float64(s.Running))
		gauge(outboxOldest, s.OldestWaiting.Seconds())
		gauge(outboxKept, float64(s.Discarded))
	}
	counter(outboxDelivered, float64(s.Mailed), "mail")
	counter(outboxDelivered, float64(s.Hooked), "webhook")
	counter(outboxFailed, float64(s.Failed))
	counter(outboxDiscarded, float64(s.DiscardedHere))
}

package notify

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// hookBundle is a notify service on a fresh database with the fixture, working its jobs, in
// development mode so that it may deliver to receivers on loopback.
type hookBundle struct {
	*fx.Bundle
	svc  *Service
	adam booking.User // A's admin
}

// setupHooks starts a notify service. dev false is production: https and public addresses only.
func setupHooks(t *testing.T, dev bool) *hookBundle {
	t.Helper()
	b := fx.Setup(t)
	svc, err := New(b.Pool, b.Service, Config{Dev: dev, BaseURL: "https://booking.test", Workers: 4})
	if err != nil {
		t.Fatalf("notify.New: %v", err)
	}
	return &hookBundle{Bundle: b, svc: svc, adam: b.User(t, fx.OrgA, fx.Adam)}
}

// start works the outbox until the test ends.
func (hb *hookBundle) start(t *testing.T) {
	t.Helper()
	if err := hb.svc.Start(t.Context()); err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = hb.svc.Stop(ctx)
	})
}

// endpoint registers an endpoint of A for the kinds and returns it with its secret.
func (hb *hookBundle) endpoint(t *testing.T, url string, kinds ...string) (WebhookEndpoint, string) {
	t.Helper()
	if len(kinds) == 0 {
		kinds = []string{"booking.created"}
	}
	ep, secret, err := hb.svc.CreateWebhookEndpoint(t.Context(), hb.adam, WebhookEndpointChange{URL: &url, EventTypes: kinds})
	if err != nil {
		t.Fatalf("CreateWebhookEndpoint(%s): %v", url, err)
	}
	return ep, secret
}

// book makes a booking of Goya for Alice, tomorrow at 10:00 plus the hours given, which records a
// booking.created event.
func (hb *hookBundle) book(t *testing.T, hour int) booking.Booking {
	t.Helper()
	alice := hb.User(t, fx.OrgA, fx.Alice)
	bs, err := hb.Service.CreateBookings(t.Context(), booking.CreateRequest{
		Creator: alice, Organizer: alice, Category: booking.CategorySpace,
		Bookings: []booking.NewBooking{fx.Request(fx.RoomGoya, fx.At(1, 10+hour, 0), fx.At(1, 11+hour, 0))},
	})
	if err != nil {
		t.Fatalf("CreateBookings: %v", err)
	}
	return bs[0]
}

// deliveries waits until the endpoint's deliveries satisfy done, and returns them, newest first.
func (hb *hookBundle) deliveries(t *testing.T, ep uuid.UUID, what string, done func([]WebhookDelivery) bool) []WebhookDelivery {
	t.Helper()
	var ds []WebhookDelivery
	fx.WaitFor(t, what, func() bool {
		var err error
		ds, err = hb.svc.WebhookDeliveries(t.Context(), hb.adam, ep)
		if err != nil {
			t.Fatalf("WebhookDeliveries: %v", err)
		}
		return done(ds)
	})
	return ds
}

// received is one request a receiver got.
type received struct {
	header http.Header
	body   []byte
	at     time.Time
}

// receiver is a webhook receiver on loopback. Each request gets the next answer of its script; the
// last answer repeats.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	script []func(w http.ResponseWriter)
}

// newReceiver starts a receiver that answers with the script.
func newReceiver(t *testing.T, script ...func(w http.ResponseWriter)) *receiver {
	t.Helper()
	rc := &receiver{script: script}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	n := len(rc.got)
	rc.got = append(rc.got, received{header: r.Header.Clone(), body: body, at: time.Now()})
	answer := rc.script[min(n, len(rc.script)-1)]
	rc.mu.Unlock()
	answer(w)
}

// requests returns what the receiver got so far.
func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

// status answers with code and a short body.
func status(code int) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.WriteHeader(code)
		_, _ = io.WriteString(w, http.StatusText(code))
	}
}

// newDNS starts a DNS server (fx.DNS) that answers these names with these addresses, and
// NXDOMAIN for every other name, until the test ends.
func newDNS(t *testing.T, records map[string][]string) *fx.DNS {
	t.Helper()
	d := fx.NewDNS(t)
	for name, addrs := range records {
		d.SetAddresses(name, addrs...)
	}
	return d
}

// insertEndpoint stores an endpoint of A as it is, past the checks of registration, as one saved
// before its name's address changed would be.
func (hb *hookBundle) insertEndpoint(t *testing.T, url string) uuid.UUID {
	t.Helper()
	r, err := hb.svc.q.WebhookEndpointInsert(t.Context(), queries.WebhookEndpointInsertParams{
		OrganizationID: fx.OrgA, ID: uuid.New(), Url: url, EventTypes: []string{"booking.created"},
		Secret: newWebhookSecret(), Enabled: true, Now: hb.Clock.Now(),
	})
	if err != nil {
		t.Fatalf("insert endpoint: %v", err)
	}
	return r.ID
}

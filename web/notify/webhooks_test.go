package notify

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/riverqueue/river"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/outbox"
	"github.com/workspacebooking/booking/web/wire"
)

// verify checks a delivery's signature with the Standard Webhooks reference library and secret.
func verify(t *testing.T, secret string, r received) error {
	t.Helper()
	wh, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatalf("NewWebhook: %v", err)
	}
	return wh.Verify(r.body, r.header)
}

func TestWebhookDelivery(t *testing.T) {
	t.Parallel()

	t.Run("RetriedUntil200WithOneIDAndValidSignatures", func(t *testing.T) {
		hb := setupHooks(t, true)
		rc := newReceiver(t, status(http.StatusInternalServerError), status(http.StatusOK))
		ep, secret := hb.endpoint(t, rc.URL+"/hooks")
		hb.start(t)
		b := hb.book(t, 0)
		ds := hb.deliveries(t, ep.ID, "the delivery to succeed", func(ds []WebhookDelivery) bool {
			return len(ds) > 0 && ds[0].Delivered()
		})

		got := rc.requests()
		if len(got) != 2 {
			t.Fatalf("the receiver got %d requests, want 2 (500, then 200)", len(got))
		}
		for i, r := range got {
			if err := verify(t, secret, r); err != nil {
				t.Errorf("request %d: the signature does not verify: %v", i, err)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("request %d: Content-Type = %q", i, ct)
			}
		}
		if a, b := got[0].header.Get("webhook-id"), got[1].header.Get("webhook-id"); a == "" || a != b {
			t.Errorf("webhook-id = %q then %q, want one id on every try", a, b)
		}
		if string(got[0].body) != string(got[1].body) {
			t.Error("the retry sent another body")
		}

		// The body is the event with the booking as the API answers it.
		var body struct {
			Type      string          `json:"type"`
			Timestamp string          `json:"timestamp"`
			Data      json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(got[1].body, &body); err != nil {
			t.Fatalf("body: %v", err)
		}
		now, _, err := hb.Service.BookingToTell(t.Context(), fx.OrgA, b.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(wire.NewBookingDetail(now))
		if body.Type != "booking.created" || string(body.Data) != string(want) {
			t.Errorf("body = %s\nwant type booking.created and data %s", got[1].body, want)
		}
		if _, err := time.Parse(time.RFC3339, body.Timestamp); err != nil {
			t.Errorf("timestamp %q: %v", body.Timestamp, err)
		}

		type try struct {
			Attempt, Status int
			Outcome         string
		}
		var tries []try
		for _, d := range ds {
			tries = append(tries, try{d.Attempt, d.Status, d.Outcome})
		}
		if diff := cmp.Diff([]try{{2, 200, "delivered"}, {1, 500, "failed"}}, tries); diff != "" {
			t.Errorf("deliveries (-want +got):\n%s", diff)
		}
		st, err := hb.svc.Stats(t.Context())
		if err != nil || st.Hooked != 1 || st.Failed != 1 {
			t.Errorf("stats = %+v, %v; want 1 hooked and 1 failed", st, err)
		}
	})

	t.Run("BothSecretsSignDuringARotation", func(t *testing.T) {
		hb := setupHooks(t, true)
		rc := newReceiver(t, status(http.StatusNoContent))
		ep, old := hb.endpoint(t, rc.URL)
		rotated, secret, err := hb.svc.RotateWebhookSecret(t.Context(), hb.adam, ep.ID)
		if err != nil {
			t.Fatal(err)
		}
		if secret == old || !strings.HasPrefix(secret, "whsec_") || rotated.RotatingUntil == nil {
			t.Fatalf("rotation gave %q (until %v), want a new whsec_ secret and an overlap", secret, rotated.RotatingUntil)
		}
		hb.start(t)
		hb.book(t, 0)
		hb.deliveries(t, ep.ID, "the delivery", func(ds []WebhookDelivery) bool { return len(ds) > 0 })
		r := rc.requests()[0]
		if n := len(strings.Fields(r.header.Get("webhook-signature"))); n != 2 {
			t.Errorf("webhook-signature = %q, want two signatures", r.header.Get("webhook-signature"))
		}
		for name, s := range map[string]string{"new": secret, "previous": old} {
			if err := verify(t, s, r); err != nil {
				t.Errorf("the %s secret does not verify: %v", name, err)
			}
		}

		// After the overlap, only the new secret signs.
		hb.Clock.Set(fx.Now.Add(WebhookSecretOverlap + time.Minute))
		hb.book(t, 2)
		hb.deliveries(t, ep.ID, "the second delivery", func(ds []WebhookDelivery) bool { return len(ds) > 1 })
		r = rc.requests()[1]
		if err := verify(t, secret, r); err != nil {
			t.Errorf("the new secret does not verify: %v", err)
		}
		if err := verify(t, old, r); err == nil {
			t.Error("the previous secret still verifies after the overlap")
		}
	})
}

func TestWebhookAnswers(t *testing.T) {
	t.Parallel()

	t.Run("GoneDisablesTheEndpointAndStopsItsJobs", func(t *testing.T) {
		hb := setupHooks(t, true)
		rc := newReceiver(t, status(http.StatusGone))
		ep, _ := hb.endpoint(t, rc.URL)
		// A delivery waiting for a later try: the 410 cancels it.
		later, err := hb.svc.river.Insert(t.Context(), WebhookArgs{OrganizationID: fx.OrgA, EndpointID: ep.ID, Type: "booking.created", Body: []byte("{}")},
			&river.InsertOpts{Queue: outbox.Queue, ScheduledAt: time.Now().Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		hb.start(t)
		hb.book(t, 0)
		ds := hb.deliveries(t, ep.ID, "the 410", func(ds []WebhookDelivery) bool { return len(ds) > 0 })
		if ds[0].Status != http.StatusGone || ds[0].Outcome != "gone" {
			t.Errorf("delivery = %d %s, want 410 gone", ds[0].Status, ds[0].Outcome)
		}
		got, err := hb.svc.WebhookEndpoint(t.Context(), hb.adam, ep.ID)
		if err != nil || got.Enabled() || got.DisabledReason != DisabledGone {
			t.Errorf("endpoint = %+v, %v; want it disabled as gone", got, err)
		}
		var state string
		if err := hb.Pool.QueryRow(t.Context(), `SELECT state::text FROM river_job WHERE id = $1`, later.Job.ID).Scan(&state); err != nil || state != "cancelled" {
			t.Errorf("the waiting delivery is %q (%v), want cancelled", state, err)
		}
		// Later events go nowhere.
		ev := hb.book(t, 2)
		jobs, err := hb.svc.webhookInserts(t.Context(), outbox.New(outbox.Created, fx.OrgA, ev.ID, fx.Now, outbox.State{}), ev)
		if err != nil || len(jobs) != 0 {
			t.Errorf("deliveries of a later event = %d (%v), want none", len(jobs), err)
		}
	})

	t.Run("RetryAfterIsHonoured", func(t *testing.T) {
		hb := setupHooks(t, true)
		rc := newReceiver(t, func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusServiceUnavailable)
		}, status(http.StatusOK))
		ep, _ := hb.endpoint(t, rc.URL)
		hb.start(t)
		hb.book(t, 0)
		ds := hb.deliveries(t, ep.ID, "the delivery after the wait", func(ds []WebhookDelivery) bool { return len(ds) > 0 && ds[0].Delivered() })
		got := rc.requests()
		if len(got) != 2 || len(ds) != 2 || ds[1].Outcome != "snoozed" || ds[1].Status != http.StatusServiceUnavailable {
			t.Fatalf("%d requests, deliveries %+v; want a 503 snoozed, then delivered", len(got), ds)
		}
		if wait := got[1].at.Sub(got[0].at); wait < 2*time.Second {
			t.Errorf("the second try came %v after the first, want at least the 2 s Retry-After asked", wait)
		}
	})

	t.Run("RedirectIsNotFollowed", func(t *testing.T) {
		hb := setupHooks(t, true)
		target := newReceiver(t, status(http.StatusOK))
		rc := newReceiver(t, func(w http.ResponseWriter) {
			w.Header().Set("Location", target.URL+"/stolen")
			w.WriteHeader(http.StatusFound)
		})
		ep, _ := hb.endpoint(t, rc.URL)
		hb.start(t)
		hb.book(t, 0)
		ds := hb.deliveries(t, ep.ID, "the first try", func(ds []WebhookDelivery) bool { return len(ds) > 0 })
		if ds[0].Status != http.StatusFound || ds[0].Outcome != "failed" || !strings.Contains(ds[0].Error, "redirects are not followed") {
			t.Errorf("delivery = %+v, want a failed 302", ds[0])
		}
		if n := len(target.requests()); n != 0 {
			t.Errorf("the redirect's target got %d requests, want none", n)
		}
	})

	t.Run("AnswerOver64KBIsCut", func(t *testing.T) {
		hb := setupHooks(t, true)
		release := make(chan struct{})
		rc := newReceiver(t, func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(strings.Repeat("x", maxAnswer+1)))
			w.(http.Flusher).Flush()
			<-release // never ends the answer: only a reader that stops at 64 KB is done
		})
		t.Cleanup(func() { close(release) }) // before the receiver closes, which waits for its answers
		ep, _ := hb.endpoint(t, rc.URL)
		hb.start(t)
		hb.book(t, 0)
		ds := hb.deliveries(t, ep.ID, "the delivery", func(ds []WebhookDelivery) bool { return len(ds) > 0 })
		d := ds[0]
		if !d.Delivered() || !d.AnswerTruncated || len(d.Answer) != maxAnswerKept || d.Duration >= webhookTimeout {
			t.Errorf("delivery = %s, truncated %v, %d bytes kept, took %v; want delivered, cut, %d bytes, before the timeout",
				d.Outcome, d.AnswerTruncated, len(d.Answer), d.Duration, maxAnswerKept)
		}
	})
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"120", 2 * time.Minute},
		{"0", time.Second},
		{"-5", 0},
		{"86400", time.Hour},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(5 * time.Hour).Format(http.TimeFormat), time.Hour},
		{now.Add(-time.Hour).Format(http.TimeFormat), time.Second},
		{"soon", 0},
	} {
		if got := parseRetryAfter(tc.in, now); got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestWebhookRetrySchedule(t *testing.T) {
	t.Parallel()
	var total time.Duration
	for attempt := 1; attempt < webhookMaxAttempts; attempt++ {
		total += webhookRetryDelay(attempt)
	}
	if total < 70*time.Hour || total > 74*time.Hour {
		t.Errorf("the last try comes %v after the first, want about 3 days", total)
	}
}

func TestWebhookEndpointRefusals(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, true)
	long := "https://example.com/" + strings.Repeat("a", maxWebhookURL)
	for _, tc := range []struct {
		name  string
		c     WebhookEndpointChange
		field string
	}{
		{"NoURL", WebhookEndpointChange{EventTypes: []string{"booking.created"}}, "url"},
		{"URLTooLong", WebhookEndpointChange{URL: &long, EventTypes: []string{"booking.created"}}, "url"},
		{"NotHTTP", WebhookEndpointChange{URL: new("ftp://example.com/"), EventTypes: []string{"booking.created"}}, "url"},
		{"WithPassword", WebhookEndpointChange{URL: new("https://u:p@example.com/"), EventTypes: []string{"booking.created"}}, "url"},
		{"DescriptionTooLong", WebhookEndpointChange{URL: new("https://example.com/"), Description: new(strings.Repeat("é", MaxWebhookDescription+1)), EventTypes: []string{"booking.created"}}, "description"},
		{"NoEventTypes", WebhookEndpointChange{URL: new("https://example.com/")}, "eventTypes"},
		{"UnknownEventType", WebhookEndpointChange{URL: new("https://example.com/"), EventTypes: []string{"booking.deleted"}}, "eventTypes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := hb.svc.CreateWebhookEndpoint(t.Context(), hb.adam, tc.c)
			var be *booking.Error
			if !errors.As(err, &be) || be.Code != booking.CodeInvalidRequest || be.Field != tc.field {
				t.Errorf("err = %v, want 2000 naming %s", err, tc.field)
			}
		})
	}
	if n := fx.TableCount(t, hb.Bundle, "webhook_endpoints"); n != 0 {
		t.Errorf("%d endpoints stored, want none", n)
	}

	t.Run("AtMost20", func(t *testing.T) {
		for range MaxWebhookEndpoints {
			hb.endpoint(t, "https://example.com/hook")
		}
		_, _, err := hb.svc.CreateWebhookEndpoint(t.Context(), hb.adam, WebhookEndpointChange{URL: new("https://example.com/"), EventTypes: []string{"booking.created"}})
		if booking.ErrorCode(err) != booking.CodeInvalidRequest {
			t.Errorf("the 21st endpoint: %v, want 2000", err)
		}
	})

	t.Run("OnlyAdmins", func(t *testing.T) {
		_, err := hb.svc.WebhookEndpoints(t.Context(), hb.User(t, fx.OrgA, fx.Rita))
		if booking.ErrorCode(err) != booking.CodeForbidden {
			t.Errorf("a receptionist: %v, want 1001", err)
		}
	})
}

func TestWebhookDeliveriesKept(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, true)
	ep, _ := hb.endpoint(t, "http://127.0.0.1:9/hooks")
	for i := range keptDeliveries + 5 {
		r := webhookTry{
			args:   WebhookArgs{OrganizationID: fx.OrgA, EndpointID: ep.ID, EventID: ep.ID, Type: "booking.created", Body: []byte("{}")},
			status: 500, at: fx.Now.Add(time.Duration(i) * time.Second), err: errors.New("answered 500"),
		}
		if err := hb.svc.recordTry(t.Context(), hb.svc.q, i+1, "failed", r); err != nil {
			t.Fatal(err)
		}
	}
	if n := fx.TableCount(t, hb.Bundle, "webhook_deliveries"); n != keptDeliveries {
		t.Errorf("%d tries kept, want the newest %d", n, keptDeliveries)
	}
	ds, err := hb.svc.WebhookDeliveries(t.Context(), hb.adam, ep.ID)
	if err != nil || len(ds) != MaxWebhookDeliveries || ds[0].Attempt != keptDeliveries+5 {
		t.Errorf("listed %d tries (%v), the first try %d; want the newest %d, newest first", len(ds), err, ds[0].Attempt, MaxWebhookDeliveries)
	}
}

func TestKeptText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		n    int
		want string
		cut  bool
	}{
		{"ok", 10, "ok", false},
		{"héllo", 2, "h", true}, // é is two bytes: not cut in half
		{"a\x00b", 10, "ab", false},
		{"a\xffb", 10, "a\uFFFDb", false},
	} {
		got, cut := keptText([]byte(tc.in), tc.n)
		if got != tc.want || cut != tc.cut {
			t.Errorf("keptText(%q, %d) = %q, %v; want %q, %v", tc.in, tc.n, got, cut, tc.want, tc.cut)
		}
	}
}

// TestWebhookUpdateKeepsWhatItDoesNotSet checks that a change read from an endpoint as it was does not
// undo what happened to it meanwhile: here a 410 that disabled it before a change of its description.
func TestWebhookUpdateKeepsWhatItDoesNotSet(t *testing.T) {
	t.Parallel()
	hb := setupHooks(t, true)
	stale, _ := hb.endpoint(t, "https://example.com/hooks")
	if _, err := hb.svc.q.WebhookEndpointDisableGone(t.Context(), queries.WebhookEndpointDisableGoneParams{
		OrganizationID: fx.OrgA, ID: stale.ID, Now: fx.Now,
	}); err != nil {
		t.Fatal(err)
	}
	c := WebhookEndpointChange{Description: new("Room screens")}
	v, err := hb.svc.checkChange(t.Context(), stale, c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := hb.svc.q.WebhookEndpointUpdate(t.Context(), updateParams(fx.OrgA, stale.ID, c, v, fx.Now))
	if err != nil {
		t.Fatal(err)
	}
	if got := hb.svc.endpointFromRow(r); got.Description != "Room screens" || got.DisabledReason != DisabledGone || got.URL != stale.URL {
		t.Errorf("endpoint = %+v, want the new description and still disabled as gone", got)
	}
}

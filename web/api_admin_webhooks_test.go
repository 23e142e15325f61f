package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify"
	"github.com/workspacebooking/booking/web/outbox"
)

const webhooksPath = api + "/admin/webhooks"

// withWorkingNotify gives the server a notify service in development mode (so that it delivers to
// receivers on loopback) that works the outbox until the test ends.
func withWorkingNotify(t *testing.T) func(*web.Deps) {
	return func(d *web.Deps) {
		n, err := notify.New(d.Bookings.Pool(), d.Bookings, notify.Config{Dev: true, Workers: 4})
		if err != nil {
			t.Fatalf("notify.New: %v", err)
		}
		if err := n.Start(t.Context()); err != nil {
			t.Fatalf("notify Start: %v", err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = n.Stop(ctx)
		})
		d.Notify = n
	}
}

// hookReceiver is a webhook receiver on loopback that answers 200 and keeps what it got.
type hookReceiver struct {
	*httptest.Server
	mu  sync.Mutex
	got []hookRequest
}

// hookRequest is one delivery a receiver got.
type hookRequest struct {
	header http.Header
	body   []byte
}

func newHookReceiver(t *testing.T) *hookReceiver {
	t.Helper()
	rc := &hookReceiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, hookRequest{header: r.Header.Clone(), body: body})
		rc.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(rc.Close)
	return rc
}

// wait waits until the receiver has n deliveries and returns them.
func (rc *hookReceiver) wait(t *testing.T, n int) []hookRequest {
	t.Helper()
	var got []hookRequest
	fx.WaitFor(t, "the webhook deliveries", func() bool {
		rc.mu.Lock()
		defer rc.mu.Unlock()
		got = slices.Clone(rc.got)
		return len(got) >= n
	})
	return got
}

// createHook registers an endpoint as Adam and returns its answer.
func (tb *testBundle) createHook(t *testing.T, url string, kinds ...string) map[string]any {
	t.Helper()
	if len(kinds) == 0 {
		kinds = []string{"booking.created"}
	}
	r := tb.call(t, fx.Adam, http.MethodPost, webhooksPath, map[string]any{"url": url, "description": "Room screens", "eventTypes": kinds})
	wantStatus(t, r, http.StatusCreated)
	return r.object(t)
}

func TestAdminWebhooksAPI(t *testing.T) {
	t.Parallel()

	t.Run("DeliveredSignedAndListedThenResent", func(t *testing.T) {
		tb := setup(t, withWorkingNotify(t))
		rc := newHookReceiver(t)
		ep := tb.createHook(t, rc.URL+"/hooks")
		secret, _ := ep["secret"].(string)
		id, _ := ep["id"].(string)
		if !strings.HasPrefix(secret, "whsec_") {
			t.Fatalf("secret = %q, want whsec_…", secret)
		}
		r := tb.call(t, fx.Alice, http.MethodPost, bookingsPath("me"), []any{spaceBooking(fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))})
		wantStatus(t, r, http.StatusCreated)
		got := rc.wait(t, 1)[0]
		wh, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		if err := wh.Verify(got.body, got.header); err != nil {
			t.Errorf("the signature does not verify: %v", err)
		}
		checkWebhookBody(t, "booking.created", got.body)

		// The API's own answer for the booking is the data of the delivery.
		var body struct {
			Data map[string]any `json:"data"`
		}
		_ = json.Unmarshal(got.body, &body)
		bookingID, _ := body.Data["id"].(string)
		var read map[string]any
		_ = json.Unmarshal(tb.call(t, fx.Alice, http.MethodGet, api+"/bookings/"+bookingID, nil).body, &read)
		if diff := cmp.Diff(read, body.Data); diff != "" {
			t.Errorf("data differs from GET /bookings/{id} (-api +webhook):\n%s", diff)
		}

		var ds []any
		fx.WaitFor(t, "the delivery to be listed", func() bool {
			r = tb.call(t, fx.Adam, http.MethodGet, webhooksPath+"/"+id+"/deliveries", nil)
			ds = array(t, "deliveries", r.object(t)["deliveries"])
			return len(ds) == 1
		})
		d := ds[0].(map[string]any)
		wantValue(t, "outcome", d["outcome"], "delivered")
		wantInt(t, "status", d["status"], 200)
		wantValue(t, "eventId", d["eventId"], got.header.Get("webhook-id"))

		r = tb.call(t, fx.Adam, http.MethodPost, webhooksPath+"/"+id+"/deliveries/"+d["id"].(string)+"/resend", nil)
		wantStatus(t, r, http.StatusAccepted)
		again := rc.wait(t, 2)[1]
		if again.header.Get("webhook-id") != got.header.Get("webhook-id") || string(again.body) != string(got.body) {
			t.Errorf("the resent delivery differs: %s %s", again.header.Get("webhook-id"), again.body)
		}
	})

	t.Run("CreatedDisabled", func(t *testing.T) {
		tb := setup(t, withWorkingNotify(t))
		r := tb.call(t, fx.Adam, http.MethodPost, webhooksPath, map[string]any{
			"url": newHookReceiver(t).URL + "/hooks", "eventTypes": []string{"booking.created"}, "enabled": false,
		})
		wantStatus(t, r, http.StatusCreated)
		got := r.object(t)
		wantValue(t, "enabled", got["enabled"], false)
		wantValue(t, "disabledReason", got["disabledReason"], "admin")
		if got["disabledAt"] == nil {
			t.Error("disabledAt = null, want when it was made")
		}
	})

	t.Run("ChangeRotateDelete", func(t *testing.T) {
		tb := setup(t, withWorkingNotify(t))
		ep := tb.createHook(t, "https://example.com/hooks")
		id := ep["id"].(string)
		path := webhooksPath + "/" + id

		r := tb.call(t, fx.Adam, http.MethodPatch, path, map[string]any{"enabled": false, "eventTypes": []string{"booking.cancelled", "booking.created"}})
		wantStatus(t, r, http.StatusOK)
		got := r.object(t)
		wantValue(t, "enabled", got["enabled"], false)
		wantValue(t, "disabledReason", got["disabledReason"], "admin")
		if diff := cmp.Diff([]any{"booking.created", "booking.cancelled"}, got["eventTypes"]); diff != "" {
			t.Errorf("eventTypes (-want +got):\n%s", diff)
		}

		r = tb.call(t, fx.Adam, http.MethodPost, path+"/rotate", nil)
		wantStatus(t, r, http.StatusOK)
		rotated := r.object(t)
		if rotated["secret"] == ep["secret"] || rotated["previousSecretUntil"] == nil {
			t.Errorf("rotation = %v, want a new secret and an overlap", rotated)
		}
		r = tb.call(t, fx.Adam, http.MethodGet, path, nil)
		wantStatus(t, r, http.StatusOK)
		if _, ok := r.object(t)["secret"]; ok {
			t.Error("GET shows the secret")
		}
		list := array(t, "webhooks", tb.call(t, fx.Adam, http.MethodGet, webhooksPath, nil).object(t)["webhooks"])
		if len(list) != 1 {
			t.Errorf("%d endpoints listed, want 1", len(list))
		}

		wantStatus(t, tb.call(t, fx.Adam, http.MethodDelete, path, nil), http.StatusNoContent)
		wantProblem(t, tb.call(t, fx.Adam, http.MethodGet, path, nil), http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
	})

	t.Run("BadInputChangesNothing", func(t *testing.T) {
		tb := setup(t, withWorkingNotify(t))
		ep := tb.createHook(t, "https://example.com/hooks")
		path := webhooksPath + "/" + ep["id"].(string)
		for _, tc := range []struct {
			name, method, path string
			body               any
			field              string
		}{
			{"NoURL", http.MethodPost, webhooksPath, map[string]any{"eventTypes": []string{"booking.created"}}, "url"},
			{"URLTooLong", http.MethodPost, webhooksPath, map[string]any{"url": "https://example.com/" + strings.Repeat("a", 2000), "eventTypes": []string{"booking.created"}}, "url"},
			{"DescriptionTooLong", http.MethodPost, webhooksPath, map[string]any{"url": "https://example.com/", "description": strings.Repeat("d", 201), "eventTypes": []string{"booking.created"}}, "description"},
			{"UnknownEventType", http.MethodPost, webhooksPath, map[string]any{"url": "https://example.com/", "eventTypes": []string{"booking.moved"}}, "eventTypes"},
			{"NoEventTypes", http.MethodPost, webhooksPath, map[string]any{"url": "https://example.com/", "eventTypes": []string{}}, "eventTypes"},
			{"UnknownField", http.MethodPost, webhooksPath, map[string]any{"url": "https://example.com/", "eventTypes": []string{"booking.created"}, "secret": "whsec_x"}, "secret"},
			{"WrongType", http.MethodPatch, path, map[string]any{"enabled": "yes"}, ""},
			{"EmptyEventTypes", http.MethodPatch, path, map[string]any{"eventTypes": []string{}}, "eventTypes"},
			{"BadURL", http.MethodPatch, path, map[string]any{"url": "ftp://example.com/"}, "url"},
			{"BadID", http.MethodGet, webhooksPath + "/nope", nil, "webhookId"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				before := snapshot(t, tb.Bundle, fx.OrgA)
				p := wantProblem(t, tb.call(t, fx.Adam, tc.method, tc.path, tc.body), http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
				if tc.field != "" {
					wantField(t, p, tc.field)
				}
				if changed := changedTables(before, snapshot(t, tb.Bundle, fx.OrgA)); len(changed) > 0 {
					t.Errorf("a refused request changed %v", changed)
				}
			})
		}
		t.Run("AtMost20", func(t *testing.T) {
			for range notify.MaxWebhookEndpoints - 1 {
				tb.createHook(t, "https://example.com/more")
			}
			r := tb.call(t, fx.Adam, http.MethodPost, webhooksPath, map[string]any{"url": "https://example.com/", "eventTypes": []string{"booking.created"}})
			wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
			tb.wantRows(t, "webhook_endpoints", notify.MaxWebhookEndpoints)
		})
	})

	t.Run("PrivateAddressesRefusedOutsideDevelopment", func(t *testing.T) {
		tb := setup(t) // not in development: the server's notify service checks addresses
		for _, u := range []string{"http://127.0.0.1/", "http://[::1]/", "http://169.254.169.254/", "http://10.0.0.1/",
			"https://127.0.0.1/", "https://[::1]/", "https://169.254.169.254/", "https://10.0.0.1/"} {
			r := tb.call(t, fx.Adam, http.MethodPost, webhooksPath, map[string]any{"url": u, "eventTypes": []string{"booking.created"}})
			wantField(t, wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex), "url")
		}
		tb.wantRows(t, "webhook_endpoints", 0)
	})

	t.Run("OnlyAdmins", func(t *testing.T) {
		tb := setup(t, withWorkingNotify(t))
		wantProblem(t, tb.call(t, fx.Rita, http.MethodGet, webhooksPath, nil), http.StatusForbidden, booking.CodeForbidden, noIndex)
		r := tb.call(t, fx.Alice, http.MethodPost, webhooksPath, map[string]any{"url": "https://example.com/", "eventTypes": []string{"booking.created"}})
		wantProblem(t, r, http.StatusForbidden, booking.CodeForbidden, noIndex)
		tb.wantRows(t, "webhook_endpoints", 0)
	})
}

// tenancyWebhook gives A an endpoint and one delivery it got, for the organization matrix.
func tenancyWebhook(t *testing.T, tb *testBundle) (endpoint, delivery uuid.UUID) {
	t.Helper()
	n, err := notify.New(tb.Pool, tb.Service, notify.Config{Dev: true})
	if err != nil {
		t.Fatal(err)
	}
	url := "https://acme-hooks.example/in"
	ep, _, err := n.CreateWebhookEndpoint(t.Context(), tb.User(t, fx.OrgA, fx.Adam), notify.WebhookEndpointChange{URL: &url, EventTypes: []string{"booking.created"}})
	if err != nil {
		t.Fatalf("A's webhook: %v", err)
	}
	delivery = uuid.New()
	tb.exec(t, `INSERT INTO webhook_deliveries (organization_id, id, endpoint_id, event_id, event_type, attempt, status,
		outcome, answer, duration_ms, body, attempted_at) VALUES ($1, $2, $3, $4, 'booking.created', 1, 200, 'delivered',
		'acme-answer', 5, '{}', now())`, fx.OrgA, delivery, ep.ID, uuid.New())
	return ep.ID, delivery
}

// TestAdminWebhooksOfAnotherOrganization checks, beyond the organization matrix, that A's delivery named
// on B's own endpoint is not found, and that B's lists show nothing of A's.
func TestAdminWebhooksOfAnotherOrganization(t *testing.T) {
	t.Parallel()
	tb := setupTenancy(t)
	a := tb.api
	before := snapshot(t, a.Bundle, fx.OrgA)
	token := http.Header{"Authorization": {"Bearer " + a.mint(t, a.User(t, fx.OrgB, bAdmin), time.Hour)}}
	own := a.callWith(t, uuid.Nil, http.MethodPost, webhooksPath, map[string]any{"url": "https://globex.example/", "eventTypes": []string{"booking.created"}}, token)
	wantStatus(t, own, http.StatusCreated)
	ownPath := webhooksPath + "/" + own.object(t)["id"].(string)
	wantProblem(t, a.callWith(t, uuid.Nil, http.MethodPost, ownPath+"/deliveries/"+tb.delivery.String()+"/resend", nil, token),
		http.StatusNotFound, booking.CodeObjectNotFound, noIndex)
	r := a.callWith(t, uuid.Nil, http.MethodGet, ownPath+"/deliveries", nil, token)
	if ds := array(t, "deliveries", r.object(t)["deliveries"]); len(ds) != 0 {
		t.Errorf("B's endpoint lists %d deliveries, want none", len(ds))
	}
	list := a.callWith(t, uuid.Nil, http.MethodGet, webhooksPath, nil, token)
	if strings.Contains(string(list.body), "acme") || len(array(t, "webhooks", list.object(t)["webhooks"])) != 1 {
		t.Errorf("B's list = %s, want B's endpoint only", list.body)
	}
	page := tb.pages.signedIn(t, bAdmin).get(strings.TrimPrefix(ownPath, api))
	page.wantStatus(t, http.StatusOK)
	if page.count(".webhook-delivery") != 0 || strings.Contains(page.body, "acme") {
		t.Error("B's endpoint page shows A's delivery")
	}
	if changed := changedTables(before, snapshot(t, a.Bundle, fx.OrgA)); len(changed) > 0 {
		t.Errorf("B's calls changed A's %v", changed)
	}
}

// checkWebhookBody validates a delivery's body against the event's schema in the webhooks section of
// openapi.yaml.
func checkWebhookBody(t *testing.T, kind string, body []byte) {
	t.Helper()
	spec, err := loadAPISpec()
	if err != nil {
		t.Fatal(err)
	}
	item := spec.doc.Webhooks[kind]
	if item == nil || item.Post == nil {
		t.Fatalf("openapi.yaml documents no webhook %s", kind)
	}
	schema := item.Post.RequestBody.Value.Content.Get("application/json").Schema.Value
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("body: %v", err)
	}
	if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
		t.Errorf("the %s body does not match openapi.yaml: %v\n%s", kind, err, body)
	}
}

// TestOpenAPIWebhooks checks that the webhooks section of openapi.yaml describes every event kind, and
// no other.
func TestOpenAPIWebhooks(t *testing.T) {
	t.Parallel()
	spec, err := loadAPISpec()
	if err != nil {
		t.Fatal(err)
	}
	var documented, kinds []string
	for k := range spec.doc.Webhooks {
		documented = append(documented, k)
	}
	for _, k := range outbox.Kinds {
		kinds = append(kinds, string(k))
	}
	slices.Sort(documented)
	slices.Sort(kinds)
	if diff := cmp.Diff(kinds, documented); diff != "" {
		t.Errorf("webhooks in openapi.yaml (-outbox.Kinds +documented):\n%s", diff)
	}
	var enum []string
	for _, v := range spec.doc.Components.Schemas["WebhookEventType"].Value.Enum {
		s, _ := v.(string)
		enum = append(enum, s)
	}
	slices.Sort(enum)
	if diff := cmp.Diff(kinds, enum); diff != "" {
		t.Errorf("WebhookEventType in openapi.yaml (-outbox.Kinds +enum):\n%s", diff)
	}
}

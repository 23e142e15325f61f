package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// hookForm is the form of a new endpoint.
func hookForm(address string, kinds ...string) url.Values {
	return url.Values{"url": {address}, "description": {"Room screens"}, "eventTypes": kinds}
}

// createHookPage adds an endpoint on the page and returns the page that shows its secret.
func createHookPage(t *testing.T, b *browser, address string) htmlPage {
	t.Helper()
	p := b.post("/admin/webhooks", hookForm(address, "booking.created", "booking.cancelled"))
	p.wantStatus(t, http.StatusCreated)
	return p
}

// hookPath returns the address of the first endpoint's page, as the list links it.
func hookPath(t *testing.T, b *browser) string {
	t.Helper()
	path := b.get("/admin/webhooks").attr(".webhook-url", "href")
	if !strings.HasPrefix(path, "/admin/webhooks/") {
		t.Fatalf("the list links %q, want an endpoint's page", path)
	}
	return path
}

func TestPageAdminWebhooks(t *testing.T) {
	t.Parallel()

	t.Run("CreateShowsTheSecretOnceAndLists", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := createHookPage(t, b, "https://example.com/hooks")
		if got := p.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("Cache-Control = %q, want no-store", got)
		}
		if secret := p.attr("#new-webhook-secret", "value"); !strings.HasPrefix(secret, "whsec_") || len(secret) != len("whsec_")+44 {
			t.Errorf("secret = %q, want whsec_ and 44 base64 characters", secret)
		}
		p.wantText(t, ".new-secret", "Copy the secret of https://example.com/hooks now", "shown only this once")

		p = b.get("/admin/webhooks")
		p.wantStatus(t, http.StatusOK)
		if p.count("#new-webhook-secret") != 0 {
			t.Error("the secret shows again")
		}
		p.wantText(t, ".webhook-row", "https://example.com/hooks", "Room screens", "booking.created, booking.cancelled", "Enabled")
		if got := p.attr(`.admin-nav a[aria-current="page"]`, "href"); got != "/admin/webhooks" {
			t.Errorf("the navigation marks %q, want /admin/webhooks", got)
		}
	})

	t.Run("RefusalShowsTheFormAgainAndStoresNothing", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		p := b.post("/admin/webhooks", hookForm("https://example.com/hooks"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".notice.error", "Events: choose at least one event type")
		if got := p.attr("#webhook-url", "value"); got != "https://example.com/hooks" {
			t.Errorf("the form shows %q, want the address as typed", got)
		}
		p = b.post("/admin/webhooks", hookForm("ftp://example.com/", "booking.created"))
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, ".notice.error", "Address: must start with https://")
		if n := fx.TableCount(t, pb.Bundle, "webhook_endpoints"); n != 0 {
			t.Errorf("%d endpoints stored, want none", n)
		}
	})

	t.Run("DeliveriesAreListedAndResent", func(t *testing.T) {
		pb := setupPages(t, withWorkingNotify(t))
		rc := newHookReceiver(t)
		b := pb.signedIn(t, fx.Adam)
		createHookPage(t, b, rc.URL+"/hooks")
		path := hookPath(t, b)
		b.get(path).wantText(t, "main", "Nothing was sent to this endpoint yet.")

		pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		first := rc.wait(t, 1)[0]
		var p htmlPage
		fx.WaitFor(t, "the delivery on the page", func() bool {
			p = b.get(path)
			return p.count(".webhook-delivery") == 1
		})
		p.wantText(t, ".webhook-delivery", "booking.created", first.header.Get("webhook-id"), "200", "Delivered")

		p = b.post(p.attr(".webhook-delivery form", "action"), url.Values{})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != path {
			t.Errorf("the resend ends at %s, want %s", p.url.Path, path)
		}
		p.wantText(t, "main", "Sent again")
		again := rc.wait(t, 2)[1]
		if again.header.Get("webhook-id") != first.header.Get("webhook-id") || string(again.body) != string(first.body) {
			t.Error("the resent delivery is not the same event")
		}
	})

	t.Run("RotateSaveDelete", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		old := createHookPage(t, b, "https://example.com/hooks").attr("#new-webhook-secret", "value")
		path := hookPath(t, b)

		p := b.post(path+"/rotate", url.Values{})
		p.wantStatus(t, http.StatusOK)
		if secret := p.attr("#new-webhook-secret", "value"); secret == old || !strings.HasPrefix(secret, "whsec_") {
			t.Errorf("the new secret = %q, want another whsec_ secret", secret)
		}
		p.wantText(t, ".new-secret", "The previous secret keeps signing for 24 hours")
		p.wantText(t, ".webhook-rotating", "The previous secret signs too until 2026-11-24 08:00 UTC")
		if b.get(path).count("#new-webhook-secret") != 0 {
			t.Error("the new secret shows again")
		}

		p = b.post(path, url.Values{"url": {"https://example.com/other"}, "eventTypes": {"booking.expired"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "Saved the endpoint.", "Disabled by an admin")
		if got := p.attr("#webhook-url", "value"); got != "https://example.com/other" {
			t.Errorf("address = %q after the save", got)
		}
		if p.count(`input[name="eventTypes"][checked]`) != 1 || p.count(`input[name="enabled"][checked]`) != 0 {
			t.Error("the form does not show what was saved")
		}

		p = b.post(path+"/delete", url.Values{})
		p.wantStatus(t, http.StatusOK)
		if p.url.Path != "/admin/webhooks" {
			t.Errorf("the deletion ends at %s", p.url.Path)
		}
		p.wantText(t, "main", "Deleted the endpoint https://example.com/other.", "No endpoint yet.")
		b.get(path).wantStatus(t, http.StatusNotFound)
	})

	t.Run("CrossSiteFormIsRefused", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Adam)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, pb.srv.URL+"/admin/webhooks",
			strings.NewReader(hookForm("https://example.com/hooks", "booking.created").Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		p := b.send(req)
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "main", "sent from another site")
		if n := fx.TableCount(t, pb.Bundle, "webhook_endpoints"); n != 0 {
			t.Errorf("%d endpoints stored, want none", n)
		}
	})

	t.Run("OnlyAdmins", func(t *testing.T) {
		pb := setupPages(t)
		b := pb.signedIn(t, fx.Rita)
		b.get("/admin/webhooks").wantStatus(t, http.StatusForbidden)
		b.post("/admin/webhooks", hookForm("https://example.com/hooks", "booking.created")).wantStatus(t, http.StatusForbidden)
		if n := fx.TableCount(t, pb.Bundle, "webhook_endpoints"); n != 0 {
			t.Errorf("%d endpoints stored, want none", n)
		}
	})
}

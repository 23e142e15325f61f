package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestBrowserWebhooksConsole is an admin adding a webhook endpoint on a phone and on a desktop: the form,
// the secret shown once with the endpoint's page, and the list. axe runs on each page.
func TestBrowserWebhooksConsole(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"desktop", 1280, 800}} {
		t.Run(size.name, func(t *testing.T) {
			pb := setupPages(t)
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			kioskBrowserSignIn(b, fx.Adam, "/admin/webhooks")
			b.waitText("main h1", "Webhooks")
			b.waitText("main", "Add an endpoint")
			b.check("admin-webhooks-empty-" + size.name)
			b.do(chromedp.SetValue(chromedp.CSS("#webhook-url"), "https://hooks.example.com/bookings"),
				chromedp.SetValue(chromedp.CSS("#webhook-description"), "Room screens in the lobby"),
				chromedp.Click(chromedp.CSS(`input[name=eventTypes][value="booking.created"]`)),
				chromedp.Click(chromedp.CSS(`input[name=eventTypes][value="booking.cancelled"]`)),
				chromedp.Click(chromedp.CSS(`#new-webhook ~ form button[type=submit], form[action="/admin/webhooks"] button[type=submit]`)))
			b.waitText(".new-secret", "shown only this once")
			if secret := b.attrOf("#new-webhook-secret", "value"); len(secret) != len("whsec_")+44 {
				t.Errorf("the secret shown is %q, want whsec_ and 44 base64 characters", secret)
			}
			b.check("admin-webhook-created-" + size.name)
			b.open("/admin/webhooks")
			b.waitText(".webhook-row", "https://hooks.example.com/bookings", "booking.created, booking.cancelled")
			b.check("admin-webhooks-list-" + size.name)
		})
	}
}

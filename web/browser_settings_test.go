package web_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/notify"
)

// TestBrowserSettings uses the settings page in Chromium on a phone (390×844) and a desktop (1280×800):
// the Copy button puts the feed's address on the clipboard, an e-mail is turned off and saved, and a new
// feed address makes the old one stop working. axe-core checks the page; the screenshots are
// settings-phone*.png and settings-desktop*.png (SHOTS=dir copies them there).
func TestBrowserSettings(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	for _, c := range []struct {
		name string
		user uuid.UUID
		w, h int
	}{{"phone", fx.Alice, 390, 844}, {"desktop", fx.Adam, 1280, 800}} {
		// One after the other: the tabs share the browser's clipboard.
		t.Run(c.name, func(t *testing.T) {
			b := newTabSized(t, pb.srv.URL, c.w, c.h)
			kioskBrowserSignIn(b, c.user, "/settings")
			b.waitText("main h1", "Settings")
			b.wantNoSidewaysScroll("body")
			b.axe("settings on a " + c.name)
			b.settingsShot("settings-" + c.name)

			b.copyFeedAddress("Copied. Paste it where your calendar asks for an address.", "Copied")
			b.settingsShot("settings-" + c.name + "-copied")

			// Check-in reminders off, saved, and still off when the page comes back.
			b.do(chromedp.Click(chromedp.CSS(`input[name=on][value="reminder"]`)), chromedp.Click(chromedp.CSS(`form[action="/settings/mail"] button[type=submit]`)))
			b.waitText(".notice.ok", "E-mail settings saved.")
			if checked := b.evalText(`String(document.querySelector('input[name=on][value="reminder"]').checked)`); checked != "false" {
				t.Errorf("check-in reminders are ticked after saving them off")
			}
			if off := pb.noticeSettings(t, c.user).MailOff; !slices.Equal(off, []string{notify.OptionalReminder}) {
				t.Errorf("MailOff = %v, want [reminder]", off)
			}
			b.settingsShot("settings-" + c.name + "-saved")

			// A new address: the old one is not found at once.
			old := b.attrOf("#feed-url", "value")
			b.do(chromedp.Click(chromedp.CSS(`form[action="/settings/feed"] button[type=submit]`)))
			b.waitText(".notice.ok", "new address")
			b.waitLoaded()
			if now := b.evalText(`document.getElementById("feed-url").value`); now == old || now == "" {
				t.Errorf("the address is %q after making a new one, before %q", now, old)
			}
			if got := feedGet(t, old, nil); got.status != http.StatusNotFound {
				t.Errorf("the old address answers %d, want 404", got.status)
			}
			b.axe("settings on a " + c.name + " after a new address")
			b.settingsShot("settings-" + c.name + "-rotated")
		})
	}

	// A Spanish-speaking person: the script's words are the page's, in Spanish, and the button gets its
	// Spanish label back.
	t.Run("in Spanish", func(t *testing.T) {
		speaksSpanish(t, pb, fx.Rita)
		b := newTabSized(t, pb.srv.URL, 390, 844)
		kioskBrowserSignIn(b, fx.Rita, "/settings")
		b.waitText("main h1", "Ajustes")
		b.waitText("button[data-copy]", "Copiar")
		b.copyFeedAddress("Copiado. Pega la dirección donde tu calendario la pida.", "Copiado")
		b.waitText("button[data-copy]", "Copiar")
		b.wantNoSidewaysScroll("body")
	})

	// Without script the Copy button is not shown, the address can still be selected, and the forms post.
	t.Run("without script", func(t *testing.T) {
		b := newTabSized(t, pb.srv.URL, 390, 844)
		kioskBrowserSignIn(b, fx.Bob, "/settings")
		b.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}), chromedp.Reload())
		b.waitText("main h1", "Settings")
		if shown := b.evalText(`String(document.querySelector("button[data-copy]").checkVisibility())`); shown != "false" {
			t.Errorf("the Copy button shows without script")
		}
		b.do(chromedp.Click(chromedp.CSS(`input[name=on][value="invitation"]`)), chromedp.Click(chromedp.CSS(`form[action="/settings/mail"] button[type=submit]`)))
		b.waitText(".notice.ok", "E-mail settings saved.")
		b.settingsShot("settings-phone-no-script")
		if off := pb.noticeSettings(t, fx.Bob).MailOff; !slices.Equal(off, []string{notify.OptionalInvitation}) {
			t.Errorf("MailOff = %v, want [invitation]", off)
		}
	})

	// An unsubscribe link, opened on a phone with no session: it asks, and its button unsubscribes.
	t.Run("unsubscribe", func(t *testing.T) {
		b := newTabSized(t, pb.srv.URL, 390, 844)
		st := pb.noticeSettings(t, fx.Bob)
		b.open(notify.UnsubscribePath(st.UnsubscribeSecret, notify.OptionalReminder))
		b.waitText("main h1", "Stop these e-mails?")
		b.axe("unsubscribe link")
		b.settingsShot("settings-unsubscribe-phone")
		b.do(chromedp.Click(chromedp.CSS("main form button[type=submit]")))
		b.waitText("main h1", "You are unsubscribed")
		b.settingsShot("settings-unsubscribe-phone-done")
		if off := pb.noticeSettings(t, fx.Bob).MailOff; !slices.Equal(off, []string{notify.OptionalInvitation, notify.OptionalReminder}) {
			t.Errorf("MailOff = %v, want [invitation reminder]", off)
		}
	})
}

// copyFeedAddress presses Copy and checks the button's feedback (the status line says said, the button
// reads done) and, where the browser lets the test read it, the clipboard.
func (b *tab) copyFeedAddress(said, done string) {
	b.t.Helper()
	// Reading the clipboard back needs the permission; writing it from a click does not.
	c := chromedp.FromContext(b.ctx)
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := cdp.Call(b.ctx, c.Browser, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name}, Setting: cdpbrowser.PermissionSettingGranted,
			Origin: b.base, BrowserContextID: c.BrowserContextID,
		}); err != nil {
			b.t.Logf("permission %s: %v", name, err)
		}
	}
	if hidden := b.evalText(`String(document.querySelector("button[data-copy]").hidden)`); hidden != "false" {
		b.t.Fatalf("the Copy button is hidden with script on")
	}
	want := b.attrOf("#feed-url", "value")
	b.do(chromedp.Click(chromedp.CSS("button[data-copy]")))
	b.waitText("#copy-status", said)
	b.waitText("button[data-copy]", done)
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
	switch {
	case err != nil:
		b.t.Logf("the clipboard cannot be read back here (%v); the button's feedback was checked", err)
	case got != want:
		b.t.Errorf("clipboard = %q, want the feed's address %q", got, want)
	}
}

// settingsShot saves a full-page screenshot and copies it where SHOTS says.
func (b *tab) settingsShot(name string) {
	b.t.Helper()
	b.screenshot(name)
	b.copyShot(name)
}

package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// wantLang fails the test unless the page's <html lang> is want.
func (b *tab) wantLang(want string) {
	b.t.Helper()
	if got := b.evalText(`document.documentElement.lang`); got != want {
		b.t.Errorf("<html lang=%q>, want %q", got, want)
	}
}

// TestBrowserSwitchToSpanishOnAPhone switches an English speaker's pages to Spanish with the switch at
// the foot of the page, on a phone, then books a desk: the search stays as it was, and the booking is
// confirmed in Spanish. The choice is kept as the person's language.
func TestBrowserSwitchToSpanishOnAPhone(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	b := newTabSized(t, pb.srv.URL, 390, 844)
	kioskBrowserSignIn(b, fx.Alice, "/find?kind=desk&date=2026-11-24")
	b.waitText("#results-h", "free")
	b.wantLang("en")

	b.do(chromedp.ScrollIntoView(chromedp.CSS("form.lang-switch")),
		chromedp.SetValue(chromedp.CSS("#lang-switch"), "es"),
		chromedp.Click(chromedp.CSS("form.lang-switch button[type=submit]")))
	b.waitLoaded()
	b.waitText("#results-h", "puestos libres")
	b.wantLang("es")
	if got := b.evalText(`location.pathname + location.search`); got != "/find?kind=desk&date=2026-11-24" {
		t.Errorf("after the switch the page is %s, want the same search", got)
	}
	b.waitText("#filters-fold > summary", "mar 24 nov")
	b.viewportShot("spanish-phone-find")

	b.do(chromedp.Click(chromedp.CSS("#results li.result.free input.pick")))
	// With so few results the booking form is already in view, so the phone's bar stays away.
	b.waitText("#booking-box", "Desk 1")
	b.waitSettled()
	b.do(chromedp.ScrollIntoView(chromedp.CSS(`#booking-box form.booking-form button[type=submit]`)))
	b.do(chromedp.Click(chromedp.CSS(`#booking-box form.booking-form button[type=submit]`)))
	b.waitText("main", "1 reserva hecha.")
	b.waitText("main", "mar 24 nov")
	b.wantLang("es")
	b.axe("my bookings in Spanish on a phone")
	b.viewportShot("spanish-phone-booked")

	var code string
	if err := pb.Pool.QueryRow(t.Context(), `SELECT user_language FROM users WHERE id = $1`, fx.Alice).Scan(&code); err != nil || code != "es" {
		t.Errorf("Alice's language after the switch = %q (%v), want es", code, err)
	}
}

// TestBrowserKioskInSpanish runs the kiosk for a Spanish-speaking receptionist on a 1024×768 tablet: the
// scan page and a room's panel are in Spanish, fit the screen, and axe finds nothing serious.
func TestBrowserKioskInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	speaksSpanish(t, pb, fx.Rita)
	const w, h = 1024, 768
	b := newTabSized(t, pb.srv.URL, w, h)
	kioskBrowserSignIn(b, fx.Rita, "/kiosk")
	b.waitText("h1", "Quiosco")
	b.wantLang("es")
	b.axe("kiosk in Spanish")
	b.screenshot("kiosk-spanish")

	b.open("/kiosk/resource?code=MAD-R1")
	b.waitText("#resource-status", "Libre")
	b.waitText(".kiosk-until", "¿Cuánto tiempo?")
	b.wantOnScreen("button[formaction='/kiosk/book']", w, h)
	b.wantNoSidewaysScroll("main")
	b.axe("kiosk panel in Spanish")
	b.screenshot("kiosk-resource-spanish")
}

// TestBrowserRulesInSpanish shows the console's rules to a Spanish-speaking admin: each rule's sentence
// is in Spanish, and the page passes axe.
func TestBrowserRulesInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	speaksSpanish(t, pb, fx.Adam)
	b := newTabSized(t, pb.srv.URL, 1280, 900)
	kioskBrowserSignIn(b, fx.Adam, "/admin/rules")
	b.waitText("h1", "Reglas")
	b.waitText(ruleForm(fx.RuleRoom)+" .rule-sentence", "Reservable de 08:00 a 20:00")
	b.wantLang("es")
	b.axe("rules in Spanish")
	b.screenshot("admin-rules-spanish")
}

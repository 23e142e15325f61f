package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// An admin whose language is Spanish uses the console's scripts in Chromium: the building's local time,
// which the script keeps current, is written as the server writes it, with the weekday in Spanish; in
// the plan editor the edit link and the status line of a move made with the keyboard are in Spanish.
func TestBrowserAdminScriptsInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	speaksSpanish(t, pb, fx.Adam)
	b := newTab(t, pb.srv.URL)
	kioskBrowserSignIn(b, fx.Adam, "/admin/buildings/"+fx.BuildingMadrid.String())
	b.waitText("#tz-now", "Hora local allí ahora:", spanishLocalTime("Europe/Madrid"))
	b.chooseOption("#timezone", "Asia/Tokyo")
	b.waitText("#tz-now", spanishLocalTime("Asia/Tokyo"))

	b.open("/admin/floors/" + fx.FloorMadrid.String() + "/plan")
	b.waitText("main h1", "Colocar puestos y salas")
	b.waitLoaded()
	id := b.evalText(`document.querySelector("svg.plan.editing .spot").dataset.id`)
	name := b.evalText(`document.querySelector("svg.plan.editing .spot").dataset.name`)
	b.do(chromedp.Focus(chromedp.CSS("#spot-"+id)), chromedp.KeyEvent(kb.ArrowRight))
	b.waitText("#edit-selected", "Editar los detalles de "+name)
	b.waitText("#editor-status", "Guardado: "+name+".")
}

// spanishLocalTime is the start of the admin pages' local time in zone now, in Spanish: "lun 09:", the
// weekday and the hour (the minute may turn while the test runs).
func spanishLocalTime(zone string) string {
	loc, _ := time.LoadLocation(zone)
	now := time.Now().In(loc)
	return strings.Fields("dom lun mar mié jue vie sáb")[now.Weekday()] + " " + now.Format("15:04")[:3]
}

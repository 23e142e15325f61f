package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// inSpanishFor makes the fixture people's language Spanish.
func inSpanishFor(t *testing.T, pb *pageBundle, people ...uuid.UUID) {
	t.Helper()
	for _, u := range people {
		if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, u); err != nil {
			t.Fatal(err)
		}
	}
}

// wantNoEnglish fails the test if a page in Spanish shows English (leftInEnglish), the names of the
// fixture's things and people aside.
func wantNoEnglish(t *testing.T, pb *pageBundle, p htmlPage) {
	t.Helper()
	data := map[string]bool{"Workspace Booking": true}
	rows, err := pb.Pool.Query(t.Context(), `
		SELECT name FROM buildings UNION SELECT name FROM floors UNION SELECT name FROM resources
		UNION SELECT name FROM subcategories UNION SELECT name || ' ' || surname FROM users`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		data[s] = true
	}
	if found := leftInEnglish(p.doc, englishMessages(t), data); len(found) > 0 {
		t.Errorf("%s in Spanish shows English: %s", p.url.Path, strings.Join(found, ", "))
	}
}

// TestKioskInSpanish: the kiosk speaks its receptionist's language, its times and lengths included, and
// so do its outcomes and its refusals.
func TestKioskInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	inSpanishFor(t, pb, fx.Rita)
	rita := pb.signedIn(t, fx.Rita)

	p := rita.getIn("/kiosk", "en")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "Quiosco")
	p.wantText(t, "label[for=code]", "Código del cartel")
	if got := p.attr("#scan-message", "data-hold"); got != "Pon el código QR del cartel delante de la cámara." {
		t.Errorf("the scanner's hint for the script = %q, want it in Spanish", got)
	}

	p = rita.get("/kiosk/resource?code=MAD-R1")
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "title", "Goya · Quiosco")
	p.wantText(t, "#resource-status", "Libre", "Libre hasta las 20:00 hora de Madrid")
	p.wantText(t, ".kiosk-where", "código", "MAD-R1")
	p.wantText(t, ".kiosk-until", "¿Cuánto tiempo? (en hora de Madrid)", "30 minutos, hasta las 09:30", "1 hora, hasta las 10:00",
		"Lo máximo posible, hasta las 13:00")
	p.wantText(t, "button[formaction='/kiosk/book']", "Reservar ahora")

	p = rita.hxPost("/kiosk/book", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}, "until": {rfc3339(fx.At(0, 11, 0))}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".kiosk-outcome", "Reservado", "Reservado para bob Baker hasta las 11:00 hora de Madrid.")
	p.wantText(t, "#resource-status", "Ocupado hasta las 11:00 hora de Madrid — reservado por bob Baker",
		"La reserva está pendiente del registro de llegada.")
	wantNoEnglish(t, pb, rita.get("/kiosk/resource?code=MAD-R1"))

	// Without htmx the outcome goes through the flash, in the same words.
	p = rita.post("/kiosk/checkin", url.Values{"code": {"MAD-R1"}, "user": {fx.Bob.String()}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".kiosk-outcome", "Llegada registrada",
		"Se ha registrado la llegada de bob Baker a Goya, con reserva hasta las 11:00 hora de Madrid.")
	wantNoEnglish(t, pb, p)

	p = rita.hxPost("/kiosk/book", url.Values{"code": {"MAD-R2"}, "user": {fx.Bob.String()}})
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".kiosk-outcome", "No reservado", "Elige hasta cuándo reservar.")
	p = rita.hxPost("/kiosk/checkin", url.Values{"code": {"MAD-R2"}})
	p.wantText(t, ".kiosk-outcome", "Llegada no registrada", "Elige primero al empleado")

	p = rita.get("/kiosk/resource?code=NOPE-9")
	p.wantStatus(t, http.StatusNotFound)
	p.wantText(t, "main", "Ningún recurso tiene el código de cartel NOPE-9.")
	wantNoEnglish(t, pb, p)
	p = rita.get("/kiosk/resource?code=")
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, "main", "Escribe el código del cartel impreso bajo el código QR, por ejemplo")
	wantNoEnglish(t, pb, p)
}

// TestPosterInSpanish: a poster's page follows the phone that opens it: its signed-in person's language,
// whatever the browser asks for, and the browser's own before anyone signs in.
func TestPosterInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	inSpanishFor(t, pb, fx.Alice, fx.Adam)
	findBook(t, pb, fx.Alice, fx.DeskTwo, booking.CategoryWorkstation, fx.At(0, 11, 0), fx.At(0, 18, 0))
	alice := pb.signedIn(t, fx.Alice)

	p := alice.getIn("/p/MAD-R1", "en-GB,en")
	p.wantStatus(t, http.StatusOK)
	if got := p.attr("html", "lang"); got != "es" {
		t.Errorf("<html lang=%q>, want es", got)
	}
	p.wantText(t, "#resource-status", "Libre hasta las 20:00 hora de Madrid")
	p.wantText(t, "form[action='/p/MAD-R1/book'] button", "Reservar ahora")
	p.wantText(t, "#book-hint", "Para ti, alice Archer, desde las 09:00; tu llegada se registra en el acto.",
		"Está libre hasta las 20:00, pero aquí las reservas duran como máximo 4 horas.")
	p.wantText(t, ".kiosk-links", "Mis reservas", "Buscar otro espacio")

	// The desk she holds later today is told with its date, in Spanish.
	p = alice.get("/p/MAD-D1")
	p.wantText(t, ".held", "Ya tienes Desk 2 de 11:00 a 18:00 hora de Madrid el lun 23 nov.",
		"puedes reservar este hasta las 11:00.")
	wantNoEnglish(t, pb, p)

	p = alice.post("/p/MAD-R1/book", url.Values{"until": {rfc3339(fx.At(0, 10, 0))}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".kiosk-outcome", "Reservado para ti hasta las 10:00 hora de Madrid, con la llegada ya registrada.")
	p.wantText(t, "#resource-status", "Tuya", "Tu reserva, con la llegada registrada, hasta las 10:00")
	wantNoEnglish(t, pb, p)
	p = alice.hxPost("/p/MAD-R2/book", url.Values{})
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".kiosk-outcome", "No reservado", "Elige cuánto tiempo reservarlo.")

	p = alice.get("/p/NOPE-1")
	p.wantStatus(t, http.StatusNotFound)
	p.wantText(t, "title", "Cartel no encontrado")
	p.wantText(t, "main", "Ningún recurso tiene el código de cartel NOPE-1.")
	wantNoEnglish(t, pb, p)

	// Bob's language is English: the page is too, whatever his browser asks for.
	p = pb.signedIn(t, fx.Bob).getIn("/p/MAD-R1", "es")
	p.wantText(t, "#resource-status", "Busy until 10:00 Madrid time — booked by alice Archer")

	// Signed out, the phone's browser chooses: the sign-in page it is sent to speaks Spanish.
	p = pb.browser(t).getIn("/p/MAD-R1", "es-ES,es;q=0.9")
	if p.url.Path != "/login" {
		t.Fatalf("signed out, /p/MAD-R1 ends at %s, want the sign-in page", p.url)
	}
	if got := p.attr("html", "lang"); got != "es" {
		t.Errorf("the sign-in page for a Spanish browser: <html lang=%q>, want es", got)
	}

	// The admins' posters pages and the posters they print.
	adam := pb.signedIn(t, fx.Adam)
	p = adam.get("/posters?floor=" + fx.FloorMadrid.String())
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "Carteles")
	p.wantText(t, "h2", "Plantas de Madrid HQ")
	p.wantText(t, "#floor-resources", "Puestos y salas de madrid-1")
	wantNoEnglish(t, pb, p)
	p = adam.get("/posters/print?floor=" + fx.FloorMadrid.String())
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, "h1", "Carteles de madrid-1, Madrid HQ")
	p.wantText(t, ".posters-intro", "5 carteles, uno por página A4.")
	p.wantText(t, "article.poster", "Escanea para ver si está libre, reservarlo o registrar la llegada")
	wantNoEnglish(t, pb, p)
}

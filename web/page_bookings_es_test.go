package web_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// speaksSpanish makes a fixture person's own language Spanish, as a person who chose it has.
func speaksSpanish(t *testing.T, pb *pageBundle, id uuid.UUID) {
	t.Helper()
	if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = 'es' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
}

// A Spanish-speaking person reads My bookings, a booking's page with its services, the approvals, the
// people search, the settings, the sign-in and the error pages in Spanish, with dates in Spanish and in
// the building's time zone. The clock is Monday 2026-11-23 09:00 in Madrid.
func TestPageBookingsInSpanish(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	speaksSpanish(t, pb, fx.Alice)
	speaksSpanish(t, pb, fx.Adam)
	soon := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(0, 11, 30), fx.At(0, 12, 30))
	ny := pb.mbCreate(t, fx.Alice, fx.RoomHudson, fx.At(1, 16, 0), fx.At(1, 17, 0))
	board := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 10, 0), fx.At(1, 11, 0), withSubject("Consejo"))
	b := pb.signedIn(t, fx.Alice)

	t.Run("MyBookings", func(t *testing.T) {
		p := b.get("/bookings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Mis reservas")
		p.wantText(t, ".tabs", "Próximas", "Pasadas")
		p.wantText(t, card(soon.ID), "Goya", "lun 23 nov, 11:30–12:30 hora de Madrid",
			"El plazo de registro se abre a las 11:20 hora de Madrid.", "Cambiar hora", "Cancelar reserva…")
		if got := p.text(card(soon.ID) + " .badge"); got != "Estado: Llegada pendiente" {
			t.Errorf("badge = %q, want the status in Spanish", got)
		}
		p.wantText(t, card(ny.ID), "mar 24 nov, 10:00–11:00 hora de New York")
		p.wantText(t, card(board.ID), "Pendiente de aprobación",
			"Un administrador tiene que aprobar esta reserva antes de que puedas registrar la llegada.")
		b.get("/bookings?when=past").wantText(t, "main", "Aún no tienes reservas pasadas.")
	})

	t.Run("BookingPageAndServices", func(t *testing.T) {
		p := b.get("/bookings/" + soon.ID.String())
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".booking-people", "Detalles", "Organizador", "Asistentes", "Nadie invitado", "Capacidad", "8 personas",
			"Reunión en línea", "No")
		p.wantText(t, "#services", "Servicios", "Aún no has pedido nada.", "Pedir Coffee",
			"Se puede pedir, cambiar o cancelar hasta las 09:30 hora de Madrid.", "Cantidad: 1",
			"Entrega a las 11:45 hora de Madrid.", "Guardar servicios")
		coffee := fx.ReservableCoffee.String()
		r := b.hxPost("/bookings/"+soon.ID.String()+"/services", url.Values{"reservable": {coffee}, "quantity-" + coffee: {"tres"}})
		r.wantStatus(t, http.StatusBadRequest)
		r.wantText(t, "#services [role=alert]", "No se ha guardado.", "Coffee: la cantidad debe ser un número entero.")
		r = b.hxPost("/bookings/"+soon.ID.String()+"/services", url.Values{"reservable": {coffee}, "delivery-" + coffee: {"diez"}})
		r.wantStatus(t, http.StatusBadRequest)
		r.wantText(t, "#services [role=alert]", "Coffee: la hora de entrega debe ser una hora del día, como 10:30.")
		r = b.hxPost("/bookings/"+soon.ID.String()+"/services", url.Values{"reservable": {coffee}, "quantity-" + coffee: {"3"}})
		r.wantStatus(t, http.StatusOK)
		r.wantText(t, "#services", "Servicios guardados.", "Coffee", "× 3", "entrega a las 11:30 hora de Madrid")
	})

	t.Run("ChangeAndCancel", func(t *testing.T) {
		p := b.hxPost("/bookings/"+ny.ID.String()+"/change", url.Values{"date": {"2026-11-24"}, "start": {"11:00"}, "end": {"10:00"}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "[role=alert]", "No se ha hecho.", "La hora de fin debe ser posterior a la de inicio.")
		p = b.hxPost("/bookings/"+ny.ID.String()+"/change", url.Values{"date": {"mañana"}, "start": {"10:00"}, "end": {"11:00"}})
		p.wantStatus(t, http.StatusBadRequest)
		p.wantText(t, "[role=alert]", "Indica una fecha y las horas de inicio y fin, p. ej. 2026-11-24, 10:00 y 11:00.")
		// A refusal of the domain beside the card is in Spanish too, its hours in the building's zone.
		p = b.hxPost("/bookings/"+ny.ID.String()+"/change", url.Values{"date": {"2026-11-25"}, "start": {"21:00"}, "end": {"22:00"}})
		p.wantStatus(t, http.StatusConflict)
		p.wantText(t, "[role=alert]", "Ese día el recurso se puede reservar de 08:00 a 20:00 hora de New York.")
		p = b.hxPost("/bookings/"+ny.ID.String()+"/change", url.Values{"date": {"2026-11-25"}, "start": {"10:00"}, "end": {"11:00"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "[role=status]", "Movida a mié 25 nov, 10:00–11:00 hora de New York.")
		p = b.post("/bookings/"+ny.ID.String()+"/cancel", url.Values{"back": {"/bookings"}})
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".notice.ok", "Reserva cancelada.")
	})

	t.Run("Approvals", func(t *testing.T) {
		a := pb.signedIn(t, fx.Adam)
		p := a.get("/approvals")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Aprobaciones")
		p.wantText(t, "#approval-"+board.ID.String(), "Boardroom", "para alice Archer", "mar 24 nov, 10:00–11:00 hora de Madrid",
			"Aprobar", "Rechazar")
		p = a.post("/approvals/"+board.ID.String(), url.Values{"decision": {"approve"}})
		p.wantText(t, ".notice.ok", "Aprobada — llegada pendiente: Boardroom para alice Archer, mar 24 nov, 10:00–11:00 hora de Madrid.")
		p.wantText(t, "main", "No hay nada pendiente de aprobación.")
		// Alice is no admin: the refusal is in her words.
		p = b.get("/approvals")
		p.wantStatus(t, http.StatusForbidden)
		p.wantText(t, "h1", "No permitido")
		p.wantText(t, "main", "Solo los administradores aprueban reservas.")
	})

	t.Run("PeopleSearch", func(t *testing.T) {
		p := b.hxGet("/people?field=attendee&multi=1&q=zzz")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, ".choices", "Personas", "No se ha encontrado a nadie para «zzz».")
	})

	t.Run("Settings", func(t *testing.T) {
		p := b.get("/settings")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Ajustes")
		p.wantText(t, "main", "Correos", "Recordatorios de registro de llegada", "Suscripción de calendario",
			"¿Otra persona tiene la dirección?")
		p = b.post("/settings/mail", url.Values{"on": {"reminder"}})
		p.wantText(t, ".notice.ok", "Ajustes de correo guardados.")
	})

	t.Run("ErrorPages", func(t *testing.T) {
		p := b.get("/bookings/not-a-booking")
		p.wantStatus(t, http.StatusNotFound)
		p.wantText(t, "h1", "Página no encontrada")
		p.wantText(t, "main", "No hay ninguna página en esta dirección.", "Ir a la página de inicio")
	})

	t.Run("SignIn", func(t *testing.T) {
		p := pb.browser(t).getIn("/login", "es-ES,es;q=0.9")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "h1", "Iniciar sesión")
		p.wantText(t, "main", "Modo de desarrollo: elige quién eres.", "Administrador", "Recepcionista")
	})
}

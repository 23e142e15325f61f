package web

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
)

// The reception's kiosk: a tablet that scans a poster (or takes its typed code), shows the resource's
// status, and books it now for an employee or checks an employee in.

// pageKiosk is the kiosk's start page: scan a poster, or type its code.
// Codes: 1001 neither a receptionist nor an admin.
func (s *Server) pageKiosk(c echo.Context) error {
	if err := booking.UsesKiosk(actorFrom(c)); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.KioskScan(s.chrome(c, "Kiosk"), "", "", s.examplePosterCode(c)))
}

// examplePosterCode is a real poster code of the organization for the kiosk's hints; "" when there is none
// or it cannot be read (a hint is not worth failing the page for).
func (s *Server) examplePosterCode(c echo.Context) string {
	code, _ := s.bookings.ExamplePosterCode(c.Request().Context(), actorFrom(c))
	return code
}

// pageKioskResource shows the resource with the poster code (code: the code, or the poster's address),
// with the person chosen (user) and found (q) in the picker. An unknown code is answered on the start
// page with 404, so that the next code can be typed at once.
// Codes: 1001 neither a receptionist nor an admin.
func (s *Server) pageKioskResource(c echo.Context) error {
	actor := actorFrom(c)
	if err := booking.UsesKiosk(actor); err != nil {
		return err
	}
	code := kioskPosterCode(c.QueryParam("code"))
	if code == "" {
		example := s.examplePosterCode(c)
		problem := "Type the poster code printed under the QR code."
		if example != "" {
			problem = "Type the poster code printed under the QR code, for example " + example + "."
		}
		return s.render(c, http.StatusBadRequest, views.KioskScan(s.chrome(c, "Kiosk"), "", problem, example))
	}
	v, err := s.kioskView(c, code, c.QueryParams()["user"], c.QueryParam("q"))
	if booking.ErrorCode(err) == booking.CodeResourceNotFound {
		return s.render(c, http.StatusNotFound, views.KioskScan(s.chrome(c, "Kiosk"), code, kioskUnknownCode(code), s.examplePosterCode(c)))
	}
	if err != nil {
		return err
	}
	v.Until = c.QueryParam("until")
	v.Outcome = s.popKioskOutcome(c)
	return s.render(c, http.StatusOK, views.KioskResource(v))
}

// pageKioskBook books the resource with the poster code now, until the chosen end, for the chosen
// employee: the receptionist is its creator, the employee its organizer.
// Codes: 1001 neither a receptionist nor an admin; 1002 unknown poster code. Refusals of the booking
// (2000 no employee or no end chosen, 1003, 4001, 4003, 4004…) are shown next to the form with their status.
func (s *Server) pageKioskBook(c echo.Context) error {
	return s.kioskAct(c, "Not booked", func(actor, person booking.User, code string) (views.KioskOutcome, error) {
		until, err := time.Parse(time.RFC3339, c.FormValue("until"))
		if err != nil {
			return views.KioskOutcome{}, invalid("choose until when to book")
		}
		b, err := s.bookings.BookNow(c.Request().Context(), actor, person, code, until, "")
		if err != nil {
			return views.KioskOutcome{}, err
		}
		return views.BookedOutcome(b, false), nil
	})
}

// pageKioskCheckIn checks the chosen employee in to their booking of the resource whose check-in is open.
// Codes: 1001 neither a receptionist nor an admin; 1002 unknown poster code. Refusals (2000 nobody chosen,
// 1003, 1012 no booking to check in, 4010, 4011…) are shown next to the form with their status.
func (s *Server) pageKioskCheckIn(c echo.Context) error {
	return s.kioskAct(c, "Not checked in", func(actor, person booking.User, code string) (views.KioskOutcome, error) {
		b, err := s.bookings.CheckInByPosterCode(c.Request().Context(), actor, person, code)
		if err != nil {
			return views.KioskOutcome{}, err
		}
		return views.CheckedInOutcome(b, false), nil
	})
}

// kioskAct runs a kiosk action for the employee chosen in the form and answers with the resource's fresh
// status and the outcome: for htmx the panel, otherwise a redirect to the resource (done) or the whole page
// with the refusal's status (refused).
func (s *Server) kioskAct(c echo.Context, refused string, act func(actor, person booking.User, code string) (views.KioskOutcome, error)) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	if err := booking.UsesKiosk(actor); err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return invalid("form: %v", err)
	}
	code, users := kioskPosterCode(form.Get("code")), form["user"]
	outcome, err := func() (views.KioskOutcome, error) {
		if len(users) != 1 {
			return views.KioskOutcome{}, invalid("choose the employee first: type part of their name, then pick them")
		}
		id, err := uuid.Parse(users[0])
		if err != nil {
			return views.KioskOutcome{}, invalid("choose the employee first: type part of their name, then pick them")
		}
		person, err := s.bookings.ActingFor(ctx, actor, &id)
		if err != nil {
			return views.KioskOutcome{}, err
		}
		return act(actor, person, code)
	}()
	status := http.StatusOK
	if err != nil {
		var ok bool
		if status, outcome, ok = kioskRefusal(err, refused); !ok {
			return err
		}
	}
	v, verr := s.kioskView(c, code, users, "")
	if verr != nil {
		return kioskUnknownCodeError(verr, code)
	}
	v.Until, v.Outcome = form.Get("until"), &outcome
	switch {
	case isHTMX(c):
		return s.render(c, status, views.KioskPanel(v))
	case err != nil:
		return s.render(c, status, views.KioskResource(v))
	}
	s.putFlash(c, outcome.Title, outcome.Message)
	q := url.Values{"code": {code}, "user": users}
	return c.Redirect(http.StatusSeeOther, "/kiosk/resource?"+q.Encode())
}

// popKioskOutcome returns (once) what the last form did, or nil.
func (s *Server) popKioskOutcome(c echo.Context) *views.KioskOutcome {
	title, msg := s.popFlash(c)
	if msg == "" {
		return nil
	}
	return &views.KioskOutcome{OK: true, Title: title, Message: msg}
}

// kioskView reads the resource's status now and the picker's people: chosen (ids) and found (query).
// Codes: 1002 no resource with the poster code.
func (s *Server) kioskView(c echo.Context, code string, ids []string, query string) (views.KioskView, error) {
	ctx, actor := c.Request().Context(), actorFrom(c)
	st, err := s.bookings.PosterStatus(ctx, actor, code)
	if err != nil {
		return views.KioskView{}, err
	}
	picker, err := s.peoplePicker(ctx, actor, "user", ids, query)
	if err != nil {
		return views.KioskView{}, err
	}
	return views.KioskView{Chrome: s.chrome(c, st.Resource.Name+" · Kiosk"), Status: st, Picker: picker}, nil
}

// kioskRefusal turns a domain error into the outcome a form shows next to it, with the code's status.
// ok is false for errors that are not refusals (they fail the request).
func kioskRefusal(err error, title string) (status int, o views.KioskOutcome, ok bool) {
	de, status := domainRefusal(err)
	if de == nil {
		return 0, views.KioskOutcome{}, false
	}
	return status, views.KioskOutcome{Title: title, Message: toSentence(de.Message)}, true
}

// kioskPosterCode reads a poster code as typed, or from the poster's address (…/p/CODE) as scanned.
func kioskPosterCode(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "/p/"); i >= 0 {
		if code, err := url.PathUnescape(strings.TrimSuffix(s[i+3:], "/")); err == nil {
			return strings.TrimSpace(code)
		}
	}
	return s
}

// kioskUnknownCodeError words a 1002 from reading a poster code the way the pages say it; other errors
// are returned as they are.
func kioskUnknownCodeError(err error, code string) error {
	if booking.ErrorCode(err) == booking.CodeResourceNotFound {
		return booking.Errorf(booking.CodeResourceNotFound, "no resource has the poster code %s", code)
	}
	return err
}

// kioskUnknownCode says that a poster code names nothing.
func kioskUnknownCode(code string) string {
	return "No resource has the poster code " + code + ". Check the code on the poster and try again."
}

package pages

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// The pages built around the posters on desks and rooms, each poster carrying a code and its QR code:
//   - the reception's kiosk, a tablet that scans a poster (or takes its typed code), shows the
//     resource's status, and books it now for an employee or checks an employee in;
//   - the page a poster's QR code opens on a phone, which does the same for the person holding it;
//   - the admins' pages that print the posters.
// The forms of the kiosk and of the phone's page share one flow, runPosterForm.

// The reception's kiosk.

// Kiosk is the kiosk's start page: scan a poster, or type its code.
// Codes: 1001 neither a receptionist nor an admin.
func (s *Handlers) Kiosk(c echo.Context) error {
	if err := booking.UsesKiosk(kit.Actor(c)); err != nil {
		return err
	}
	return kit.Render(c, http.StatusOK, views.KioskScan(s.Chrome(c, lang.T(kit.Ctx(c), "kiosk.title")), "", "", s.examplePosterCode(c)))
}

// examplePosterCode is a real poster code of the organization for the kiosk's hints; "" when there is none
// or it cannot be read (a hint is not worth failing the page for).
func (s *Handlers) examplePosterCode(c echo.Context) string {
	code, _ := s.bookings.ExamplePosterCode(c.Request().Context(), kit.Actor(c))
	return code
}

// KioskResource shows the resource with the poster code (code: the code, or the poster's address),
// with the person chosen (user) and found (q) in the picker. An unknown code is answered on the start
// page with 404, so that the next code can be typed at once.
// Codes: 1001 neither a receptionist nor an admin.
func (s *Handlers) KioskResource(c echo.Context) error {
	actor := kit.Actor(c)
	if err := booking.UsesKiosk(actor); err != nil {
		return err
	}
	ctx := kit.Ctx(c)
	code := kioskPosterCode(c.QueryParam("code"))
	if code == "" {
		example := s.examplePosterCode(c)
		problem := lang.T(ctx, "kiosk.typeCode")
		if example != "" {
			problem = lang.T(ctx, "kiosk.typeCodeExample", map[string]any{"Code": example})
		}
		return kit.Render(c, http.StatusBadRequest, views.KioskScan(s.Chrome(c, lang.T(ctx, "kiosk.title")), "", problem, example))
	}
	v, err := s.kioskView(c, code, c.QueryParams()["user"], c.QueryParam("q"))
	if booking.ErrorCode(err) == booking.CodeResourceNotFound {
		return kit.Render(c, http.StatusNotFound, views.KioskScan(s.Chrome(c, lang.T(ctx, "kiosk.title")), code,
			kioskUnknownCode(ctx, code), s.examplePosterCode(c)))
	}
	if err != nil {
		return err
	}
	v.Until = c.QueryParam("until")
	v.Outcome = s.popKioskOutcome(c)
	return kit.Render(c, http.StatusOK, views.KioskResource(v))
}

// KioskBook books the resource with the poster code now, until the chosen end, for the chosen
// employee: the receptionist is its creator, the employee its organizer.
// Codes: 1001 neither a receptionist nor an admin; 1002 unknown poster code. Refusals of the booking
// (2000 no employee or no end chosen, 1003, 4001, 4003, 4004…) are shown next to the form with their status.
func (s *Handlers) KioskBook(c echo.Context) error {
	ctx := kit.Ctx(c)
	return s.kioskAct(c, lang.T(ctx, "kiosk.notBooked"), func(actor, person booking.User, code string) (views.KioskOutcome, error) {
		until, err := time.Parse(time.RFC3339, c.FormValue("until"))
		if err != nil {
			return views.KioskOutcome{}, kit.Refuse("kiosk.chooseUntil")
		}
		b, err := s.bookings.BookNow(c.Request().Context(), actor, person, code, until, "")
		if err != nil {
			return views.KioskOutcome{}, err
		}
		return views.BookedOutcome(ctx, b, false), nil
	})
}

// KioskCheckIn checks the chosen employee in to their booking of the resource whose check-in is open.
// Codes: 1001 neither a receptionist nor an admin; 1002 unknown poster code. Refusals (2000 nobody chosen,
// 1003, 1012 no booking to check in, 4010, 4011…) are shown next to the form with their status.
func (s *Handlers) KioskCheckIn(c echo.Context) error {
	ctx := kit.Ctx(c)
	return s.kioskAct(c, lang.T(ctx, "kiosk.notCheckedIn"), func(actor, person booking.User, code string) (views.KioskOutcome, error) {
		b, err := s.bookings.CheckInByPosterCode(c.Request().Context(), actor, person, code)
		if err != nil {
			return views.KioskOutcome{}, err
		}
		return views.CheckedInOutcome(ctx, b, false), nil
	})
}

// kioskAct runs a form of the kiosk for the employee chosen in its picker. act does what the form asks
// on the resource with the poster code; runPosterForm answers.
// Codes: 1001 neither a receptionist nor an admin; 2000 no employee chosen.
func (s *Handlers) kioskAct(c echo.Context, refused string, act func(actor, person booking.User, code string) (views.KioskOutcome, error)) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	if err := booking.UsesKiosk(actor); err != nil {
		return err
	}
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("kiosk.formUnreadable", map[string]any{"Error": err})
	}
	code, users := kioskPosterCode(form.Get("code")), form["user"]
	return s.runPosterForm(c, posterForm{
		code: code, refused: refused,
		next: "/kiosk/resource?" + url.Values{"code": {code}, "user": users}.Encode(),
		act: func() (views.KioskOutcome, error) {
			person, err := s.kioskPerson(ctx, actor, users)
			if err != nil {
				return views.KioskOutcome{}, err
			}
			return act(actor, person, code)
		},
		view: func(o *views.KioskOutcome) (panel, page templ.Component, err error) {
			v, err := s.kioskView(c, code, users, "")
			v.Until, v.Outcome = form.Get("until"), o
			return views.KioskPanel(v), views.KioskResource(v), err
		},
	})
}

// kioskPerson returns the employee the receptionist chose in the kiosk's picker (users). It refuses a
// form without exactly one well-formed choice (2000), in ctx's language, and what ActingFor refuses.
func (s *Handlers) kioskPerson(ctx context.Context, actor booking.User, users []string) (booking.User, error) {
	if len(users) != 1 {
		return booking.User{}, kit.Refuse("kiosk.chooseEmployee")
	}
	id, err := uuid.Parse(users[0])
	if err != nil {
		return booking.User{}, kit.Refuse("kiosk.chooseEmployee")
	}
	return s.bookings.ActingFor(ctx, actor, &id)
}

// posterForm is a form of the kiosk or of a poster's page, acting on the resource with a poster code.
type posterForm struct {
	code    string
	refused string // the outcome's title when the form is refused: "Not booked"
	next    string // where the browser goes after a success, without htmx
	// act does what the form asks and returns the outcome to show.
	act func() (views.KioskOutcome, error)
	// view reads the resource's status now and returns the panel and the whole page that show it with
	// the outcome o.
	view func(o *views.KioskOutcome) (panel, page templ.Component, err error)
}

// runPosterForm runs the form's action and shows its outcome beside the resource's fresh status. With
// htmx it answers the panel. Without htmx a refusal is answered with the whole page, and a success
// redirects to f.next, which shows the outcome once. A refusal is answered with its code's status; an
// error that is not a refusal fails the request, and so does a poster code that names nothing (1002).
func (s *Handlers) runPosterForm(c echo.Context, f posterForm) error {
	outcome, err := f.act()
	status := http.StatusOK
	if err != nil {
		var ok bool
		if status, outcome, ok = kioskRefusal(kit.Ctx(c), err, f.refused); !ok {
			return err
		}
	}
	panel, page, verr := f.view(&outcome)
	if verr != nil {
		return kioskUnknownCodeError(kit.Ctx(c), verr, f.code)
	}
	switch {
	case kit.IsHTMX(c):
		return kit.Render(c, status, panel)
	case err != nil:
		return kit.Render(c, status, page)
	}
	s.PutFlash(c, outcome.Title, outcome.Message)
	return c.Redirect(http.StatusSeeOther, f.next)
}

// popKioskOutcome returns (once) what the last form did, or nil.
func (s *Handlers) popKioskOutcome(c echo.Context) *views.KioskOutcome {
	title, msg := s.PopFlash(c)
	if msg == "" {
		return nil
	}
	return &views.KioskOutcome{OK: true, Title: title, Message: msg}
}

// kioskView reads the resource's status now and the picker's people: chosen (ids) and found (query).
// Codes: 1002 no resource with the poster code.
func (s *Handlers) kioskView(c echo.Context, code string, ids []string, query string) (views.KioskView, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	st, err := s.bookings.PosterStatus(ctx, actor, code)
	if err != nil {
		return views.KioskView{}, err
	}
	picker, err := s.peoplePicker(ctx, actor, "user", ids, query)
	if err != nil {
		return views.KioskView{}, err
	}
	title := lang.T(kit.Ctx(c), "kiosk.resourceTitle", map[string]any{"Name": st.Resource.Name})
	return views.KioskView{Chrome: s.Chrome(c, title), Status: st, Picker: picker}, nil
}

// kioskRefusal turns a domain refusal into the outcome a form shows, titled title, with the status of
// its code, its message in ctx's language when it has words there. ok is false for an error that is
// not a refusal; that error fails the request.
func kioskRefusal(ctx context.Context, err error, title string) (status int, o views.KioskOutcome, ok bool) {
	de, status := kit.Refusal(err)
	if de == nil {
		return 0, views.KioskOutcome{}, false
	}
	return status, views.KioskOutcome{Title: title, Message: kit.ToSentence(de.In(ctx))}, true
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

// kioskUnknownCodeError rewrites a 1002 from reading the poster code so that its message names the code,
// in ctx's language. It returns other errors unchanged.
func kioskUnknownCodeError(ctx context.Context, err error, code string) error {
	if booking.ErrorCode(err) == booking.CodeResourceNotFound {
		return booking.Errorf(booking.CodeResourceNotFound, "%s", lang.T(ctx, "kiosk.noResourceWithCode", map[string]any{"Code": code}))
	}
	return err
}

// kioskUnknownCode says that a poster code names nothing.
func kioskUnknownCode(ctx context.Context, code string) string {
	return lang.T(ctx, "kiosk.unknownCode", map[string]any{"Code": code})
}

// The page a poster's QR code opens on a phone, and the admins' pages that print the posters.

// Poster shows the resource with the poster code to the signed-in person: its status, "book now"
// and "check in". An unknown code is a 404 page that says so.
func (s *Handlers) Poster(c echo.Context) error {
	code := c.Param("posterCode")
	v, err := s.posterView(c, code)
	if booking.ErrorCode(err) == booking.CodeResourceNotFound {
		ctx := kit.Ctx(c)
		return kit.Render(c, http.StatusNotFound, views.ErrorPage(s.Chrome(c, lang.T(ctx, "poster.notFound")), http.StatusNotFound,
			kioskUnknownCode(ctx, code)))
	}
	if err != nil {
		return err
	}
	v.Outcome = s.popKioskOutcome(c)
	return kit.Render(c, http.StatusOK, views.Poster(v))
}

// PosterBook books the resource for the signed-in person, from now until the end chosen among those
// the page offered, and checks them in at once, in the same transaction: they are standing at it.
// Codes: 1002 unknown poster code. Refusals (2000, 4001, 4003, 4004…) are shown with their status.
func (s *Handlers) PosterBook(c echo.Context) error {
	ctx := kit.Ctx(c)
	return s.posterAct(c, lang.T(ctx, "kiosk.notBooked"), func(actor booking.User, code string) (views.KioskOutcome, error) {
		until, err := time.Parse(time.RFC3339, c.FormValue("until"))
		if err != nil {
			return views.KioskOutcome{}, kit.Refuse("poster.chooseHowLong")
		}
		b, err := s.bookings.BookNowAndCheckIn(c.Request().Context(), actor, code, until)
		if err != nil {
			return views.KioskOutcome{}, err
		}
		if b.Status == booking.StatusActive {
			return views.BookedCheckedInOutcome(ctx, b), nil
		}
		// A booking waiting for approval cannot be checked in; one whose check-in is not open yet keeps
		// waiting for it, and says so on the page.
		return views.BookedOutcome(ctx, b, true), nil
	})
}

// PosterCheckIn checks the signed-in person in to their booking of the resource whose check-in is open.
// Codes: 1002 unknown poster code. Refusals (1012 no booking to check in, 4010, 4011…) are shown with
// their status.
func (s *Handlers) PosterCheckIn(c echo.Context) error {
	ctx := kit.Ctx(c)
	return s.posterAct(c, lang.T(ctx, "kiosk.notCheckedIn"), func(actor booking.User, code string) (views.KioskOutcome, error) {
		b, err := s.bookings.CheckInByPosterCode(c.Request().Context(), actor, actor, code)
		if err != nil {
			return views.KioskOutcome{}, err
		}
		return views.CheckedInOutcome(ctx, b, true), nil
	})
}

// posterAct runs a form of a poster's page for the signed-in person. act does what the form asks on the
// resource with the poster code; runPosterForm answers.
func (s *Handlers) posterAct(c echo.Context, refused string, act func(actor booking.User, code string) (views.KioskOutcome, error)) error {
	code := c.Param("posterCode")
	return s.runPosterForm(c, posterForm{
		code: code, refused: refused, next: "/p/" + url.PathEscape(code),
		act: func() (views.KioskOutcome, error) { return act(kit.Actor(c), code) },
		view: func(o *views.KioskOutcome) (panel, page templ.Component, err error) {
			v, err := s.posterView(c, code)
			v.Outcome = o
			return views.PosterPanel(v), views.Poster(v), err
		},
	})
}

// posterView reads the status of the resource with the poster code now, for the signed-in person: a
// desk is offered only while they hold no other.
// Codes: 1002 no resource with the poster code.
func (s *Handlers) posterView(c echo.Context, code string) (views.PosterView, error) {
	actor := kit.Actor(c)
	st, err := s.bookings.PosterStatusForSelf(c.Request().Context(), actor, code)
	if err != nil {
		return views.PosterView{}, err
	}
	return views.PosterView{Chrome: s.Chrome(c, st.Resource.Name), Status: st, Viewer: actor}, nil
}

// Posters lets admins choose the posters to print: a building (building, else the first), its
// floors, and the desks and rooms of a floor (floor).
// Codes: 1001 not an admin; 2000 a malformed id; 1004 no such building; 1006 no such floor.
func (s *Handlers) Posters(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	if err := booking.PrintsPosters(actor); err != nil {
		return err
	}
	v := views.PostersView{Chrome: s.Chrome(c, lang.T(kit.Ctx(c), "poster.postersTitle")), Warning: s.postersWarning(c)}
	floorID, err := kit.UUIDQuery(c, "floor")
	if err != nil {
		return err
	}
	chosenBuilding, err := kit.UUIDQuery(c, "building")
	if err != nil {
		return err
	}
	var buildingID uuid.UUID
	switch {
	case floorID != nil:
		f, rs, err := s.bookings.PosterResources(ctx, actor, booking.PosterQuery{FloorID: floorID})
		if err != nil {
			return err
		}
		v.Floor, v.Resources, buildingID = &f, rs, f.Building.ID
	case chosenBuilding != nil:
		buildingID = *chosenBuilding
	}
	buildings, err := s.bookings.Buildings(ctx, actor)
	if err != nil {
		return err
	}
	v.Buildings = buildings
	if buildingID == uuid.Nil && len(buildings) > 0 {
		buildingID = buildings[0].ID
	}
	if buildingID != uuid.Nil {
		floors, err := s.bookings.Floors(ctx, actor, buildingID)
		if err != nil {
			return err
		}
		v.Floors = floors
		for _, b := range buildings {
			if b.ID == buildingID {
				v.Building = b
			}
		}
	}
	return kit.Render(c, http.StatusOK, views.Posters(v))
}

// postersWarning says why posters cannot be printed, in the request's language: outside development mode,
// a service that does not know its public address would put the address the admin's browser used into the
// QR codes.
func (s *Handlers) postersWarning(c echo.Context) string {
	if s.BaseURL != "" || s.Dev {
		return ""
	}
	return lang.T(kit.Ctx(c), "poster.cannotPrint")
}

// PostersPrint renders posters ready to print, one per page: every bookable resource of a floor
// (floor) or one resource (resource). Each carries the QR code of its poster page's address, under
// BASE_URL (in development mode without it, the address this request came to). Without BASE_URL outside
// development mode it prints nothing and says why, with 503.
// Codes: 1001 not an admin; 2000 a malformed id, or neither or both of floor and resource; 1006 no such
// floor; 1002 no such bookable resource.
func (s *Handlers) PostersPrint(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	if err := booking.PrintsPosters(actor); err != nil {
		return err
	}
	var q booking.PosterQuery
	var err error
	if q.FloorID, err = kit.UUIDQuery(c, "floor"); err != nil {
		return err
	}
	if q.ResourceID, err = kit.UUIDQuery(c, "resource"); err != nil {
		return err
	}
	floor, rs, err := s.bookings.PosterResources(ctx, actor, q)
	if err != nil {
		return err
	}
	v := views.PostersPrintView{
		Back: "/posters?building=" + floor.Building.ID.String() + "&floor=" + floor.ID.String(),
	}
	if v.Warning = s.postersWarning(c); v.Warning != "" {
		v.Chrome = s.Chrome(c, lang.T(kit.Ctx(c), "poster.cannotPrintTitle"))
		return kit.Render(c, http.StatusServiceUnavailable, views.PostersPrint(v))
	}
	base := s.BaseURL
	if base == "" {
		base = c.Scheme() + "://" + c.Request().Host
	}
	for _, r := range rs {
		addr := base + "/p/" + url.PathEscape(r.PosterCode)
		code, err := views.NewQR(addr)
		if err != nil {
			return err
		}
		v.Cards = append(v.Cards, views.PosterCard{Resource: r, URL: addr, QR: code})
	}
	title := lang.T(kit.Ctx(c), "poster.postersOfFloor", map[string]any{"Floor": floor.Name, "Building": floor.Building.Name})
	if q.ResourceID != nil && len(rs) == 1 {
		title = lang.T(kit.Ctx(c), "poster.posterOf", map[string]any{"Name": rs[0].Name})
	}
	v.Chrome = s.Chrome(c, title)
	return kit.Render(c, http.StatusOK, views.PostersPrint(v))
}

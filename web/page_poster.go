package web

import (
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
)

// The page a poster's QR code opens on a phone, and the admins' pages that print the posters.

// pagePoster shows the resource with the poster code to the signed-in person: its status, "book now"
// and "check in". An unknown code is a 404 page that says so.
func (s *Server) pagePoster(c echo.Context) error {
	code := c.Param("posterCode")
	v, err := s.posterView(c, code)
	if booking.ErrorCode(err) == booking.CodeResourceNotFound {
		return s.render(c, http.StatusNotFound, views.ErrorPage(s.chrome(c, "Poster not found"), http.StatusNotFound,
			kioskUnknownCode(code)))
	}
	if err != nil {
		return err
	}
	v.Outcome = s.popKioskOutcome(c)
	return s.render(c, http.StatusOK, views.Poster(v))
}

// pagePosterBook books the resource for the signed-in person, from now until the end chosen among those
// the page offered, and checks them in at once, in the same transaction: they are standing at it.
// Codes: 1002 unknown poster code. Refusals (2000, 4001, 4003, 4004…) are shown with their status.
func (s *Server) pagePosterBook(c echo.Context) error {
	return s.posterAct(c, "Not booked", func(actor booking.User, code string) (views.KioskOutcome, error) {
		ctx := c.Request().Context()
		until, err := time.Parse(time.RFC3339, c.FormValue("until"))
		if err != nil {
			return views.KioskOutcome{}, invalid("choose how long to book it")
		}
		b, err := s.bookings.BookNowAndCheckIn(ctx, actor, code, until)
		if err != nil {
			return views.KioskOutcome{}, err
		}
		if b.Status == booking.StatusActive {
			return views.BookedCheckedInOutcome(b), nil
		}
		// A booking waiting for approval cannot be checked in; one whose check-in is not open yet keeps
		// waiting for it, and says so on the page.
		return views.BookedOutcome(b, true), nil
	})
}

// pagePosterCheckIn checks the signed-in person in to their booking of the resource whose check-in is open.
// Codes: 1002 unknown poster code. Refusals (1012 no booking to check in, 4010, 4011…) are shown with
// their status.
func (s *Server) pagePosterCheckIn(c echo.Context) error {
	return s.posterAct(c, "Not checked in", func(actor booking.User, code string) (views.KioskOutcome, error) {
		b, err := s.bookings.CheckInByPosterCode(c.Request().Context(), actor, actor, code)
		if err != nil {
			return views.KioskOutcome{}, err
		}
		return views.CheckedInOutcome(b, true), nil
	})
}

// posterAct runs an action of the poster page and answers with the fresh status and the outcome: for htmx
// the panel, otherwise a redirect to the poster page (done) or the whole page with the refusal's status.
func (s *Server) posterAct(c echo.Context, refused string, act func(actor booking.User, code string) (views.KioskOutcome, error)) error {
	code := c.Param("posterCode")
	outcome, err := act(actorFrom(c), code)
	status := http.StatusOK
	if err != nil {
		var ok bool
		if status, outcome, ok = kioskRefusal(err, refused); !ok {
			return err
		}
	}
	v, verr := s.posterView(c, code)
	if verr != nil {
		return kioskUnknownCodeError(verr, code)
	}
	v.Outcome = &outcome
	switch {
	case isHTMX(c):
		return s.render(c, status, views.PosterPanel(v))
	case err != nil:
		return s.render(c, status, views.Poster(v))
	}
	s.putFlash(c, outcome.Title, outcome.Message)
	return c.Redirect(http.StatusSeeOther, "/p/"+url.PathEscape(code))
}

// posterView reads the status of the resource with the poster code now.
// Codes: 1002 no resource with the poster code.
func (s *Server) posterView(c echo.Context, code string) (views.PosterView, error) {
	actor := actorFrom(c)
	st, err := s.bookings.PosterStatus(c.Request().Context(), actor, code)
	if err != nil {
		return views.PosterView{}, err
	}
	return views.PosterView{Chrome: s.chrome(c, st.Resource.Name), Status: st, Viewer: actor}, nil
}

// pagePosters lets admins choose the posters to print: a building (building, else the first), its
// floors, and the desks and rooms of a floor (floor).
// Codes: 1001 not an admin; 2000 a malformed id; 1004 no such building; 1006 no such floor.
func (s *Server) pagePosters(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	if err := booking.PrintsPosters(actor); err != nil {
		return err
	}
	v := views.PostersView{Chrome: s.chrome(c, "Posters"), Warning: s.postersWarning()}
	floorID, err := queryUUID(c, "floor")
	if err != nil {
		return err
	}
	chosenBuilding, err := queryUUID(c, "building")
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
	return s.render(c, http.StatusOK, views.Posters(v))
}

// postersWarning says why posters cannot be printed: outside development mode, a service that does not
// know its public address would put the address the admin's browser used into the QR codes.
func (s *Server) postersWarning() string {
	if s.baseURL != "" || s.dev {
		return ""
	}
	return "Posters cannot be printed: the service does not know its public address. Set BASE_URL to the " +
		"address people reach it at (for example https://booking.example.com) and restart it; the QR codes " +
		"point there."
}

// pagePostersPrint renders posters ready to print, one per page: every bookable resource of a floor
// (floor) or one resource (resource). Each carries the QR code of its poster page's address, under
// BASE_URL (in development mode without it, the address this request came to). Without BASE_URL outside
// development mode it prints nothing and says why, with 503.
// Codes: 1001 not an admin; 2000 a malformed id, or neither or both of floor and resource; 1006 no such
// floor; 1002 no such bookable resource.
func (s *Server) pagePostersPrint(c echo.Context) error {
	ctx, actor := c.Request().Context(), actorFrom(c)
	if err := booking.PrintsPosters(actor); err != nil {
		return err
	}
	var q booking.PosterQuery
	var err error
	if q.FloorID, err = queryUUID(c, "floor"); err != nil {
		return err
	}
	if q.ResourceID, err = queryUUID(c, "resource"); err != nil {
		return err
	}
	floor, rs, err := s.bookings.PosterResources(ctx, actor, q)
	if err != nil {
		return err
	}
	v := views.PostersPrintView{
		Back: "/posters?building=" + floor.Building.ID.String() + "&floor=" + floor.ID.String(),
	}
	if v.Warning = s.postersWarning(); v.Warning != "" {
		v.Chrome = s.chrome(c, "Posters cannot be printed")
		return s.render(c, http.StatusServiceUnavailable, views.PostersPrint(v))
	}
	base := s.baseURL
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
	title := "Posters of " + floor.Name + ", " + floor.Building.Name
	if q.ResourceID != nil && len(rs) == 1 {
		title = "Poster of " + rs[0].Name
	}
	v.Chrome = s.chrome(c, title)
	return s.render(c, http.StatusOK, views.PostersPrint(v))
}

// queryUUID reads an optional id of the query: nil when it is absent.
// Codes: 2000 a malformed id.
func queryUUID(c echo.Context, name string) (*uuid.UUID, error) {
	v := c.QueryParam(name)
	if v == "" {
		return nil, nil
	}
	id, err := parseUUID(name, v)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

package console

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// The neighbourhoods of a floor, in its plan editor: each drawn behind the desks and rooms, with a form
// to change or delete it, and a form to add one by drawing or typing its corners. Every handler calls one
// method of web/layout, which refuses anyone but an admin and another organization's ids.

// zoneWords names a neighbourhood's fields as its form does.
func zoneWords(ctx context.Context) map[string]string {
	return map[string]string{
		"name": lang.T(ctx, "admin.common.name"), "teamId": lang.T(ctx, "admin.zones.team"), "area": lang.T(ctx, "admin.zones.cornersWord"),
	}
}

// withZones adds the floor's neighbourhoods and the teams to give one to the plan editor's page.
func (s *Handlers) withZones(ctx context.Context, actor booking.User, floor uuid.UUID, p *views.AdminPlanPage) error {
	zones, err := s.bookings.FloorNeighbourhoods(ctx, actor, floor)
	if err != nil {
		return err
	}
	teams, err := s.people.Teams(ctx, actor)
	if err != nil {
		return err
	}
	p.Zones, p.Teams, p.MaxZones = make([]views.AdminZone, len(zones)), make([]views.AdminOption, len(teams)), layout.MaxNeighbourhoods
	for i, z := range zones {
		p.Zones[i] = views.AdminZoneOf(z)
	}
	for i, t := range teams {
		p.Teams[i] = views.AdminOption{Value: t.ID.String(), Label: t.Name}
	}
	return nil
}

// zoneFormOf reads a neighbourhood's form as typed.
func zoneFormOf(form url.Values) views.AdminZone {
	return views.AdminZone{
		Name: form.Get("name"), TeamID: form.Get("teamId"), TeamOnly: checkField(form, "teamOnly"),
		X1: form.Get("x1"), Y1: form.Get("y1"), X2: form.Get("x2"), Y2: form.Get("y2"),
	}
}

// zoneFields turns the form into what the domain takes.
// Codes: 2000 a corner that is no whole number.
func zoneFields(z views.AdminZone) (layout.NeighbourhoodFields, error) {
	f := layout.NeighbourhoodFields{Name: z.Name, TeamOnly: z.TeamOnly, TeamID: uuid.Max}
	if id, err := uuid.Parse(z.TeamID); err == nil {
		f.TeamID = id
	}
	corners := []*int32{&f.Area.TopLeftX, &f.Area.TopLeftY, &f.Area.BottomRightX, &f.Area.BottomRightY}
	for i, v := range []string{z.X1, z.Y1, z.X2, z.Y2} {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			return f, kit.FieldRefuse("area", "admin.zones.notANumber")
		}
		*corners[i] = int32(n)
	}
	return f, nil
}

// CreateNeighbourhood is POST /admin/floors/{floorId}/neighbourhoods (name, teamId, x1, y1, x2, y2,
// teamOnly).
func (s *Handlers) CreateNeighbourhood(c echo.Context) error {
	return s.saveZone(c, false)
}

// SaveNeighbourhood is POST /admin/floors/{floorId}/neighbourhoods/{zoneId}, with the fields of
// CreateNeighbourhood.
func (s *Handlers) SaveNeighbourhood(c echo.Context) error {
	return s.saveZone(c, true)
}

// saveZone creates a neighbourhood, or changes the one the path names; a refusal shows the editor again
// with the form as typed and the refusal beside it.
func (s *Handlers) saveZone(c echo.Context, existing bool) error {
	floor, err := pathID(c, "floorId")
	if err != nil {
		return err
	}
	zone := uuid.Nil
	if existing {
		if zone, err = pathID(c, "zoneId"); err != nil {
			return err
		}
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	ctx, actor, z := kit.Ctx(c), kit.Actor(c), zoneFormOf(form)
	f, err := zoneFields(z)
	if err == nil && existing {
		err = s.layout.ChangeNeighbourhood(ctx, actor, zone, f)
	} else if err == nil {
		_, err = s.layout.CreateNeighbourhood(ctx, actor, floor, f)
	}
	if err == nil {
		done := lang.T(ctx, "admin.zones.created", map[string]any{"Name": f.Name})
		if existing {
			done = lang.T(ctx, "admin.zones.saved", map[string]any{"Name": f.Name})
		}
		s.PutFlash(c, "", done)
		return c.Redirect(http.StatusSeeOther, "/admin/floors/"+floor.String()+"/plan")
	}
	return s.zoneRefused(c, floor, zone, z, err)
}

// zoneRefused shows the plan editor again with a refused neighbourhood form.
func (s *Handlers) zoneRefused(c echo.Context, floor, zone uuid.UUID, z views.AdminZone, err error) error {
	prob, code, err := refusal(c, err, "neighbourhood", zoneWords(kit.Ctx(c)))
	if err != nil {
		return err
	}
	p, err := s.planPage(c, floor)
	if err != nil {
		return err
	}
	z.Problem = prob
	if zone == uuid.Nil {
		p.NewZone = z
	}
	for i := range p.Zones {
		if p.Zones[i].ID == zone.String() {
			z.ID, z.TeamName = p.Zones[i].ID, p.Zones[i].TeamName
			p.Zones[i] = z
		}
	}
	return kit.Render(c, code, views.AdminPlanView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.plan.title")), p))
}

// DeleteNeighbourhood is POST /admin/floors/{floorId}/neighbourhoods/{zoneId}/delete.
func (s *Handlers) DeleteNeighbourhood(c echo.Context) error {
	floor, err := pathID(c, "floorId")
	if err != nil {
		return err
	}
	zone, err := pathID(c, "zoneId")
	if err != nil {
		return err
	}
	if err := s.layout.DeleteNeighbourhood(kit.Ctx(c), kit.Actor(c), zone); err != nil {
		return err
	}
	s.PutFlash(c, "", lang.T(kit.Ctx(c), "admin.zones.deleted"))
	return c.Redirect(http.StatusSeeOther, "/admin/floors/"+floor.String()+"/plan")
}

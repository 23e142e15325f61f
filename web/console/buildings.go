package console

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

func buildingView(o object[layout.LayoutBuilding]) views.AdminBuilding {
	b := o.V
	return views.AdminBuilding{
		ID: b.ID, Name: b.Name, Country: b.Address.Country, City: b.Address.City, Address: b.Address.Address,
		Timezone: b.Timezone, Active: isActive(b.Status), Visible: orTrue(b.Visible), ETag: o.ETag,
	}
}

// Buildings is GET /admin/buildings: the organization's buildings.
func (s *Handlers) Buildings(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	bs, err := list[layout.LayoutBuilding](ctx, s, actor, layout.Buildings)
	if err != nil {
		return err
	}
	fs, err := list[layout.LayoutFloor](ctx, s, actor, layout.Floors)
	if err != nil {
		return err
	}
	p := views.AdminBuildingsPage{Flash: s.adminFlash(c)}
	for _, b := range bs {
		v := buildingView(b)
		for _, f := range fs {
			if f.V.BuildingID == b.V.ID {
				v.Floors++
			}
		}
		p.Buildings = append(p.Buildings, v)
	}
	slices.SortFunc(p.Buildings, func(a, b views.AdminBuilding) int { return booking.CompareNames(a.Name, b.Name) })
	return kit.Render(c, http.StatusOK, views.AdminBuildingsView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.buildings.title")), p))
}

// NewBuilding is GET /admin/buildings/new: the form of a new building.
func (s *Handlers) NewBuilding(c echo.Context) error {
	p := views.AdminBuildingPage{Building: views.AdminBuilding{Active: true, Visible: true}, Now: s.bookings.Now()}
	return kit.Render(c, http.StatusOK, views.AdminBuildingView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.buildings.add")), p))
}

// Building is GET /admin/buildings/:buildingId: a building's form and its floors.
func (s *Handlers) Building(c echo.Context) error { return buildingForm.show(s, c) }

// buildingPage reads a building and its floors for its form.
func (s *Handlers) buildingPage(c echo.Context, id uuid.UUID) (views.AdminBuildingPage, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	b, err := get[layout.LayoutBuilding](ctx, s, actor, layout.Buildings, id)
	if err != nil {
		return views.AdminBuildingPage{}, err
	}
	p := views.AdminBuildingPage{Building: buildingView(b), Now: s.bookings.Now()}
	fs, err := list[layout.LayoutFloor](ctx, s, actor, layout.Floors)
	if err != nil {
		return p, err
	}
	rs, err := list[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return p, err
	}
	for _, f := range fs {
		if f.V.BuildingID == b.V.ID {
			v := floorView(f, b.V.Name)
			v.Resources = countOnFloor(rs, f.V.ID)
			p.Floors = append(p.Floors, v)
		}
	}
	slices.SortFunc(p.Floors, func(a, b views.AdminFloor) int {
		return cmp.Or(cmp.Compare(a.Number, b.Number), booking.CompareNames(a.Name, b.Name))
	})
	return p, nil
}

func countOnFloor(rs []object[layout.LayoutResource], floor string) int {
	n := 0
	for _, r := range rs {
		if r.V.FloorID == floor {
			n++
		}
	}
	return n
}

// SaveBuilding is POST /admin/buildings (a new building) and POST /admin/buildings/:buildingId.
// A refusal shows the form again with the reason beside it.
func (s *Handlers) SaveBuilding(c echo.Context) error { return buildingForm.save(s, c) }

// buildingForm shows and saves a building on its page.
var buildingForm = objectForm[layout.LayoutBuilding, views.AdminBuildingPage]{
	coll: layout.Buildings, param: "buildingId", noun: "building", href: "/admin/buildings/",
	added: func(ctx context.Context, name string) string {
		return lang.T(ctx, "admin.buildings.added", map[string]any{"Name": name})
	},
	read: readBuildingForm,
	name: func(b layout.LayoutBuilding) string { return b.Name },
	page: (*Handlers).buildingPage,
	posted: func(s *Handlers, _ echo.Context, o object[layout.LayoutBuilding], isNew bool) (views.AdminBuildingPage, error) {
		p := views.AdminBuildingPage{Building: buildingView(o), Now: s.bookings.Now()}
		if isNew {
			p.Building.ID = ""
		}
		return p, nil
	},
	view:    views.AdminBuildingView,
	heading: func(p views.AdminBuildingPage) string { return p.Building.Name },
	notices: func(p *views.AdminBuildingPage, flash string, prob *views.AdminProblem) {
		p.Flash, p.Problem = flash, prob
	},
	title: func(ctx context.Context) string { return lang.T(ctx, "admin.common.building") },
}

// readBuildingForm reads the building form into b.
func readBuildingForm(_ *Handlers, c echo.Context, form url.Values, b *layout.LayoutBuilding, id uuid.UUID, _ bool) error {
	b.ID, b.OrganizationID = id.String(), kit.Actor(c).OrganizationID.String()
	b.Name, b.Timezone = textField(form, "name"), textField(form, "timezone")
	b.Address.Address, b.Address.City, b.Address.Country = textField(form, "address"), textField(form, "city"), textField(form, "country")
	b.Visible = adminPtr(checkField(form, "visible"))
	status, err := statusField(form)
	if err != nil {
		return err
	}
	b.Status = status
	if b.Name == "" {
		return kit.Refuse("admin.buildings.nameMissing")
	}
	if _, err := time.LoadLocation(b.Timezone); b.Timezone == "" || err != nil {
		return kit.Refuse("admin.buildings.timezoneMissing")
	}
	return nil
}

// buildingNames are the names of the organization's buildings by id, and the buildings themselves.
func (s *Handlers) buildingNames(ctx context.Context, actor booking.User) (map[string]string, []object[layout.LayoutBuilding], error) {
	bs, err := list[layout.LayoutBuilding](ctx, s, actor, layout.Buildings)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(bs, func(a, b object[layout.LayoutBuilding]) int {
		return booking.CompareNames(a.V.Name, b.V.Name)
	})
	names := make(map[string]string, len(bs))
	for _, b := range bs {
		names[b.V.ID] = b.V.Name
	}
	return names, bs, nil
}

// buildingOptions are the buildings to choose a floor's from.
func buildingOptions(bs []object[layout.LayoutBuilding]) []views.AdminOption {
	out := make([]views.AdminOption, 0, len(bs))
	for _, b := range bs {
		out = append(out, views.AdminOption{Value: b.V.ID, Label: b.V.Name})
	}
	return out
}

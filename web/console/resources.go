package console

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// resourceView is a resource as the admin pages show it.
func resourceView(o object[layout.LayoutResource]) views.AdminResource {
	r := o.V
	v := views.AdminResource{
		ID: r.ID, FloorID: r.FloorID, SubcategoryID: r.SubcategoryID, RuleID: r.ResourceRuleID,
		FeatureIDs: r.FeatureIDs, ReservableIDs: r.ReservableIDs, Name: r.Name, PosterCode: r.PosterCode,
		Image: r.Image, Phone: r.Phone, Approachable: orTrue(r.Approachable), Visible: orTrue(r.Visible),
		Active: isActive(r.Status), ETag: o.ETag,
		X1: r.MapCoordinates.TopLeftX, Y1: r.MapCoordinates.TopLeftY, X2: r.MapCoordinates.BottomRightX, Y2: r.MapCoordinates.BottomRightY,
	}
	if r.Capacity != nil {
		v.Capacity = strconv.Itoa(int(*r.Capacity))
	}
	return v
}

// layoutCatalogue is what a resource's form chooses from.
type layoutCatalogue struct {
	subcategories []object[layout.LayoutSubcategory]
	rules         []object[layout.LayoutResourceRule]
	features      []object[layout.LayoutFeature]
	reservables   []object[layout.LayoutReservable]
}

func (s *Handlers) readLayoutCatalogue(ctx context.Context, actor booking.User) (layoutCatalogue, error) {
	var k layoutCatalogue
	var err error
	if k.subcategories, err = list[layout.LayoutSubcategory](ctx, s, actor, layout.Subcategories); err != nil {
		return k, err
	}
	if k.rules, err = list[layout.LayoutResourceRule](ctx, s, actor, layout.ResourceRules); err != nil {
		return k, err
	}
	if k.features, err = list[layout.LayoutFeature](ctx, s, actor, layout.Features); err != nil {
		return k, err
	}
	k.reservables, err = list[layout.LayoutReservable](ctx, s, actor, layout.Reservables)
	return k, err
}

// subcategoryOptions lists the kinds of resource, each saying in ctx's language whether it is a desk or
// a room unless its name says it; desksOnly leaves out the rooms.
func (k layoutCatalogue) subcategoryOptions(ctx context.Context, desksOnly bool) []views.AdminOption {
	var out []views.AdminOption
	for _, sc := range k.subcategories {
		kind := lang.T(ctx, "admin.resources.kindDesk")
		if sc.V.Category == string(booking.CategorySpace) {
			if desksOnly {
				continue
			}
			kind = lang.T(ctx, "admin.resources.kindRoom")
		}
		label := sc.V.Name
		if !strings.Contains(strings.ToLower(label), kind) {
			label += " (" + kind + ")"
		}
		out = append(out, views.AdminOption{Value: sc.V.ID, Label: label})
	}
	return adminSortOptions(out)
}

func (k layoutCatalogue) ruleOptions(ctx context.Context) []views.AdminOption {
	out := make([]views.AdminOption, 0, len(k.rules))
	for i, r := range k.rules {
		name := r.V.Name
		if name == "" {
			name = lang.T(ctx, "admin.resources.ruleNumbered", map[string]any{"Number": i + 1})
		}
		out = append(out, views.AdminOption{Value: r.V.ID, Label: name})
	}
	return adminSortOptions(out)
}

func (k layoutCatalogue) featureOptions() []views.AdminOption {
	out := make([]views.AdminOption, 0, len(k.features))
	for _, f := range k.features {
		out = append(out, views.AdminOption{Value: f.V.ID, Label: f.V.Name})
	}
	return adminSortOptions(out)
}

func (k layoutCatalogue) reservableOptions() []views.AdminOption {
	out := make([]views.AdminOption, 0, len(k.reservables))
	for _, r := range k.reservables {
		out = append(out, views.AdminOption{Value: r.V.ID, Label: r.V.Name})
	}
	return adminSortOptions(out)
}

func (k layoutCatalogue) isSpace(subcategory string) bool {
	for _, sc := range k.subcategories {
		if sc.V.ID == subcategory {
			return sc.V.Category == string(booking.CategorySpace)
		}
	}
	return false
}

func adminSortOptions(o []views.AdminOption) []views.AdminOption {
	slices.SortStableFunc(o, func(a, b views.AdminOption) int { return booking.CompareNames(a.Label, b.Label) })
	return o
}

// floorOptions are the floors to choose from, "Building · Floor", and their names by id.
func (s *Handlers) floorOptions(ctx context.Context, actor booking.User) ([]views.AdminOption, map[string]string, error) {
	names, _, err := s.buildingNames(ctx, actor)
	if err != nil {
		return nil, nil, err
	}
	fs, err := list[layout.LayoutFloor](ctx, s, actor, layout.Floors)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(fs, func(a, b object[layout.LayoutFloor]) int {
		return cmp.Or(booking.CompareNames(names[a.V.BuildingID], names[b.V.BuildingID]),
			cmp.Compare(a.V.FloorNumber, b.V.FloorNumber), booking.CompareNames(a.V.Name, b.V.Name))
	})
	out := make([]views.AdminOption, 0, len(fs))
	floorNames := make(map[string]string, len(fs))
	for _, f := range fs {
		label := names[f.V.BuildingID] + " · " + f.V.Name
		out = append(out, views.AdminOption{Value: f.V.ID, Label: label})
		floorNames[f.V.ID] = label
	}
	return out, floorNames, nil
}

// Resources is GET /admin/resources: the desks and rooms, of the floor ?floor= or of all.
func (s *Handlers) Resources(c echo.Context) error {
	p, err := s.resourcesPage(c, c.QueryParam("floor"))
	if err != nil {
		return err
	}
	p.Flash = s.adminFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminResourcesView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.resources.title")), p))
}

// resourcesPage reads the desks and rooms of a floor ("" for all) and the choices of the form that
// changes many at once.
func (s *Handlers) resourcesPage(c echo.Context, floor string) (views.AdminResourcesPage, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	floors, floorNames, err := s.floorOptions(ctx, actor)
	if err != nil {
		return views.AdminResourcesPage{}, err
	}
	k, err := s.readLayoutCatalogue(ctx, actor)
	if err != nil {
		return views.AdminResourcesPage{}, err
	}
	rs, err := list[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return views.AdminResourcesPage{}, err
	}
	words := kit.Ctx(c)
	p := views.AdminResourcesPage{Floors: floors, Rules: k.ruleOptions(words), Subcategories: k.subcategoryOptions(words, false), Features: k.featureOptions()}
	if floor != "" {
		if _, ok := floorNames[floor]; ok {
			p.FloorID = floor
		}
	}
	kinds := map[string]string{}
	for _, o := range p.Subcategories {
		kinds[o.Value] = o.Label
	}
	for _, r := range rs {
		if p.FloorID != "" && r.V.FloorID != p.FloorID {
			continue
		}
		v := resourceView(r)
		v.FloorName, v.Kind = floorNames[r.V.FloorID], kinds[r.V.SubcategoryID]
		p.Resources = append(p.Resources, v)
	}
	slices.SortFunc(p.Resources, func(a, b views.AdminResource) int {
		return cmp.Or(booking.CompareNames(a.FloorName, b.FloorName), booking.CompareNames(a.Name, b.Name))
	})
	return p, nil
}

// resourcePage fills the choices of a resource's form.
func (s *Handlers) resourcePage(c echo.Context, r views.AdminResource) (views.AdminResourcePage, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	floors, _, err := s.floorOptions(ctx, actor)
	if err != nil {
		return views.AdminResourcePage{}, err
	}
	k, err := s.readLayoutCatalogue(ctx, actor)
	if err != nil {
		return views.AdminResourcePage{}, err
	}
	return views.AdminResourcePage{
		Resource: r, Floors: floors, Subcategories: k.subcategoryOptions(kit.Ctx(c), false), Rules: k.ruleOptions(kit.Ctx(c)),
		Features: k.featureOptions(), Reservables: k.reservableOptions(),
	}, nil
}

// NewResource is GET /admin/resources/new: the form of a new desk or room, on ?floor=.
func (s *Handlers) NewResource(c echo.Context) error {
	r := views.AdminResource{FloorID: c.QueryParam("floor"), Active: true, Visible: true, Approachable: true,
		X1: gridMargin, Y1: gridMargin, X2: gridMargin + gridDeskW, Y2: gridMargin + gridDeskH}
	p, err := s.resourcePage(c, r)
	if err != nil {
		return err
	}
	return kit.Render(c, http.StatusOK, views.AdminResourceView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.resources.add")), p))
}

// Resource is GET /admin/resources/:resourceId: a desk's or room's form.
func (s *Handlers) Resource(c echo.Context) error { return resourceForm.show(s, c) }

// SaveResource is POST /admin/resources (a new desk or room) and POST
// /admin/resources/:resourceId.
func (s *Handlers) SaveResource(c echo.Context) error { return resourceForm.save(s, c) }

// resourceForm shows and saves a desk or room on its page.
var resourceForm = objectForm[layout.LayoutResource, views.AdminResourcePage]{
	coll: layout.Resources, param: "resourceId", noun: "desk or room", href: "/admin/resources/",
	added: func(ctx context.Context, name string) string {
		return lang.T(ctx, "admin.resources.added", map[string]any{"Name": name})
	},
	read: func(s *Handlers, c echo.Context, form url.Values, r *layout.LayoutResource, id uuid.UUID, isNew bool) error {
		ctx, actor := c.Request().Context(), kit.Actor(c)
		r.ID, r.OrganizationID = id.String(), actor.OrganizationID.String()
		if err := readResourceForm(kit.Ctx(c), form, r, isNew); err != nil {
			return err
		}
		k, err := s.readLayoutCatalogue(ctx, actor)
		if err != nil {
			return err
		}
		if !k.isSpace(r.SubcategoryID) && r.Capacity != nil {
			r.Capacity = nil // a desk seats one; its capacity is not asked for
		}
		return nil
	},
	name: func(r layout.LayoutResource) string { return r.Name },
	page: func(s *Handlers, c echo.Context, id uuid.UUID) (views.AdminResourcePage, error) {
		cur, err := get[layout.LayoutResource](c.Request().Context(), s, kit.Actor(c), layout.Resources, id)
		if err != nil {
			return views.AdminResourcePage{}, err
		}
		return s.resourcePage(c, resourceView(cur))
	},
	posted: func(s *Handlers, c echo.Context, o object[layout.LayoutResource], isNew bool) (views.AdminResourcePage, error) {
		v := resourceView(o)
		if isNew {
			v.ID = ""
		}
		return s.resourcePage(c, v)
	},
	view:    views.AdminResourceView,
	heading: func(p views.AdminResourcePage) string { return p.Resource.Name },
	notices: func(p *views.AdminResourcePage, flash string, prob *views.AdminProblem) {
		p.Flash, p.Problem = flash, prob
	},
	title: func(ctx context.Context) string { return lang.T(ctx, "admin.resources.formTitle") },
}

// readResourceForm reads the resource form into r, refusing in ctx's language. On a refusal r still
// holds what was posted, for the form to show again.
func readResourceForm(ctx context.Context, form url.Values, r *layout.LayoutResource, isNew bool) error {
	r.SubcategoryID, r.FloorID, r.ResourceRuleID = textField(form, "subcategory"), textField(form, "floor"), textField(form, "rule")
	r.Name, r.PosterCode = textField(form, "name"), textField(form, "posterCode")
	r.Image, r.Phone = textField(form, "image"), textField(form, "phone")
	r.Visible, r.Approachable = adminPtr(checkField(form, "visible")), adminPtr(checkField(form, "approachable"))
	r.FeatureIDs, r.ReservableIDs = form["features"], form["reservables"]
	if len(r.FeatureIDs) > maxChosenExtras || len(r.ReservableIDs) > maxChosenExtras {
		return kit.Refuse("admin.resources.tooManyExtras", map[string]any{"Max": maxChosenExtras})
	}
	r.Capacity = nil
	if v := textField(form, "capacity"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return kit.Refuse("admin.resources.capacityRange")
		}
		r.Capacity = adminPtr(int32(n))
	}
	if isNew {
		var box [4]int
		var err error
		for i, name := range []string{"x1", "y1", "x2", "y2"} {
			if box[i], err = numberField(ctx, form, name, lang.T(ctx, "admin.resources.placeWords"), 0, maxPlanUnit); err != nil {
				return err
			}
		}
		r.MapCoordinates = layout.LayoutMapCoordinates{TopLeftX: int32(box[0]), TopLeftY: int32(box[1]), BottomRightX: int32(box[2]), BottomRightY: int32(box[3])}
	}
	var err error
	if r.Status, err = statusField(form); err != nil {
		return err
	}
	for _, f := range []struct{ name, refused string }{
		{"subcategory", lang.T(ctx, "admin.resources.chooseKind")},
		{"floor", lang.T(ctx, "admin.resources.chooseFloor")},
		{"rule", lang.T(ctx, "admin.common.chooseRule")},
	} {
		if _, err := choiceField(form, f.name, f.refused); err != nil {
			return err
		}
	}
	switch {
	case r.Name == "":
		return kit.Refuse("admin.resources.nameMissing")
	case !booking.PosterCodeValid(r.PosterCode):
		return kit.Refuse("admin.resources.posterCodeInvalid", map[string]any{"Max": booking.MaxPosterCodeLength})
	}
	return nil
}

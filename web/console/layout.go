package console

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/layout"
)

// The admin pages of the office's physical layout: buildings, floors, the plan editor and the desks and
// rooms. They read and write through layout.Service, in the import format, the same code path as the
// admin API and `booking import`. Every form carries the version (ETag) it was opened with: a form
// saved after someone else changed the object shows the current version instead of overwriting it.

// Bounds of the admin forms.
const (
	maxGridSide     = 20                   // rows, and desks per row, of one "add a grid of desks"
	maxPlanUnit     = booking.MaxPlanUnits // the largest coordinate on a floor plan
	maxChosenExtras = 200                  // features or services chosen for one resource
	maxGridPrefix   = 40                   // characters of the grid's name prefix
	maxGridStart    = 99999                // the grid's first number
)

// adminPtr returns a pointer to a copy of v.
func adminPtr[T any](v T) *T { return &v }

// orTrue reads an optional switch of the import format, which is on when left out.
func orTrue(b *bool) bool { return b == nil || *b }

// isActive reads a status of the import format, which is ACTIVATED when left out.
func isActive(status string) bool { return status == "" || status == booking.Activated }

// savedWords confirms a building, floor or resource form: "Added." and what to do next for a new
// object, "Saved." for a changed one.
func savedWords(isNew bool, name, next string) string {
	switch {
	case !isNew:
		return "Saved. " + name + " is up to date."
	case next == "":
		return "Added. " + name + " is saved."
	}
	return "Added. " + name + " is saved: " + next
}

// adminFlash returns what the previous form left for this page, as one sentence.
func (s *Handlers) adminFlash(c echo.Context) string {
	title, msg := s.PopFlash(c)
	if title != "" && msg != "" {
		return title + " " + msg
	}
	return title + msg
}

// Buildings.

func buildingView(o object[layout.LayoutBuilding]) views.AdminBuilding {
	b := o.V
	return views.AdminBuilding{
		ID: b.ID, Name: b.Name, Country: b.Address.Country, City: b.Address.City, Address: b.Address.Address,
		Timezone: b.Timezone, Active: isActive(b.Status), Visible: orTrue(b.Visible), ETag: o.ETag,
	}
}

func floorView(o object[layout.LayoutFloor], buildingName string) views.AdminFloor {
	f := o.V
	return views.AdminFloor{
		ID: f.ID, BuildingID: f.BuildingID, BuildingName: buildingName, Name: f.Name, Number: f.FloorNumber,
		Image: f.Image, Active: isActive(f.Status), Visible: orTrue(f.Visible), ETag: o.ETag,
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
	return kit.Render(c, http.StatusOK, views.AdminBuildingsView(s.Chrome(c, "Buildings"), p))
}

// NewBuilding is GET /admin/buildings/new: the form of a new building.
func (s *Handlers) NewBuilding(c echo.Context) error {
	p := views.AdminBuildingPage{Building: views.AdminBuilding{Active: true, Visible: true}, Now: time.Now()}
	return kit.Render(c, http.StatusOK, views.AdminBuildingView(s.Chrome(c, "Add a building"), p))
}

// Building is GET /admin/buildings/:buildingId: a building's form and its floors.
func (s *Handlers) Building(c echo.Context) error {
	id, err := pathID(c, "buildingId")
	if err != nil {
		return err
	}
	p, err := s.buildingPage(c, id)
	if err != nil {
		return err
	}
	p.Flash = s.adminFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminBuildingView(s.Chrome(c, p.Building.Name), p))
}

// buildingPage reads a building and its floors for its form.
func (s *Handlers) buildingPage(c echo.Context, id uuid.UUID) (views.AdminBuildingPage, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	b, err := get[layout.LayoutBuilding](ctx, s, actor, layout.Buildings, id)
	if err != nil {
		return views.AdminBuildingPage{}, err
	}
	p := views.AdminBuildingPage{Building: buildingView(b), Now: time.Now()}
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
func (s *Handlers) SaveBuilding(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	id, isNew := uuid.New(), c.Param("buildingId") == ""
	b := layout.LayoutBuilding{}
	if !isNew {
		var err error
		if id, err = pathID(c, "buildingId"); err != nil {
			return err
		}
		cur, err := get[layout.LayoutBuilding](ctx, s, actor, layout.Buildings, id)
		if err != nil {
			return err
		}
		b = cur.V // keeps what the form does not show, such as the coordinates
	}
	b.ID, b.OrganizationID = id.String(), actor.OrganizationID.String()
	b.Name, b.Timezone = textField(form, "name"), textField(form, "timezone")
	b.Address.Address, b.Address.City, b.Address.Country = textField(form, "address"), textField(form, "city"), textField(form, "country")
	b.Visible = adminPtr(checkField(form, "visible"))
	etag := c.FormValue("etag")
	status, err := statusField(form)
	if err == nil {
		b.Status = status
		if b.Name == "" {
			err = kit.Invalid("give the building a name")
		} else if _, zerr := time.LoadLocation(b.Timezone); b.Timezone == "" || zerr != nil {
			err = kit.Invalid("choose the building's time zone from the list")
		}
	}
	if err == nil {
		_, err = put(ctx, s, actor, layout.Buildings, id, b, etag)
	}
	if err == nil {
		s.PutFlash(c, "", savedWords(isNew, b.Name, "add its floors next."))
		return c.Redirect(http.StatusSeeOther, "/admin/buildings/"+id.String())
	}
	prob, code, err := refusal(err, "building", nil)
	if err != nil {
		return err
	}
	p := views.AdminBuildingPage{Building: buildingView(object[layout.LayoutBuilding]{V: b, ETag: etag}), Now: time.Now(), Problem: prob}
	if isNew {
		p.Building.ID = ""
	}
	if prob.Stale {
		if p, err = s.buildingPage(c, id); err != nil {
			return err
		}
		p.Problem = prob
	}
	return kit.Render(c, code, views.AdminBuildingView(s.Chrome(c, "Building"), p))
}

// Floors.

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

// Floors is GET /admin/floors: every building's floors.
func (s *Handlers) Floors(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	names, bs, err := s.buildingNames(ctx, actor)
	if err != nil {
		return err
	}
	fs, err := list[layout.LayoutFloor](ctx, s, actor, layout.Floors)
	if err != nil {
		return err
	}
	rs, err := list[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return err
	}
	p := views.AdminFloorsPage{Flash: s.adminFlash(c)}
	for _, b := range bs {
		p.Buildings = append(p.Buildings, buildingView(b))
	}
	for _, f := range fs {
		v := floorView(f, names[f.V.BuildingID])
		v.Resources = countOnFloor(rs, f.V.ID)
		p.Floors = append(p.Floors, v)
	}
	slices.SortFunc(p.Floors, func(a, b views.AdminFloor) int {
		return cmp.Or(cmp.Compare(a.Number, b.Number), booking.CompareNames(a.Name, b.Name))
	})
	return kit.Render(c, http.StatusOK, views.AdminFloorsView(s.Chrome(c, "Floors"), p))
}

// buildingOptions are the buildings to choose a floor's from.
func buildingOptions(bs []object[layout.LayoutBuilding]) []views.AdminOption {
	out := make([]views.AdminOption, 0, len(bs))
	for _, b := range bs {
		out = append(out, views.AdminOption{Value: b.V.ID, Label: b.V.Name})
	}
	return out
}

// NewFloor is GET /admin/floors/new: the form of a new floor, in the building of ?building=.
func (s *Handlers) NewFloor(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	_, bs, err := s.buildingNames(ctx, actor)
	if err != nil {
		return err
	}
	if len(bs) == 0 {
		return booking.Errorf(booking.CodeBuildingNotFound, "add a building before its floors")
	}
	// A new floor starts hidden from people booking: it is being set up, as its switch's hint says.
	p := views.AdminFloorPage{Floor: views.AdminFloor{BuildingID: c.QueryParam("building"), Active: true}, Buildings: buildingOptions(bs)}
	return kit.Render(c, http.StatusOK, views.AdminFloorView(s.Chrome(c, "Add a floor"), p))
}

// Floor is GET /admin/floors/:floorId: a floor's form, its plan and its resources.
func (s *Handlers) Floor(c echo.Context) error {
	id, err := pathID(c, "floorId")
	if err != nil {
		return err
	}
	p, err := s.floorPage(c, id)
	if err != nil {
		return err
	}
	p.Flash = s.adminFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminFloorView(s.Chrome(c, p.Floor.Name), p))
}

// floorPage reads a floor, the buildings and its resources for its form.
func (s *Handlers) floorPage(c echo.Context, id uuid.UUID) (views.AdminFloorPage, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	f, err := get[layout.LayoutFloor](ctx, s, actor, layout.Floors, id)
	if err != nil {
		return views.AdminFloorPage{}, err
	}
	names, bs, err := s.buildingNames(ctx, actor)
	if err != nil {
		return views.AdminFloorPage{}, err
	}
	rs, err := list[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return views.AdminFloorPage{}, err
	}
	p := views.AdminFloorPage{Floor: floorView(f, names[f.V.BuildingID]), Buildings: buildingOptions(bs)}
	for _, r := range rs {
		if r.V.FloorID == f.V.ID {
			p.Resources = append(p.Resources, views.AdminResource{ID: r.V.ID, Name: r.V.Name})
		}
	}
	return p, nil
}

// SaveFloor is POST /admin/floors (a new floor) and POST /admin/floors/:floorId.
func (s *Handlers) SaveFloor(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	ctx, actor := c.Request().Context(), kit.Actor(c)
	id, isNew := uuid.New(), c.Param("floorId") == ""
	f := layout.LayoutFloor{}
	if !isNew {
		var err error
		if id, err = pathID(c, "floorId"); err != nil {
			return err
		}
		cur, err := get[layout.LayoutFloor](ctx, s, actor, layout.Floors, id)
		if err != nil {
			return err
		}
		f = cur.V // keeps the plan and the type
	}
	f.ID, f.OrganizationID = id.String(), actor.OrganizationID.String()
	f.BuildingID, f.Name = textField(form, "building"), textField(form, "name")
	f.Visible = adminPtr(checkField(form, "visible"))
	etag := c.FormValue("etag")
	number, err := numberField(form, "number", "the floor number", -20, 300)
	f.FloorNumber = int32(number)
	if err == nil {
		f.Status, err = statusField(form)
	}
	if err == nil {
		if _, err = choiceField(form, "building", "building"); err == nil && f.Name == "" {
			err = kit.Invalid("give the floor a name")
		}
	}
	if err == nil {
		_, err = put(ctx, s, actor, layout.Floors, id, f, etag)
	}
	if err == nil {
		s.PutFlash(c, "", savedWords(isNew, f.Name, "upload its plan and place its desks and rooms next."))
		return c.Redirect(http.StatusSeeOther, "/admin/floors/"+id.String())
	}
	prob, code, err := refusal(err, "floor", nil)
	if err != nil {
		return err
	}
	var p views.AdminFloorPage
	if prob.Stale {
		if p, err = s.floorPage(c, id); err != nil {
			return err
		}
	} else {
		_, bs, err := s.buildingNames(ctx, actor)
		if err != nil {
			return err
		}
		p = views.AdminFloorPage{Floor: floorView(object[layout.LayoutFloor]{V: f, ETag: etag}, ""), Buildings: buildingOptions(bs)}
		if isNew {
			p.Floor.ID = ""
		}
	}
	p.Problem = prob
	return kit.Render(c, code, views.AdminFloorView(s.Chrome(c, "Floor"), p))
}

// UploadPlan is POST /admin/floors/:floorId/plan/image: a new plan for the floor (SVG, PNG or
// JPEG, at most 5 MB), sent as multipart/form-data in the field "plan". A refusal shows beside the
// upload form and changes nothing.
func (s *Handlers) UploadPlan(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	id, err := pathID(c, "floorId")
	if err != nil {
		return err
	}
	// Another organization's floor is unknown (404) before anything about the upload is said.
	if _, err := s.layout.Get(ctx, actor, layout.Floors, id); err != nil {
		return err
	}
	data, contentType, err := readPlanUpload(c)
	if err == nil {
		_, err = s.bookings.SetFloorPlan(ctx, actor, id, contentType, data)
	}
	if err == nil {
		s.PutFlash(c, "Plan uploaded.", "People see the new plan from now on.")
		return c.Redirect(http.StatusSeeOther, "/admin/floors/"+id.String())
	}
	prob, code, err := refusal(err, "floor", nil)
	if err != nil {
		return err
	}
	prob.Title = "The plan was not uploaded"
	p, err := s.floorPage(c, id)
	if err != nil {
		return err
	}
	p.Upload = prob
	return kit.Render(c, code, views.AdminFloorView(s.Chrome(c, p.Floor.Name), p))
}

// readPlanUpload reads the uploaded plan and the type the browser gives it (from the file's name), which
// SetFloorPlan checks the bytes against. It refuses files over 5 MB (4130), a type other than SVG, PNG
// or JPEG, and a PNG or JPEG named as the other.
func readPlanUpload(c echo.Context) ([]byte, string, error) {
	if c.Request().ContentLength > kit.MaxUploadBody {
		return nil, "", booking.PlanTooLarge() // refused before a byte of it is read
	}
	fh, err := c.FormFile("plan")
	var over *http.MaxBytesError
	switch {
	case errors.As(err, &over):
		return nil, "", booking.PlanTooLarge()
	case err != nil:
		return nil, "", kit.Invalid("choose the plan's file: an SVG, PNG or JPEG image")
	case fh.Size > booking.MaxPlanBytes:
		return nil, "", booking.PlanTooLarge()
	}
	f, err := fh.Open()
	if err != nil {
		return nil, "", fmt.Errorf("open the upload: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, booking.MaxPlanBytes+1))
	if err != nil {
		return nil, "", fmt.Errorf("read the upload: %w", err)
	}
	if len(data) > booking.MaxPlanBytes {
		return nil, "", booking.PlanTooLarge()
	}
	claimed := planType(fh)
	if claimed == "" {
		return nil, "", kit.Invalid("the plan must be an SVG, PNG or JPEG image; this file is none of them")
	}
	// The domain refuses a mismatch too; here it is said in the words of a file's name.
	if sniffed := http.DetectContentType(data); (sniffed == "image/png" || sniffed == "image/jpeg") && sniffed != claimed {
		is, named := planTypeNames[sniffed], planTypeNames[claimed]
		return nil, "", kit.Invalid("this file is a %s image but its name says %s: rename it to end in .%s and upload it again",
			is, named, strings.ToLower(strings.TrimPrefix(sniffed, "image/")[:3]))
	}
	return data, claimed, nil
}

// planTypeNames are the names people know the plan types by.
var planTypeNames = map[string]string{"image/svg+xml": "SVG", "image/png": "PNG", "image/jpeg": "JPEG"}

// planType is the plan type the upload claims: its part's Content-Type, which browsers take from the
// file's name, else the type of its extension; "" when it is none of booking.PlanContentTypes.
func planType(fh *multipart.FileHeader) string {
	if mt, _, err := mime.ParseMediaType(fh.Header.Get("Content-Type")); err == nil && slices.Contains(booking.PlanContentTypes, mt) {
		return mt
	}
	switch strings.ToLower(path.Ext(fh.Filename)) {
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	}
	return ""
}

// The plan editor.

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

// subcategoryOptions lists the kinds of resource; desksOnly leaves out the rooms.
func (k layoutCatalogue) subcategoryOptions(desksOnly bool) []views.AdminOption {
	var out []views.AdminOption
	for _, sc := range k.subcategories {
		kind := "desk"
		if sc.V.Category == string(booking.CategorySpace) {
			if desksOnly {
				continue
			}
			kind = "room"
		}
		label := sc.V.Name
		if !strings.Contains(strings.ToLower(label), kind) {
			label += " (" + kind + ")"
		}
		out = append(out, views.AdminOption{Value: sc.V.ID, Label: label})
	}
	return adminSortOptions(out)
}

func (k layoutCatalogue) ruleOptions() []views.AdminOption {
	out := make([]views.AdminOption, 0, len(k.rules))
	for i, r := range k.rules {
		name := r.V.Name
		if name == "" {
			name = "Rule " + strconv.Itoa(i+1)
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

// Plan is GET /admin/floors/:floorId/plan: the plan editor of a floor.
func (s *Handlers) Plan(c echo.Context) error {
	id, err := pathID(c, "floorId")
	if err != nil {
		return err
	}
	p, err := s.planPage(c, id)
	if err != nil {
		return err
	}
	p.Flash = s.adminFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminPlanView(s.Chrome(c, "Place desks and rooms"), p))
}

// planPage reads the floor, its resources and the layoutCatalogue for the plan editor.
func (s *Handlers) planPage(c echo.Context, id uuid.UUID) (views.AdminPlanPage, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	f, err := get[layout.LayoutFloor](ctx, s, actor, layout.Floors, id)
	if err != nil {
		return views.AdminPlanPage{}, err
	}
	b, err := get[layout.LayoutBuilding](ctx, s, actor, layout.Buildings, uuid.MustParse(f.V.BuildingID))
	if err != nil {
		return views.AdminPlanPage{}, err
	}
	rs, err := list[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return views.AdminPlanPage{}, err
	}
	k, err := s.readLayoutCatalogue(ctx, actor)
	if err != nil {
		return views.AdminPlanPage{}, err
	}
	p := views.AdminPlanPage{
		Floor: floorView(f, b.V.Name), Subcategories: k.subcategoryOptions(true), Rules: k.ruleOptions(),
		Grid: views.AdminGrid{Rows: "1", Columns: "4", Prefix: "Desk", Start: "1"},
	}
	var places []booking.MapCoordinates
	for _, r := range rs {
		if r.V.FloorID == f.V.ID {
			v := resourceView(r)
			p.Resources = append(p.Resources, v)
			places = append(places, booking.MapCoordinates{TopLeftX: v.X1, TopLeftY: v.Y1, BottomRightX: v.X2, BottomRightY: v.Y2})
		}
	}
	slices.SortFunc(p.Resources, func(a, b views.AdminResource) int { return booking.CompareNames(a.Name, b.Name) })
	// The same coordinate system as the employees' floor plan, so that both draw alike.
	var known bool
	if p.Width, p.Height, known, err = s.bookings.PlanDrawingSize(ctx, actor, f.V.Image, places); err != nil {
		return views.AdminPlanPage{}, err
	}
	p.Grows = !known
	if !known && f.V.Image == "" {
		// No plan under the desks, so nothing to misplace: room to drag desks beyond the last one.
		p.Width, p.Height = max(p.Width, booking.DefaultPlanWidth), max(p.Height, booking.DefaultPlanHeight)
	}
	// New desks are like most desks: the kind and rule the organization's desks use most.
	p.Grid.SubcategoryID, p.Grid.RuleID = mostUsed(rs, p.Subcategories, func(r layout.LayoutResource) string { return r.SubcategoryID }),
		mostUsed(rs, p.Rules, func(r layout.LayoutResource) string {
			if slices.ContainsFunc(p.Subcategories, func(o views.AdminOption) bool { return o.Value == r.SubcategoryID }) {
				return r.ResourceRuleID
			}
			return ""
		})
	return p, nil
}

// mostUsed returns the option that of(r) names most often among the resources, or the first option
// when none names any; "" when there are no options.
func mostUsed(rs []object[layout.LayoutResource], options []views.AdminOption, of func(layout.LayoutResource) string) string {
	if len(options) == 0 {
		return ""
	}
	uses := map[string]int{}
	for _, r := range rs {
		uses[of(r.V)]++
	}
	best := options[0].Value
	for _, o := range options {
		if uses[o.Value] > uses[best] {
			best = o.Value
		}
	}
	return best
}

// The size and spacing of desks added as a grid, in the plan's units. A new grid keeps gridMargin away
// from the plan's edges and from what is already on it.
const (
	gridDeskW, gridDeskH = 60, 40
	gridGap              = 12
	gridMargin           = 20
)

// PlanGrid is POST /admin/floors/:floorId/plan/grid: adds rows × columns desks named prefix and
// a number counting up from start, each with a poster code of its own, in the largest part of the plan
// that nothing covers. A plan without room for them is refused and nothing is added.
func (s *Handlers) PlanGrid(c echo.Context) error {
	id, err := pathID(c, "floorId")
	if err != nil {
		return err
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	p, err := s.planPage(c, id)
	if err != nil {
		return err
	}
	g := views.AdminGrid{
		Rows: textField(form, "rows"), Columns: textField(form, "columns"), Prefix: textField(form, "prefix"),
		Start: textField(form, "start"), SubcategoryID: textField(form, "subcategory"), RuleID: textField(form, "rule"),
	}
	p.Grid = g
	added, err := s.addGrid(c, form, p)
	if err == nil {
		s.PutFlash(c, "Added.", adminCount(added, "desk")+" placed in the largest free part of the plan: drag them where they belong.")
		return c.Redirect(http.StatusSeeOther, "/admin/floors/"+id.String()+"/plan")
	}
	prob, code, err := refusal(err, "floor", nil)
	if err != nil {
		return err
	}
	if added > 0 {
		prob.Message = adminCount(added, "desk") + " were added before this one was refused. " + prob.Message
		if p, err = s.planPage(c, id); err != nil {
			return err
		}
		p.Grid = g
	}
	p.Problem = prob
	return kit.Render(c, code, views.AdminPlanView(s.Chrome(c, "Place desks and rooms"), p))
}

func adminCount(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// addGrid adds the desks of the grid form and returns how many it added. Each desk is saved on its own,
// so a refusal part way keeps those saved before it.
func (s *Handlers) addGrid(c echo.Context, form url.Values, p views.AdminPlanPage) (int, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	rows, err := numberField(form, "rows", "the number of rows", 1, maxGridSide)
	if err != nil {
		return 0, err
	}
	cols, err := numberField(form, "columns", "the number of desks per row", 1, maxGridSide)
	if err != nil {
		return 0, err
	}
	start, err := numberField(form, "start", "the first number", 0, maxGridStart)
	if err != nil {
		return 0, err
	}
	prefix := p.Grid.Prefix
	if prefix == "" || len([]rune(prefix)) > maxGridPrefix {
		return 0, kit.Invalid("the name must have 1 to %d characters", maxGridPrefix)
	}
	sub, err := choiceField(form, "subcategory", "kind of desk")
	if err != nil {
		return 0, err
	}
	rule, err := choiceField(form, "rule", "rule")
	if err != nil {
		return 0, err
	}
	all, err := list[layout.LayoutResource](ctx, s, actor, layout.Resources)
	if err != nil {
		return 0, err
	}
	codes := make(map[string]bool, len(all))
	for _, r := range all {
		codes[strings.ToLower(r.V.PosterCode)] = true
	}
	// In the largest free part of the plan, clear of the desks and rooms already there.
	taken := make([]booking.MapCoordinates, 0, len(p.Resources))
	for _, r := range p.Resources {
		taken = append(taken, booking.MapCoordinates{TopLeftX: r.X1, TopLeftY: r.Y1, BottomRightX: r.X2, BottomRightY: r.Y2})
	}
	w, h := int32(cols*gridDeskW+(cols-1)*gridGap), int32(rows*gridDeskH+(rows-1)*gridGap)
	planW, planH := p.Width, p.Height
	if p.Grows {
		// A plan as large as what is on it grows with the new desks: there is room below it.
		planW, planH = max(planW, w+2*gridMargin), planH+h+gridMargin
	}
	place, ok := booking.FreeSpace(planW, planH, taken, w, h, gridMargin)
	if !ok {
		return 0, kit.Invalid("there is no free space for %s of %s on this plan: move or resize what is there, or add fewer desks at once; nothing was added",
			adminCount(rows, "row"), adminCount(cols, "desk"))
	}
	added := 0
	for i := range rows {
		for j := range cols {
			n := start + i*cols + j
			x := place.TopLeftX + int32(j*(gridDeskW+gridGap))
			y := place.TopLeftY + int32(i*(gridDeskH+gridGap))
			code := uniquePosterCode(prefix, n, p.Floor.Number, codes)
			codes[strings.ToLower(code)] = true
			r := layout.LayoutResource{
				ID: uuid.NewString(), OrganizationID: actor.OrganizationID.String(), FloorID: p.Floor.ID,
				SubcategoryID: sub, ResourceRuleID: rule, Name: prefix + " " + strconv.Itoa(n), PosterCode: code,
				MapCoordinates: layout.LayoutMapCoordinates{TopLeftX: x, TopLeftY: y, BottomRightX: x + gridDeskW, BottomRightY: y + gridDeskH},
				Approachable:   adminPtr(true), Visible: adminPtr(true), Status: booking.Activated,
			}
			if _, err := put(ctx, s, actor, layout.Resources, uuid.MustParse(r.ID), r, ""); err != nil {
				return added, err
			}
			added++
		}
	}
	return added, nil
}

var notCodeChar = regexp.MustCompile(`[^A-Za-z0-9]+`)

// uniquePosterCode makes the poster code of desk n named prefix: "DESK-7", or "F2-DESK-7" when that is
// taken, or with a further "-2", "-3"… It is never one of taken (lower-cased), and always a valid code.
func uniquePosterCode(prefix string, n int, floor int32, taken map[string]bool) string {
	base := strings.Trim(notCodeChar.ReplaceAllString(strings.ToUpper(prefix), "-"), "-")
	if base == "" {
		base = "DESK"
	}
	if len(base) > 30 {
		base = base[:30]
	}
	code := base + "-" + strconv.Itoa(n)
	if !taken[strings.ToLower(code)] {
		return code
	}
	code = "F" + strconv.Itoa(int(floor)) + "-" + code
	for k := 2; taken[strings.ToLower(code)]; k++ {
		code = "F" + strconv.Itoa(int(floor)) + "-" + base + "-" + strconv.Itoa(n) + "-" + strconv.Itoa(k)
	}
	return code
}

// positionAnswer is the answer to a move on the plan editor: the resource's new version, or why the
// move was refused with its current version and place.
type positionAnswer struct {
	ETag    string                       `json:"etag,omitempty"`
	Message string                       `json:"message,omitempty"`
	Box     *layout.LayoutMapCoordinates `json:"box,omitempty"`
}

// MoveResource is POST /admin/resources/:resourceId/position: the resource's new rectangle on
// the plan (x1, y1, x2, y2), saved if its version is still etag. It answers JSON for the editor's script.
func (s *Handlers) MoveResource(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	id, err := pathID(c, "resourceId")
	if err != nil {
		return err
	}
	cur, err := get[layout.LayoutResource](ctx, s, actor, layout.Resources, id)
	if err != nil {
		return err
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	var box [4]int
	for i, name := range []string{"x1", "y1", "x2", "y2"} {
		if box[i], err = numberField(form, name, "a place on the plan", 0, maxPlanUnit); err != nil {
			return c.JSON(http.StatusBadRequest, positionAnswer{Message: "That place is outside the plan, so it was not saved."})
		}
	}
	if box[2] <= box[0] || box[3] <= box[1] {
		return c.JSON(http.StatusBadRequest, positionAnswer{Message: "A desk or room needs a width and a height; it was not saved."})
	}
	r := cur.V
	r.MapCoordinates = layout.LayoutMapCoordinates{TopLeftX: int32(box[0]), TopLeftY: int32(box[1]), BottomRightX: int32(box[2]), BottomRightY: int32(box[3])}
	obj, err := put(ctx, s, actor, layout.Resources, id, r, c.FormValue("etag"))
	if err == nil {
		return c.JSON(http.StatusOK, positionAnswer{ETag: obj.ETag})
	}
	prob, code, err := refusal(err, "desk or room", nil)
	if err != nil {
		return err
	}
	ans := positionAnswer{Message: prob.Message}
	if prob.Stale {
		ans.Message = "Someone else changed " + cur.V.Name + " since you opened this plan, so it was put back. Reload the page to see their change."
		if now, err := get[layout.LayoutResource](ctx, s, actor, layout.Resources, id); err == nil {
			ans.ETag, ans.Box = now.ETag, &now.V.MapCoordinates
		}
	}
	return c.JSON(code, ans)
}

// Resources.

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
	return kit.Render(c, http.StatusOK, views.AdminResourcesView(s.Chrome(c, "Desks and rooms"), p))
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
	p := views.AdminResourcesPage{Floors: floors, Rules: k.ruleOptions(), Subcategories: k.subcategoryOptions(false), Features: k.featureOptions()}
	if floor != "" {
		if _, ok := floorNames[floor]; ok {
			p.FloorID = floor
		}
	}
	kinds := map[string]string{}
	for _, o := range k.subcategoryOptions(false) {
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
		Resource: r, Floors: floors, Subcategories: k.subcategoryOptions(false), Rules: k.ruleOptions(),
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
	return kit.Render(c, http.StatusOK, views.AdminResourceView(s.Chrome(c, "Add a desk or room"), p))
}

// Resource is GET /admin/resources/:resourceId: a desk's or room's form.
func (s *Handlers) Resource(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	id, err := pathID(c, "resourceId")
	if err != nil {
		return err
	}
	cur, err := get[layout.LayoutResource](ctx, s, actor, layout.Resources, id)
	if err != nil {
		return err
	}
	p, err := s.resourcePage(c, resourceView(cur))
	if err != nil {
		return err
	}
	p.Flash = s.adminFlash(c)
	return kit.Render(c, http.StatusOK, views.AdminResourceView(s.Chrome(c, cur.V.Name), p))
}

// SaveResource is POST /admin/resources (a new desk or room) and POST
// /admin/resources/:resourceId.
func (s *Handlers) SaveResource(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	id, isNew := uuid.New(), c.Param("resourceId") == ""
	r := layout.LayoutResource{}
	if !isNew {
		var err error
		if id, err = pathID(c, "resourceId"); err != nil {
			return err
		}
		cur, err := get[layout.LayoutResource](ctx, s, actor, layout.Resources, id)
		if err != nil {
			return err
		}
		r = cur.V
	}
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	etag := form.Get("etag")
	r.ID, r.OrganizationID = id.String(), actor.OrganizationID.String()
	err = readResourceForm(form, &r, isNew)
	if err == nil {
		k, kerr := s.readLayoutCatalogue(ctx, actor)
		if kerr != nil {
			return kerr
		}
		if !k.isSpace(r.SubcategoryID) && r.Capacity != nil {
			r.Capacity = nil // a desk seats one; its capacity is not asked for
		}
		_, err = put(ctx, s, actor, layout.Resources, id, r, etag)
	}
	if err == nil {
		s.PutFlash(c, "", savedWords(isNew, r.Name, ""))
		return c.Redirect(http.StatusSeeOther, "/admin/resources/"+id.String())
	}
	prob, code, err := refusal(err, "desk or room", nil)
	if err != nil {
		return err
	}
	v := resourceView(object[layout.LayoutResource]{V: r, ETag: etag})
	if prob.Stale {
		cur, err := get[layout.LayoutResource](ctx, s, actor, layout.Resources, id)
		if err != nil {
			return err
		}
		v = resourceView(cur)
	}
	if isNew {
		v.ID = ""
	}
	p, err := s.resourcePage(c, v)
	if err != nil {
		return err
	}
	p.Problem = prob
	return kit.Render(c, code, views.AdminResourceView(s.Chrome(c, "Desk or room"), p))
}

// readResourceForm reads the resource form into r. On a refusal r still holds what was posted, for the
// form to show again.
func readResourceForm(form url.Values, r *layout.LayoutResource, isNew bool) error {
	r.SubcategoryID, r.FloorID, r.ResourceRuleID = textField(form, "subcategory"), textField(form, "floor"), textField(form, "rule")
	r.Name, r.PosterCode = textField(form, "name"), textField(form, "posterCode")
	r.Image, r.Phone = textField(form, "image"), textField(form, "phone")
	r.Visible, r.Approachable = adminPtr(checkField(form, "visible")), adminPtr(checkField(form, "approachable"))
	r.FeatureIDs, r.ReservableIDs = form["features"], form["reservables"]
	if len(r.FeatureIDs) > maxChosenExtras || len(r.ReservableIDs) > maxChosenExtras {
		return kit.Invalid("choose at most %d features and %d services", maxChosenExtras, maxChosenExtras)
	}
	r.Capacity = nil
	if v := textField(form, "capacity"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 10000 {
			return kit.Invalid("the capacity must be a whole number of people from 1 to 10000")
		}
		r.Capacity = adminPtr(int32(n))
	}
	if isNew {
		var box [4]int
		var err error
		for i, name := range []string{"x1", "y1", "x2", "y2"} {
			if box[i], err = numberField(form, name, "the place on the plan", 0, maxPlanUnit); err != nil {
				return err
			}
		}
		r.MapCoordinates = layout.LayoutMapCoordinates{TopLeftX: int32(box[0]), TopLeftY: int32(box[1]), BottomRightX: int32(box[2]), BottomRightY: int32(box[3])}
	}
	var err error
	if r.Status, err = statusField(form); err != nil {
		return err
	}
	for _, f := range []struct{ name, label string }{{"subcategory", "kind"}, {"floor", "floor"}, {"rule", "rule"}} {
		if _, err := choiceField(form, f.name, f.label); err != nil {
			return err
		}
	}
	switch {
	case r.Name == "":
		return kit.Invalid("give it a name")
	case !booking.PosterCodeValid(r.PosterCode):
		return kit.Invalid("the poster code must have 1 to %d letters, digits, \".\", \"_\" or \"-\"", booking.MaxPosterCodeLength)
	}
	return nil
}

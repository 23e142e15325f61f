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
	"slices"
	"strings"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

func floorView(o object[layout.LayoutFloor], buildingName string) views.AdminFloor {
	f := o.V
	return views.AdminFloor{
		ID: f.ID, BuildingID: f.BuildingID, BuildingName: buildingName, Name: f.Name, Number: f.FloorNumber,
		Image: f.Image, Active: isActive(f.Status), Visible: orTrue(f.Visible), ETag: o.ETag,
	}
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
	return kit.Render(c, http.StatusOK, views.AdminFloorsView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.floors.title")), p))
}

// NewFloor is GET /admin/floors/new: the form of a new floor, in the building of ?building=.
func (s *Handlers) NewFloor(c echo.Context) error {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	_, bs, err := s.buildingNames(ctx, actor)
	if err != nil {
		return err
	}
	if len(bs) == 0 {
		return booking.Errorf(booking.CodeBuildingNotFound, "%s", lang.T(kit.Ctx(c), "admin.floors.buildingFirst"))
	}
	// A new floor starts hidden from people booking: it is being set up, as its switch's hint says.
	p := views.AdminFloorPage{Floor: views.AdminFloor{BuildingID: c.QueryParam("building"), Active: true}, Buildings: buildingOptions(bs)}
	return kit.Render(c, http.StatusOK, views.AdminFloorView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.floors.add")), p))
}

// Floor is GET /admin/floors/:floorId: a floor's form, its plan and its resources.
func (s *Handlers) Floor(c echo.Context) error { return floorForm.show(s, c) }

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
func (s *Handlers) SaveFloor(c echo.Context) error { return floorForm.save(s, c) }

// floorForm shows and saves a floor on its page.
var floorForm = objectForm[layout.LayoutFloor, views.AdminFloorPage]{
	coll: layout.Floors, param: "floorId", noun: "floor", href: "/admin/floors/",
	added: func(ctx context.Context, name string) string {
		return lang.T(ctx, "admin.floors.added", map[string]any{"Name": name})
	},
	read: readFloorForm,
	name: func(f layout.LayoutFloor) string { return f.Name },
	page: (*Handlers).floorPage,
	posted: func(s *Handlers, c echo.Context, o object[layout.LayoutFloor], isNew bool) (views.AdminFloorPage, error) {
		_, bs, err := s.buildingNames(c.Request().Context(), kit.Actor(c))
		if err != nil {
			return views.AdminFloorPage{}, err
		}
		p := views.AdminFloorPage{Floor: floorView(o, ""), Buildings: buildingOptions(bs)}
		if isNew {
			p.Floor.ID = ""
		}
		return p, nil
	},
	view:    views.AdminFloorView,
	heading: func(p views.AdminFloorPage) string { return p.Floor.Name },
	notices: func(p *views.AdminFloorPage, flash string, prob *views.AdminProblem) {
		p.Flash, p.Problem = flash, prob
	},
	title: func(ctx context.Context) string { return lang.T(ctx, "admin.common.floor") },
}

// readFloorForm reads the floor form into f; f keeps its plan and its type.
func readFloorForm(_ *Handlers, c echo.Context, form url.Values, f *layout.LayoutFloor, id uuid.UUID, _ bool) error {
	f.ID, f.OrganizationID = id.String(), kit.Actor(c).OrganizationID.String()
	f.BuildingID, f.Name = textField(form, "building"), textField(form, "name")
	f.Visible = adminPtr(checkField(form, "visible"))
	ctx := kit.Ctx(c)
	number, err := numberField(ctx, form, "number", lang.T(ctx, "admin.floors.numberWords"), -20, 300)
	f.FloorNumber = int32(number)
	if err != nil {
		return err
	}
	if f.Status, err = statusField(form); err != nil {
		return err
	}
	if _, err := choiceField(form, "building", lang.T(ctx, "admin.floors.chooseBuilding")); err != nil {
		return err
	}
	if f.Name == "" {
		return kit.Refuse("admin.floors.nameMissing")
	}
	return nil
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
		s.PutFlash(c, lang.T(kit.Ctx(c), "admin.floors.planUploadedTitle"), lang.T(kit.Ctx(c), "admin.floors.planUploadedMessage"))
		return c.Redirect(http.StatusSeeOther, "/admin/floors/"+id.String())
	}
	prob, code, err := refusal(c, err, "floor", nil)
	if err != nil {
		return err
	}
	prob.Title = lang.T(kit.Ctx(c), "admin.floors.planNotUploaded")
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
		return nil, "", kit.Refuse("admin.floors.choosePlanFile")
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
		return nil, "", kit.Refuse("admin.floors.planWrongType")
	}
	// The domain refuses a mismatch too; here it is said in the words of a file's name.
	if sniffed := http.DetectContentType(data); (sniffed == "image/png" || sniffed == "image/jpeg") && sniffed != claimed {
		is, named := planTypeNames[sniffed], planTypeNames[claimed]
		return nil, "", kit.Refuse("admin.floors.planMisnamed", map[string]any{
			"Is": is, "Named": named, "Ext": strings.ToLower(strings.TrimPrefix(sniffed, "image/")[:3]),
		})
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

package console

import (
	"net/http"
	"net/url"
	"regexp"
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

// Bounds of the admin forms.
const (
	maxGridSide     = 20                   // rows, and desks per row, of one "add a grid of desks"
	maxPlanUnit     = booking.MaxPlanUnits // the largest coordinate on a floor plan
	maxChosenExtras = 200                  // features or services chosen for one resource
	maxGridPrefix   = 40                   // characters of the grid's name prefix
	maxGridStart    = 99999                // the grid's first number
)

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
	return kit.Render(c, http.StatusOK, views.AdminPlanView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.plan.title")), p))
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
	words := kit.Ctx(c)
	p := views.AdminPlanPage{
		Floor: floorView(f, b.V.Name), Subcategories: k.subcategoryOptions(words, true), Rules: k.ruleOptions(words),
		Grid: views.AdminGrid{Rows: "1", Columns: "4", Prefix: lang.T(words, "admin.plan.defaultPrefix"), Start: "1"},
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
	if err := s.withZones(ctx, actor, id, &p); err != nil {
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
		s.PutFlash(c, lang.T(kit.Ctx(c), "admin.plan.addedTitle"), lang.N(kit.Ctx(c), "admin.plan.added", added))
		return c.Redirect(http.StatusSeeOther, "/admin/floors/"+id.String()+"/plan")
	}
	prob, code, err := refusal(c, err, "floor", nil)
	if err != nil {
		return err
	}
	if added > 0 {
		prob.Message = lang.N(kit.Ctx(c), "admin.plan.addedBeforeRefusal", added) + " " + prob.Message
		if p, err = s.planPage(c, id); err != nil {
			return err
		}
		p.Grid = g
	}
	p.Problem = prob
	return kit.Render(c, code, views.AdminPlanView(s.Chrome(c, lang.T(kit.Ctx(c), "admin.plan.title")), p))
}

// addGrid adds the desks of the grid form and returns how many it added. Each desk is saved on its own,
// so a refusal part way keeps those saved before it.
func (s *Handlers) addGrid(c echo.Context, form url.Values, p views.AdminPlanPage) (int, error) {
	ctx, actor := c.Request().Context(), kit.Actor(c)
	words := kit.Ctx(c)
	rows, err := numberField(words, form, "rows", lang.T(words, "admin.plan.rowsWords"), 1, maxGridSide)
	if err != nil {
		return 0, err
	}
	cols, err := numberField(words, form, "columns", lang.T(words, "admin.plan.columnsWords"), 1, maxGridSide)
	if err != nil {
		return 0, err
	}
	start, err := numberField(words, form, "start", lang.T(words, "admin.plan.startWords"), 0, maxGridStart)
	if err != nil {
		return 0, err
	}
	prefix := p.Grid.Prefix
	if prefix == "" || len([]rune(prefix)) > maxGridPrefix {
		return 0, kit.Refuse("admin.plan.prefixLength", map[string]any{"Max": maxGridPrefix})
	}
	sub, err := choiceField(form, "subcategory", lang.T(words, "admin.plan.chooseDeskKind"))
	if err != nil {
		return 0, err
	}
	rule, err := choiceField(form, "rule", lang.T(words, "admin.common.chooseRule"))
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
		return 0, kit.Refused(lang.T(words, "admin.plan.noSpace", map[string]any{
			"Rows": lang.N(words, "admin.plan.rowCount", rows), "Desks": lang.N(words, "admin.plan.deskCount", cols),
		}))
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
	words := kit.Ctx(c)
	var box [4]int
	for i, name := range []string{"x1", "y1", "x2", "y2"} {
		if box[i], err = numberField(words, form, name, lang.T(words, "admin.plan.placeWords"), 0, maxPlanUnit); err != nil {
			return c.JSON(http.StatusBadRequest, positionAnswer{Message: lang.T(words, "admin.plan.moveOutside")})
		}
	}
	if box[2] <= box[0] || box[3] <= box[1] {
		return c.JSON(http.StatusBadRequest, positionAnswer{Message: lang.T(words, "admin.plan.moveNoSize")})
	}
	r := cur.V
	r.MapCoordinates = layout.LayoutMapCoordinates{TopLeftX: int32(box[0]), TopLeftY: int32(box[1]), BottomRightX: int32(box[2]), BottomRightY: int32(box[3])}
	obj, err := put(ctx, s, actor, layout.Resources, id, r, c.FormValue("etag"))
	if err == nil {
		return c.JSON(http.StatusOK, positionAnswer{ETag: obj.ETag})
	}
	prob, code, err := refusal(c, err, "desk or room", nil)
	if err != nil {
		return err
	}
	ans := positionAnswer{Message: prob.Message}
	if prob.Stale {
		ans.Message = lang.T(words, "admin.plan.moveStale", map[string]any{"Name": cur.V.Name})
		if now, err := get[layout.LayoutResource](ctx, s, actor, layout.Resources, id); err == nil {
			ans.ETag, ans.Box = now.ETag, &now.V.MapCoordinates
		}
	}
	return c.JSON(code, ans)
}

package console

import (
	"net/http"
	"net/url"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
)

// ChangeResources is POST /admin/resources/bulk: one change (the rule, the kind, features
// added and taken away) to every desk and room ticked on the list, all or none, through
// layout.Service.ChangeResources. It goes back to the list, of the floor the form names, saying how many
// changed. A refusal shows the list again with the reason beside the form and the boxes as ticked;
// another organization's resource is 404 and changes nothing.
func (s *Handlers) ChangeResources(c echo.Context) error {
	words := kit.Ctx(c)
	form, err := c.FormParams()
	if err != nil {
		return kit.Refuse("admin.bulk.unreadable")
	}
	sent := views.AdminBulk{
		IDs: form["ids"], RuleID: form.Get("rule"), SubcategoryID: form.Get("subcategory"),
		Add: form["add"], Remove: form["remove"],
	}
	n, err := s.changeResources(c, sent)
	if err == nil {
		if n == 0 {
			s.PutFlash(c, lang.T(words, "admin.bulk.nothingChangedTitle"), lang.T(words, "admin.bulk.nothingChangedMessage"))
		} else {
			s.PutFlash(c, lang.N(words, "admin.bulk.changed", n), "")
		}
		return c.Redirect(http.StatusSeeOther, "/admin/resources?"+url.Values{"floor": {form.Get("floor")}}.Encode())
	}
	if booking.ErrorCode(err) == booking.CodeObjectNotFound {
		return err
	}
	prob, code, err := refusal(c, err, "desk or room", nil)
	if err != nil {
		return err
	}
	prob.Title = lang.T(words, "admin.bulk.notChanged")
	p, err := s.resourcesPage(c, form.Get("floor"))
	if err != nil {
		return err
	}
	p.Bulk, p.BulkProblem = sent, prob
	return kit.Render(c, code, views.AdminResourcesView(s.Chrome(c, lang.T(words, "admin.resources.title")), p))
}

// changeResources reads the ids and the change of the form and makes it.
func (s *Handlers) changeResources(c echo.Context, f views.AdminBulk) (int, error) {
	if len(f.IDs) > layout.MaxBulkResources {
		return 0, kit.Refuse("admin.bulk.tooMany", map[string]any{"Max": layout.MaxBulkResources})
	}
	ids, err := adminIDs("ids", f.IDs)
	if err != nil {
		return 0, err
	}
	var ch layout.ResourceChange
	if ch.RuleID, err = adminOptionalID("rule", f.RuleID); err != nil {
		return 0, err
	}
	if ch.SubcategoryID, err = adminOptionalID("subcategory", f.SubcategoryID); err != nil {
		return 0, err
	}
	if ch.AddFeatures, err = adminIDs("add", f.Add); err != nil {
		return 0, err
	}
	if ch.RemoveFeatures, err = adminIDs("remove", f.Remove); err != nil {
		return 0, err
	}
	return s.layout.ChangeResources(c.Request().Context(), kit.Actor(c), ids, ch)
}

// adminIDs reads the ids of a group of check boxes.
func adminIDs(name string, vs []string) ([]uuid.UUID, error) {
	out := make([]uuid.UUID, 0, len(vs))
	for _, v := range vs {
		id, err := kit.ParseUUID(name, v)
		if err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, nil
}

// adminOptionalID reads a select whose first option, "", keeps what each object has.
func adminOptionalID(name, v string) (*uuid.UUID, error) {
	if v == "" {
		return nil, nil
	}
	id, err := kit.ParseUUID(name, v)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

package console

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/report"
)

// The utilisation page of the admin console: a building's report over a period (web/report), drawn as a
// chart beside its table, the same figures as CSV, and the organization's threshold and retention. The
// domain refuses anyone but an admin (1001), another organization's building (1004) and a bad grouping
// or period (2000).

// utilisationChoice is what the filters chose, read and checked.
type utilisationChoice struct {
	form     views.UtilisationForm
	req      report.Request
	building layout.LayoutBuilding
}

// utilisationChoose reads the filters of q over the organization's buildings. No building chosen is
// the first by name; no dates are the last 30 days closed in its time zone; no grouping is by floor. A
// building that is not the organization's is 1004; dates that cannot be read are 2000.
func (s *Handlers) utilisationChoose(ctx context.Context, q url.Values, buildings []layout.LayoutBuilding) (utilisationChoice, error) {
	ch := utilisationChoice{form: views.UtilisationForm{Building: q.Get("building"), From: q.Get("from"), To: q.Get("to"), By: q.Get("by")}}
	if ch.form.By == "" {
		ch.form.By = string(report.ByFloor)
	}
	ch.req.By = report.Grouping(ch.form.By)
	if ch.form.Building == "" && len(buildings) > 0 {
		ch.form.Building = buildings[0].ID
	}
	i := slices.IndexFunc(buildings, func(b layout.LayoutBuilding) bool { return b.ID == ch.form.Building })
	id, err := uuid.Parse(ch.form.Building)
	if i < 0 || err != nil {
		return ch, booking.Refuse(booking.CodeBuildingNotFound, "refusal.report.noBuilding")
	}
	ch.building, ch.req.BuildingID = buildings[i], id
	if ch.form.From == "" && ch.form.To == "" {
		from, to := report.DefaultPeriod(ch.building.Timezone, s.bookings.Now())
		ch.form.From, ch.form.To = from.Format(time.DateOnly), to.Format(time.DateOnly)
	}
	if ch.req.From, err = time.Parse(time.DateOnly, ch.form.From); err != nil {
		return ch, kit.Refuse("refusal.report.badFrom")
	}
	if ch.req.To, err = time.Parse(time.DateOnly, ch.form.To); err != nil {
		return ch, kit.Refuse("refusal.report.badTo")
	}
	return ch, nil
}

// utilisationBuildings are the organization's buildings, by name.
func (s *Handlers) utilisationBuildings(ctx context.Context, actor booking.User) ([]layout.LayoutBuilding, error) {
	buildings, _, err := listValues[layout.LayoutBuilding](ctx, s, actor, layout.Buildings)
	slices.SortFunc(buildings, func(a, b layout.LayoutBuilding) int { return booking.CompareNames(a.Name, b.Name) })
	return buildings, err
}

// utilisationPage reads the page for the filters of c's query; a refused filter is shown beside the form,
// with the status it is answered with.
func (s *Handlers) utilisationPage(c echo.Context) (views.AdminUtilisation, int, error) {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	set, err := s.reports.Settings(ctx, actor)
	if err != nil {
		return views.AdminUtilisation{}, 0, err
	}
	buildings, err := s.utilisationBuildings(ctx, actor)
	if err != nil {
		return views.AdminUtilisation{}, 0, err
	}
	p := views.AdminUtilisation{
		Chrome: s.Chrome(c, lang.T(ctx, "admin.utilisation.title")), Groupings: utilisationGroupings(ctx),
		Settings: views.UtilisationSettingsForm{Threshold: strconv.Itoa(set.Threshold), Retention: strconv.Itoa(set.Retention)},
	}
	for _, b := range buildings {
		p.Buildings = append(p.Buildings, views.Option{Value: b.ID, Label: b.Name})
	}
	if len(buildings) == 0 && c.QueryParam("building") == "" {
		return p, http.StatusOK, nil
	}
	ch, err := s.utilisationChoose(ctx, c.QueryParams(), buildings)
	p.Form = ch.form
	if err == nil {
		var rep report.Report
		if rep, err = s.reports.Build(ctx, actor, ch.req); err == nil {
			r := utilisationView(ctx, rep, s.bookings.Now())
			r.CSV = "/admin/utilisation.csv?" + url.Values{"building": {ch.form.Building}, "from": {ch.form.From}, "to": {ch.form.To}, "by": {ch.form.By}}.Encode()
			p.Report = &r
			return p, http.StatusOK, nil
		}
	}
	prob, status, err := refusal(c, err, "report", nil) // the words say what is wrong without the field's name
	if err != nil {
		return p, 0, err
	}
	p.Form.Problem = prob
	return p, status, nil
}

// Utilisation is GET /admin/utilisation[?building=&from=&to=&by=].
func (s *Handlers) Utilisation(c echo.Context) error {
	p, status, err := s.utilisationPage(c)
	if err != nil {
		return err
	}
	_, p.Notice = s.PopFlash(c)
	return kit.Render(c, status, views.AdminUtilisationPage(p))
}

// SaveUtilisationSettings is POST /admin/utilisation/settings (threshold, retention). A refusal shows the
// page again with the form as sent and changes nothing.
func (s *Handlers) SaveUtilisationSettings(c echo.Context) error {
	form, err := postedForm(c)
	if err != nil {
		return err
	}
	f := views.UtilisationSettingsForm{Threshold: textField(form, "threshold"), Retention: textField(form, "retention")}
	threshold, _ := strconv.Atoi(f.Threshold) // not a number: 0, which the domain refuses
	retention, _ := strconv.Atoi(f.Retention)
	ctx := kit.Ctx(c)
	if _, err := s.reports.SaveSettings(ctx, kit.Actor(c), report.Settings{Threshold: threshold, Retention: retention}); err != nil {
		prob, status, err := refusal(c, err, "report settings", nil)
		if err != nil {
			return err
		}
		p, _, err := s.utilisationPage(c)
		if err != nil {
			return err
		}
		p.Settings, p.Settings.Problem = f, prob
		return kit.Render(c, status, views.AdminUtilisationPage(p))
	}
	s.PutFlash(c, "", lang.T(ctx, "admin.utilisation.settingsSaved"))
	return c.Redirect(http.StatusSeeOther, "/admin/utilisation")
}

// utilisationGroupings are the choices of the form's grouping, in ctx's language.
func utilisationGroupings(ctx context.Context) []views.Option {
	out := make([]views.Option, len(report.Groupings))
	for i, g := range report.Groupings {
		out[i] = views.Option{Value: string(g), Label: groupingWords(ctx, g)}
	}
	return out
}

// groupingWords names a grouping as the form offers it: "By floor".
func groupingWords(ctx context.Context, g report.Grouping) string {
	switch g {
	case report.BySubcategory:
		return lang.T(ctx, "admin.utilisation.bySubcategory")
	case report.ByNeighbourhood:
		return lang.T(ctx, "admin.utilisation.byNeighbourhood")
	case report.ByDay:
		return lang.T(ctx, "admin.utilisation.byDay")
	case report.ByHour:
		return lang.T(ctx, "admin.utilisation.byHour")
	}
	return lang.T(ctx, "admin.utilisation.byFloor")
}

package console

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/workspacebooking/booking/views"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
	"github.com/workspacebooking/booking/web/report"
)

// msPerHour turns the report's ms into hours.
const msPerHour = float64(time.Hour / time.Millisecond)

// utilisationView is a report in words of ctx's language; now decides whether dates show their year.
func utilisationView(ctx context.Context, rep report.Report, now time.Time) views.UtilisationReport {
	last := rep.To.AddDate(0, 0, 1)
	r := views.UtilisationReport{
		Title: lang.T(ctx, "admin.utilisation.reportTitle", map[string]any{
			"Building": rep.BuildingName, "Period": lang.Period(ctx, rep.From, last, now)}),
		Column: columnWords(ctx, rep.By), Threshold: rep.Threshold,
	}
	for _, c := range rep.Cells {
		r.Rows = append(r.Rows, utilisationRowOf(ctx, cellLabel(ctx, rep.By, c, now), c))
		if c.Hidden {
			r.Hidden++
		}
	}
	r.Total = utilisationRowOf(ctx, lang.T(ctx, "admin.utilisation.total"), rep.Total)
	for _, c := range rep.PeakDays {
		r.PeakDays = append(r.PeakDays, utilisationRowOf(ctx, lang.Day(ctx, c.Day, now), c))
	}
	for _, c := range rep.MostUsed {
		r.MostUsed = append(r.MostUsed, utilisationRowOf(ctx, c.Label, c))
	}
	for _, c := range rep.LeastUsed {
		r.LeastUsed = append(r.LeastUsed, utilisationRowOf(ctx, c.Label, c))
	}
	for _, o := range rep.Services {
		r.Services = append(r.Services, views.UtilisationService{Name: o.Name, Hidden: o.Hidden,
			Quantity: lang.Number(ctx, float64(o.Quantity), 0), Bookings: lang.Number(ctx, float64(o.Bookings), 0)})
	}
	return r
}

// utilisationRowOf is a cell in words; a hidden cell has its label only.
func utilisationRowOf(ctx context.Context, label string, c report.Cell) views.UtilisationRow {
	if c.Hidden {
		return views.UtilisationRow{Label: label, Hidden: true}
	}
	hours := func(ms int64) string { return lang.Number(ctx, float64(ms)/msPerHour, 1) }
	share := func(ms int64) string { return lang.Percent(ctx, c.Share(ms)) }
	return views.UtilisationRow{
		Label: label, Bookable: hours(c.Bookable), Booked: hours(c.Booked), CheckedIn: hours(c.CheckedIn),
		NoShow: hours(c.NoShow), Released: hours(c.Released),
		BookedShare: share(c.Booked), CheckedInShare: share(c.CheckedIn), NoShowShare: share(c.NoShow),
		ReleasedShare: share(c.Released),
		BookedPct:     100 * c.Share(c.Booked), CheckedInPct: 100 * c.Share(c.CheckedIn),
	}
}

// cellLabel names a cell: its name, its date, or its hour ("09:00–10:00").
func cellLabel(ctx context.Context, by report.Grouping, c report.Cell, now time.Time) string {
	switch by {
	case report.ByDay:
		return lang.Day(ctx, c.Day, now)
	case report.ByHour:
		start := time.Date(2000, 1, 1, c.Hour, 0, 0, 0, time.UTC)
		return lang.Clock(start) + "–" + lang.Clock(start.Add(time.Hour))
	}
	return c.Label
}

// columnWords heads the cells' column of a grouping: "Floor".
func columnWords(ctx context.Context, g report.Grouping) string {
	switch g {
	case report.BySubcategory:
		return lang.T(ctx, "admin.utilisation.colSubcategory")
	case report.ByNeighbourhood:
		return lang.T(ctx, "admin.utilisation.colNeighbourhood")
	case report.ByDay:
		return lang.T(ctx, "admin.utilisation.colDay")
	case report.ByHour:
		return lang.T(ctx, "admin.utilisation.colHour")
	}
	return lang.T(ctx, "admin.utilisation.colFloor")
}

// UtilisationCSVHeader is the first line of the CSV: stable column names, the same in every language.
var UtilisationCSVHeader = []string{"cell", "label", "hidden", "bookable_hours", "booked_hours", "checked_in_hours",
	"no_show_hours", "released_hours", "booked_share", "checked_in_share", "no_show_share", "released_share"}

// UtilisationCSV is GET /admin/utilisation.csv[?building=&from=&to=&by=]: the page's cells and the
// building's total as UTF-8 CSV, hidden cells with empty figures. It refuses what the page refuses.
func (s *Handlers) UtilisationCSV(c echo.Context) error {
	ctx, actor := kit.Ctx(c), kit.Actor(c)
	buildings, err := s.utilisationBuildings(ctx, actor)
	if err != nil {
		return err
	}
	ch, err := s.utilisationChoose(ctx, c.QueryParams(), buildings)
	if err != nil {
		return err
	}
	rep, err := s.reports.Build(ctx, actor, ch.req)
	if err != nil {
		return err
	}
	name := fmt.Sprintf("utilisation-%s-%s-%s.csv", slug(rep.BuildingName), ch.form.From, ch.form.To)
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	h.Set(echo.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="%s"; filename*=UTF-8''%s`, name,
		url.PathEscape(fmt.Sprintf("utilisation-%s-%s-%s.csv", rep.BuildingName, ch.form.From, ch.form.To))))
	h.Set("Cache-Control", "no-store")
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	_ = w.Write(UtilisationCSVHeader)
	for _, cell := range rep.Cells {
		_ = w.Write(csvRow(csvKey(rep.By, cell), cell))
	}
	_ = w.Write(csvRow("total", rep.Total))
	w.Flush()
	return w.Error()
}

// csvKey is a cell's key in the CSV: the id of its place, its date or its hour.
func csvKey(by report.Grouping, c report.Cell) string {
	switch by {
	case report.ByDay:
		return c.Day.Format(time.DateOnly)
	case report.ByHour:
		return fmt.Sprintf("%02d", c.Hour)
	}
	return c.Key
}

// csvRow is a cell as a CSV record; a label that a spreadsheet would read as a formula is quoted with '.
func csvRow(key string, c report.Cell) []string {
	label := c.Label
	if label != "" && strings.ContainsRune("=+-@\t\r", rune(label[0])) {
		label = "'" + label
	}
	row := []string{key, label, strconv.FormatBool(c.Hidden)}
	if c.Hidden {
		return append(row, "", "", "", "", "", "", "", "", "")
	}
	hours := func(ms int64) string { return strconv.FormatFloat(float64(ms)/msPerHour, 'f', 2, 64) }
	share := func(ms int64) string { return strconv.FormatFloat(c.Share(ms), 'f', 4, 64) }
	return append(row, hours(c.Bookable), hours(c.Booked), hours(c.CheckedIn), hours(c.NoShow), hours(c.Released),
		share(c.Booked), share(c.CheckedIn), share(c.NoShow), share(c.Released))
}

// slug is a name in lower-case ASCII letters and digits joined by dashes, for a file name.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

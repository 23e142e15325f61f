package views

import (
	"context"
	"strconv"

	"github.com/workspacebooking/booking/web/lang"
)

// AdminUtilisation is the utilisation page: the report a GET form chooses, its chart and table, and the
// organization's threshold and retention.
type AdminUtilisation struct {
	Chrome
	Buildings []Option
	Groupings []Option
	Form      UtilisationForm
	Report    *UtilisationReport // nil when the form was refused or there is no building
	Settings  UtilisationSettingsForm
	Notice    string // a saved change, confirmed
}

// UtilisationForm is the report's filters as typed; Problem is a refusal of them.
type UtilisationForm struct {
	Building, From, To, By string
	Problem                *AdminProblem
}

// UtilisationSettingsForm is the threshold and retention as typed; Problem is a refusal of them.
type UtilisationSettingsForm struct {
	Threshold, Retention string
	Problem              *AdminProblem
}

// UtilisationReport is a report in words: Title names the building, period and grouping; Column heads
// the cells' column ("Floor"); CSV is the address of the same figures as a file.
type UtilisationReport struct {
	Title, Column, CSV string
	Threshold          int
	Rows               []UtilisationRow
	Total              UtilisationRow
	Hidden             int // cells hidden
	PeakDays           []UtilisationRow
	MostUsed           []UtilisationRow
	LeastUsed          []UtilisationRow
	Services           []UtilisationService
}

// UtilisationRow is a cell in words: its hours and shares of the bookable hours. A hidden row has
// only its label. BookedPct and CheckedInPct (0–100) size the chart's bars.
type UtilisationRow struct {
	Label                                         string
	Hidden                                        bool
	Bookable, Booked, CheckedIn, NoShow, Released string
	BookedShare, CheckedInShare, NoShowShare      string
	ReleasedShare                                 string
	BookedPct, CheckedInPct                       float64
}

// UtilisationService is a service ordered in the period; a hidden one has only its name.
type UtilisationService struct {
	Name, Quantity, Bookings string
	Hidden                   bool
}

// Chart geometry: each row of the bar chart is a label, a bar and its figures, one above the other, so
// that it reads at any width without scaling the text.
const (
	chartRow   = 58 // height of a row
	chartLabel = 16 // baseline of the label in a row
	chartBar   = 22 // top of the bar in a row
	chartBarH  = 14 // height of the bar
	chartFig   = 51 // baseline of the figures in a row
)

func chartHeight(n int) string { return strconv.Itoa(max(n, 1) * chartRow) }
func rowY(i, off int) string   { return strconv.Itoa(i*chartRow + off) }
func pct(v float64) string     { return strconv.FormatFloat(min(max(v, 0), 100), 'f', 2, 64) + "%" }

// chartFigures are a shown row's figures under its bar: "42% booked, 30% checked in".
func chartFigures(ctx context.Context, r UtilisationRow) string {
	return lang.T(ctx, "admin.utilisation.chartFigures", map[string]any{"Booked": r.BookedShare, "CheckedIn": r.CheckedInShare})
}

// chartDesc says what the chart shows, for those who cannot see it.
func chartDesc(ctx context.Context, r UtilisationReport) string {
	return lang.T(ctx, "admin.utilisation.chartDesc", map[string]any{"Column": r.Column})
}

package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/uuid"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/report"
)

// utilisationData books 6 people for an hour each on the Madrid floor and 4 on the hidden floor of the
// same building on Friday 20 November (three days before the fixture's today), and rolls the days up.
func utilisationData(t *testing.T, pb *pageBundle) {
	t.Helper()
	start := fx.At(-3, 10, 0)
	for i := range 10 {
		who := uuid.MustParse(fmt.Sprintf("00000000-0000-4000-9000-%012d", i))
		room := fx.RoomGoya
		if i >= 6 {
			room = fx.RoomOnHidden
		}
		q := `INSERT INTO users (organization_id, id, name, email) VALUES ($1, $2::uuid, 'person', $3)`
		if _, err := pb.Pool.Exec(t.Context(), q, fx.OrgA, who, fmt.Sprintf("person%d@acme.test", i)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		q = `INSERT INTO bookings (organization_id, id, resource_id, creator_id, organizer_id, start_date, end_date,
			status, resource_type, check_in_opens_at, check_in_closes_at, checked_in_at, subject, floor_id)
		 SELECT $1, gen_random_uuid(), $3, $2, $2, $4, $5, 'FINISHED', 'SPACE', $4, $5, $4, 'Planning', r.floor_id
		 FROM resources r WHERE r.organization_id = $1 AND r.id = $3`
		if _, err := pb.Pool.Exec(t.Context(), q, fx.OrgA, who, room, start, start.Add(time.Hour)); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := report.New(pb.Pool, report.WithClock(pb.Clock.Now)).Sweep(t.Context()); err != nil {
		t.Fatalf("Sweep: %v", err)
	}
}

// utilisationPath is the page (or with ".csv" the file) of Madrid on 20 November, grouped by.
func utilisationPath(file, by string) string {
	return "/admin/utilisation" + file + "?" + url.Values{"building": {fx.BuildingMadrid.String()}, "from": {"2026-11-20"},
		"to": {"2026-11-20"}, "by": {by}}.Encode()
}

func TestPageAdminUtilisation(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	utilisationData(t, pb)
	adam := pb.signedIn(t, fx.Adam)

	t.Run("AdminReadsTheReport", func(t *testing.T) {
		p := adam.get("/admin/utilisation")
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "Utilisation", "Madrid HQ, from", "Every figure is built from at least 5 people.")
		if got := p.attr(`.admin-nav a[aria-current="page"]`, "href"); got != "/admin/utilisation" {
			t.Errorf("the navigation marks %q, want /admin/utilisation", got)
		}
		if got, want := p.attr("#util-from", "value")+" "+p.attr("#util-to", "value"), "2026-10-24 2026-11-22"; got != want {
			t.Errorf("default period %q, want the last 30 days, %q", got, want)
		}
		p = adam.get(utilisationPath("", "hour"))
		p.wantStatus(t, http.StatusOK)
		if got := p.attr("svg.util-chart", "role"); got != "img" {
			t.Errorf("chart role %q, want img", got)
		}
		p.wantText(t, "svg.util-chart title", "Madrid HQ, on Fri 20 Nov")
		p.wantText(t, "svg.util-chart", "10:00–11:00", "checked in")
		p.wantText(t, ".util-table tfoot", "Whole building", "10.0")
		p.wantText(t, "#util-peak", "Fri 20 Nov", "10.0")
	})

	t.Run("FourPeopleFloorIsHiddenWithNoTotalGivingItBack", func(t *testing.T) {
		p := adam.get(utilisationPath("", "floor"))
		p.wantStatus(t, http.StatusOK)
		if got := p.count(".util-table tbody tr.util-hidden"); got != 2 {
			t.Errorf("%d hidden floors, want both: the floor of 4 and its sibling", got)
		}
		p.doc.Find(".util-table tbody td").Each(func(_ int, td *goquery.Selection) {
			if got := strings.TrimSpace(td.Text()); got != "—hidden" {
				t.Errorf("a floor's cell shows %q, want —hidden", got)
			}
		})
		p.wantText(t, ".util-hidden-note", "2 figures are hidden", "fewer than 5 people")
		p.wantText(t, ".util-table tfoot", "10.0")
		p.wantText(t, "svg.util-chart", "hidden: fewer than 5 people")
		if n := p.count("#util-most tbody tr") + p.count("#util-least tbody tr"); n != 0 {
			t.Errorf("%d resources listed, want none: their floors are hidden", n)
		}

		r := adam.get(utilisationPath(".csv", "floor"))
		r.wantStatus(t, http.StatusOK)
		lines := strings.Split(strings.TrimSpace(r.body), "\n")
		if len(lines) != 4 {
			t.Fatalf("CSV lines %q, want the header, 2 floors and the total", lines)
		}
		for _, l := range lines[1:3] {
			if !strings.HasSuffix(l, ",true,,,,,,,,,") {
				t.Errorf("floor row %q, want hidden with empty figures", l)
			}
		}
		if !strings.HasPrefix(lines[3], "total,,false,") || !strings.Contains(lines[3], ",10.00,10.00,") {
			t.Errorf("total row %q, want 10 h booked and checked in", lines[3])
		}
	})

	t.Run("CSVHeaderAndRow", func(t *testing.T) {
		r := adam.get(utilisationPath(".csv", "hour"))
		r.wantStatus(t, http.StatusOK)
		if got, want := r.header.Get("Content-Type"), "text/csv; charset=utf-8"; got != want {
			t.Errorf("Content-Type = %q, want %q", got, want)
		}
		if got, want := r.header.Get("Content-Disposition"), `attachment; filename="utilisation-madrid-hq-2026-11-20-2026-11-20.csv"; filename*=UTF-8''utilisation-Madrid%20HQ-2026-11-20-2026-11-20.csv`; got != want {
			t.Errorf("Content-Disposition = %q, want %q", got, want)
		}
		lines := strings.Split(r.body, "\n")
		if got, want := lines[0], "cell,label,hidden,bookable_hours,booked_hours,checked_in_hours,no_show_hours,released_hours,booked_share,checked_in_share,no_show_share,released_share"; got != want {
			t.Errorf("header = %q, want %q", got, want)
		}
		var ten string
		for _, l := range lines {
			if strings.HasPrefix(l, "10,") {
				ten = l
			}
		}
		if want := "10,,false,"; !strings.HasPrefix(ten, want) || !strings.Contains(ten, ",10.00,10.00,0.00,0.00,") {
			t.Errorf("the row of 10:00 = %q, want 10 h booked and checked in, nothing missed or released", ten)
		}
	})

	t.Run("Spanish", func(t *testing.T) {
		setLanguage := func(code string) {
			if _, err := pb.Pool.Exec(t.Context(), `UPDATE users SET user_language = $2 WHERE id = $1`, fx.Adam, code); err != nil {
				t.Fatal(err)
			}
		}
		setLanguage("es")
		defer setLanguage("en")
		p := pb.signedIn(t, fx.Adam).get(utilisationPath("", "floor"))
		p.wantStatus(t, http.StatusOK)
		p.wantText(t, "main", "Madrid HQ, el vie 20 nov", "Horas reservables", "Llegada registrada", "Todo el edificio", "10,0",
			"2 cifras están ocultas (—)", "menos de 5 personas", "oculta")
		p.wantText(t, "svg.util-chart", "oculta: menos de 5 personas")
	})

	t.Run("EmployeeIs403", func(t *testing.T) {
		alice := pb.signedIn(t, fx.Alice)
		alice.get("/admin/utilisation").wantStatus(t, http.StatusForbidden)
		alice.get(utilisationPath(".csv", "floor")).wantStatus(t, http.StatusForbidden)
	})

	t.Run("AnotherOrganizationsBuildingIs404", func(t *testing.T) {
		for _, file := range []string{"", ".csv"} {
			adam.get("/admin/utilisation"+file+"?building="+fx.BuildingB.String()).wantStatus(t, http.StatusNotFound)
			adam.get("/admin/utilisation"+file+"?building=nope").wantStatus(t, http.StatusNotFound)
		}
	})

	t.Run("BadPeriodIs400WithWords", func(t *testing.T) {
		for query, want := range map[string]string{
			"from=2026-13-01&to=2026-11-20": "From: write a date such as",
			"from=2026-11-20&to=soon":       "To: write a date such as",
			"from=2025-01-01&to=2026-11-20": "report covers at most 366 days",
			"from=2026-11-20&to=2026-11-01": "period ends before it starts",
		} {
			p := adam.get("/admin/utilisation?" + query)
			p.wantStatus(t, http.StatusBadRequest)
			p.wantText(t, ".util-filters .notice.error", want)
			if p.count(".util-report") != 0 {
				t.Errorf("%s: a report is shown beside the refusal", query)
			}
			adam.get("/admin/utilisation.csv?"+query).wantStatus(t, http.StatusBadRequest)
		}
	})
}

func TestPageAdminUtilisationSettings(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	adam := pb.signedIn(t, fx.Adam)
	settings := func() string {
		var threshold, retention int
		if err := pb.Pool.QueryRow(t.Context(), `SELECT report_threshold, retention_months FROM organizations WHERE id = $1`, fx.OrgA).Scan(&threshold, &retention); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%d/%d", threshold, retention)
	}

	p := adam.post("/admin/utilisation/settings", url.Values{"threshold": {"4"}, "retention": {"24"}})
	p.wantStatus(t, http.StatusBadRequest)
	p.wantText(t, ".util-settings .notice.error", "The threshold must be between 5 and 1000 people")
	if got := p.attr("#util-threshold", "value"); got != "4" {
		t.Errorf("the form shows %q, want the threshold as typed", got)
	}
	if got := settings(); got != "5/13" {
		t.Errorf("settings = %s after a refusal, want 5/13 unchanged", got)
	}
	if n := fx.TableCount(t, pb.Bundle, "admin_audit"); n != 0 {
		t.Errorf("%d audit entries after a refusal, want none", n)
	}

	p = adam.post("/admin/utilisation/settings", url.Values{"threshold": {"7"}, "retention": {"24"}})
	p.wantStatus(t, http.StatusOK)
	p.wantText(t, ".notice.ok", "The report settings were saved.")
	p.wantText(t, "main", "Every figure is built from at least 7 people.")
	if got := settings(); got != "7/24" {
		t.Errorf("settings = %s, want 7/24", got)
	}
	adam.get("/admin/audit?collection=reportSettings").wantText(t, "#audit-rows", "Report privacy settings", "Fewest people per figure")
}

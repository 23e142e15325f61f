package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestDemoOpenAtAnyHour loads the demo and checks that it can be tried whenever it is loaded: some of its
// desks are bookable at any hour of any day, and what `booking demo` prints names them, with the
// address of one's poster and of the kiosk on it. That desk is free now, whatever the hour.
func TestDemoOpenAtAnyHour(t *testing.T) {
	t.Parallel()
	dbURL := bookingtest.NewDatabaseURL(t)
	s := startServer(t, dbURL)
	stdout, stderr, err := runBooking(t, environ(dbURL, "BASE_URL", s.base), "demo")
	if err != nil {
		t.Fatalf("demo: %v\nstderr:\n%s", err, stderr)
	}

	// The desks whose rule runs from midnight to midnight, bookable like any other. Rules have no days
	// of the week, and the demo closes nothing, so these are bookable at any hour of any day.
	rows, err := connect(t, dbURL).Query(t.Context(), `
		SELECT r.poster_code, f.name, b.name
		FROM resources r
		JOIN resource_rules rr ON rr.organization_id = r.organization_id AND rr.id = r.resource_rule_id
		JOIN floors f ON f.organization_id = r.organization_id AND f.id = r.floor_id
		JOIN buildings b ON b.organization_id = f.organization_id AND b.id = f.building_id
		WHERE rr.start_time = 0 AND rr.end_time = 86400000 AND rr.maximum_advance > 0
		  AND r.status = 'ACTIVATED' AND r.visible AND f.status = 'ACTIVATED' AND f.visible
		  AND b.status = 'ACTIVATED' AND b.visible
		  AND NOT EXISTS (SELECT FROM closures c WHERE c.organization_id = r.organization_id)`)
	if err != nil {
		t.Fatal(err)
	}
	anyHour := map[string]string{} // poster code → "floor, building"
	for rows.Next() {
		var code, floor, building string
		if err := rows.Scan(&code, &floor, &building); err != nil {
			t.Fatal(err)
		}
		anyHour[code] = floor + ", " + building
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(anyHour) == 0 {
		t.Fatalf("no demo desk or room is bookable at any hour of any day")
	}

	// The printed text names the area, and links to a poster and to the kiosk on one of its desks.
	m := regexp.MustCompile(`(?m)^\s*Poster:\s+` + regexp.QuoteMeta(s.base) + `/p/(\S+)$`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("the demo prints no poster to try at any hour:\n%s", stdout)
	}
	code, err := url.PathUnescape(m[1])
	if err != nil {
		t.Fatal(err)
	}
	area, ok := anyHour[code]
	if !ok {
		t.Fatalf("the demo's poster %s is not of a desk open at any hour (those: %v)", code, anyHour)
	}
	if !strings.Contains(stdout, "round the clock: "+area) {
		t.Errorf("the demo does not name the area open round the clock, %q:\n%s", area, stdout)
	}
	if want := s.base + "/kiosk/resource?code=" + url.QueryEscape(code); !strings.Contains(stdout, want) {
		t.Errorf("the demo does not link to the kiosk on %s (%s):\n%s", code, want, stdout)
	}

	// Whatever the hour the test runs at, that desk is free now.
	tok := exportToken.FindStringSubmatch(stdout)
	if tok == nil {
		t.Fatalf("stdout has no export TOKEN= line:\n%s", stdout)
	}
	res := s.get(t, "/api/v1/users/me/resources/statusinfo?postercode="+url.QueryEscape(code), tok[1])
	var st struct {
		IsFree bool `json:"isFree"`
	}
	if res.status != http.StatusOK || json.Unmarshal([]byte(res.body), &st) != nil || !st.IsFree {
		t.Errorf("status of %s now = %d %s, want 200 and free", code, res.status, res.body)
	}
	s.stop(t)
}

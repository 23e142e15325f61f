package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/queries"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// The audit log speaks in words: objects by their names (a deleted one by the name the log last
// recorded), instants as dates in the object's building's time zone, and choices as the forms say them.

// rawValues match what the audit log must never show: an id, milliseconds since the epoch, a code's name
// (SERVICE_INTERNAL) or another value in capitals (ACTIVATED, ANY), or a language code.
var rawValues = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-|\b\d{11,}\b|\b[A-Z]{3,}_[A-Z_]+\b|\b[A-Z]{5,}\b|\bANY\b|\bes\b`)

func TestPageAdminAuditWords(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	svc, adam := layout.New(pb.Pool, pb.Service), pb.User(t, fx.OrgA, fx.Adam)
	put := func(c layout.Collection, id uuid.UUID, doc map[string]any) {
		t.Helper()
		body, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Put(t.Context(), adam, c, id, body, ""); err != nil {
			t.Fatalf("put %s %s: %v", c, id, err)
		}
	}
	ms := func(t time.Time) int64 { return t.UnixMilli() }

	// A floor and a desk on it; the desk moves to the Madrid floor and the floor is deleted.
	annex, desk := uuid.New(), uuid.New()
	put(layout.Floors, annex, map[string]any{"buildingId": fx.BuildingMadrid, "name": "Annex", "floorNumber": 2})
	deskDoc := map[string]any{"floorId": annex, "subcategoryId": fx.SubDesk, "resourceRuleId": fx.RuleDesk,
		"name": "Desk 9", "posterCode": "MAD-D9", "featureIds": []uuid.UUID{fx.FeatureScreen}}
	put(layout.Resources, desk, deskDoc)
	deskDoc["floorId"], deskDoc["resourceRuleId"] = fx.FloorMadrid, fx.RuleRoom
	deskDoc["featureIds"] = []uuid.UUID{fx.FeatureScreen, fx.FeatureWhiteboard}
	put(layout.Resources, desk, deskDoc)
	if err := svc.Delete(t.Context(), adam, layout.Floors, annex, ""); err != nil {
		t.Fatalf("delete the annex: %v", err)
	}
	// A closure of the New York floor, in New York time.
	closure := uuid.New()
	put(layout.Closures, closure, map[string]any{"floorId": fx.FloorNewYork, "reason": "Painting",
		"startDate": ms(time.Date(2026, 12, 1, 9, 0, 0, 0, fx.NewYork)), "endDate": ms(time.Date(2026, 12, 1, 12, 0, 0, 0, fx.NewYork))})
	// A person who speaks Spanish, of the default type, and a rule of the default access control.
	nora, rule := uuid.New(), uuid.New()
	put(layout.Users, nora, map[string]any{"name": "Nora", "surname": "Navarro", "email": "nora@acme.test", "userLanguage": "es"})
	put(layout.ResourceRules, rule, map[string]any{"name": "Short visits", "startTime": 0, "endTime": 0, "maximumDuration": 3600000})

	// Another organization's names never show: an entry of Acme's log that names Globex's floor and room,
	// and an id that only Globex's log has a name for.
	stranger := uuid.New()
	q := queries.New(pb.Pool)
	for _, e := range []booking.AuditEntry{
		{OrganizationID: fx.OrgB, Collection: "floors", ObjectID: stranger, Action: booking.AuditDelete,
			Before: json.RawMessage(`{"name": "Globex secret floor"}`)},
		{OrganizationID: fx.OrgA, Collection: "closures", ObjectID: uuid.New(), Action: booking.AuditCreate,
			After: json.RawMessage(fmt.Sprintf(`{"reason": "Odd", "floorId": %q, "resourceId": %q, "buildingId": %q}`, fx.FloorB, fx.RoomB, stranger))},
	} {
		p, err := e.InsertParams()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := q.AuditInsert(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}

	b := pb.signedIn(t, fx.Adam)
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"IdsAreNames", "object=" + desk.String(), []string{"Desk 9", "Floor", "Annex", "madrid-1", "Rule",
			"Rule of Desk 1", "Rule of Desk 9", "Features", "Screen, Whiteboard"}},
		{"DeletedByTheirLastName", "object=" + annex.String(), []string{"Floor", "Annex", "Deleted", "Madrid HQ"}},
		{"InstantsInTheBuildingsZone", "object=" + closure.String(), []string{"Painting", "New York time",
			"Tue 1 Dec 2026, 09:00", "Tue 1 Dec 2026, 12:00", "new-york-1"}},
		{"EnumsInWords", "object=" + nora.String(), []string{"Nora Navarro", "Language", "Spanish", "Internal"}},
		{"AccessControlInWords", "object=" + rule.String(), []string{"Short visits", "Access control", "Any"}},
		{"OtherOrganizationsUnnamed", "collection=closures", []string{"Odd", "Unknown floor", "Unknown desk or room", "Unknown building"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.get("/admin/audit?" + tc.query)
			p.wantStatus(t, http.StatusOK)
			p.wantText(t, ".audit-table", tc.want...)
			if m := rawValues.FindString(p.text(".audit-table")); m != "" {
				t.Errorf("the log shows %q: %s", m, p.text(".audit-table"))
			}
			for _, secret := range []string{"Globex", "globex-1"} {
				if got := p.text("main"); regexp.MustCompile(secret).MatchString(got) {
					t.Errorf("the log shows %q of another organization: %s", secret, got)
				}
			}
		})
	}

	t.Run("ZoneChosen", func(t *testing.T) {
		p := b.get("/admin/audit?object=" + rule.String())
		p.wantText(t, ".audit-filters", "Dates are days in Madrid time.")
		ny := b.get("/admin/audit?zone=America/New_York&object=" + rule.String())
		ny.wantStatus(t, http.StatusOK)
		ny.wantText(t, ".audit-filters", "Dates are days in New York time.")
		if got := ny.attr("#audit-zone option[selected]", "value"); got != "America/New_York" {
			t.Errorf("zone chosen = %q, want America/New_York", got)
		}
		b.get("/admin/audit?zone=Mars/Olympus").wantStatus(t, http.StatusBadRequest)
	})
}

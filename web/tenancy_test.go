package web_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/identity"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/notify"
)

// These tests check that one organization can never read or change another's data.
//
// Organization B's employee, receptionist and admin call every route of the service with organization
// A's IDs: bookings, resources, buildings, floors, subcategories, features, reservables, users and poster
// codes. Each call must get "not found" with the right code, or "forbidden" where the caller's role is
// refused before anything is looked up. A route that takes no ID must return nothing of A's. After every
// call, A's rows must be exactly as they were.
//
// The list of cases is checked against routes.go: the test fails if a route is neither in the list nor
// in nonTenantRoutes.

// Organization B's receptionist and admin. setupTenancy adds them, because the fixture gives B only an
// employee, Boris.
var (
	bReceptionist = uuid.MustParse("00000000-0000-4000-8000-000000000202")
	bAdmin        = uuid.MustParse("00000000-0000-4000-8000-000000000203")
)

// nonTenantRoutes are the routes that take no organization's ids: the health probes, the metrics,
// static files, signing in and out, the language switch (it changes only the signed-in person's own
// language, named by the session), and the public OpenAPI document.
var nonTenantRoutes = []string{
	"GET /healthz", "GET /readyz", "GET /metrics", "GET /static/*",
	"GET /login", "POST /login/dev", "GET /auth/callback", "POST /logout", "POST /language",
	"GET /api/v1/openapi.json",
}

// scimRoutes are the routes of SCIM clients. They take an organization's SCIM token, not a person's, so
// scim_test.go checks their isolation (AnotherOrganizationsTokenSeesAndTouchesNobodyHere).
var scimRoutes = []string{
	"GET /scim/v2/*", "POST /scim/v2/*", "PUT /scim/v2/*", "PATCH /scim/v2/*", "DELETE /scim/v2/*",
}

// Indexes of B's roles in a crossWant.
const (
	asEmployee = iota
	asReceptionist
	asAdmin
)

// crossWant is the expected answer for each of B's roles: the status and, for the API, the error code
// (0 for a success).
type crossWant [3]struct {
	status int
	code   booking.Code
}

// every expects the same answer for every role.
func every(status int, code booking.Code) crossWant {
	var w crossWant
	for i := range w {
		w[i].status, w[i].code = status, code
	}
	return w
}

// actsFor is for acting on behalf of someone else. An employee may not, and gets 403 with code 1001;
// a receptionist or an admin gets the given answer.
func actsFor(status int, code booking.Code) crossWant {
	w := every(status, code)
	w[asEmployee].status, w[asEmployee].code = http.StatusForbidden, booking.CodeForbidden
	return w
}

// adminsOnly expects 403 for the employee and the receptionist, and the given answer for the admin.
func adminsOnly(status int, code booking.Code) crossWant {
	w := every(http.StatusForbidden, booking.CodeForbidden)
	w[asAdmin].status, w[asAdmin].code = status, code
	return w
}

// receptionOnly expects 403 for the employee, and the given answer for the receptionist and the admin.
func receptionOnly(status int, code booking.Code) crossWant {
	w := every(status, code)
	w[asEmployee].status, w[asEmployee].code = http.StatusForbidden, booking.CodeForbidden
	return w
}

// crossCase is one call in the list of cases. route is the route as routes.go registers it
// ("METHOD /path").
type crossCase struct {
	name   string
	route  string
	path   string     // the URL path with its query
	body   any        // JSON body, for the API
	form   url.Values // form body, for the pages
	want   crossWant
	index  bool // the error response names element 0 of the request
	isPage bool
}

// tenancyBundle is one server, serving both the API and the pages, on a database with the fixture, B's
// extra people, and bookings in both organizations.
type tenancyBundle struct {
	api   *testBundle
	pages *pageBundle
	srv   *web.Server
	// A's bookings. pending: Goya tomorrow at 10:00, with Bob invited and coffee ordered. waiting: the
	// Boardroom tomorrow at 12:00, waiting for approval. active: Velázquez today at 09:00, checked in.
	pending, waiting, active uuid.UUID
	bBooking                 uuid.UUID // Boris's booking of B's room, tomorrow 10:00
	plan                     string    // the address of A's Madrid floor plan
	scimToken                uuid.UUID // A's SCIM token, named "Acme Okta"
	closure                  uuid.UUID // A's closure of the New York floor
	series                   uuid.UUID // A's series: Alice's Desk 1, Tue 1 Dec to Fri 4 Dec
	webhook, delivery        uuid.UUID // A's webhook endpoint, and one delivery it got
	team                     uuid.UUID // A's team "Acme sales", with Alice in it
	zone                     uuid.UUID // A's neighbourhood "Acme corner" of the Madrid floor, for Acme sales only
	markers                  []string  // IDs and names of A's that B must never see
}

func setupTenancy(t *testing.T) *tenancyBundle {
	t.Helper()
	// Dev enables the development sign-in so the pages can be tested too. The server's errors go to the
	// test's log.
	api := setup(t, func(d *web.Deps) {
		d.Dev = true
		d.Logger = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelError}))
	})
	ctx := t.Context()
	if _, err := layout.New(api.Pool, api.Service).Import(ctx, layout.Layout{
		Organizations: []layout.LayoutOrganization{{ID: fx.OrgB.String(), Name: "Globex", AdditionalServicesActive: true}},
		Users: []layout.LayoutUser{
			{ID: bReceptionist.String(), OrganizationID: fx.OrgB.String(), Name: "bella", Surname: "Brandt", Email: "bella@globex.test", Role: "RECEPTIONIST"},
			{ID: bAdmin.String(), OrganizationID: fx.OrgB.String(), Name: "bert", Surname: "Berg", Email: "bert@globex.test", Role: "ADMIN"},
		},
	}); err != nil {
		t.Fatalf("import B's people: %v", err)
	}
	tb := &tenancyBundle{api: api, pages: &pageBundle{Bundle: api.Bundle, srv: api.srv, server: api.server}, srv: api.server}

	pb := tb.pages
	pending := pb.mbCreate(t, fx.Alice, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0), func(nb *booking.NewBooking) {
		nb.Subject = "Acme strategy"
		nb.InternalAttendees = []booking.InternalAttendee{{Type: booking.AttendeeRequired, UserID: fx.Bob}}
	})
	waiting := pb.mbCreate(t, fx.Alice, fx.RoomBoard, fx.At(1, 12, 0), fx.At(1, 13, 0))
	active := pb.mbCreate(t, fx.Alice, fx.RoomVelazquez, fx.At(0, 9, 0), fx.At(0, 10, 0))
	tb.pending, tb.waiting, tb.active = pending.ID, waiting.ID, active.ID
	if waiting.Status != booking.StatusWaitingApproval {
		t.Fatalf("the Boardroom booking is %s, want WAITING_APPROVAL", waiting.Status)
	}
	alice := api.User(t, fx.OrgA, fx.Alice)
	if _, err := api.Service.CheckIn(ctx, alice, tb.active); err != nil {
		t.Fatalf("check in: %v", err)
	}
	qty := int32(4)
	if _, err := api.Service.ContractReservables(ctx, alice, tb.pending, []booking.ReservableOrder{{ReservableID: fx.ReservableCoffee, Quantity: &qty}}); err != nil {
		t.Fatalf("coffee: %v", err)
	}
	tb.bBooking = pb.mbCreate(t, fx.Boris, fx.RoomB, fx.At(1, 10, 0), fx.At(1, 11, 0)).ID
	sr, err := api.Service.CreateSeries(ctx, booking.SeriesRequest{Creator: alice, Organizer: alice, ResourceID: fx.DeskOne, Mode: booking.SeriesAll,
		Rule: booking.SeriesRule{Weekdays: booking.EveryWeekday, EveryWeeks: 1, First: booking.DateOf(fx.At(8, 0, 0)), Until: booking.DateOf(fx.At(11, 0, 0)), Start: 9 * 60, End: 18 * 60}})
	if err != nil {
		t.Fatalf("A's series: %v", err)
	}
	tb.series = sr.ID
	tb.markers = append(tb.markers, sr.ID.String())
	floor, err := api.Service.SetFloorPlan(ctx, api.User(t, fx.OrgA, fx.Adam), fx.FloorMadrid, "image/svg+xml",
		[]byte(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`))
	if err != nil {
		t.Fatalf("A's floor plan: %v", err)
	}
	tb.plan = floor.Image
	tb.closure = uuid.New()
	if _, err := layout.New(api.Pool, api.Service).Import(ctx, layout.Layout{Closures: []layout.LayoutClosure{{
		ID: tb.closure.String(), OrganizationID: fx.OrgA.String(), FloorID: fx.FloorNewYork.String(),
		StartDate: fx.At(10, 0, 0).UnixMilli(), EndDate: fx.At(11, 0, 0).UnixMilli(), Reason: "Acme repainting",
	}}}); err != nil {
		t.Fatalf("A's closure: %v", err)
	}

	for _, id := range []uuid.UUID{
		fx.OrgA, fx.Alice, fx.Bob, fx.Rita, fx.Adam, fx.BuildingMadrid, fx.BuildingNewYork, fx.FloorMadrid,
		fx.FloorHidden, fx.FloorNewYork, fx.SubDesk, fx.SubRoom, fx.RuleRoom, fx.RuleApproval, fx.RuleDesk,
		fx.FeatureScreen, fx.FeatureWhiteboard, fx.ReservableCoffee, fx.ReservableAV, fx.ReservableLunch,
		fx.RoomGoya, fx.RoomVelazquez, fx.RoomBoard, fx.DeskOne, fx.DeskTwo, fx.RoomHidden, fx.RoomOnHidden,
		fx.RoomHudson, tb.pending, tb.waiting, tb.active, tb.closure,
	} {
		tb.markers = append(tb.markers, id.String())
	}
	adam := api.User(t, fx.OrgA, fx.Adam)
	token, _, err := api.Identity().CreateSCIMToken(ctx, adam, "Acme Okta")
	if err != nil {
		t.Fatalf("CreateSCIMToken: %v", err)
	}
	if err := api.Identity().SetSignInSettings(ctx, adam, identity.SignInSettings{
		Domains: []string{"acme.test"}, GroupsClaim: "groups", GroupRoles: []identity.GroupRole{{Group: "Acme office managers", Role: booking.RoleAdmin}},
	}); err != nil {
		t.Fatalf("SetSignInSettings: %v", err)
	}
	tb.scimToken = token.ID
	tb.markers = append(tb.markers, token.ID.String(), "Acme Okta", "Acme office managers")
	domains, err := api.Identity().EmailDomains(ctx, adam)
	if err != nil {
		t.Fatal(err)
	}
	tb.markers = append(tb.markers, domains[0].Token)
	// Alice's feed and unsubscribe secrets: B must never see them, and guessing names nothing.
	tell, err := notify.New(api.Pool, api.Service, notify.Config{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := tell.Settings(ctx, alice)
	if err != nil {
		t.Fatalf("Alice's notice settings: %v", err)
	}
	tb.markers = append(tb.markers, st.FeedSecret, st.UnsubscribeSecret)
	tb.webhook, tb.delivery = tenancyWebhook(t, api)
	tb.markers = append(tb.markers, tb.webhook.String(), tb.delivery.String(), "acme-hooks.example", "acme-answer")
	tb.team, tb.zone = tenancyTeam(t, api)
	tb.markers = append(tb.markers, tb.team.String(), "Acme sales", tb.zone.String(), "Acme corner")
	tb.markers = append(tb.markers, "Acme", "acme.test", "Archer", "Baker", "Reyes", "Adler", "Goya", "Velázquez",
		"Boardroom", "Hudson", "Madrid HQ", "New York Office", "Whiteboard", "Coffee and tea", "AV setup",
		"MAD-R2", "MAD-R3", "MAD-D1", "MAD-D2", "NYC-R1", "Acme strategy", "Acme repainting")
	return tb
}

// snapshot returns a hash of an organization's rows in each table that has an organization_id, and in
// organizations itself, keyed by table name.
func snapshot(t *testing.T, b *fx.Bundle, org uuid.UUID) map[string]string {
	t.Helper()
	rows, err := b.Pool.Query(t.Context(), `SELECT table_name FROM information_schema.columns
		WHERE table_schema = 'public' AND column_name = 'organization_id' ORDER BY table_name`)
	if err != nil {
		t.Fatalf("tenant tables: %v", err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatalf("scan: %v", err)
		}
		tables = append(tables, name)
	}
	if rows.Close(); rows.Err() != nil || len(tables) < 10 {
		t.Fatalf("tenant tables: %v (%d)", rows.Err(), len(tables))
	}
	parts := []string{`SELECT 'organizations', md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM organizations t WHERE id = $1`}
	for _, table := range tables {
		parts = append(parts, fmt.Sprintf(`SELECT %[1]s, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM %[2]s t WHERE organization_id = $1`,
			quoteLiteral(table), quoteIdent(table)))
	}
	rows, err = b.Pool.Query(t.Context(), strings.Join(parts, " UNION ALL "), org)
	if err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var table, hash string
		if err := rows.Scan(&table, &hash); err != nil {
			t.Fatalf("scan: %v", err)
		}
		out[table] = hash
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("snapshot: %v", err)
	}
	return out
}

func quoteIdent(s string) string   { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteLiteral(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

// changedTables returns the names of the tables whose hashes differ.
func changedTables(before, after map[string]string) []string {
	var out []string
	for table, h := range before {
		if after[table] != h {
			out = append(out, table)
		}
	}
	for table := range after {
		if _, ok := before[table]; !ok {
			out = append(out, table)
		}
	}
	slices.Sort(out)
	return out
}

// cases returns the list of calls: every route of the service, with A's IDs in every place that takes one.
func (tb *tenancyBundle) cases() []crossCase {
	const (
		nf        = http.StatusNotFound
		ok        = http.StatusOK
		forbidden = http.StatusForbidden
	)
	s := func(id uuid.UUID) string { return id.String() }
	// These build new values on each call, because with modifies the values it is given.
	tomorrow := func(kv ...string) url.Values { return with(days(span(fx.At(1, 10, 0), fx.At(1, 11, 0))), kv...) }
	hours := func(kv ...string) url.Values { return fromTo(fx.At(1, 8, 0), fx.At(1, 20, 0), kv...) }
	pending, waiting, active, mine := s(tb.pending), s(tb.waiting), s(tb.active), s(tb.bBooking)
	until := fx.At(0, 10, 0).Format(time.RFC3339)
	spaceOf := func(resource uuid.UUID, start, end time.Time, kv ...any) []any {
		e := spaceBooking(resource, start, end)
		for i := 0; i+1 < len(kv); i += 2 {
			e[kv[i].(string)] = kv[i+1]
		}
		return []any{e}
	}
	attendee := []any{map[string]any{"type": "REQUIRED", "user": map[string]any{"id": s(fx.Alice)}}}
	contract := func(booking string, reservable uuid.UUID) map[string]any {
		return map[string]any{"bookingId": booking, "reservableBookingList": []any{map[string]any{"reservableId": s(reservable), "quantity": 1}}}
	}
	bookingForm := url.Values{"date": {"2026-11-24"}, "from": {"14:00"}, "to": {"15:00"}}
	form := func(base url.Values, kv ...string) url.Values {
		out := url.Values{}
		for k, v := range base {
			out[k] = slices.Clone(v)
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Add(kv[i], kv[i+1])
		}
		return out
	}

	apiCases := []crossCase{
		// Spec 4.1: status of a resource
		{name: "StatusOfAnotherOrganizationsPosterCode", route: "GET /api/v1/users/:userId/resources/statusinfo",
			path: statusPath("me", "MAD-R2"), want: every(nf, booking.CodeResourceNotFound)},
		{name: "StatusForAnotherOrganizationsUser", route: "GET /api/v1/users/:userId/resources/statusinfo",
			path: statusPath(s(fx.Alice), "MAD-R1"), want: actsFor(nf, booking.CodeUserNotFound)},
		{name: "StatusOfASharedPosterCodeIsOwn", route: "GET /api/v1/users/:userId/resources/statusinfo",
			path: statusPath("me", "MAD-R1"), want: every(ok, 0)},
		// Spec 4.2: availability of workstations and spaces
		{name: "FreeWorkstationsOfAnotherOrganizationsBuilding", route: "GET /api/v1/users/:userId/buildings/:buildingId/workstations/subcategories/:subcategoryId/free",
			path: freePath("me", "workstations", fx.BuildingMadrid, fx.SubDesk, tomorrow().Encode()), want: every(nf, booking.CodeBuildingNotFound)},
		{name: "FreeWorkstationsOfAnotherOrganizationsSubcategory", route: "GET /api/v1/users/:userId/buildings/:buildingId/workstations/subcategories/:subcategoryId/free",
			path: freePath("me", "workstations", fx.BuildingB, fx.SubDesk, tomorrow().Encode()), want: every(nf, booking.CodeSubcategoryNotFound)},
		{name: "FreeWorkstationsForAnotherOrganizationsUser", route: "GET /api/v1/users/:userId/buildings/:buildingId/workstations/subcategories/:subcategoryId/free",
			path: freePath(s(fx.Alice), "workstations", fx.BuildingB, fx.SubRoomB, tomorrow().Encode()), want: actsFor(nf, booking.CodeUserNotFound)},
		{name: "FreeSpacesOfAnotherOrganizationsBuilding", route: "GET /api/v1/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free",
			path: freePath("me", "spaces", fx.BuildingMadrid, fx.SubRoom, tomorrow().Encode()), want: every(nf, booking.CodeBuildingNotFound)},
		{name: "FreeSpacesOfAnotherOrganizationsSubcategory", route: "GET /api/v1/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free",
			path: freePath("me", "spaces", fx.BuildingB, fx.SubRoom, tomorrow().Encode()), want: every(nf, booking.CodeSubcategoryNotFound)},
		{name: "FreeSpacesWithAnotherOrganizationsFeature", route: "GET /api/v1/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free",
			path: freePath("me", "spaces", fx.BuildingB, fx.SubRoomB, tomorrow("features", s(fx.FeatureScreen)).Encode()), want: every(ok, 0)},
		{name: "FreeSpacesForAnotherOrganizationsUser", route: "GET /api/v1/users/:userId/buildings/:buildingId/spaces/subcategories/:subcategoryId/free",
			path: freePath(s(fx.Adam), "spaces", fx.BuildingB, fx.SubRoomB, tomorrow().Encode()), want: actsFor(nf, booking.CodeUserNotFound)},
		// Spec 4.4: create bookings (spaces and workstations)
		{name: "BookAnotherOrganizationsRoom", route: "POST /api/v1/users/:userId/bookings/spaces/standard",
			path: bookingsPath("me"), body: spaceOf(fx.RoomGoya, fx.At(1, 14, 0), fx.At(1, 15, 0)), want: every(nf, booking.CodeResourceNotFound), index: true},
		{name: "BookForAnotherOrganizationsUser", route: "POST /api/v1/users/:userId/bookings/spaces/standard",
			path: bookingsPath(s(fx.Alice)), body: spaceOf(fx.RoomB, fx.At(1, 14, 0), fx.At(1, 15, 0)), want: actsFor(nf, booking.CodeUserNotFound)},
		{name: "InviteAnotherOrganizationsUser", route: "POST /api/v1/users/:userId/bookings/spaces/standard",
			path: bookingsPath("me"), body: spaceOf(fx.RoomB, fx.At(1, 14, 0), fx.At(1, 15, 0), "internalAttendees", attendee), want: every(nf, booking.CodeUserNotFound), index: true},
		{name: "BookAnotherOrganizationsDesk", route: "POST /api/v1/users/:userId/bookings/workstations/standard",
			path: api + "/users/me/bookings/workstations/standard", body: spaceOf(fx.DeskOne, fx.At(1, 14, 0), fx.At(1, 15, 0)), want: every(nf, booking.CodeResourceNotFound), index: true},
		{name: "BookDeskForAnotherOrganizationsUser", route: "POST /api/v1/users/:userId/bookings/workstations/standard",
			path: api + "/users/" + s(fx.Bob) + "/bookings/workstations/standard", body: spaceOf(fx.DeskOne, fx.At(1, 14, 0), fx.At(1, 15, 0)), want: actsFor(nf, booking.CodeUserNotFound)},
		// Spec 4.3: contract reservables
		{name: "ContractOnAnotherOrganizationsBooking", route: "PUT /api/v1/bookings/:bookingId/reservables/all",
			path: reservablesPath(pending), body: contract(pending, fx.ReservableCoffee), want: every(nf, booking.CodeBookingNotFound)},
		{name: "ContractAnotherOrganizationsReservable", route: "PUT /api/v1/bookings/:bookingId/reservables/all",
			path: reservablesPath(mine), body: contract(mine, fx.ReservableCoffee), want: every(nf, booking.CodeResourceReservableNotFound)},
		// Bookings
		{name: "BookingsOfAnotherOrganizationsUser", route: "GET /api/v1/users/:userId/bookings",
			path: api + "/users/" + s(fx.Bob) + "/bookings", want: actsFor(nf, booking.CodeUserNotFound)},
		{name: "OwnBookings", route: "GET /api/v1/users/:userId/bookings", path: api + "/users/me/bookings", want: every(ok, 0)},
		{name: "CheckInByAnotherOrganizationsPosterCode", route: "POST /api/v1/users/:userId/resources/checkin",
			path: api + "/users/me/resources/checkin?postercode=MAD-R2", want: every(nf, booking.CodeResourceNotFound)},
		{name: "CheckInAnotherOrganizationsUser", route: "POST /api/v1/users/:userId/resources/checkin",
			path: api + "/users/" + s(fx.Alice) + "/resources/checkin?postercode=MAD-R1", want: actsFor(nf, booking.CodeUserNotFound)},
		{name: "ReadAnotherOrganizationsBooking", route: "GET /api/v1/bookings/:bookingId",
			path: api + "/bookings/" + pending, want: every(nf, booking.CodeBookingNotFound)},
		{name: "ReadAnotherOrganizationsActiveBooking", route: "GET /api/v1/bookings/:bookingId",
			path: api + "/bookings/" + active, want: every(nf, booking.CodeBookingNotFound)},
		{name: "MoveAnotherOrganizationsBooking", route: "PATCH /api/v1/bookings/:bookingId",
			path: api + "/bookings/" + pending, body: map[string]any{"endDate": fx.At(1, 11, 30).UnixMilli()}, want: every(nf, booking.CodeBookingNotFound)},
		{name: "MoveToAnotherOrganizationsRoom", route: "PATCH /api/v1/bookings/:bookingId",
			path: api + "/bookings/" + mine, body: map[string]any{"resource": map[string]any{"id": s(fx.RoomGoya)}}, want: every(nf, booking.CodeResourceNotFound)},
		{name: "CancelAnotherOrganizationsBooking", route: "DELETE /api/v1/bookings/:bookingId",
			path: api + "/bookings/" + pending, want: every(nf, booking.CodeBookingNotFound)},
		{name: "CancelAnotherOrganizationsWaitingBooking", route: "DELETE /api/v1/bookings/:bookingId",
			path: api + "/bookings/" + waiting, want: every(nf, booking.CodeBookingNotFound)},
		{name: "CheckInAnotherOrganizationsBooking", route: "POST /api/v1/bookings/:bookingId/checkin",
			path: api + "/bookings/" + pending + "/checkin", want: every(nf, booking.CodeBookingNotFound)},
		{name: "ReleaseAnotherOrganizationsBooking", route: "POST /api/v1/bookings/:bookingId/checkout",
			path: api + "/bookings/" + active + "/checkout", want: every(nf, booking.CodeBookingNotFound)},
		{name: "ApproveAnotherOrganizationsBooking", route: "POST /api/v1/bookings/:bookingId/approval",
			path: api + "/bookings/" + waiting + "/approval", body: map[string]any{"approved": true}, want: adminsOnly(nf, booking.CodeBookingNotFound)},
		{name: "RejectAnotherOrganizationsBooking", route: "POST /api/v1/bookings/:bookingId/approval",
			path: api + "/bookings/" + waiting + "/approval", body: map[string]any{"approved": false}, want: adminsOnly(nf, booking.CodeBookingNotFound)},
		{name: "Approvals", route: "GET /api/v1/approvals", path: api + "/approvals", want: adminsOnly(ok, 0)},
		// Series
		{name: "ReadAnotherOrganizationsSeries", route: "GET /api/v1/series/:seriesId", path: oneSeriesPath(s(tb.series)), want: every(nf, booking.CodeBookingNotFound)},
		{name: "ChangeAnotherOrganizationsSeries", route: "PATCH /api/v1/series/:seriesId", path: oneSeriesPath(s(tb.series)),
			body: map[string]any{"startTime": "10:00", "endTime": "11:00"}, want: every(nf, booking.CodeBookingNotFound)},
		{name: "CancelAnotherOrganizationsSeries", route: "DELETE /api/v1/series/:seriesId", path: oneSeriesPath(s(tb.series)), want: every(nf, booking.CodeBookingNotFound)},
		{name: "CancelAnotherOrganizationsSeriesFromADate", route: "DELETE /api/v1/series/:seriesId", path: oneSeriesPath(s(tb.series)) + "?from=2026-12-03", want: every(nf, booking.CodeBookingNotFound)},
		{name: "SeriesOfAnotherOrganizationsUser", route: "GET /api/v1/users/:userId/series", path: seriesPath(s(fx.Alice)), want: actsFor(nf, booking.CodeUserNotFound)},
		{name: "OwnSeries", route: "GET /api/v1/users/:userId/series", path: seriesPath("me"), want: every(ok, 0)},
		{name: "SeriesOfAnotherOrganizationsDesk", route: "POST /api/v1/users/:userId/series", path: seriesPath("me"), body: deskSeries("ALL"), want: every(nf, booking.CodeResourceNotFound)},
		{name: "SeriesForAnotherOrganizationsUser", route: "POST /api/v1/users/:userId/series", path: seriesPath(s(fx.Alice)), body: deskSeries("ALL"), want: actsFor(nf, booking.CodeUserNotFound)},
		// Availability and the catalogue
		{name: "AvailabilityOfAnotherOrganizationsBuilding", route: "GET /api/v1/users/:userId/buildings/:buildingId/availability",
			path: availabilityPath("me", fx.BuildingMadrid, hours()), want: every(nf, booking.CodeBuildingNotFound)},
		{name: "AvailabilityOfAnotherOrganizationsFloor", route: "GET /api/v1/users/:userId/buildings/:buildingId/availability",
			path: availabilityPath("me", fx.BuildingB, hours("floorId", s(fx.FloorMadrid))), want: every(nf, booking.CodeFloorNotFound)},
		{name: "AvailabilityOfAnotherOrganizationsSubcategory", route: "GET /api/v1/users/:userId/buildings/:buildingId/availability",
			path: availabilityPath("me", fx.BuildingB, hours("subcategoryId", s(fx.SubRoom))), want: every(nf, booking.CodeSubcategoryNotFound)},
		{name: "AvailabilityWithAnotherOrganizationsFeature", route: "GET /api/v1/users/:userId/buildings/:buildingId/availability",
			path: availabilityPath("me", fx.BuildingB, hours("features", s(fx.FeatureScreen))), want: every(ok, 0)},
		{name: "AvailabilityForAnotherOrganizationsUser", route: "GET /api/v1/users/:userId/buildings/:buildingId/availability",
			path: availabilityPath(s(fx.Rita), fx.BuildingB, hours()), want: actsFor(nf, booking.CodeUserNotFound)},
		{name: "Buildings", route: "GET /api/v1/buildings", path: api + "/buildings", want: every(ok, 0)},
		{name: "FloorsOfAnotherOrganizationsBuilding", route: "GET /api/v1/buildings/:buildingId/floors",
			path: api + "/buildings/" + s(fx.BuildingMadrid) + "/floors", want: every(nf, booking.CodeBuildingNotFound)},
		{name: "Subcategories", route: "GET /api/v1/subcategories", path: api + "/subcategories", want: every(ok, 0)},
		{name: "Features", route: "GET /api/v1/features", path: api + "/features", want: every(ok, 0)},
		{name: "ReservablesOfAnotherOrganizationsRoom", route: "GET /api/v1/resources/:resourceId/reservables",
			path: api + "/resources/" + s(fx.RoomGoya) + "/reservables", want: every(nf, booking.CodeResourceNotFound)},
		// The Admin API: B's admin sees B's objects only, and A's ids are unknown.
		{name: "AdminExport", route: "GET /api/v1/admin/layout", path: api + "/admin/layout", want: adminsOnly(ok, 0)},
		{name: "AdminAudit", route: "GET /api/v1/admin/audit", path: api + "/admin/audit", want: adminsOnly(ok, 0)},
		{name: "AdminAuditOfAnotherOrganizationsObject", route: "GET /api/v1/admin/audit",
			path: api + "/admin/audit?objectId=" + s(fx.BuildingMadrid), want: adminsOnly(ok, 0)},
		{name: "AdminIdentity", route: "GET /api/v1/admin/identity", path: api + "/admin/identity", want: adminsOnly(ok, 0)},
		{name: "AdminPutIdentity", route: "PUT /api/v1/admin/identity", path: api + "/admin/identity",
			body: map[string]any{"domains": []any{map[string]any{"domain": "globex.test"}}, "defaultRole": "EMPLOYEE", "groupsClaim": "", "groupRoles": []any{}},
			want: adminsOnly(ok, 0)},
		{name: "AdminVerifyAnotherOrganizationsDomain", route: "POST /api/v1/admin/identity/domains/:domain/verify",
			path: api + "/admin/identity/domains/acme.test/verify", want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminListResources", route: "GET /api/v1/admin/:collection", path: api + "/admin/resources", want: adminsOnly(ok, 0)},
		{name: "AdminListUsers", route: "GET /api/v1/admin/:collection", path: api + "/admin/users", want: adminsOnly(ok, 0)},
		{name: "AdminGetAnotherOrganizationsBuilding", route: "GET /api/v1/admin/:collection/:id",
			path: api + "/admin/buildings/" + s(fx.BuildingMadrid), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminGetAnotherOrganizationsUser", route: "GET /api/v1/admin/:collection/:id",
			path: api + "/admin/users/" + s(fx.Alice), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminPutAnotherOrganizationsBuilding", route: "PUT /api/v1/admin/:collection/:id",
			path: api + "/admin/buildings/" + s(fx.BuildingMadrid), body: map[string]any{"name": "Taken", "timezone": "Europe/Madrid", "address": map[string]any{}},
			want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminPutAnotherOrganizationsUser", route: "PUT /api/v1/admin/:collection/:id",
			path: api + "/admin/users/" + s(fx.Bob), body: map[string]any{"name": "Bob", "email": "bob@globex.test", "role": "ADMIN"},
			want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminPutFloorInAnotherOrganizationsBuilding", route: "PUT /api/v1/admin/:collection/:id",
			path: api + "/admin/floors/" + uuid.NewString(), body: map[string]any{"buildingId": s(fx.BuildingMadrid), "name": "Sneaky", "floorNumber": 1},
			want: adminsOnly(http.StatusBadRequest, booking.CodeInvalidRequest)},
		{name: "AdminPutIntoAnotherOrganization", route: "PUT /api/v1/admin/:collection/:id",
			path: api + "/admin/features/" + uuid.NewString(), body: map[string]any{"organizationId": s(fx.OrgA), "name": "Sneaky"},
			want: adminsOnly(http.StatusBadRequest, booking.CodeInvalidRequest)},
		{name: "AdminDeleteAnotherOrganizationsFeature", route: "DELETE /api/v1/admin/:collection/:id",
			path: api + "/admin/features/" + s(fx.FeatureWhiteboard), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminDeleteAnotherOrganizationsReservable", route: "DELETE /api/v1/admin/:collection/:id",
			path: api + "/admin/reservables/" + s(fx.ReservableLunch), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "PresenceInAnotherOrganizationsBuilding", route: "GET /api/v1/users/:userId/buildings/:buildingId/presence",
			path: api + "/users/me/buildings/" + s(fx.BuildingMadrid) + "/presence", want: every(nf, booking.CodeBuildingNotFound)},
		{name: "PresenceAsAnotherOrganizationsPerson", route: "GET /api/v1/users/:userId/buildings/:buildingId/presence",
			path: api + "/users/" + s(fx.Alice) + "/buildings/" + s(fx.BuildingMadrid) + "/presence", want: every(http.StatusForbidden, booking.CodeForbidden)},
		{name: "OwnFavourites", route: "GET /api/v1/users/:userId/favourites", path: api + "/users/me/favourites", want: every(ok, 0)},
		{name: "AnotherOrganizationsPersonsFavourites", route: "GET /api/v1/users/:userId/favourites",
			path: api + "/users/" + s(fx.Alice) + "/favourites", want: every(http.StatusForbidden, booking.CodeForbidden)},
		{name: "StarAnotherOrganizationsDeskAPI", route: "PUT /api/v1/users/:userId/favourites/resources/:resourceId",
			path: api + "/users/me/favourites/resources/" + s(fx.DeskOne), want: every(nf, booking.CodeResourceNotFound)},
		{name: "UnstarAnotherOrganizationsDeskAPI", route: "DELETE /api/v1/users/:userId/favourites/resources/:resourceId",
			path: api + "/users/me/favourites/resources/" + s(fx.DeskOne), want: every(http.StatusNoContent, 0)},
		{name: "StarAnotherOrganizationsPersonAPI", route: "PUT /api/v1/users/:userId/favourites/people/:personId",
			path: api + "/users/me/favourites/people/" + s(fx.Alice), want: every(nf, booking.CodeUserNotFound)},
		{name: "UnstarAnotherOrganizationsPersonAPI", route: "DELETE /api/v1/users/:userId/favourites/people/:personId",
			path: api + "/users/me/favourites/people/" + s(fx.Alice), want: every(http.StatusNoContent, 0)},
		{name: "OwnVisibility", route: "GET /api/v1/users/:userId/visibility", path: api + "/users/me/visibility", want: every(ok, 0)},
		{name: "SetAnotherOrganizationsPersonsVisibility", route: "PUT /api/v1/users/:userId/visibility",
			path: api + "/users/" + s(fx.Alice) + "/visibility", body: map[string]any{"bookingsVisibleTo": "ORGANIZATION"},
			want: every(http.StatusForbidden, booking.CodeForbidden)},
		{name: "AdminTeamsAPI", route: "GET /api/v1/admin/teams", path: api + "/admin/teams", want: adminsOnly(ok, 0)},
		{name: "AdminCreateOwnTeamAPI", route: "POST /api/v1/admin/teams", path: api + "/admin/teams",
			body: map[string]any{"name": "Globex ops"}, want: adminsOnly(http.StatusCreated, 0)},
		{name: "AdminAnotherOrganizationsTeamAPI", route: "GET /api/v1/admin/teams/:teamId",
			path: api + "/admin/teams/" + s(tb.team), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminPutAnotherOrganizationsTeamAPI", route: "PUT /api/v1/admin/teams/:teamId",
			path: api + "/admin/teams/" + s(tb.team), body: map[string]any{"name": "Mine"}, want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminDeleteAnotherOrganizationsTeamAPI", route: "DELETE /api/v1/admin/teams/:teamId",
			path: api + "/admin/teams/" + s(tb.team), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminJoinAnotherOrganizationsTeamAPI", route: "PUT /api/v1/admin/teams/:teamId/members/:memberId",
			path: api + "/admin/teams/" + s(tb.team) + "/members/" + s(fx.Boris), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminLeaveAnotherOrganizationsTeamAPI", route: "DELETE /api/v1/admin/teams/:teamId/members/:memberId",
			path: api + "/admin/teams/" + s(tb.team) + "/members/" + s(fx.Alice), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminWebhooks", route: "GET /api/v1/admin/webhooks", path: api + "/admin/webhooks", want: adminsOnly(ok, 0)},
		{name: "AdminCreateOwnWebhook", route: "POST /api/v1/admin/webhooks", path: api + "/admin/webhooks",
			body: map[string]any{"url": "https://globex.example/hooks", "eventTypes": []string{"booking.created"}}, want: adminsOnly(http.StatusCreated, 0)},
		{name: "AdminAnotherOrganizationsWebhook", route: "GET /api/v1/admin/webhooks/:webhookId",
			path: api + "/admin/webhooks/" + s(tb.webhook), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminChangeAnotherOrganizationsWebhook", route: "PATCH /api/v1/admin/webhooks/:webhookId",
			path: api + "/admin/webhooks/" + s(tb.webhook), body: map[string]any{"enabled": false}, want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminDeleteAnotherOrganizationsWebhook", route: "DELETE /api/v1/admin/webhooks/:webhookId",
			path: api + "/admin/webhooks/" + s(tb.webhook), want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminRotateAnotherOrganizationsWebhook", route: "POST /api/v1/admin/webhooks/:webhookId/rotate",
			path: api + "/admin/webhooks/" + s(tb.webhook) + "/rotate", want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminDeliveriesOfAnotherOrganizationsWebhook", route: "GET /api/v1/admin/webhooks/:webhookId/deliveries",
			path: api + "/admin/webhooks/" + s(tb.webhook) + "/deliveries", want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "AdminResendAnotherOrganizationsDelivery", route: "POST /api/v1/admin/webhooks/:webhookId/deliveries/:deliveryId/resend",
			path: api + "/admin/webhooks/" + s(tb.webhook) + "/deliveries/" + s(tb.delivery) + "/resend", want: adminsOnly(nf, booking.CodeObjectNotFound)},
		{name: "PlanOfAnotherOrganizationsFloor", route: "PUT /api/v1/admin/floors/:id/plan",
			path: api + "/admin/floors/" + s(fx.FloorMadrid) + "/plan", body: map[string]any{"image": "x"},
			want: adminsOnly(nf, booking.CodeObjectNotFound)},
	}

	guess := strings.Repeat("A", 43) // a secret of the right shape that names nobody
	pageCases := []crossCase{
		{name: "Home", route: "GET /", path: "/", want: every(ok, 0)},
		{name: "WeekOfAnotherOrganizationsBuilding", route: "GET /", path: "/?building=" + s(fx.BuildingMadrid), want: every(nf, 0)},
		{name: "BookAnotherOrganizationsDeskForADay", route: "POST /week/book", path: "/week/book",
			form: url.Values{"resource": {s(fx.DeskOne)}, "date": {"2026-11-25"}}, want: every(nf, 0)},
		{name: "WhosInAnotherOrganizationsBuilding", route: "GET /whos-in", path: "/whos-in?building=" + s(fx.BuildingMadrid), want: every(nf, 0)},
		{name: "StarAnotherOrganizationsPerson", route: "POST /favourites/people/:personId", path: "/favourites/people/" + s(fx.Alice),
			form: url.Values{"on": {"true"}}, want: every(nf, 0)},
		{name: "StarAnotherOrganizationsDesk", route: "POST /favourites/resources/:resourceId", path: "/favourites/resources/" + s(fx.DeskOne),
			form: url.Values{"on": {"true"}}, want: every(nf, 0)},
		{name: "SaveOwnVisibility", route: "POST /settings/visibility", path: "/settings/visibility", form: url.Values{"visibleTo": {"NOBODY"}}, want: every(ok, 0)},
		{name: "OwnSettings", route: "GET /settings", path: "/settings", want: every(ok, 0)},
		{name: "SaveOwnMailSettings", route: "POST /settings/mail", path: "/settings/mail", form: url.Values{"on": {"reminder"}}, want: every(ok, 0)},
		{name: "RotateOwnFeed", route: "POST /settings/feed", path: "/settings/feed", form: url.Values{}, want: every(ok, 0)},
		{name: "FeedOfAnotherOrganizationsRoom", route: "GET /ical/rooms/:file", path: "/ical/rooms/" + s(fx.RoomGoya) + ".ics", want: every(nf, 0)},
		{name: "FeedOfAGuessedSecret", route: "GET /ical/:file", path: "/ical/" + guess + ".ics", want: every(nf, 0)},
		{name: "UnsubscribeOfAGuessedSecret", route: "GET /mail/unsubscribe/:secret/:kind", path: "/mail/unsubscribe/" + guess + "/reminder", want: every(nf, 0)},
		{name: "UnsubscribeByAGuessedSecret", route: "POST /mail/unsubscribe/:secret/:kind", path: "/mail/unsubscribe/" + guess + "/reminder",
			form: url.Values{"List-Unsubscribe": {"One-Click"}}, want: every(nf, 0)},
		{name: "PeopleOfAnotherOrganization", route: "GET /people",
			path: "/people?" + url.Values{"field": {"user"}, "user": {s(fx.Alice)}, "q": {"alice"}}.Encode(), want: every(ok, 0)},
		{name: "PeopleSearchOfAnotherOrganization", route: "GET /people", path: "/people?field=attendee&multi=1&q=archer", want: every(ok, 0)},
		{name: "FindInAnotherOrganizationsBuilding", route: "GET /find", path: "/find?building=" + s(fx.BuildingMadrid), want: every(nf, 0)},
		{name: "FindChoosingAnotherOrganizationsRoom", route: "GET /find",
			path: "/find?" + url.Values{"kind": {"room"}, "resource": {s(fx.RoomGoya)}, "date": {"2026-11-24"}}.Encode(), want: every(ok, 0)},
		{name: "FindWithAnotherOrganizationsFeature", route: "GET /find", path: "/find?kind=room&features=" + s(fx.FeatureScreen), want: every(ok, 0)},
		{name: "PlanOfAnotherOrganizationsBuilding", route: "GET /find/plan", path: "/find/plan?building=" + s(fx.BuildingMadrid), want: every(nf, 0)},
		{name: "PlanOfAnotherOrganizationsFloor", route: "GET /find/plan", path: "/find/plan?floor=" + s(fx.FloorMadrid), want: every(nf, 0)},
		{name: "PlanChoosingAnotherOrganizationsRoom", route: "GET /find/plan", path: "/find/plan?resource=" + s(fx.RoomGoya), want: every(ok, 0)},
		{name: "ServicesOfAnotherOrganizationsRoom", route: "GET /find/services",
			path: "/find/services?" + url.Values{"resource": {s(fx.RoomGoya)}, "date": {"2026-11-24"}, "from": {"10:00"}, "to": {"11:00"}}.Encode(),
			want: every(ok, 0)},
		{name: "AnotherOrganizationsResource", route: "GET /find/resources/:resourceId", path: "/find/resources/" + s(fx.RoomGoya), want: every(nf, 0)},
		{name: "BookAnotherOrganizationsRoom", route: "POST /bookings", path: "/bookings",
			form: form(bookingForm, "resource", s(fx.RoomGoya)), want: every(nf, 0)},
		{name: "InviteAnotherOrganizationsUser", route: "POST /bookings", path: "/bookings",
			form: form(bookingForm, "resource", s(fx.RoomB), "attendee", s(fx.Alice)), want: every(nf, 0)},
		{name: "MyBookings", route: "GET /bookings", path: "/bookings", want: every(ok, 0)},
		{name: "MyPastBookings", route: "GET /bookings", path: "/bookings?when=past", want: every(ok, 0)},
		{name: "AnotherOrganizationsBooking", route: "GET /bookings/:bookingId", path: "/bookings/" + pending, want: every(nf, 0)},
		{name: "CheckInAnotherOrganizationsBooking", route: "POST /bookings/:bookingId/checkin",
			path: "/bookings/" + pending + "/checkin", form: url.Values{}, want: every(nf, 0)},
		{name: "ReleaseAnotherOrganizationsBooking", route: "POST /bookings/:bookingId/checkout",
			path: "/bookings/" + active + "/checkout", form: url.Values{}, want: every(nf, 0)},
		{name: "CancelAnotherOrganizationsBooking", route: "POST /bookings/:bookingId/cancel",
			path: "/bookings/" + pending + "/cancel", form: url.Values{}, want: every(nf, 0)},
		{name: "MoveAnotherOrganizationsBooking", route: "POST /bookings/:bookingId/change",
			path: "/bookings/" + pending + "/change", form: url.Values{"date": {"2026-11-24"}, "start": {"16:00"}, "end": {"17:00"}}, want: every(nf, 0)},
		{name: "OrderForAnotherOrganizationsBooking", route: "POST /bookings/:bookingId/services",
			path: "/bookings/" + pending + "/services", form: url.Values{"reservable": {s(fx.ReservableCoffee)}}, want: every(nf, 0)},
		{name: "OrderAnotherOrganizationsService", route: "POST /bookings/:bookingId/services",
			path: "/bookings/" + mine + "/services", form: url.Values{"reservable": {s(fx.ReservableCoffee)}}, want: every(nf, 0)},
		{name: "AnotherOrganizationsSeriesPage", route: "GET /bookings/series/:seriesId", path: "/bookings/series/" + s(tb.series), want: every(nf, 0)},
		{name: "CancelAnotherOrganizationsSeriesPage", route: "POST /bookings/series/:seriesId/cancel",
			path: "/bookings/series/" + s(tb.series) + "/cancel", form: url.Values{"whole": {"1"}}, want: every(nf, 0)},
		{name: "CancelAnotherOrganizationsSeriesFromADatePage", route: "POST /bookings/series/:seriesId/cancel",
			path: "/bookings/series/" + s(tb.series) + "/cancel", form: url.Values{"from": {"2026-12-03"}}, want: every(nf, 0)},
		{name: "ChangeAnotherOrganizationsSeriesPage", route: "POST /bookings/series/:seriesId/times",
			path: "/bookings/series/" + s(tb.series) + "/times", form: url.Values{"from": {"2026-12-01"}, "start": {"10:00"}, "end": {"11:00"}}, want: every(nf, 0)},
		{name: "MyBookingsNamingAnotherOrganizationsSeries", route: "GET /bookings", path: "/bookings?series=" + s(tb.series), want: every(ok, 0)},
		{name: "Approvals", route: "GET /approvals", path: "/approvals", want: adminsOnly(ok, 0)},
		{name: "ApproveAnotherOrganizationsBooking", route: "POST /approvals/:bookingId",
			path: "/approvals/" + waiting, form: url.Values{"decision": {"approve"}}, want: adminsOnly(nf, 0)},
		{name: "RejectAnotherOrganizationsBooking", route: "POST /approvals/:bookingId",
			path: "/approvals/" + waiting, form: url.Values{"decision": {"reject"}}, want: adminsOnly(nf, 0)},
		{name: "Kiosk", route: "GET /kiosk", path: "/kiosk", want: receptionOnly(ok, 0)},
		{name: "KioskOfAnotherOrganizationsPosterCode", route: "GET /kiosk/resource", path: "/kiosk/resource?code=MAD-R2", want: receptionOnly(nf, 0)},
		{name: "KioskChoosingAnotherOrganizationsUser", route: "GET /kiosk/resource",
			path: "/kiosk/resource?" + url.Values{"code": {"MAD-R1"}, "user": {s(fx.Alice)}, "q": {"archer"}}.Encode(), want: receptionOnly(ok, 0)},
		{name: "KioskBooksAnotherOrganizationsRoom", route: "POST /kiosk/book", path: "/kiosk/book",
			form: url.Values{"code": {"MAD-R2"}, "user": {s(fx.Boris)}, "until": {until}}, want: receptionOnly(nf, 0)},
		{name: "KioskBooksForAnotherOrganizationsUser", route: "POST /kiosk/book", path: "/kiosk/book",
			form: url.Values{"code": {"MAD-R1"}, "user": {s(fx.Alice)}, "until": {until}}, want: receptionOnly(nf, 0)},
		{name: "KioskChecksInAtAnotherOrganizationsRoom", route: "POST /kiosk/checkin", path: "/kiosk/checkin",
			form: url.Values{"code": {"MAD-R2"}, "user": {s(fx.Boris)}}, want: receptionOnly(nf, 0)},
		{name: "KioskChecksInAnotherOrganizationsUser", route: "POST /kiosk/checkin", path: "/kiosk/checkin",
			form: url.Values{"code": {"MAD-R1"}, "user": {s(fx.Alice)}}, want: receptionOnly(nf, 0)},
		{name: "PosterOfAnotherOrganization", route: "GET /p/:posterCode", path: "/p/MAD-R2", want: every(nf, 0)},
		{name: "PosterBookOfAnotherOrganization", route: "POST /p/:posterCode/book", path: "/p/MAD-R2/book",
			form: url.Values{"until": {until}}, want: every(nf, 0)},
		{name: "PosterCheckInOfAnotherOrganization", route: "POST /p/:posterCode/checkin", path: "/p/MAD-R2/checkin",
			form: url.Values{}, want: every(nf, 0)},
		{name: "AnotherOrganizationsPlan", route: "GET /plans/:floorId/:file", path: tb.plan, want: every(nf, 0)},
		{name: "Posters", route: "GET /posters", path: "/posters", want: adminsOnly(ok, 0)},
		{name: "IdentitySettings", route: "GET /admin/identity", path: "/admin/identity", want: adminsOnly(ok, 0)},
		{name: "SaveIdentitySettings", route: "POST /admin/identity/settings", path: "/admin/identity/settings",
			form: url.Values{"domains": {"globex.test"}, "defaultRole": {"EMPLOYEE"}}, want: adminsOnly(ok, 0)},
		{name: "VerifyAnotherOrganizationsDomain", route: "POST /admin/identity/domains/:domain/verify",
			path: "/admin/identity/domains/acme.test/verify", form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "CreateSCIMToken", route: "POST /admin/identity/tokens", path: "/admin/identity/tokens",
			form: url.Values{"name": {"Globex Entra"}}, want: adminsOnly(http.StatusCreated, 0)},
		{name: "RevokeAnotherOrganizationsSCIMToken", route: "POST /admin/identity/tokens/:tokenId/revoke",
			path: "/admin/identity/tokens/" + s(tb.scimToken) + "/revoke", form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AdminWebhooks", route: "GET /admin/webhooks", path: "/admin/webhooks", want: adminsOnly(ok, 0)},
		{name: "AdminCreateOwnWebhook", route: "POST /admin/webhooks", path: "/admin/webhooks",
			form: url.Values{"url": {"https://globex.example/hooks"}, "eventTypes": {"booking.created"}}, want: adminsOnly(http.StatusCreated, 0)},
		{name: "AdminAnotherOrganizationsWebhook", route: "GET /admin/webhooks/:webhookId", path: "/admin/webhooks/" + s(tb.webhook), want: adminsOnly(nf, 0)},
		{name: "AdminSaveAnotherOrganizationsWebhook", route: "POST /admin/webhooks/:webhookId", path: "/admin/webhooks/" + s(tb.webhook),
			form: url.Values{"url": {"https://globex.example/mine"}, "eventTypes": {"booking.created"}}, want: adminsOnly(nf, 0)},
		{name: "AdminRotateAnotherOrganizationsWebhook", route: "POST /admin/webhooks/:webhookId/rotate",
			path: "/admin/webhooks/" + s(tb.webhook) + "/rotate", form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AdminDeleteAnotherOrganizationsWebhook", route: "POST /admin/webhooks/:webhookId/delete",
			path: "/admin/webhooks/" + s(tb.webhook) + "/delete", form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AdminTeams", route: "GET /admin/teams", path: "/admin/teams", want: adminsOnly(ok, 0)},
		{name: "AdminCreateOwnTeam", route: "POST /admin/teams", path: "/admin/teams", form: url.Values{"name": {"Globex sales"}}, want: adminsOnly(ok, 0)},
		{name: "AdminAnotherOrganizationsTeam", route: "GET /admin/teams/:teamId", path: "/admin/teams/" + s(tb.team), want: adminsOnly(nf, 0)},
		{name: "AdminSaveAnotherOrganizationsTeam", route: "POST /admin/teams/:teamId", path: "/admin/teams/" + s(tb.team),
			form: url.Values{"name": {"Mine"}}, want: adminsOnly(nf, 0)},
		{name: "AdminDeleteAnotherOrganizationsTeam", route: "POST /admin/teams/:teamId/delete", path: "/admin/teams/" + s(tb.team) + "/delete",
			form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AdminJoinAnotherOrganizationsTeam", route: "POST /admin/teams/:teamId/members", path: "/admin/teams/" + s(tb.team) + "/members",
			form: url.Values{"member": {s(fx.Boris)}}, want: adminsOnly(nf, 0)},
		{name: "AdminLeaveAnotherOrganizationsTeam", route: "POST /admin/teams/:teamId/members/:userId/remove",
			path: "/admin/teams/" + s(tb.team) + "/members/" + s(fx.Alice) + "/remove", form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AdminZoneOnAnotherOrganizationsFloor", route: "POST /admin/floors/:floorId/neighbourhoods", path: "/admin/floors/" + s(fx.FloorMadrid) + "/neighbourhoods",
			form: url.Values{"name": {"Mine"}, "teamId": {s(tb.team)}, "x1": {"0"}, "y1": {"0"}, "x2": {"9"}, "y2": {"9"}}, want: adminsOnly(nf, 0)},
		{name: "AdminSaveAnotherOrganizationsZone", route: "POST /admin/floors/:floorId/neighbourhoods/:zoneId",
			path: "/admin/floors/" + s(fx.FloorB) + "/neighbourhoods/" + s(tb.zone),
			form: url.Values{"name": {"Mine"}, "teamId": {s(tb.team)}, "x1": {"0"}, "y1": {"0"}, "x2": {"9"}, "y2": {"9"}}, want: adminsOnly(nf, 0)},
		{name: "AdminDeleteAnotherOrganizationsZone", route: "POST /admin/floors/:floorId/neighbourhoods/:zoneId/delete",
			path: "/admin/floors/" + s(fx.FloorB) + "/neighbourhoods/" + s(tb.zone) + "/delete", form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AdminResendAnotherOrganizationsDelivery", route: "POST /admin/webhooks/:webhookId/deliveries/:deliveryId/resend",
			path: "/admin/webhooks/" + s(tb.webhook) + "/deliveries/" + s(tb.delivery) + "/resend", form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "PostersOfAnotherOrganizationsBuilding", route: "GET /posters", path: "/posters?building=" + s(fx.BuildingMadrid), want: adminsOnly(nf, 0)},
		{name: "PostersOfAnotherOrganizationsFloor", route: "GET /posters", path: "/posters?floor=" + s(fx.FloorMadrid), want: adminsOnly(nf, 0)},
		{name: "PrintAnotherOrganizationsFloor", route: "GET /posters/print", path: "/posters/print?floor=" + s(fx.FloorMadrid), want: adminsOnly(nf, 0)},
		{name: "PrintAnotherOrganizationsResource", route: "GET /posters/print", path: "/posters/print?resource=" + s(fx.RoomGoya), want: adminsOnly(nf, 0)},
		// The admin pages of the layout.
		{name: "AdminBuildings", route: "GET /admin/buildings", path: "/admin/buildings", want: adminsOnly(ok, 0)},
		{name: "AdminNewBuilding", route: "GET /admin/buildings/new", path: "/admin/buildings/new", want: adminsOnly(ok, 0)},
		{name: "AdminCreateBuildingWithAnotherOrganizationsID", route: "POST /admin/buildings", path: "/admin/buildings",
			form: url.Values{"name": {"Annex"}, "timezone": {"Europe/Madrid"}, "status": {"ACTIVATED"}, "id": {s(fx.BuildingMadrid)}}, want: adminsOnly(ok, 0)},
		{name: "AdminAnotherOrganizationsBuilding", route: "GET /admin/buildings/:buildingId", path: "/admin/buildings/" + s(fx.BuildingMadrid), want: adminsOnly(nf, 0)},
		{name: "AdminSaveAnotherOrganizationsBuilding", route: "POST /admin/buildings/:buildingId", path: "/admin/buildings/" + s(fx.BuildingMadrid),
			form: url.Values{"name": {"Taken"}, "timezone": {"Europe/Madrid"}, "status": {"ACTIVATED"}}, want: adminsOnly(nf, 0)},
		{name: "AdminFloors", route: "GET /admin/floors", path: "/admin/floors", want: adminsOnly(ok, 0)},
		{name: "AdminNewFloorInAnotherOrganizationsBuilding", route: "GET /admin/floors/new", path: "/admin/floors/new?building=" + s(fx.BuildingMadrid), want: adminsOnly(ok, 0)},
		{name: "AdminCreateFloorInAnotherOrganizationsBuilding", route: "POST /admin/floors", path: "/admin/floors",
			form: url.Values{"building": {s(fx.BuildingMadrid)}, "name": {"Roof"}, "number": {"9"}, "status": {"ACTIVATED"}}, want: adminsOnly(http.StatusBadRequest, 0)},
		{name: "AdminAnotherOrganizationsFloor", route: "GET /admin/floors/:floorId", path: "/admin/floors/" + s(fx.FloorMadrid), want: adminsOnly(nf, 0)},
		{name: "AdminSaveAnotherOrganizationsFloor", route: "POST /admin/floors/:floorId", path: "/admin/floors/" + s(fx.FloorMadrid),
			form: url.Values{"building": {s(fx.BuildingB)}, "name": {"Taken"}, "number": {"1"}, "status": {"ACTIVATED"}}, want: adminsOnly(nf, 0)},
		{name: "AdminUploadAnotherOrganizationsPlan", route: "POST /admin/floors/:floorId/plan/image", path: "/admin/floors/" + s(fx.FloorMadrid) + "/plan/image",
			form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AdminPlanOfAnotherOrganizationsFloor", route: "GET /admin/floors/:floorId/plan", path: "/admin/floors/" + s(fx.FloorMadrid) + "/plan", want: adminsOnly(nf, 0)},
		{name: "AdminGridOnAnotherOrganizationsFloor", route: "POST /admin/floors/:floorId/plan/grid", path: "/admin/floors/" + s(fx.FloorMadrid) + "/plan/grid",
			form: url.Values{"rows": {"1"}, "columns": {"1"}, "prefix": {"D"}, "start": {"1"}, "subcategory": {s(fx.SubDesk)}, "rule": {s(fx.RuleDesk)}}, want: adminsOnly(nf, 0)},
		{name: "AdminResources", route: "GET /admin/resources", path: "/admin/resources?floor=" + s(fx.FloorMadrid), want: adminsOnly(ok, 0)},
		{name: "AdminNewResourceOnAnotherOrganizationsFloor", route: "GET /admin/resources/new", path: "/admin/resources/new?floor=" + s(fx.FloorMadrid), want: adminsOnly(ok, 0)},
		{name: "AdminCreateResourceOnAnotherOrganizationsFloor", route: "POST /admin/resources", path: "/admin/resources",
			form: url.Values{"floor": {s(fx.FloorMadrid)}, "subcategory": {s(fx.SubRoomB)}, "rule": {s(fx.RuleB)}, "name": {"Mine"}, "posterCode": {"MINE-1"},
				"status": {"ACTIVATED"}, "x1": {"1"}, "y1": {"1"}, "x2": {"9"}, "y2": {"9"}}, want: adminsOnly(http.StatusBadRequest, 0)},
		{name: "AdminChangeAnotherOrganizationsResources", route: "POST /admin/resources/bulk", path: "/admin/resources/bulk",
			form: url.Values{"ids": {s(fx.RoomGoya), s(fx.DeskOne)}, "rule": {s(fx.RuleB)}, "subcategory": {s(fx.SubRoomB)}}, want: adminsOnly(nf, 0)},
		{name: "AdminChangeOwnResourcesWithAnotherOrganizationsRule", route: "POST /admin/resources/bulk", path: "/admin/resources/bulk",
			form: url.Values{"ids": {s(fx.RoomB)}, "rule": {s(fx.RuleRoom)}, "add": {s(fx.FeatureScreen)}}, want: adminsOnly(http.StatusBadRequest, 0)},
		{name: "AdminAnotherOrganizationsResource", route: "GET /admin/resources/:resourceId", path: "/admin/resources/" + s(fx.RoomGoya), want: adminsOnly(nf, 0)},
		{name: "AdminSaveAnotherOrganizationsResource", route: "POST /admin/resources/:resourceId", path: "/admin/resources/" + s(fx.RoomGoya),
			form: url.Values{"floor": {s(fx.FloorB)}, "subcategory": {s(fx.SubRoomB)}, "rule": {s(fx.RuleB)}, "name": {"Mine"}, "posterCode": {"MINE-1"}, "status": {"ACTIVATED"}},
			want: adminsOnly(nf, 0)},
		{name: "AdminMoveAnotherOrganizationsResource", route: "POST /admin/resources/:resourceId/position", path: "/admin/resources/" + s(fx.RoomGoya) + "/position",
			form: url.Values{"x1": {"1"}, "y1": {"1"}, "x2": {"9"}, "y2": {"9"}}, want: adminsOnly(nf, 0)},
		// The office settings: another organization's ids name nothing; lists show only the caller's own.
		{name: "AdminRules", route: "GET /admin/rules", path: "/admin/rules", want: adminsOnly(ok, 0)},
		{name: "SaveAnotherOrganizationsRule", route: "POST /admin/rules/:ruleId", path: "/admin/rules/" + s(fx.RuleRoom),
			form: url.Values{"etag": {`"x"`}, "from": {"08:00"}, "until": {"20:00"}}, want: adminsOnly(nf, 0)},
		{name: "SentenceOfAnotherOrganizationsRule", route: "POST /admin/rules/:ruleId/sentence", path: "/admin/rules/" + s(fx.RuleRoom) + "/sentence",
			form: url.Values{"from": {"08:00"}, "until": {"20:00"}}, want: adminsOnly(ok, 0)},
		{name: "AdminCatalogue", route: "GET /admin/catalogue", path: "/admin/catalogue", want: adminsOnly(ok, 0)},
		{name: "SaveAnotherOrganizationsFeature", route: "POST /admin/catalogue/:collection/:id", path: "/admin/catalogue/features/" + s(fx.FeatureScreen),
			form: url.Values{"etag": {`"x"`}, "name": {"Mine"}}, want: adminsOnly(nf, 0)},
		{name: "OwnAdditionalServices", route: "POST /admin/catalogue/additional-services", path: "/admin/catalogue/additional-services",
			form: url.Values{"active": {"true"}}, want: adminsOnly(ok, 0)},
		{name: "AdminPeople", route: "GET /admin/people", path: "/admin/people?q=alice", want: adminsOnly(ok, 0)},
		{name: "AddAPersonToOwnOrganization", route: "POST /admin/people", path: "/admin/people",
			form: url.Values{"name": {"nina"}, "email": {"nina@globex.test"}, "role": {"EMPLOYEE"}}, want: adminsOnly(ok, 0)},
		{name: "SaveAnotherOrganizationsPerson", route: "POST /admin/people/:userId", path: "/admin/people/" + s(fx.Alice),
			form: url.Values{"etag": {`"x"`}, "name": {"alice"}, "email": {"alice@acme.test"}, "role": {"ADMIN"}}, want: adminsOnly(nf, 0)},
		{name: "DeactivateAnotherOrganizationsPerson", route: "POST /admin/people/:userId/active", path: "/admin/people/" + s(fx.Alice) + "/active",
			form: url.Values{"active": {"false"}}, want: adminsOnly(nf, 0)},
		{name: "UnlinkAnotherOrganizationsPerson", route: "POST /admin/people/:userId/unlink", path: "/admin/people/" + s(fx.Alice) + "/unlink",
			form: url.Values{"etag": {""}}, want: adminsOnly(nf, 0)},
		{name: "AdminClosures", route: "GET /admin/closures", path: "/admin/closures", want: adminsOnly(ok, 0)},
		{name: "UtilisationOfAnotherOrganizationsBuilding", route: "GET /admin/utilisation",
			path: "/admin/utilisation?building=" + s(fx.BuildingMadrid), want: adminsOnly(nf, 0)},
		{name: "UtilisationCSVOfAnotherOrganizationsBuilding", route: "GET /admin/utilisation.csv",
			path: "/admin/utilisation.csv?building=" + s(fx.BuildingMadrid), want: adminsOnly(nf, 0)},
		{name: "OwnUtilisationSettings", route: "POST /admin/utilisation/settings", path: "/admin/utilisation/settings",
			form: url.Values{"threshold": {"6"}, "retention": {"13"}}, want: adminsOnly(ok, 0)},
		{name: "CloseAnotherOrganizationsBuilding", route: "POST /admin/closures", path: "/admin/closures",
			form: url.Values{"target": {"building:" + s(fx.BuildingMadrid)}, "fromDate": {"2026-11-30"}, "toDate": {"2026-11-30"}, "reason": {"Mine"}},
			want: adminsOnly(http.StatusBadRequest, 0)},
		{name: "CloseAnotherOrganizationsRoom", route: "POST /admin/closures", path: "/admin/closures",
			form: url.Values{"target": {"resource:" + s(fx.RoomGoya)}, "from": {"2026-11-24T09:00"}, "until": {"2026-11-24T18:00"}, "reason": {"Mine"}, "overlapping": {"CANCEL"}},
			want: adminsOnly(http.StatusBadRequest, 0)},
		{name: "DeleteAnotherOrganizationsClosure", route: "POST /admin/closures/:closureId/delete", path: "/admin/closures/" + s(tb.closure) + "/delete",
			form: url.Values{}, want: adminsOnly(nf, 0)},
		{name: "AuditOfAnotherOrganizationsObject", route: "GET /admin/audit", path: "/admin/audit?object=" + s(fx.RuleRoom), want: adminsOnly(ok, 0)},
	}
	for i := range pageCases {
		pageCases[i].isPage = true
	}
	return append(apiCases, pageCases...)
}

// routeKey returns a route's name in the list of cases: "METHOD /path".
func routeKey(method, path string) string { return method + " " + path }

func TestOrganizationIsolation(t *testing.T) {
	t.Parallel()
	tb := setupTenancy(t)
	cases := tb.cases()

	// Every registered route has a case or is in nonTenantRoutes, and every case names a registered route.
	registered := map[string]bool{}
	for _, r := range tb.srv.Routes() {
		registered[routeKey(r.Method, r.Path)] = true
	}
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.route] = true
		if !registered[c.route] {
			t.Errorf("case %s names %q, which routes.go does not register", c.name, c.route)
		}
	}
	for route := range registered {
		if !covered[route] && !slices.Contains(nonTenantRoutes, route) && !slices.Contains(scimRoutes, route) {
			t.Errorf("route %s is not in the organization matrix: add cases with another organization's ids "+
				"(or add it to nonTenantRoutes if it touches nothing of an organization)", route)
		}
	}

	callers := [3]uuid.UUID{asEmployee: fx.Boris, asReceptionist: bReceptionist, asAdmin: bAdmin}
	names := [3]string{asEmployee: "Employee", asReceptionist: "Receptionist", asAdmin: "Admin"}
	before := snapshot(t, tb.api.Bundle, fx.OrgA)
	for role, caller := range callers {
		authorization := http.Header{"Authorization": {"Bearer " + tb.api.mint(t, tb.api.User(t, fx.OrgB, caller), time.Hour)}}
		browser := tb.pages.signedIn(t, caller)
		for _, c := range cases {
			t.Run(names[role]+"/"+c.name, func(t *testing.T) {
				want := c.want[role]
				var status int
				var body string
				if c.isPage {
					method := http.MethodGet
					if c.form != nil {
						method = http.MethodPost
					}
					b := *browser
					b.t = t
					p := b.do(method, c.path, c.form, false)
					status, body = p.status, p.body
				} else {
					method, _, _ := strings.Cut(c.route, " ")
					r := tb.api.callWith(t, uuid.Nil, method, c.path, c.body, authorization)
					status, body = r.status, string(r.body)
					if want.code != 0 {
						index := noIndex
						if c.index {
							index = 0
						}
						wantProblem(t, r, want.status, want.code, index)
					}
				}
				if status != want.status {
					t.Errorf("%s: status = %d, want %d", c.path, status, want.status)
				}
				// The response shows none of A's names, and none of A's IDs except those the request itself sent.
				request := c.path + fmt.Sprint(c.body) + c.form.Encode()
				for _, m := range tb.markers {
					if strings.Contains(body, m) && !strings.Contains(request, m) {
						t.Errorf("%s: the answer shows %q of organization A", c.path, m)
					}
				}
				after := snapshot(t, tb.api.Bundle, fx.OrgA)
				if changed := changedTables(before, after); len(changed) > 0 {
					t.Errorf("%s %s changed organization A's %v", c.route, c.path, changed)
					before = after
				}
			})
		}
	}
}

// tenancyTeam makes A's team "Acme sales" with Alice in it, and its neighbourhood "Acme corner" for it
// only on the Madrid floor, and returns their ids.
func tenancyTeam(t *testing.T, api *testBundle) (team, zone uuid.UUID) {
	t.Helper()
	people := identity.New(api.Pool, api.Service)
	adam := api.User(t, fx.OrgA, fx.Adam)
	team, err := people.CreateTeam(t.Context(), adam, identity.TeamFields{Name: "Acme sales"})
	if err != nil {
		t.Fatalf("A's team: %v", err)
	}
	if err := people.AddTeamMembers(t.Context(), adam, team, []uuid.UUID{fx.Alice}); err != nil {
		t.Fatalf("A's team member: %v", err)
	}
	zone, err = layout.New(api.Pool, api.Service).CreateNeighbourhood(t.Context(), adam, fx.FloorMadrid, layout.NeighbourhoodFields{
		TeamID: team, Name: "Acme corner", TeamOnly: true, Area: booking.MapCoordinates{BottomRightX: 5, BottomRightY: 5},
	})
	if err != nil {
		t.Fatalf("A's neighbourhood: %v", err)
	}
	return team, zone
}

package layout_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// layoutTables are the tables a layout import writes.
var layoutTables = []string{
	"organizations", "user_rules", "mobile_roles", "users", "buildings", "floors", "subcategories",
	"resource_rules", "features", "reservables", "resources", "resource_features", "resource_reservables",
	"bookings",
}

func tableCounts(t *testing.T, b *bookingtest.Bundle) map[string]int {
	t.Helper()
	out := make(map[string]int, len(layoutTables))
	for _, table := range layoutTables {
		out[table] = bookingtest.TableCount(t, b, table)
	}
	return out
}

// badDocument is a layout document that Import refuses, with the start of the error message that names
// its fault.
type badDocument struct {
	name string
	doc  func() layout.Layout
	want string // the message starts with it
}

// badDocuments returns documents with one fault each. Each starts with the same valid new organization,
// org, and sometimes valid objects before the bad one.
func badDocuments() (org layout.LayoutOrganization, docs []badDocument) {
	at := bookingtest.At
	orgC := layout.LayoutOrganization{ID: uuid.NewString(), Name: "Initech"}
	a := bookingtest.OrgA.String()
	newResource := func(code string) layout.LayoutResource {
		return layout.LayoutResource{
			ID: uuid.NewString(), OrganizationID: a, FloorID: bookingtest.FloorMadrid.String(),
			SubcategoryID: bookingtest.SubRoom.String(), ResourceRuleID: bookingtest.RuleRoom.String(),
			Name: "New room " + code, PosterCode: code,
		}
	}
	newUser := func(name, email string) layout.LayoutUser {
		return layout.LayoutUser{ID: uuid.NewString(), OrganizationID: a, Name: name, Email: email}
	}
	return orgC, []badDocument{
		{"ResourceFloorIDNotUUID", func() layout.Layout {
			r := newResource("NEW-1")
			r.FloorID = "floor-1"
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{r}}
		}, "resources[0].floorId:"},
		{"ResourceFloorIDExistsNowhere", func() layout.Layout {
			r := newResource("NEW-1")
			r.FloorID = uuid.NewString()
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{newResource("NEW-0"), r}}
		}, "resources[1].floorId:"},
		{"ResourceFloorOfOtherOrganization", func() layout.Layout {
			r := newResource("NEW-1")
			r.FloorID = bookingtest.FloorB.String()
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{r}}
		}, "resources[0].floorId:"},
		{"ResourceSubcategoryExistsNowhere", func() layout.Layout {
			r := newResource("NEW-1")
			r.SubcategoryID = uuid.NewString()
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{r}}
		}, "resources[0].subcategoryId:"},
		{"ResourceRuleExistsNowhere", func() layout.Layout {
			r := newResource("NEW-1")
			r.ResourceRuleID = uuid.NewString()
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{r}}
		}, "resources[0].resourceRuleId:"},
		{"ResourceFeatureExistsNowhere", func() layout.Layout {
			r := newResource("NEW-1")
			r.FeatureIDs = []string{bookingtest.FeatureScreen.String(), uuid.NewString()}
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{r}}
		}, "resources[0].featureIds"},
		{"ResourceReservableExistsNowhere", func() layout.Layout {
			r := newResource("NEW-1")
			r.ReservableIDs = []string{uuid.NewString()}
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{r}}
		}, "resources[0].reservableIds"},
		{"ResourceWithoutName", func() layout.Layout {
			r := newResource("NEW-1")
			r.Name = " "
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Resources: []layout.LayoutResource{r}}
		}, "resources[0].name:"},
		{"PosterCodeTwiceInDocument", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC},
				Resources: []layout.LayoutResource{newResource("NEW-1"), newResource("NEW-2"), newResource("NEW-1")}}
		}, "resources[2].posterCode:"},
		{"PosterCodeOfExistingResource", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC},
				Resources: []layout.LayoutResource{newResource("MAD-R2")}}
		}, "resources[0].posterCode:"},
		{"UserEmail", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC},
				Users: []layout.LayoutUser{newUser("carol", "carol@acme.test"), newUser("dave", "dave at acme")}}
		}, "users[1].email:"},
		{"UserEmailTakenInOrganization", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC},
				Users: []layout.LayoutUser{newUser("carol", "carol@acme.test"), newUser("alice2", "alice@acme.test")}}
		}, "users[1].email:"},
		{"UserRole", func() layout.Layout {
			u := newUser("carol", "carol@acme.test")
			u.Role = "OWNER"
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Users: []layout.LayoutUser{u}}
		}, "users[0].role:"},
		{"UserOrganizationExistsNowhere", func() layout.Layout {
			u := newUser("carol", "carol@acme.test")
			u.OrganizationID = uuid.NewString()
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Users: []layout.LayoutUser{u}}
		}, "users[0].organizationId:"},
		{"BuildingTimezone", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Buildings: []layout.LayoutBuilding{
				{ID: uuid.NewString(), OrganizationID: a, Name: "Mars base", Timezone: "Mars/Olympus_Mons"}}}
		}, "buildings[0].timezone:"},
		{"BuildingTimezoneMissing", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Buildings: []layout.LayoutBuilding{
				{ID: uuid.NewString(), OrganizationID: a, Name: "Nowhere"}}}
		}, "buildings[0].timezone:"},
		{"FloorBuildingExistsNowhere", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Floors: []layout.LayoutFloor{
				{ID: uuid.NewString(), OrganizationID: a, BuildingID: uuid.NewString(), Name: "attic"}}}
		}, "floors[0].buildingId:"},
		{"SubcategoryCategory", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Subcategories: []layout.LayoutSubcategory{
				{ID: uuid.NewString(), OrganizationID: a, Name: "Parking", Category: "PARKING"}}}
		}, "subcategories[0].category:"},
		{"ResourceRuleEndBeforeStart", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, ResourceRules: []layout.LayoutResourceRule{
				{ID: uuid.NewString(), OrganizationID: a, StartTime: 10 * 3600000, EndTime: 9 * 3600000}}}
		}, "resourceRules[0].endTime:"},
		{"ResourceRuleEndBeyondDay", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, ResourceRules: []layout.LayoutResourceRule{
				{ID: uuid.NewString(), OrganizationID: a, StartTime: 0, EndTime: 25 * 3600000}}}
		}, "resourceRules[0].endTime:"},
		{"ResourceRuleNegativeDuration", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, ResourceRules: []layout.LayoutResourceRule{
				{ID: uuid.NewString(), OrganizationID: a, MaximumDuration: -1}}}
		}, "resourceRules[0].maximumDuration:"},
		{"ReservableNegativeCancellation", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Reservables: []layout.LayoutReservable{
				{ID: uuid.NewString(), OrganizationID: a, Name: "Tea", MinimumCancellationMs: -1}}}
		}, "reservables[0].minimumCancellationMs:"},
		{"ReservableEmailNotAnAddress", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Reservables: []layout.LayoutReservable{
				{ID: uuid.NewString(), OrganizationID: a, Name: "Tea", Email: "catering at acme"}}}
		}, `reservables[0].email: "catering at acme" is not an e-mail address`},
		{"ReservableEmailWithDisplayName", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Reservables: []layout.LayoutReservable{
				{ID: uuid.NewString(), OrganizationID: a, Name: "Tea", Email: "Catering <catering@acme.test>"}}}
		}, `reservables[0].email: "Catering <catering@acme.test>" is not an e-mail address`},
		{"ReservableEmailTooLong", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Reservables: []layout.LayoutReservable{
				{ID: uuid.NewString(), OrganizationID: a, Name: "Tea", Email: strings.Repeat("a", 250) + "@acme.test"}}}
		}, "reservables[0].email: write at most 254 characters"},
		{"OrganizationID", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC, {ID: "acme", Name: "Acme"}}}
		}, "organizations[1].id:"},
		{"BookingResourceIDNotUUID", func() layout.Layout {
			lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusPending)
			lb.ResourceID = "goya"
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{lb}}
		}, "bookings[0].resourceId:"},
		{"BookingResourceExistsNowhere", func() layout.Layout {
			lb := bookingtest.LayoutBooking(uuid.New(), at(1, 10, 0), at(1, 11, 0), booking.StatusPending)
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{lb}}
		}, "bookings[0].resourceId:"},
		{"BookingResourceOfOtherOrganization", func() layout.Layout {
			lb := bookingtest.LayoutBooking(bookingtest.RoomB, at(1, 10, 0), at(1, 11, 0), booking.StatusPending)
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{lb}}
		}, "bookings[0].resourceId:"},
		{"BookingCreatorExistsNowhere", func() layout.Layout {
			lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusPending)
			lb.CreatorID = uuid.NewString()
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{lb}}
		}, "bookings[0].creatorId:"},
		{"BookingOrganizerOfOtherOrganization", func() layout.Layout {
			lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusPending)
			lb.OrganizerID = bookingtest.Boris.String()
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{lb}}
		}, "bookings[0].organizerId:"},
		{"BookingStatus", func() layout.Layout {
			lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), "BOOKED")
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{lb}}
		}, "bookings[0].status:"},
		{"BookingEndBeforeStart", func() layout.Layout {
			lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 11, 0), at(1, 10, 0), booking.StatusFinished)
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{lb}}
		}, "bookings[0].endDate:"},
		{"OverlappingBlockingBookings", func() layout.Layout {
			return layout.Layout{Organizations: []layout.LayoutOrganization{orgC}, Bookings: []layout.LayoutBooking{
				bookingtest.LayoutBooking(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0), booking.StatusPending),
				bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusActive),
				bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 30), at(1, 11, 30), booking.StatusWaitingApproval),
			}}
		}, "bookings[2].startDate:"},
	}
}

// TestImport checks that an import writes the document's objects, updating existing ones in place.
func TestImport(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("FixtureCounts", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		got := tableCounts(t, b)
		want := map[string]int{
			"organizations": 2, "user_rules": 0, "mobile_roles": 0, "users": 5, "buildings": 3, "floors": 4,
			"subcategories": 3, "resource_rules": 4, "features": 2, "reservables": 4, "resources": 9,
			"resource_features": 4, "resource_reservables": 5, "bookings": 0,
		}
		if !maps.Equal(got, want) {
			t.Fatalf("counts = %v, want %v", got, want)
		}
	})

	t.Run("ReimportIsIdempotentAndKeepsBookings", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		bs := mustCreate(t, b, alice(t, b), bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		before := tableCounts(t, b)
		sum, err := layout.New(b.Pool, b.Service).Import(t.Context(), bookingtest.Layout())
		if err != nil {
			t.Fatalf("Import: %v", err)
		}
		if got, want := sum["resources"], 9; got != want {
			t.Errorf("summary resources = %d, want %d", got, want)
		}
		if got := tableCounts(t, b); !maps.Equal(got, before) {
			t.Fatalf("counts after reimport = %v, want %v", got, before)
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE id = $1 AND status = 'PENDING'", bs[0].ID); got != 1 {
			t.Errorf("the booking is gone or changed")
		}
	})

	t.Run("ServiceContactEmail", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		tea := layout.LayoutReservable{ID: uuid.NewString(), OrganizationID: bookingtest.OrgA.String(), Name: "Tea",
			Type: "SERVICE", Email: "catering@acme.test"}
		id := uuid.MustParse(tea.ID)
		export := func() []layout.LayoutReservable {
			t.Helper()
			l, err := layout.ExportReservables(t.Context(), b.Pool, layout.Scope{ID: &id})
			if err != nil {
				t.Fatalf("ExportReservables: %v", err)
			}
			return l.Reservables
		}
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Reservables: []layout.LayoutReservable{tea}}); err != nil {
			t.Fatalf("Import: %v", err)
		}
		if diff := cmp.Diff([]layout.LayoutReservable{tea}, export()); diff != "" {
			t.Errorf("exported service (-want +got):\n%s", diff)
		}
		// A bad address is refused in so many words and changes nothing.
		bad := tea
		bad.Email = "catering@"
		_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Reservables: []layout.LayoutReservable{bad}})
		var e *booking.Error
		if !errors.As(err, &e) || e.Code != booking.CodeInvalidRequest {
			t.Fatalf("Import of a bad e-mail: err = %v, want code %v", err, booking.CodeInvalidRequest)
		}
		if got, want := e.Message, `reservables[0].email: "catering@" is not an e-mail address`; got != want {
			t.Errorf("Message = %q, want %q", got, want)
		}
		if diff := cmp.Diff([]layout.LayoutReservable{tea}, export()); diff != "" {
			t.Errorf("exported service after a refused import (-want +got):\n%s", diff)
		}
		// A document without the e-mail clears it, as every other field of the service.
		tea.Email = ""
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Reservables: []layout.LayoutReservable{tea}}); err != nil {
			t.Fatalf("Import without the e-mail: %v", err)
		}
		if diff := cmp.Diff([]layout.LayoutReservable{tea}, export()); diff != "" {
			t.Errorf("exported service without the e-mail (-want +got):\n%s", diff)
		}
	})

	t.Run("UpdatesInPlace", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		alice := alice(t, b)
		mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		before := tableCounts(t, b)
		l := bookingtest.LayoutWith(t, bookingtest.RoomGoya, func(r *layout.LayoutResource) {
			r.Name = "Goya (renovated)"
			r.Capacity = ptr(int32(12))
			r.FeatureIDs = []string{bookingtest.FeatureWhiteboard.String()}
			r.ReservableIDs = []string{bookingtest.ReservableAV.String()}
		})
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
			t.Fatalf("Import: %v", err)
		}
		st, err := b.Service.StatusByPosterCode(t.Context(), alice, "MAD-R1")
		if err != nil {
			t.Fatalf("StatusByPosterCode: %v", err)
		}
		if got, want := st.Resource.Name, "Goya (renovated)"; got != want {
			t.Errorf("Name = %q, want %q", got, want)
		}
		if st.Resource.Capacity == nil || *st.Resource.Capacity != 12 {
			t.Errorf("Capacity = %v, want 12", st.Resource.Capacity)
		}
		if got, want := st.Resource.ID, bookingtest.RoomGoya; got != want {
			t.Errorf("ID = %v, want %v", got, want)
		}
		after := tableCounts(t, b)
		// Goya's features and reservables are replaced by the lists given: one each instead of two.
		before["resource_features"]--
		before["resource_reservables"]--
		if !maps.Equal(after, before) {
			t.Fatalf("counts = %v, want %v", after, before)
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM resource_features WHERE resource_id = $1 AND feature_id = $2",
			bookingtest.RoomGoya, bookingtest.FeatureWhiteboard); got != 1 {
			t.Errorf("Goya's whiteboard rows = %d, want 1", got)
		}
		if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM bookings WHERE resource_id = $1", bookingtest.RoomGoya); got != 1 {
			t.Errorf("Goya's bookings = %d, want 1", got)
		}
	})
}

// TestImportKeeps checks what an import leaves unchanged: existing bookings, and the user fields a
// document leaves out.
func TestImportKeeps(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	t.Run("ExistingBookingsLeftAsTheyAre", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		lb := bookingtest.LayoutBooking(bookingtest.RoomGoya, at(-1, 10, 0), at(-1, 11, 0), booking.StatusFinished)
		importBookings(t, b, lb)
		// A booking made and then cancelled through the service, then imported again in its original state.
		alice := alice(t, b)
		made := mustCreate(t, b, alice, bookingtest.Request(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0)))[0]
		if _, err := b.Service.Cancel(t.Context(), alice, made.ID); err != nil {
			t.Fatalf("Cancel: %v", err)
		}
		again := bookingtest.LayoutBooking(bookingtest.RoomVelazquez, at(1, 10, 0), at(1, 11, 0), booking.StatusPending)
		again.ID = made.ID.String()
		lb.Status, lb.Subject = string(booking.StatusCancelled), "Renamed"
		importBookings(t, b, lb, again)
		if got := bookingtest.TableCount(t, b, "bookings"); got != 2 {
			t.Fatalf("bookings = %d rows, want 2", got)
		}
		if got := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings WHERE id = $1 AND status = 'FINISHED' AND subject = 'History'
			AND resource_type = 'SPACE' AND importance = 'LOW' AND body_type = 'TEXT'`, uuid.MustParse(lb.ID)); got != 1 {
			t.Errorf("the imported booking changed on a second import")
		}
		if got := bookingtest.RowCount(t, b, `SELECT count(*) FROM bookings WHERE id = $1 AND status = 'CANCELLED' AND subject = 'Meeting'`, made.ID); got != 1 {
			t.Errorf("the cancelled booking changed on import (it must stay CANCELLED)")
		}
	})

	t.Run("UserFieldsLeftOutAreKept", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		l := bookingtest.Layout()
		rita := l.Users[2]
		rita.Alias, rita.Image, rita.OIDCSubject, rita.UserLanguage, rita.Type = "Ri", "/static/img/rita.png", ptr("idp|rita"), "es", "SERVICE_EXTERNAL"
		rita.CanBeSearched = ptr(false)
		importOne := func(u layout.LayoutUser) {
			t.Helper()
			if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Users: []layout.LayoutUser{u}}); err != nil {
				t.Fatalf("Import: %v", err)
			}
		}
		importOne(rita)
		// Only the required fields, and a new e-mail address.
		importOne(layout.LayoutUser{ID: rita.ID, OrganizationID: rita.OrganizationID, Name: "Rita", Email: "rita.reyes@acme.test"})
		got := bookingtest.RowCount(t, b, `SELECT count(*) FROM users WHERE id = $1 AND name = 'Rita' AND email = 'rita.reyes@acme.test'
			AND surname = 'Reyes' AND alias = 'Ri' AND image = '/static/img/rita.png' AND oidc_subject = 'idp|rita' AND role = 'RECEPTIONIST'
			AND user_language = 'es' AND type = 'SERVICE_EXTERNAL' AND NOT can_be_searched`, bookingtest.Rita)
		if got != 1 {
			t.Errorf("Rita lost a field the document left out")
		}
		// A field that is given changes; a new user gets the defaults.
		importOne(layout.LayoutUser{ID: rita.ID, OrganizationID: rita.OrganizationID, Name: "Rita", Email: "rita.reyes@acme.test", Role: "ADMIN"})
		newcomer := uuid.New()
		importOne(layout.LayoutUser{ID: newcomer.String(), OrganizationID: rita.OrganizationID, Name: "Nora", Email: "nora@acme.test"})
		if got := bookingtest.RowCount(t, b, `SELECT count(*) FROM users WHERE id = $1 AND role = 'ADMIN' AND oidc_subject = 'idp|rita'`, bookingtest.Rita); got != 1 {
			t.Errorf("Rita's role given as ADMIN did not change, or her subject did")
		}
		if got := bookingtest.RowCount(t, b, `SELECT count(*) FROM users WHERE id = $1 AND role = 'EMPLOYEE' AND surname = '' AND oidc_subject IS NULL
			AND can_be_searched AND type = 'SERVICE_INTERNAL' AND user_language = 'en'`, newcomer); got != 1 {
			t.Errorf("a new user did not get the defaults")
		}
	})

	t.Run("OverlappingNonBlockingBookingsAccepted", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		importBookings(t, b,
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusPending),
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0), booking.StatusCancelled),
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 10, 30), at(1, 11, 30), booking.StatusRejected),
		)
		if got := bookingtest.TableCount(t, b, "bookings"); got != 3 {
			t.Errorf("bookings = %d rows, want 3", got)
		}
	})
}

// TestImportRefusesBadDocuments checks that a bad document is refused with 2000 naming the array,
// the index and the field, and imports nothing.
func TestImportRefusesBadDocuments(t *testing.T) {
	t.Parallel()
	at := bookingtest.At

	orgC, bad := badDocuments()
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			before := tableCounts(t, b)
			sum, err := layout.New(b.Pool, b.Service).Import(t.Context(), tt.doc())
			bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
			bookingtest.WantMessagePrefix(t, err, tt.want)
			if sum != nil {
				t.Errorf("summary = %v, want nil on error", sum)
			}
			if got := tableCounts(t, b); !maps.Equal(got, before) {
				t.Fatalf("counts after a refused import = %v, want %v", got, before)
			}
			if got := bookingtest.RowCount(t, b, "SELECT count(*) FROM organizations WHERE id = $1", uuid.MustParse(orgC.ID)); got != 0 {
				t.Errorf("organization %s was imported", orgC.Name)
			}
		})
	}

	t.Run("BookingOverlappingCreatedBookingRefused", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		mustCreate(t, b, alice(t, b), bookingtest.Request(bookingtest.RoomGoya, at(1, 10, 0), at(1, 11, 0)))
		before := tableCounts(t, b)
		_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Bookings: []layout.LayoutBooking{
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 11, 0), at(1, 12, 0), booking.StatusPending),
			bookingtest.LayoutBooking(bookingtest.RoomGoya, at(1, 9, 0), at(1, 10, 30), booking.StatusPending),
		}})
		bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
		bookingtest.WantMessagePrefix(t, err, "bookings[1].startDate:")
		if got := tableCounts(t, b); !maps.Equal(got, before) {
			t.Fatalf("counts after a refused import = %v, want %v", got, before)
		}
	})
}

func TestDecodeLayout(t *testing.T) {
	t.Parallel()
	const org = `{"organizations":[{"id":"00000000-0000-4000-8000-000000000009","name":"Initech"}]}`
	for _, tc := range []struct {
		name, doc string
		want      string // a part of the error; "" for none
	}{
		{"OneObject", org, ""},
		{"WhitespaceAfter", org + "\n\t \n", ""},
		{"UnknownField", `{"rooms":[]}`, `unknown field "rooms"`},
		{"UnknownNestedField", `{"organizations":[{"id":"x","nickname":"y"}]}`, `unknown field "nickname"`},
		{"SecondObject", org + "\n" + org, "unexpected data after the JSON object"},
		{"StrayBracket", org + "]", "unexpected data after the JSON object"},
		{"NotAnObject", `[]`, "document: expected an object, got JSON array"},
		{"Empty", ``, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := layout.DecodeLayout(strings.NewReader(tc.doc))
			if tc.want == "" {
				if err != nil || len(l.Organizations) != 1 || l.Organizations[0].Name != "Initech" {
					t.Fatalf("DecodeLayout = %+v, %v; want Initech's organization", l, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("DecodeLayout: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestImportRefusesUsedIDs imports objects whose id another object holds, in the database or earlier in
// the document, of another collection or organization: refused, and nothing is imported.
func TestImportRefusesUsedIDs(t *testing.T) {
	t.Parallel()
	org := bookingtest.OrgA.String()
	building := func(id uuid.UUID) layout.LayoutBuilding {
		return layout.LayoutBuilding{ID: id.String(), OrganizationID: org, Name: "Annex", Timezone: "Europe/Madrid"}
	}
	fresh := uuid.New()
	for _, tc := range []struct {
		name string
		doc  layout.Layout
		want string
	}{
		{"UserOfAnotherOrganization", layout.Layout{Buildings: []layout.LayoutBuilding{building(bookingtest.Boris)}}, "buildings[0].id:"},
		{"ResourceOfOurs", layout.Layout{Buildings: []layout.LayoutBuilding{building(bookingtest.RoomGoya)}}, "buildings[0].id:"},
		{"TwiceInTheDocument", layout.Layout{
			Buildings: []layout.LayoutBuilding{building(fresh)},
			Features:  []layout.LayoutFeature{{ID: fresh.String(), OrganizationID: org, Name: "Lamp"}},
		}, "features[0].id:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			before := tableCounts(t, b)
			_, err := layout.New(b.Pool, b.Service).Import(t.Context(), tc.doc)
			bookingtest.WantCode(t, err, booking.CodeInvalidRequest)
			bookingtest.WantMessagePrefix(t, err, tc.want)
			if got := tableCounts(t, b); !maps.Equal(got, before) {
				t.Fatalf("counts after a refused import = %v, want %v", got, before)
			}
		})
	}
}

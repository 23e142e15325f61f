package web_test

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// listedKeys are the keys of an element of the free listing (spec 4.2). Floor and subcategory carry only
// their IDs; spaces also have capacity.
var listedKeys = []string{
	"id", "name", "posterCode", "image", "phone", "mapCoordinates", "approachable", "floor", "subcategory", "visible",
}

// days encodes bookingDays as the interface specifies: brackets percent-encoded, and times in Unix
// milliseconds.
func days(intervals ...[2]time.Time) url.Values {
	q := url.Values{}
	for i, iv := range intervals {
		p := "bookingDays[" + strconv.Itoa(i) + "]."
		q.Set(p+"startDate", strconv.FormatInt(iv[0].UnixMilli(), 10))
		q.Set(p+"endDate", strconv.FormatInt(iv[1].UnixMilli(), 10))
	}
	return q
}

func span(start, end time.Time) [2]time.Time { return [2]time.Time{start, end} }

// today10 is 10:00–11:00 today, when every resource is free.
var today10 = span(fx.At(0, 10, 0), fx.At(0, 11, 0))

func workstations(user string, query url.Values) string {
	return freePath(user, "workstations", fx.BuildingMadrid, fx.SubDesk, query.Encode())
}

func spaces(user string, query url.Values) string {
	return freePath(user, "spaces", fx.BuildingMadrid, fx.SubRoom, query.Encode())
}

// listed checks a free listing's status, headers and outer shape, and returns the IDs it lists.
func listed(t *testing.T, r reply) []string {
	t.Helper()
	wantStatus(t, r, http.StatusOK)
	if got := r.header.Get("Deprecation"); got != "true" {
		t.Errorf("Deprecation = %q, want true", got)
	}
	body := wantKeys(t, "body", r.object(t), "freeResources")
	return ids(t, "freeResources", body["freeResources"])
}

func with(q url.Values, kv ...string) url.Values {
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return q
}

func TestFreeWorkstations(t *testing.T) {
	t.Parallel()

	t.Run("ShapeAndValues", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, workstations("me", days(today10)), nil)
		if got, want := listed(t, r), strs(fx.DeskOne, fx.DeskTwo); !slices.Equal(got, want) {
			t.Fatalf("free workstations = %v, want %v", got, want)
		}
		list := array(t, "freeResources", r.object(t)["freeResources"])
		for i, e := range list {
			d := wantKeys(t, "freeResources["+strconv.Itoa(i)+"]", e, listedKeys...)
			wantID(t, "floor", d["floor"], fx.FloorMadrid)
			wantID(t, "subcategory", d["subcategory"], fx.SubDesk)
			wantKeys(t, "mapCoordinates", d["mapCoordinates"], mapKeys...)
			wantValue(t, "visible", d["visible"], true)
			wantValue(t, "approachable", d["approachable"], true)
		}
		d := list[0].(map[string]any)
		wantValue(t, "name", d["name"], "Desk 1")
		wantValue(t, "posterCode", d["posterCode"], "MAD-D1")
		wantValue(t, "phone", d["phone"], "")
		wantInt(t, "mapCoordinates.bottomRightX", d["mapCoordinates"].(map[string]any)["bottomRightX"], 110)
	})

	t.Run("BookedDeskIsNotListed", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		// The spaces endpoint cannot book desks, so import the booking directly.
		if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Bookings: []layout.LayoutBooking{{
			ID: uuid.NewString(), OrganizationID: fx.OrgA.String(), ResourceID: fx.DeskOne.String(),
			CreatorID: fx.Bob.String(), OrganizerID: fx.Bob.String(),
			StartDate: fx.At(0, 9, 0).UnixMilli(), EndDate: fx.At(0, 18, 0).UnixMilli(),
		}}}); err != nil {
			t.Fatalf("import booking: %v", err)
		}
		got := listed(t, tb.call(t, fx.Alice, http.MethodGet, workstations("me", days(today10)), nil))
		if want := strs(fx.DeskTwo); !slices.Equal(got, want) {
			t.Errorf("free workstations = %v, want %v", got, want)
		}
	})

	t.Run("FlagsAccepted", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		q := with(days(today10), "allDayBookings", "true", "isSupervisedBooking", "false",
			"features", fx.FeatureScreen.String())
		got := listed(t, tb.call(t, fx.Alice, http.MethodGet, workstations("me", q), nil))
		if want := strs(fx.DeskOne); !slices.Equal(got, want) {
			t.Errorf("free workstations with a screen = %v, want %v", got, want)
		}
	})

	t.Run("AllDayBookingsKeepsRulesAllowingThem", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		// Both fixture desks allow all-day bookings. Desk 3 uses the rooms' rule, which does not.
		desk3 := uuid.New()
		if _, err := layout.New(tb.Pool, tb.Service).Import(t.Context(), layout.Layout{Resources: []layout.LayoutResource{{
			ID: desk3.String(), OrganizationID: fx.OrgA.String(), FloorID: fx.FloorMadrid.String(),
			SubcategoryID: fx.SubDesk.String(), ResourceRuleID: fx.RuleRoom.String(), Name: "Desk 3", PosterCode: "MAD-D3",
		}}}); err != nil {
			t.Fatalf("import desk: %v", err)
		}
		for _, tc := range []struct {
			name  string
			query url.Values
			want  []string
		}{
			{"Absent", days(today10), strs(fx.DeskOne, fx.DeskTwo, desk3)},
			{"False", with(days(today10), "allDayBookings", "false"), strs(fx.DeskOne, fx.DeskTwo, desk3)},
			{"True", with(days(today10), "allDayBookings", "true"), strs(fx.DeskOne, fx.DeskTwo)},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := listed(t, tb.call(t, fx.Alice, http.MethodGet, workstations("me", tc.query), nil))
				if !slices.Equal(got, tc.want) {
					t.Errorf("free workstations = %v, want %v", got, tc.want)
				}
			})
		}
	})

	t.Run("UserPathForms", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		q := days(today10)
		for _, tc := range []struct {
			name string
			as   uuid.UUID
			user string
			want int
			code booking.Code
		}{
			{"OwnID", fx.Alice, fx.Alice.String(), http.StatusOK, 0},
			{"EmployeeForOther", fx.Alice, fx.Bob.String(), http.StatusForbidden, booking.CodeForbidden},
			{"ReceptionistForOther", fx.Rita, fx.Alice.String(), http.StatusOK, 0},
			{"ReceptionistForUnknown", fx.Rita, uuid.NewString(), http.StatusNotFound, booking.CodeUserNotFound},
			{"NotAUUID", fx.Alice, "12345", http.StatusBadRequest, booking.CodeInvalidRequest},
		} {
			t.Run(tc.name, func(t *testing.T) {
				r := tb.call(t, tc.as, http.MethodGet, workstations(tc.user, q), nil)
				if tc.code == 0 {
					if got, want := listed(t, r), strs(fx.DeskOne, fx.DeskTwo); !slices.Equal(got, want) {
						t.Errorf("free workstations = %v, want %v", got, want)
					}
					return
				}
				wantProblem(t, r, tc.want, tc.code, noIndex)
			})
		}
	})
}

func TestFreeSpaces(t *testing.T) {
	t.Parallel()

	t.Run("ShapeAndValues", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		r := tb.call(t, fx.Alice, http.MethodGet, spaces("me", days(today10)), nil)
		// Hidden rooms and rooms on hidden floors are not listed. The order is floor number, then name.
		if got, want := listed(t, r), strs(fx.RoomBoard, fx.RoomGoya, fx.RoomVelazquez); !slices.Equal(got, want) {
			t.Fatalf("free spaces = %v, want %v", got, want)
		}
		list := array(t, "freeResources", r.object(t)["freeResources"])
		for i, e := range list {
			d := wantKeys(t, "freeResources["+strconv.Itoa(i)+"]", e, append(slices.Clone(listedKeys), "capacity")...)
			wantID(t, "floor", d["floor"], fx.FloorMadrid)
			wantID(t, "subcategory", d["subcategory"], fx.SubRoom)
		}
		for i, want := range []int64{16, 8, 4} {
			wantInt(t, "freeResources["+strconv.Itoa(i)+"].capacity", list[i].(map[string]any)["capacity"], want)
		}
		goya := list[1].(map[string]any)
		wantValue(t, "name", goya["name"], "Goya")
		wantValue(t, "posterCode", goya["posterCode"], "MAD-R1")
		wantValue(t, "phone", goya["phone"], "+34 910 000 001")
	})

	t.Run("EncodedAndRawBracketsAgree", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.book(t, fx.Bob, fx.RoomGoya, fx.At(0, 10, 0), fx.At(0, 11, 0))
		start, end := strconv.FormatInt(fx.At(0, 10, 30).UnixMilli(), 10), strconv.FormatInt(fx.At(0, 12, 0).UnixMilli(), 10)
		encoded := "bookingDays%5B0%5D.startDate=" + start + "&bookingDays%5B0%5D.endDate=" + end
		raw := "bookingDays[0].startDate=" + start + "&bookingDays[0].endDate=" + end
		want := strs(fx.RoomBoard, fx.RoomVelazquez)
		for name, query := range map[string]string{"Encoded": encoded, "Raw": raw} {
			req := tb.request(t, fx.Alice, http.MethodGet, freePath("me", "spaces", fx.BuildingMadrid, fx.SubRoom, ""), nil)
			req.URL.RawQuery = query // sent exactly as written, without re-encoding
			if got := listed(t, tb.send(t, req)); !slices.Equal(got, want) {
				t.Errorf("%s: free spaces = %v, want %v", name, got, want)
			}
		}
	})

	t.Run("FreeInEveryInterval", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		tb.book(t, fx.Bob, fx.RoomGoya, fx.At(1, 10, 0), fx.At(1, 11, 0))
		all := strs(fx.RoomBoard, fx.RoomGoya, fx.RoomVelazquez)
		withoutGoya := strs(fx.RoomBoard, fx.RoomVelazquez)
		for _, tc := range []struct {
			name      string
			intervals [][2]time.Time
			want      []string
		}{
			{"TodayOnly", [][2]time.Time{today10}, all},
			{"TomorrowOnly", [][2]time.Time{span(fx.At(1, 10, 30), fx.At(1, 11, 30))}, withoutGoya},
			{"TodayAndTomorrow", [][2]time.Time{today10, span(fx.At(1, 10, 0), fx.At(1, 11, 0))}, withoutGoya},
			{"TomorrowAndToday", [][2]time.Time{span(fx.At(1, 9, 0), fx.At(1, 10, 30)), today10}, withoutGoya},
			{"TouchingIsFree", [][2]time.Time{today10, span(fx.At(1, 11, 0), fx.At(1, 12, 0))}, all},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := listed(t, tb.call(t, fx.Alice, http.MethodGet, spaces("me", days(tc.intervals...)), nil))
				if !slices.Equal(got, tc.want) {
					t.Errorf("free spaces = %v, want %v", got, tc.want)
				}
			})
		}
	})

	t.Run("FeaturesAndCapacity", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		for _, tc := range []struct {
			name  string
			query url.Values
			want  []string
		}{
			{"Screen", with(days(today10), "features", fx.FeatureScreen.String()), strs(fx.RoomGoya, fx.RoomVelazquez)},
			{"ScreenAndWhiteboard", with(days(today10), "features", fx.FeatureScreen.String()+","+fx.FeatureWhiteboard.String()), strs(fx.RoomGoya)},
			{"RepeatedFeaturesParameter", func() url.Values {
				q := with(days(today10), "features", fx.FeatureScreen.String())
				q.Add("features", fx.FeatureWhiteboard.String())
				return q
			}(), strs(fx.RoomGoya)},
			{"CapacityAtLeast8", with(days(today10), "capacity", "8"), strs(fx.RoomBoard, fx.RoomGoya)},
			{"CapacityZero", with(days(today10), "capacity", "0"), strs(fx.RoomBoard, fx.RoomGoya, fx.RoomVelazquez)},
			{"OnlineMeeting", with(days(today10), "createOnlineMeeting", "true"), strs(fx.RoomBoard, fx.RoomGoya, fx.RoomVelazquez)},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got := listed(t, tb.call(t, fx.Alice, http.MethodGet, spaces("me", tc.query), nil))
				if !slices.Equal(got, tc.want) {
					t.Errorf("free spaces = %v, want %v", got, tc.want)
				}
			})
		}
	})

	t.Run("AppVersionHeaderAccepted", func(t *testing.T) {
		t.Parallel()
		tb := setup(t)
		listed(t, tb.callWith(t, fx.Alice, http.MethodGet, spaces("me", days(today10)), nil, http.Header{"App-Version": {"android/2.0.1"}}))
	})
}

func TestFreeErrors(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	ms := func(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
	for _, tc := range []struct {
		name   string
		as     uuid.UUID
		path   string
		status int
		code   booking.Code
		detail string // a word the detail must mention
	}{
		{"UnknownBuilding", fx.Alice, freePath("me", "spaces", uuid.New(), fx.SubRoom, days(today10).Encode()),
			http.StatusNotFound, booking.CodeBuildingNotFound, ""},
		{"OtherOrganizationsBuilding", fx.Boris, freePath("me", "spaces", fx.BuildingMadrid, fx.SubRoom, days(today10).Encode()),
			http.StatusNotFound, booking.CodeBuildingNotFound, ""},
		{"UnknownSubcategory", fx.Alice, freePath("me", "spaces", fx.BuildingMadrid, uuid.New(), days(today10).Encode()),
			http.StatusNotFound, booking.CodeSubcategoryNotFound, ""},
		{"WorkstationSubcategoryOnSpaces", fx.Alice, freePath("me", "spaces", fx.BuildingMadrid, fx.SubDesk, days(today10).Encode()),
			http.StatusNotFound, booking.CodeSubcategoryNotFound, ""},
		{"SpaceSubcategoryOnWorkstations", fx.Alice, freePath("me", "workstations", fx.BuildingMadrid, fx.SubRoom, days(today10).Encode()),
			http.StatusNotFound, booking.CodeSubcategoryNotFound, ""},
		{"BuildingNotAUUID", fx.Alice, api + "/users/me/buildings/hq/spaces/subcategories/" + fx.SubRoom.String() + "/free?" + days(today10).Encode(),
			http.StatusBadRequest, booking.CodeInvalidRequest, "buildingId"},
		{"NoBookingDays", fx.Alice, spaces("me", url.Values{}),
			http.StatusBadRequest, booking.CodeInvalidRequest, "bookingDays"},
		{"BadBookingDaysValue", fx.Alice, spaces("me", with(url.Values{}, "bookingDays[0].startDate", "tomorrow", "bookingDays[0].endDate", ms(fx.At(1, 11, 0)))),
			http.StatusBadRequest, booking.CodeInvalidRequest, "bookingDays[0].startDate"},
		{"OnlyStartDate", fx.Alice, spaces("me", with(url.Values{}, "bookingDays[0].startDate", ms(fx.At(1, 10, 0)))),
			http.StatusBadRequest, booking.CodeInvalidRequest, "bookingDays[0]"},
		{"MisspelledBookingDays", fx.Alice, spaces("me", with(days(today10), "bookingDays[1].start", ms(fx.At(1, 10, 0)))),
			http.StatusBadRequest, booking.CodeInvalidRequest, "bookingDays[1].start"},
		{"EndBeforeStart", fx.Alice, spaces("me", days(span(fx.At(0, 11, 0), fx.At(0, 10, 0)))),
			http.StatusBadRequest, booking.CodeInvalidRequest, "bookingDays[0].endDate"},
		{"BadFeatureUUID", fx.Alice, spaces("me", with(days(today10), "features", fx.FeatureScreen.String()+",screen")),
			http.StatusBadRequest, booking.CodeInvalidRequest, "features[1]"},
		{"NegativeCapacity", fx.Alice, spaces("me", with(days(today10), "capacity", "-1")),
			http.StatusBadRequest, booking.CodeInvalidRequest, "capacity"},
		{"CapacityNotANumber", fx.Alice, spaces("me", with(days(today10), "capacity", "lots")),
			http.StatusBadRequest, booking.CodeInvalidRequest, "capacity"},
		{"AllDayBookingsMaybe", fx.Alice, workstations("me", with(days(today10), "allDayBookings", "maybe")),
			http.StatusBadRequest, booking.CodeInvalidRequest, "allDayBookings"},
		{"IsSupervisedBookingMaybe", fx.Alice, workstations("me", with(days(today10), "isSupervisedBooking", "maybe")),
			http.StatusBadRequest, booking.CodeInvalidRequest, "isSupervisedBooking"},
		{"CreateOnlineMeetingMaybe", fx.Alice, spaces("me", with(days(today10), "createOnlineMeeting", "maybe")),
			http.StatusBadRequest, booking.CodeInvalidRequest, "createOnlineMeeting"},
		{"NoToken", uuid.Nil, spaces("me", days(today10)),
			http.StatusUnauthorized, booking.CodeUnauthorized, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := tb.call(t, tc.as, http.MethodGet, tc.path, nil)
			p := wantProblem(t, r, tc.status, tc.code, noIndex)
			if tc.detail != "" {
				wantDetail(t, p, tc.detail)
			}
		})
	}
}

package booking_test

import (
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
	"github.com/workspacebooking/booking/web/postgres"
)

// Poster codes are unique within an organization, ignoring case. An import that gives a second resource a
// code differing from another only in case is refused with an error naming the field, and imports nothing.
func TestPosterCodeUniqueWhateverTheCase(t *testing.T) {
	t.Parallel()
	fixture := bookingtest.Layout()
	var template layout.LayoutResource
	for _, r := range fixture.Resources {
		if r.ID == bookingtest.RoomGoya.String() {
			template = r
		}
	}
	newResource := func(code string) layout.LayoutResource {
		r := template
		r.ID, r.PosterCode, r.FeatureIDs, r.ReservableIDs = uuid.NewString(), code, nil, nil
		return r
	}
	for _, tc := range []struct {
		name      string
		resources []layout.LayoutResource
		want      string
	}{
		{"InTheDocument", []layout.LayoutResource{newResource("NYC-1-D05"), newResource("nyc-1-d05")},
			`resources[1].posterCode: "nyc-1-d05" is already the poster code of another resource of the organization (poster codes are the same whatever their case)`},
		{"InTheDatabase", []layout.LayoutResource{newResource("mad-r2")},
			`resources[0].posterCode: "mad-r2" is already the poster code of another resource of the organization (poster codes are the same whatever their case)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Resources: tc.resources})
			if booking.ErrorCode(err) != booking.CodeInvalidRequest || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Import = %v, want 2000 %q", err, tc.want)
			}
			var n int
			if err := b.Pool.QueryRow(t.Context(), "SELECT count(*) FROM resources").Scan(&n); err != nil || n != 9 {
				t.Errorf("resources after the refused import = %d (%v), want the fixture's 9", n, err)
			}
		})
	}
	t.Run("AnotherOrganizationMayUseIt", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		r := newResource("mad-r2")
		for _, x := range fixture.Resources {
			if x.ID == bookingtest.RoomB.String() {
				r.OrganizationID, r.FloorID, r.SubcategoryID, r.ResourceRuleID = x.OrganizationID, x.FloorID, x.SubcategoryID, x.ResourceRuleID
			}
		}
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Resources: []layout.LayoutResource{r}}); err != nil {
			t.Fatalf("Import of mad-r2 in another organization: %v", err)
		}
	})
}

// If a database holds two poster codes that differ only in case, the migration stops and names the codes,
// so that one can be renamed first.
func TestPosterCodeMigrationRefusesCaseDuplicates(t *testing.T) {
	t.Parallel()
	db := bookingtest.MigratedBefore(t, "poster_code_case.sql")
	if _, err := db.Conn.Exec(t.Context(), "UPDATE resources SET poster_code = 'mad-r2' WHERE id = $1", bookingtest.RoomGoya); err != nil {
		t.Fatal(err)
	}
	_, err := postgres.Migrate(t.Context(), db.URL)
	if err == nil || !strings.Contains(err.Error(), "differ only in case") || !strings.Contains(err.Error(), "MAD-R2") {
		t.Fatalf("Migrate = %v, want it stopped naming the codes that differ only in case", err)
	}
}

// Poster codes hold 1 to 64 characters from A–Z, a–z, digits, '.', '_' and '-': characters a kiosk can type
// and every database compares the same way, whatever its locale. An import that gives any other code is
// refused with an error naming the field, and imports nothing.
func TestPosterCodeCharacters(t *testing.T) {
	t.Parallel()
	fixture := bookingtest.Layout()
	var template layout.LayoutResource
	for _, r := range fixture.Resources {
		if r.ID == bookingtest.RoomGoya.String() {
			template = r
		}
	}
	const want = "may hold only letters A-Z and a-z, digits, '.', '_' and '-', 1 to 64 of them"
	for _, code := range []string{"MAD R9", "SALA-Ñ", "mad/r9", strings.Repeat("x", 65), "İ"} {
		t.Run(code[:min(len(code), 8)], func(t *testing.T) {
			t.Parallel()
			b := bookingtest.Setup(t)
			r := template
			r.ID, r.PosterCode, r.FeatureIDs, r.ReservableIDs = uuid.NewString(), code, nil, nil
			_, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Resources: []layout.LayoutResource{r}})
			wantMsg := `resources[0].posterCode: "` + code + `" ` + want
			if booking.ErrorCode(err) != booking.CodeInvalidRequest || !strings.Contains(err.Error(), wantMsg) {
				t.Fatalf("Import = %v, want 2000 %q", err, wantMsg)
			}
			var n int
			if err := b.Pool.QueryRow(t.Context(), "SELECT count(*) FROM resources").Scan(&n); err != nil || n != 9 {
				t.Errorf("resources after the refused import = %d (%v), want the fixture's 9", n, err)
			}
		})
	}
	t.Run("LongestAllowed", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		r := template
		code := "a.b_c-D9" + strings.Repeat("x", 56)
		r.ID, r.PosterCode, r.FeatureIDs, r.ReservableIDs = uuid.NewString(), code, nil, nil
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), layout.Layout{Resources: []layout.LayoutResource{r}}); err != nil {
			t.Fatalf("Import of %q: %v", code, err)
		}
		u := b.User(t, bookingtest.OrgA, bookingtest.Alice)
		if _, err := b.Service.StatusByPosterCode(t.Context(), u, strings.ToUpper(code)); err != nil {
			t.Errorf("StatusByPosterCode(%q): %v", strings.ToUpper(code), err)
		}
	})
	// A code outside the set, left by an older version, is never found, however it is typed.
	t.Run("LookupOutsideTheSet", func(t *testing.T) {
		t.Parallel()
		b := bookingtest.Setup(t)
		if _, err := b.Pool.Exec(t.Context(), "UPDATE resources SET poster_code = 'MAD R1' WHERE id = $1", bookingtest.RoomGoya); err != nil {
			t.Fatal(err)
		}
		u := b.User(t, bookingtest.OrgA, bookingtest.Alice)
		if _, err := b.Service.StatusByPosterCode(t.Context(), u, "MAD R1"); booking.ErrorCode(err) != booking.CodeResourceNotFound {
			t.Errorf("StatusByPosterCode(\"MAD R1\") = %v, want 1002", err)
		}
		if _, err := b.Service.PosterStatus(t.Context(), u, "MAD R1"); booking.ErrorCode(err) != booking.CodeResourceNotFound {
			t.Errorf("PosterStatus(\"MAD R1\") = %v, want 1002", err)
		}
		if _, err := b.Service.CheckInByPosterCode(t.Context(), u, u, "MAD R1"); booking.ErrorCode(err) != booking.CodeResourceNotFound {
			t.Errorf("CheckInByPosterCode(\"MAD R1\") = %v, want 1002", err)
		}
	})
}

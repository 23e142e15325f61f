package web_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestTextThatCannotBeStored checks text that PostgreSQL cannot store or compare: a NUL character, or
// bytes that are not valid UTF-8. Such text is the client's mistake (400 with code 2000), never a 500, and
// the request changes nothing.
func TestTextThatCannotBeStored(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	for _, tc := range []struct {
		name, method, path string
		body               any
	}{
		{"PosterCodeNotUTF8", http.MethodGet, api + "/users/me/resources/statusinfo?postercode=%FF", nil},
		{"PosterCodeWithNUL", http.MethodPost, api + "/users/me/resources/checkin?postercode=a%00b", nil},
		{"SubjectWithNUL", http.MethodPost, api + "/users/me/bookings/spaces/standard", []map[string]any{{
			"resource": map[string]any{"id": fx.RoomGoya.String()}, "subject": "a\u0000b",
			"startDate": fx.At(1, 10, 0).UnixMilli(), "endDate": fx.At(1, 11, 0).UnixMilli(),
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tb.call(t, fx.Alice, tc.method, tc.path, tc.body)
			wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
		})
	}
	var n int
	if err := tb.Pool.QueryRow(t.Context(), "SELECT count(*) FROM bookings").Scan(&n); err != nil || n != 0 {
		t.Errorf("bookings = %d (%v), want 0", n, err)
	}
}

// internals are words of PostgreSQL and Go that no answer may show a client.
var internals = []string{"SQLSTATE", "invalid byte sequence", "_key", "_fkey", "_check", "Go struct", "Go value",
	"json:", "unmarshal", "pgx", "encoding \"UTF8\""}

// wantNoInternals fails when the text shows any of internals.
func wantNoInternals(t *testing.T, text string) {
	t.Helper()
	for _, w := range internals {
		if strings.Contains(text, w) {
			t.Errorf("the answer shows %q: %s", w, clip([]byte(text)))
		}
	}
}

// TestBadTextEverywhere sends a NUL character, bytes that are not UTF-8 and values of the wrong type to
// each surface: the API (400 2000), SCIM (400 invalidValue) and a page form (400). No answer shows a
// constraint, a Go type or a database message.
func TestBadTextEverywhere(t *testing.T) {
	t.Parallel()
	sb := setupSCIM(t)
	status, nina := sb.scim(t, sb.tokenA, http.MethodPost, "/Users", newNina)
	wantSCIMStatus(t, "create Nina", status, nina, http.StatusCreated)
	ninaPath := "/Users/" + nina["id"].(string)
	bookingBody := func(subject string) string {
		return fmt.Sprintf(`[{"resource":{"id":%q},"subject":%s,"startDate":%d,"endDate":%d}]`,
			fx.RoomGoya, subject, fx.At(1, 10, 0).UnixMilli(), fx.At(1, 11, 0).UnixMilli())
	}
	building := func(name string) string { return `{"name":` + name + `,"timezone":"Europe/Madrid"}` }
	user := func(name, email string) string { return `{"name":` + name + `,"email":` + email + `}` }

	t.Run("API", func(t *testing.T) {
		for _, tc := range []struct {
			name, method, path, body string
			index                    int
		}{
			{"BookingNUL", http.MethodPost, bookingsPath("me"), bookingBody(`"a\u0000b"`), noIndex},
			{"BookingNotUTF8", http.MethodPost, bookingsPath("me"), bookingBody("\"a\xffb\""), noIndex},
			{"BookingWrongType", http.MethodPost, bookingsPath("me"), bookingBody(`{"x":1}`), 0},
			{"BuildingNUL", http.MethodPut, adminPath("buildings", uuid.New()), building(`"a\u0000b"`), noIndex},
			{"BuildingNotUTF8", http.MethodPut, adminPath("buildings", uuid.New()), building("\"a\xffb\""), noIndex},
			{"BuildingWrongType", http.MethodPut, adminPath("buildings", uuid.New()), building(`5`), noIndex},
			{"UserNUL", http.MethodPut, adminPath("users", uuid.New()), user(`"N\u0000"`, `"n@acme.test"`), noIndex},
			{"UserNULEmail", http.MethodPut, adminPath("users", uuid.New()), user(`"N"`, `"n\u0000@acme.test"`), noIndex},
			{"UserNotUTF8", http.MethodPut, adminPath("users", uuid.New()), user("\"N\xff\"", `"n@acme.test"`), noIndex},
			{"UserWrongType", http.MethodPut, adminPath("users", uuid.New()), user(`true`, `"n@acme.test"`), noIndex},
			{"UserNULKey", http.MethodPut, adminPath("users", uuid.New()), `{"name":"N","email":"n@acme.test","x\u0000":1}`, noIndex},
		} {
			t.Run(tc.name, func(t *testing.T) {
				as := fx.Adam
				if tc.method == http.MethodPost {
					as = fx.Alice
				}
				r := sb.call(t, as, tc.method, tc.path, tc.body)
				wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, tc.index)
				wantNoInternals(t, string(r.body))
			})
		}
	})
	t.Run("SCIM", func(t *testing.T) {
		nul := maps.Clone(newNina)
		nul["userName"], nul["emails"] = "zoe\u0000@acme.test", nil
		nulName := maps.Clone(newNina)
		nulName["userName"], nulName["emails"], nulName["externalId"] = "zoe@acme.test", nil, "00u1zoe"
		nulName["name"] = map[string]any{"givenName": "Zo\u0000e", "familyName": "Zeta"}
		zoeJSON, _ := json.Marshal(map[string]any{"schemas": newNina["schemas"], "userName": "zoe@acme.test",
			"name": map[string]any{"givenName": "Zoe", "familyName": "Zeta"}})
		for _, tc := range []struct {
			name, method, path string
			body               any
		}{
			{"CreateNULUserName", http.MethodPost, "/Users", nul},
			{"CreateNULName", http.MethodPost, "/Users", nulName},
			{"CreateNotUTF8", http.MethodPost, "/Users", strings.Replace(string(zoeJSON), "Zeta", "Ze\xffta", 1)},
			{"PatchNUL", http.MethodPatch, ninaPath, map[string]any{
				"schemas":    []string{"urn:ietf:params:scim:api:messages:2.0:PatchOp"},
				"Operations": []any{map[string]any{"op": "replace", "path": "name.givenName", "value": "Ni\u0000na"}},
			}},
			{"PatchNotUTF8", http.MethodPatch, ninaPath, `{"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],` +
				`"Operations":[{"op":"replace","path":"displayName","value":"Ni` + "\xff" + `na"}]}`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				status, body := sb.scim(t, sb.tokenA, tc.method, tc.path, tc.body)
				wantSCIMStatus(t, tc.name, status, body, http.StatusBadRequest)
				if body["scimType"] != "invalidValue" || body["status"] != "400" {
					t.Errorf("body = %v, want a SCIM error 400 invalidValue", body)
				}
				text, _ := json.Marshal(body)
				wantNoInternals(t, string(text))
			})
		}
	})
	t.Run("PageForm", func(t *testing.T) {
		b := sb.pages.signedIn(t, fx.Adam)
		etag := b.get("/admin/people").attr(personRow(fx.Bob)+" input[name=etag]", "value")
		for _, tc := range []struct{ name, value string }{{"NUL", "b\x00ob"}, {"NotUTF8", "b\xffob"}} {
			t.Run(tc.name, func(t *testing.T) {
				p := b.hxPost("/admin/people/"+fx.Bob.String(), personValues(etag, tc.value, "Baker", "bob@acme.test", "EMPLOYEE", "en"))
				p.wantStatus(t, http.StatusBadRequest)
				wantNoInternals(t, p.body)
			})
		}
	})
}

package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"mime"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web"
	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// The fuzz targets for JSON bodies go through the real handlers and a real database, so that inputs
// also reach the domain's validation after decoding. Each fuzzing process sets up its own database once
// and sends every input to the same server. Inputs that succeed change the data (a booking is made,
// moved or decided); the checked properties allow for that.
//
// The properties hold for any body: the status is never 5xx; an error is a problem body whose status
// matches its code and whose detail is readable; a body that is not JSON at all gets 400 with code 2000.

// fuzzBundle is a server on its own database, with two of Alice's bookings to act on. The fuzz targets
// call the server directly, not through validateAPI, because validateAPI would report a mismatch on the
// *testing.F, and a *testing.F must not fail from inside the fuzz function.
type fuzzBundle struct {
	*testBundle
	bearer  map[uuid.UUID]string
	pending uuid.UUID // Alice's booking of Goya tomorrow 10:00–11:00, with coffee
	waiting uuid.UUID // Alice's booking of the Boardroom tomorrow 12:00–13:00, waiting for approval
}

func setupFuzz(f *testing.F) *fuzzBundle {
	f.Helper()
	b := setup(f, func(d *web.Deps) { d.Logger = slog.New(slog.DiscardHandler) })
	fb := &fuzzBundle{testBundle: b, bearer: map[uuid.UUID]string{}}
	for _, id := range []uuid.UUID{fx.Alice, fx.Adam} {
		fb.bearer[id] = b.mint(f, b.User(f, fx.OrgA, id), 24*time.Hour)
	}
	alice := b.User(f, fx.OrgA, fx.Alice)
	made, err := b.Service.CreateBookings(f.Context(), booking.CreateRequest{Creator: alice, Organizer: alice, Category: booking.CategorySpace, Bookings: []booking.NewBooking{
		{ResourceID: fx.RoomGoya, Start: fx.At(1, 10, 0), End: fx.At(1, 11, 0)},
		{ResourceID: fx.RoomBoard, Start: fx.At(1, 12, 0), End: fx.At(1, 13, 0)},
	}})
	if err != nil {
		f.Fatalf("CreateBookings: %v", err)
	}
	fb.pending, fb.waiting = made[0].ID, made[1].ID
	qty := int32(2)
	if _, err := b.Service.ContractReservables(f.Context(), alice, fb.pending, []booking.ReservableOrder{
		{ReservableID: fx.ReservableCoffee, Quantity: &qty},
	}); err != nil {
		f.Fatalf("ContractReservables: %v", err)
	}
	return fb
}

// serve sends the body to the route as the user, checks the response with wantSound, and returns it.
func (fb *fuzzBundle) serve(t *testing.T, as uuid.UUID, method, path string, body []byte) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), method, path, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+fb.bearer[as])
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	fb.server.ServeHTTP(rec, req)
	wantSound(t, rec, body)
	return rec
}

// wantSound checks the properties that the response to any body must have.
func wantSound(t *testing.T, rec *httptest.ResponseRecorder, body []byte) {
	t.Helper()
	if rec.Code >= 500 {
		t.Fatalf("status %d for the body %q: %s", rec.Code, body, rec.Body)
	}
	if !json.Valid(rec.Body.Bytes()) {
		t.Fatalf("status %d with a body that is not JSON: %q", rec.Code, rec.Body)
	}
	if rec.Code < 400 {
		if !json.Valid(body) {
			t.Fatalf("status %d for a body that is not JSON: %q", rec.Code, body)
		}
		return
	}
	if mt, _, _ := mime.ParseMediaType(rec.Header().Get("Content-Type")); mt != "application/problem+json" {
		t.Errorf("Content-Type = %q, want application/problem+json", rec.Header().Get("Content-Type"))
	}
	var p struct {
		Status int             `json:"status"`
		Code   int             `json:"code"`
		Name   string          `json:"name"`
		Detail json.RawMessage `json:"detail"`
		Index  *int            `json:"index"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &p); err != nil {
		t.Fatalf("problem body %s: %v", rec.Body, err)
	}
	code := booking.Code(p.Code)
	if p.Status != rec.Code || p.Name != code.Name() || code.Name() == "UNKNOWN" || rec.Code != web.StatusOf(code) {
		t.Errorf("problem %s answered with status %d, want the code's %d", rec.Body, rec.Code, web.StatusOf(code))
	}
	var detail string
	if err := json.Unmarshal(p.Detail, &detail); err != nil || detail == "" {
		t.Errorf("problem detail %s is empty or not a string", p.Detail)
	}
	// Decoding always yields valid UTF-8, because encoding/json writes each invalid byte as the escape
	// \ufffd. So look for that escape in the raw text instead. A real U+FFFD in the detail, such as the
	// decoder puts in place of a body's bad bytes, is written as is and does not match.
	if escapesRuneError(p.Detail) {
		t.Errorf("problem detail %s had bytes that are not UTF-8", p.Detail)
	}
	if p.Index != nil && *p.Index < 0 {
		t.Errorf("problem index = %d", *p.Index)
	}
	if !json.Valid(body) && (rec.Code != http.StatusBadRequest || code != booking.CodeInvalidRequest) {
		t.Errorf("a body that is not JSON answered %d %v, want 400 2000", rec.Code, code)
	}
}

// escapesRuneError reports whether the JSON text contains the escape \ufffd, which encoding/json writes
// for each byte of a string that is not valid UTF-8.
func escapesRuneError(text []byte) bool {
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' {
			continue
		}
		i++ // skip the escaped character, so that an escaped backslash does not start an escape
		if i+4 < len(text) && text[i] == 'u' && strings.EqualFold(string(text[i+1:i+5]), "fffd") {
			return true
		}
	}
	return false
}

// wantBookings checks the bookings in a successful response: each one ends after it starts, and its
// duration field equals end minus start.
func wantBookings(t *testing.T, rec *httptest.ResponseRecorder, list string) {
	t.Helper()
	var out map[string]json.RawMessage
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("answer %s: %v", rec.Body, err)
	}
	var bs []struct {
		StartDate, EndDate, Duration int64
	}
	raw := rec.Body.Bytes()
	if list != "" {
		raw = out[list]
		if err := json.Unmarshal(raw, &bs); err != nil {
			t.Fatalf("%s of %s: %v", list, rec.Body, err)
		}
	} else {
		bs = make([]struct{ StartDate, EndDate, Duration int64 }, 1)
		if err := json.Unmarshal(raw, &bs[0]); err != nil {
			t.Fatalf("booking %s: %v", rec.Body, err)
		}
	}
	for i, b := range bs {
		if b.EndDate <= b.StartDate || b.Duration != b.EndDate-b.StartDate {
			t.Errorf("booking %d: startDate %d, endDate %d, duration %d", i, b.StartDate, b.EndDate, b.Duration)
		}
	}
}

// FuzzAPICreateSpaceBookings fuzzes the body of POST /api/v1/users/me/bookings/spaces/standard (spec 4.4).
func FuzzAPICreateSpaceBookings(f *testing.F) {
	fuzzCreate(f, "spaces", fx.RoomVelazquez)
}

// FuzzAPICreateWorkstationBookings fuzzes the body of POST /api/v1/users/me/bookings/workstations/standard.
func FuzzAPICreateWorkstationBookings(f *testing.F) {
	fuzzCreate(f, "workstations", fx.DeskOne)
}

func fuzzCreate(f *testing.F, kind string, resource uuid.UUID) {
	for _, b := range fx.CreateBodies(resource, fx.At(2, 10, 0), fx.At(2, 11, 0)) {
		f.Add(b)
	}
	fb := setupFuzz(f)
	path := api + "/users/me/bookings/" + kind + "/standard"
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := fb.serve(t, fx.Alice, http.MethodPost, path, body)
		if rec.Code == http.StatusCreated {
			wantBookings(t, rec, "bookings")
		}
	})
}

// FuzzAPIChangeBooking fuzzes the body of PATCH /api/v1/bookings/{bookingId}.
func FuzzAPIChangeBooking(f *testing.F) {
	s, e := fx.At(1, 14, 0).UnixMilli(), fx.At(1, 15, 0).UnixMilli()
	for _, b := range []string{
		fmt.Sprintf(`{"startDate":%d,"endDate":%d}`, s, e),
		fmt.Sprintf(`{"endDate":%d}`, fx.At(1, 11, 30).UnixMilli()),
		fmt.Sprintf(`{"resource":{"id":%q}}`, fx.RoomVelazquez),
		fmt.Sprintf(`{"startDate":%d,"endDate":%d,"resource":{"id":%q}}`, s, e, fx.RoomVelazquez),
		fmt.Sprintf(`{"startDate":%d,"endDate":%d}`, e, s),
		fmt.Sprintf(`{"resource":{"id":%q}}`, fx.DeskOne),
		`{"startDate":-9223372036854775808}`, `{"endDate":9223372036854775807}`, `{"resource":{}}`,
		`{"resource":{"id":"x"}}`, `{"status":"CANCELLED"}`, `{}`, `[]`, `null`, ``, `{"startDate":"1"}`,
	} {
		f.Add([]byte(b))
	}
	fb := setupFuzz(f)
	path := api + "/bookings/" + fb.pending.String()
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := fb.serve(t, fx.Alice, http.MethodPatch, path, body)
		if rec.Code == http.StatusOK {
			wantBookings(t, rec, "")
		}
	})
}

// FuzzAPIContractReservables fuzzes the body of PUT /api/v1/bookings/{bookingId}/reservables/all (spec 4.3).
func FuzzAPIContractReservables(f *testing.F) {
	fb := setupFuzz(f)
	id := fb.pending.String()
	for _, b := range []string{
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q,"deliveryTimeMs":0,"quantity":6,"comment":"Oat milk please"}]}`, id, fx.ReservableCoffee),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q},{"reservableId":%q,"deliveryTimeMs":600000}]}`, id, fx.ReservableCoffee, fx.ReservableAV),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[]}`, id),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q},{"reservableId":%q}]}`, id, fx.ReservableCoffee, fx.ReservableCoffee),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q,"quantity":0}]}`, id, fx.ReservableCoffee),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q,"deliveryTimeMs":-9223372036854775808}]}`, id, fx.ReservableCoffee),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q,"deliveryTimeMs":9223372036854775807}]}`, id, fx.ReservableCoffee),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q}]}`, id, fx.ReservableLunch),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{"reservableId":%q,"comment":"a\u0000b"}]}`, id, fx.ReservableCoffee),
		fmt.Sprintf(`{"bookingId":%q}`, id),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":[{}]}`, id),
		fmt.Sprintf(`{"bookingId":%q,"reservableBookingList":null}`, uuid.New()),
		`{"bookingId":"x"}`, `{}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(b))
	}
	path := api + "/bookings/" + id + "/reservables/all"
	f.Fuzz(func(t *testing.T, body []byte) {
		fb.serve(t, fx.Alice, http.MethodPut, path, body)
	})
}

// FuzzAPIDecideApproval fuzzes the body of POST /api/v1/bookings/{bookingId}/approval, as an admin.
func FuzzAPIDecideApproval(f *testing.F) {
	for _, b := range []string{
		`{"approved":true}`, `{"approved":false}`, `{"approved":"true"}`, `{"approved":null}`, `{"approved":1}`,
		`{"approved":true,"reason":"x"}`, `{"Approved":true}`, `{}`, `[]`, `null`, ``, `{"approved":true}}`,
	} {
		f.Add([]byte(b))
	}
	fb := setupFuzz(f)
	path := api + "/bookings/" + fb.waiting.String() + "/approval"
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := fb.serve(t, fx.Adam, http.MethodPost, path, body)
		if rec.Code == http.StatusOK {
			wantBookings(t, rec, "")
		}
	})
}

// FuzzAPICreateBookingFields fuzzes the fields of one create request instead of its bytes. Every input is
// then JSON of the right shape and reaches the domain's checks and the database: any fixture resource (or
// an unknown one), any times, any texts. The response must be either 201 with bookings that end after
// they start, or a refusal; never a 5xx.
func FuzzAPICreateBookingFields(f *testing.F) {
	f.Add(uint8(0), fx.At(1, 10, 0).UnixMilli(), fx.At(1, 11, 0).UnixMilli(), false, "LOW", "Team sync", "TEXT", "Agenda", uint8(0), "REQUIRED", "guest@example.com", "")
	f.Add(uint8(3), fx.At(2, 0, 0).UnixMilli(), int64(0), true, "", "", "", "", uint8(9), "", "", "")
	f.Add(uint8(1), fx.At(1, 19, 30).UnixMilli(), fx.At(1, 20, 30).UnixMilli(), false, "HIGH", "a\x00b", "HTML", "<b>x</b>", uint8(1), "OPTIONAL", "Guest <g@example.com>", "sip:1@x")
	f.Add(uint8(4), int64(253402214400000-1), int64(253402214400000), true, "NORMAL", "", "TEXT", "", uint8(2), "REQUIRED", "", "")
	f.Add(uint8(2), int64(-1), int64(1), false, "LOW", "", "TEXT", "", uint8(4), "REQUIRED", "", "")
	f.Add(uint8(7), fx.At(0, 8, 58).UnixMilli(), fx.At(0, 9, 30).UnixMilli(), false, "LOW", "", "TEXT", "", uint8(3), "REQUIRED", "", "")
	fb := setupFuzz(f)
	resources := []uuid.UUID{fx.RoomGoya, fx.RoomVelazquez, fx.RoomBoard, fx.DeskOne, fx.DeskTwo, fx.RoomHidden,
		fx.RoomOnHidden, fx.RoomHudson, fx.RoomB, uuid.Nil}
	people := []uuid.UUID{fx.Bob, fx.Rita, fx.Adam, fx.Alice, fx.Boris, uuid.Nil}
	f.Fuzz(func(t *testing.T, resource uint8, start, end int64, allDay bool, importance, subject, bodyType, content string,
		attendee uint8, attendeeType, email, sip string) {
		e := map[string]any{
			"resource": map[string]any{"id": resources[int(resource)%len(resources)].String()}, "startDate": start,
			"importance": importance, "subject": subject, "body": map[string]any{"content": content, "bodyType": bodyType},
			"sipAddress": sip,
		}
		if allDay {
			e["allDay"] = true
		} else {
			e["endDate"] = end
		}
		if attendee < 128 {
			e["internalAttendees"] = []any{map[string]any{"type": attendeeType, "user": map[string]any{"id": people[int(attendee)%len(people)].String()}}}
		}
		if email != "" {
			e["externalAttendees"] = []any{map[string]any{"type": attendeeType, "email": email}}
		}
		body, err := json.Marshal([]any{e})
		if err != nil {
			t.Fatal(err)
		}
		kind := "spaces"
		if resource%2 == 1 {
			kind = "workstations"
		}
		rec := fb.serve(t, fx.Alice, http.MethodPost, api+"/users/me/bookings/"+kind+"/standard", body)
		if rec.Code == http.StatusCreated {
			wantBookings(t, rec, "bookings")
		}
	})
}

package layout_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// importSeeds returns seed layout documents: the fixture, and small valid and invalid documents that use
// the fixture's ids. The demo office is left out because the fuzzer makes little progress on an input
// that large.
func importSeeds(t testing.TB) [][]byte {
	t.Helper()
	fixture, err := json.Marshal(bookingtest.Layout())
	if err != nil {
		t.Fatalf("marshal layout: %v", err)
	}
	out := [][]byte{fixture}
	const org = `"organizationId":"00000000-0000-4000-8000-000000000001"`
	for _, s := range []string{
		`{"organizations":[{"id":"00000000-0000-4000-8000-000000000009","name":"Initech","additionalServicesActive":true}]}`,
		`{"users":[{"id":"00000000-0000-4000-8000-000000000199",` + org + `,"name":"zoe","email":"zoe@acme.test","role":"ADMIN","userRule":{"id":""}}]}`,
		`{"users":[{"id":"00000000-0000-4000-8000-000000000198",` + org + `,"name":"yan","email":"Yan <yan@acme.test>"}]}`,
		`{"users":[{"id":"00000000-0000-4000-8000-000000000197",` + org + `,"name":"xia","email":"alice@acme.test"}]}`,
		`{"buildings":[{"id":"00000000-0000-4000-8000-000000000399",` + org + `,"name":"Lisbon","timezone":"Europe/Lisbon","address":{"coordinates":{"latitude":38.7,"longitude":-9.1}}}]}`,
		`{"buildings":[{"id":"00000000-0000-4000-8000-000000000398",` + org + `,"name":"Nowhere","timezone":"Mars/Olympus","address":{}}]}`,
		`{"floors":[{"id":"00000000-0000-4000-8000-000000000499",` + org + `,"buildingId":"00000000-0000-4000-8000-000000000301","name":"2","floorNumber":2}]}`,
		`{"floors":[{"id":"00000000-0000-4000-8000-000000000498",` + org + `,"buildingId":"00000000-0000-4000-8000-000000000303","name":"B's"}]}`,
		`{"resourceRules":[{"id":"00000000-0000-4000-8000-000000000699",` + org + `,"startTime":3600000,"endTime":3600000}]}`,
		`{"resourceRules":[{"id":"00000000-0000-4000-8000-000000000698",` + org + `,"maximumDuration":-1}]}`,
		`{"reservables":[{"id":"00000000-0000-4000-8000-000000000899",` + org + `,"name":"Tea","minimumCancellationMs":3600000}]}`,
		`{"resources":[{"id":"00000000-0000-4000-8000-000000000999",` + org + `,"floorId":"00000000-0000-4000-8000-000000000401",` +
			`"subcategoryId":"00000000-0000-4000-8000-000000000502","resourceRuleId":"00000000-0000-4000-8000-000000000601",` +
			`"name":"Sorolla","posterCode":"MAD-R9","capacity":4,"featureIds":["00000000-0000-4000-8000-000000000701"],` +
			`"reservableIds":["00000000-0000-4000-8000-000000000801","00000000-0000-4000-8000-000000000801"]}]}`,
		`{"resources":[{"id":"00000000-0000-4000-8000-000000000998",` + org + `,"floorId":"00000000-0000-4000-8000-000000000404",` +
			`"subcategoryId":"00000000-0000-4000-8000-000000000502","resourceRuleId":"00000000-0000-4000-8000-000000000601",` +
			`"name":"Across","posterCode":"MAD-R1","capacity":-1}]}`,
		`{"bookings":[{"id":"00000000-0000-4000-8000-000000009999",` + org + `,"resourceId":"00000000-0000-4000-8000-000000000901",` +
			`"creatorId":"00000000-0000-4000-8000-000000000101","organizerId":"00000000-0000-4000-8000-000000000101",` +
			`"startDate":1795510800000,"endDate":1795514400000,"status":"ACTIVE","body":{"content":"x"}}]}`,
		`{"bookings":[{"id":"00000000-0000-4000-8000-000000009998",` + org + `,"resourceId":"00000000-0000-4000-8000-000000000909",` +
			`"creatorId":"00000000-0000-4000-8000-000000000201","organizerId":"00000000-0000-4000-8000-000000000101",` +
			`"startDate":1795514400000,"endDate":1795510800000,"body":{}}]}`,
		`{"subcategories":[{"id":"00000000-0000-4000-8000-000000000599",` + org + `,"name":"Booth","category":"BOOTH"}]}`,
		`{"features":[{"id":"x",` + org + `,"name":"Screen"}]}`,
		`{"organizations":[{"id":"00000000-0000-4000-8000-000000000009","name":"\u0000"}]}`,
		`{"buildings":[{"nickname":"x"}]}`, `{}`, `[]`, `null`, ``, `{} {}`, `{"users":null}`,
	} {
		out = append(out, []byte(s))
	}
	return out
}

// FuzzImportLayout decodes any document as `booking import` does (layout.DecodeLayout) and imports
// it into the fuzzing process's own database, loaded with the fixture. It checks that the import never
// panics, and that a document either imports or is refused with a 2000 error that says where it is
// wrong; any other error would be reported by the command as its own failure. A document that imported
// once imports again, since an import is an idempotent upsert by id.
func FuzzImportLayout(f *testing.F) {
	for _, s := range importSeeds(f) {
		f.Add(s)
	}
	b := bookingtest.Setup(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := layout.DecodeLayout(bytes.NewReader(data))
		if err != nil {
			return // refused before it reaches the database: "not a layout document"
		}
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
			var de *booking.Error
			if !errors.As(err, &de) || de.Code != booking.CodeInvalidRequest {
				t.Fatalf("Import = %v (%T), want nil or a 2000", err, err)
			}
			if de.Message == "" || !utf8.ValidString(de.Message) {
				t.Fatalf("Import error message %q is empty or not valid UTF-8", de.Message)
			}
			return
		}
		if _, err := layout.New(b.Pool, b.Service).Import(t.Context(), l); err != nil {
			t.Fatalf("the document imported once, but not again: %v", err)
		}
	})
}

package layout_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/layout"
)

// A tag that is no version of any object: what an admin holds after someone else deleted the object.
const goneTag = `"0123456789abcdef0123456789abcdef"`

// ifMatchCases are If-Match headers of a Put or Delete of a feature that exists (or does not), built from
// the feature's current ETag, and the code each write answers (0 for done).
var ifMatchCases = []struct {
	name                string
	exists              bool
	ifMatch             func(current string) string
	wantPut, wantDelete booking.Code
}{
	{"ExistingWithout", true, func(string) string { return "" }, 0, 0},
	{"ExistingCurrent", true, func(cur string) string { return cur }, 0, 0},
	{"ExistingStale", true, func(string) string { return goneTag }, booking.CodePreconditionFailed, booking.CodePreconditionFailed},
	{"ExistingListHoldingCurrent", true, func(cur string) string { return goneTag + ", " + cur }, 0, 0},
	{"ExistingListHoldingCurrentFirst", true, func(cur string) string { return cur + "," + goneTag }, 0, 0},
	{"ExistingListWithoutCurrent", true, func(string) string { return goneTag + `, "ffff"` }, booking.CodePreconditionFailed, booking.CodePreconditionFailed},
	{"ExistingStar", true, func(string) string { return "*" }, 0, 0},
	// If-Match compares strongly (RFC 9110, 13.1.1): a weak tag never matches, even of the current version.
	{"ExistingWeakCurrent", true, func(cur string) string { return "W/" + cur }, booking.CodePreconditionFailed, booking.CodePreconditionFailed},
	// A current tag without its quotes is not that tag.
	{"ExistingUnquotedCurrent", true, func(cur string) string { return cur[1 : len(cur)-1] }, booking.CodePreconditionFailed, booking.CodePreconditionFailed},
	// Nothing to delete is 1013 whatever If-Match says; a create under If-Match is 412, as nothing matches.
	{"MissingWithout", false, func(string) string { return "" }, 0, booking.CodeObjectNotFound},
	{"MissingTag", false, func(string) string { return goneTag }, booking.CodePreconditionFailed, booking.CodeObjectNotFound},
	{"MissingStar", false, func(string) string { return "*" }, booking.CodePreconditionFailed, booking.CodeObjectNotFound},
	{"MissingList", false, func(string) string { return goneTag + `, "ffff"` }, booking.CodePreconditionFailed, booking.CodeObjectNotFound},
}

// objectState is what an admin reads of one object: the object, or the code that refused reading it, and
// how many audit entries it has.
type objectState struct {
	Object layout.Object
	Code   booking.Code
	Audits int
}

func stateOf(t *testing.T, b *testBundle, id uuid.UUID) objectState {
	t.Helper()
	obj, err := b.admin.Get(t.Context(), b.adam, layout.Features, id)
	entries, aerr := b.admin.Audit(t.Context(), b.adam, booking.AuditFilter{ObjectID: &id})
	if aerr != nil {
		t.Fatalf("Audit: %v", aerr)
	}
	return objectState{Object: obj, Code: booking.ErrorCode(err), Audits: len(entries)}
}

// newFeature creates a feature with a new id and returns it.
func newFeature(t *testing.T, b *testBundle, name string) layout.Object {
	t.Helper()
	obj, _, err := b.admin.Put(t.Context(), b.adam, layout.Features, uuid.New(), []byte(`{"name": "`+name+`"}`), "")
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	return obj
}

// TestPutIfMatch writes a feature under each If-Match: a write is made only while the header names the
// current version, and a refused one changes nothing and records nothing.
func TestPutIfMatch(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, tc := range ifMatchCases {
		t.Run(tc.name, func(t *testing.T) {
			id, cur := uuid.New(), ""
			if tc.exists {
				obj := newFeature(t, b, "Projector")
				id, cur = obj.ID, obj.ETag
			}
			before := stateOf(t, b, id)
			got, created, err := b.admin.Put(t.Context(), b.adam, layout.Features, id, []byte(`{"name": "Beamer"}`), tc.ifMatch(cur))
			if code := booking.ErrorCode(err); code != tc.wantPut {
				t.Fatalf("Put code = %v (%v), want %v", code, err, tc.wantPut)
			}
			want := before
			if tc.wantPut == 0 {
				if created != !tc.exists {
					t.Errorf("created = %v, want %v", created, !tc.exists)
				}
				want = objectState{Object: got, Audits: before.Audits + 1}
				if got.ETag == cur {
					t.Errorf("ETag after a change = %s, the same as before", got.ETag)
				}
			}
			if diff := cmp.Diff(want, stateOf(t, b, id)); diff != "" {
				t.Errorf("after Put (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDeleteIfMatch deletes a feature under each If-Match, as TestPutIfMatch writes one.
func TestDeleteIfMatch(t *testing.T) {
	t.Parallel()
	b := setup(t)
	for _, tc := range ifMatchCases {
		t.Run(tc.name, func(t *testing.T) {
			id, cur := uuid.New(), ""
			if tc.exists {
				obj := newFeature(t, b, "Projector")
				id, cur = obj.ID, obj.ETag
			}
			before := stateOf(t, b, id)
			err := b.admin.Delete(t.Context(), b.adam, layout.Features, id, tc.ifMatch(cur))
			if code := booking.ErrorCode(err); code != tc.wantDelete {
				t.Fatalf("Delete code = %v (%v), want %v", code, err, tc.wantDelete)
			}
			want := before
			if tc.wantDelete == 0 {
				want = objectState{Code: booking.CodeObjectNotFound, Audits: before.Audits + 1}
			}
			if diff := cmp.Diff(want, stateOf(t, b, id)); diff != "" {
				t.Errorf("after Delete (-want +got):\n%s", diff)
			}
		})
	}
}

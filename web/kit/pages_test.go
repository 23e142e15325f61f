package kit_test

import (
	"context"
	"errors"
	"testing"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/booking"
	"github.com/workspacebooking/booking/web/kit"
	"github.com/workspacebooking/booking/web/lang"
)

// TestPageErrorMessageOfABadID checks that a page tells of an id that is not a UUID in plain words, in
// the page's language, whichever language the refusal's detail is written in.
func TestPageErrorMessageOfABadID(t *testing.T) {
	_, err := kit.ParseUUID("buildingId", "nope")
	var de *booking.Error
	if !errors.As(err, &de) {
		t.Fatalf("ParseUUID: %v, want a refusal", err)
	}
	for _, ctx := range []context.Context{context.Background(), lang.With(context.Background(), language.Spanish)} {
		p := kit.Problem{Status: kit.HTTPStatus(de.Code), Code: int(de.Code), Detail: de.In(ctx)}
		if got, want := kit.PageErrorMessage(ctx, p), lang.T(ctx, "error.badAddress"); got != want {
			t.Errorf("%s: PageErrorMessage = %q, want %q", lang.Of(ctx), got, want)
		}
	}
	if got, want := de.In(lang.With(context.Background(), language.Spanish)), `buildingId: "nope" no es un UUID`; got != want {
		t.Errorf("in Spanish %q, want %q", got, want)
	}
}

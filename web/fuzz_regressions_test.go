package web_test

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// Inputs that the fuzz targets found to be mishandled, kept as test cases of the operations they reached.

// TestBookingDaysFuzzRegressions checks two fixed bugs in bookingDays.
//
// An interval's date given twice is refused, whether it is repeated or spelled with two forms of the same
// index (such as [0] and [00]). Two spellings used to be read in map order, so the same query could get
// different answers from one call to the next.
//
// A parameter name that is not valid UTF-8 is quoted in a detail that is valid UTF-8.
func TestBookingDaysFuzzRegressions(t *testing.T) {
	t.Parallel()
	tb := setup(t)
	start, end := msParam(fx.At(1, 10, 0)), msParam(fx.At(1, 11, 0))
	later := msParam(fx.At(1, 12, 0))
	for _, tc := range []struct{ name, query, detail string }{
		{"IndexUnderTwoSpellings", "bookingDays[0].startDate=" + start + "&bookingDays[0].endDate=" + end + "&bookingDays[00].endDate=" + later,
			"bookingDays[0].endDate: given more than once"},
		{"EncodedAndPlainSpellings", "bookingDays[1].startDate=" + start + "&bookingDays%5B01%5D.startDate=" + start + "&bookingDays[1].endDate=" + end,
			"bookingDays[1].startDate: given more than once"},
		{"RepeatedDate", "bookingDays[0].startDate=" + start + "&bookingDays[0].endDate=" + end + "&bookingDays[0].endDate=" + later,
			"bookingDays[0].endDate: given more than once"},
		// The invalid byte in the name is written escaped, because the JSON encoder would turn it into U+FFFD.
		{"NameNotUTF8", "bookingDays[0].startDate=" + start + "&bookingDays[0].endDate=" + end + "&bookingDays%FF=1",
			`"bookingDays\xff": expected bookingDays[<index>].startDate or .endDate`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 4 { // the answer must be the same every time
				r := tb.call(t, fx.Alice, http.MethodGet, freePath("me", "spaces", fx.BuildingMadrid, fx.SubRoom, tc.query), nil)
				p := wantProblem(t, r, http.StatusBadRequest, booking.CodeInvalidRequest, noIndex)
				d, _ := p["detail"].(string)
				if strings.ContainsRune(d, utf8.RuneError) || !utf8.Valid(r.body) {
					t.Errorf("detail %q has bytes that are not UTF-8 (U+FFFD once decoded)", d)
				}
				wantDetail(t, p, tc.detail)
			}
		})
	}
}

package booking_test

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/workspacebooking/booking/web/booking"
	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
)

// TestFloorPlanSize uploads SVG plans that give their size in each way and checks the size kept with
// each: the coordinate system the pages draw the floor in.
func TestFloorPlanSize(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	adam, alice, boris := b.User(t, fx.OrgA, fx.Adam), b.User(t, fx.OrgA, fx.Alice), b.User(t, fx.OrgB, fx.Boris)
	svg := func(attrs string) []byte {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg" ` + attrs + `><rect width="1" height="1"/></svg>`)
	}
	for _, tc := range []struct {
		name, attrs string
		w, h        int32
	}{
		{"ViewBoxOverWidthHeight", `width="10cm" height="5cm" viewBox="0 0 1000 500"`, 1000, 500},
		{"ViewBoxWithCommasAndOffset", `viewBox=" -10,-20 , 333.4 666.5 "`, 333, 667},
		{"SmallViewBoxIsAtLeastOne", `viewBox="0 0 0.2 0.2"`, 1, 1},
		{"BadViewBoxFallsBackToWidthHeight", `viewBox="0 0 -5 10" width="640" height="480px"`, 640, 480},
		{"AbsoluteUnits", `width="8.5in" height="11in"`, 816, 1056},
		{"Points", `width="72pt" height="6pc"`, 96, 96},
		{"Exponent", `width="1.2e3" height="8e2px"`, 1200, 800},
		{"RelativeUnitsAreNoSize", `width="100%" height="50em"`, booking.DefaultPlanWidth, booking.DefaultPlanHeight},
		{"OnlyWidth", `width="500"`, booking.DefaultPlanWidth, booking.DefaultPlanHeight},
		{"Nothing", ``, booking.DefaultPlanWidth, booking.DefaultPlanHeight},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The floor is the same for every case, so they run one after another.
			f, err := b.Service.SetFloorPlan(t.Context(), adam, fx.FloorMadrid, "image/svg+xml", svg(tc.attrs))
			if err != nil {
				t.Fatalf("SetFloorPlan: %v", err)
			}
			w, h, ok, err := b.Service.PlanSize(t.Context(), alice, f.Image)
			if err != nil || !ok || w != tc.w || h != tc.h {
				t.Errorf("PlanSize = %d×%d, %v, %v; want %d×%d", w, h, ok, err, tc.w, tc.h)
			}
			hash := strings.TrimSuffix(f.Image[strings.LastIndex(f.Image, "/")+1:], ".svg")
			p, err := b.Service.FloorPlan(t.Context(), alice, fx.FloorMadrid, hash)
			if err != nil {
				t.Fatalf("FloorPlan: %v", err)
			}
			want := booking.Plan{FloorID: fx.FloorMadrid, Hash: hash, ContentType: "image/svg+xml", Width: tc.w, Height: tc.h}
			if diff := cmp.Diff(want, p, cmpopts.IgnoreFields(booking.Plan{}, "Data", "UploadedAt")); diff != "" {
				t.Errorf("FloorPlan (-want +got):\n%s", diff)
			}
			// Another organization does not learn the size of this one's plan.
			if w, h, ok, err := b.Service.PlanSize(t.Context(), boris, f.Image); ok || err != nil {
				t.Errorf("PlanSize as another organization = %d×%d, %v, %v; want not ok", w, h, ok, err)
			}
		})
	}

	t.Run("TooLargeIsRefused", func(t *testing.T) {
		_, err := b.Service.SetFloorPlan(t.Context(), adam, fx.FloorMadrid, "image/svg+xml", svg(`viewBox="0 0 10 100001"`))
		if got, want := booking.ErrorCode(err), booking.CodeInvalidRequest; got != want {
			t.Fatalf("ErrorCode = %v, want %v (%v)", got, want, err)
		}
		if !strings.Contains(err.Error(), "each side must be at most 100000") {
			t.Errorf("error = %q, want it to say the bound", err)
		}
	})

	t.Run("OlderPlanIsMeasuredOnce", func(t *testing.T) {
		f, err := b.Service.SetFloorPlan(t.Context(), adam, fx.FloorMadrid, "image/svg+xml", svg(`viewBox="0 0 700 300"`))
		if err != nil {
			t.Fatalf("SetFloorPlan: %v", err)
		}
		// As a plan stored before migration 0015 is.
		if _, err := b.Pool.Exec(t.Context(), "UPDATE floor_plans SET width = NULL, height = NULL"); err != nil {
			t.Fatal(err)
		}
		if w, h, ok, err := b.Service.PlanSize(t.Context(), alice, f.Image); err != nil || !ok || w != 700 || h != 300 {
			t.Errorf("PlanSize = %d×%d, %v, %v; want 700×300", w, h, ok, err)
		}
		var w, h *int32
		if err := b.Pool.QueryRow(t.Context(), "SELECT width, height FROM floor_plans WHERE floor_id = $1", fx.FloorMadrid).Scan(&w, &h); err != nil {
			t.Fatal(err)
		}
		if w == nil || h == nil || *w != 700 || *h != 300 {
			t.Errorf("kept size = %v×%v, want 700×300", w, h)
		}
	})

	t.Run("NotAPlanAddress", func(t *testing.T) {
		for _, image := range []string{"", "/static/floors/madrid-1.svg", "/plans/x/y.svg", "https://example.com/plan.svg",
			booking.PlanPath(fx.FloorMadrid, strings.Repeat("0", 64), "image/png")} {
			if w, h, ok, err := b.Service.PlanSize(t.Context(), alice, image); ok || err != nil {
				t.Errorf("PlanSize(%q) = %d×%d, %v, %v; want not ok", image, w, h, ok, err)
			}
		}
	})
}

// TestSetFloorPlanBounds uploads plans at and just past each bound: pixels a side of a PNG, units a side
// of an SVG, the size of an SVG once sanitized, and who may upload.
func TestSetFloorPlanBounds(t *testing.T) {
	t.Parallel()
	b := fx.Setup(t)
	adam, alice := b.User(t, fx.OrgA, fx.Adam), b.User(t, fx.OrgA, fx.Alice)
	type result struct {
		Code          booking.Code
		Message       string
		Width, Height int32
	}
	svg := func(attrs, body string) []byte {
		return []byte(`<svg xmlns="http://www.w3.org/2000/svg" ` + attrs + `>` + body + `</svg>`)
	}
	// Each tab of an attribute is written &#x9;: five bytes for one, so this SVG grows past MaxPlanBytes.
	tabs := `<rect id="` + strings.Repeat("\t", booking.MaxPlanBytes/5+1) + `"/>`
	for _, tc := range []struct {
		name        string
		as          booking.User
		contentType string
		data        []byte
		want        result
	}{
		{"PNGAtTheLimit", adam, "image/png", pngHeader(booking.MaxPlanSide, booking.MaxPlanSide),
			result{Width: booking.MaxPlanSide, Height: booking.MaxPlanSide}},
		{"PNGTooWide", adam, "image/png", pngHeader(booking.MaxPlanSide+1, 1),
			result{Code: booking.CodeInvalidRequest, Message: "plan: the image is 20001×1 pixels; each side must be 1 to 20000"}},
		{"PNGTooTall", adam, "image/png", pngHeader(1, booking.MaxPlanSide+1),
			result{Code: booking.CodeInvalidRequest, Message: "plan: the image is 1×20001 pixels; each side must be 1 to 20000"}},
		{"SVGAtTheLimit", adam, "image/svg+xml", svg(`viewBox="0 0 100000 100000"`, ""),
			result{Width: booking.MaxPlanUnits, Height: booking.MaxPlanUnits}},
		{"SVGTooWide", adam, "image/svg+xml", svg(`viewBox="0 0 100001 10"`, ""),
			result{Code: booking.CodeInvalidRequest, Message: "plan: the SVG is 100001×10 units; each side must be at most 100000"}},
		{"SVGTooLargeOnceSanitized", adam, "image/svg+xml", svg("", tabs),
			result{Code: booking.CodePayloadTooLarge, Message: "plan: larger than 5242880 bytes (5 MiB); make the image smaller and send it again"}},
		{"Employee", alice, "image/png", pngHeader(10, 10),
			result{Code: booking.CodeForbidden, Message: "floor plans are uploaded by admins"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The floor is the same for every case, so they run one after another.
			var got result
			f, err := b.Service.SetFloorPlan(t.Context(), tc.as, fx.FloorMadrid, tc.contentType, tc.data)
			var e *booking.Error
			switch {
			case errors.As(err, &e):
				got = result{Code: e.Code, Message: e.Message}
			case err != nil:
				t.Fatalf("SetFloorPlan: %v", err)
			default:
				w, h, ok, err := b.Service.PlanSize(t.Context(), alice, f.Image)
				if err != nil || !ok {
					t.Fatalf("PlanSize(%q) = %v, %v", f.Image, ok, err)
				}
				got = result{Width: w, Height: h}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("SetFloorPlan (-want +got):\n%s", diff)
			}
		})
	}
}

// pngHeader returns the start of a PNG whose header says w×h pixels, without any pixels: the upload
// reads no further.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32([]byte("IHDR"), w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 2, 0, 0, 0) // 8-bit RGB
	out := append([]byte("\x89PNG\r\n\x1a\n"), 0, 0, 0, 13)
	out = append(out, ihdr...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(ihdr))
}

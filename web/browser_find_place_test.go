package web_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	fx "github.com/workspacebooking/booking/web/booking/bookingtest"
	"github.com/workspacebooking/booking/web/layout"
)

// TestBrowserFindTickKeepsPlace ticks a desk in the middle of the demo's long list of Madrid desks, on
// a phone and on a desktop. The page stays where the person is, and the focus stays on the box they
// ticked.
func TestBrowserFindTickKeepsPlace(t *testing.T) {
	t.Parallel()
	pb := setupPages(t)
	demo, err := layout.New(pb.Pool, pb.Service).LoadDemo(t.Context(), fx.Now)
	if err != nil {
		t.Fatalf("demo: %v", err)
	}
	for _, size := range []struct {
		name string
		w, h int
	}{{"phone", 390, 844}, {"desktop", 1440, 900}} {
		t.Run(size.name, func(t *testing.T) {
			t.Parallel()
			b := newTabSized(t, pb.srv.URL, size.w, size.h)
			kioskBrowserSignIn(b, demo.Employee.ID, "/find?kind=desk")
			b.waitText("#results-h", "puestos libres") // the demo's employee reads the search in Spanish

			// The middle one of the free desks, scrolled to the middle of the screen.
			id, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => {
				const picks = [...document.querySelectorAll("#results input.pick")];
				const p = picks[Math.floor(picks.length / 2)];
				p.closest("li").scrollIntoView({block: "center"});
				return p.id;
			})()`))
			if err != nil || id == "" {
				t.Fatalf("find a desk in the middle: %q, %v", id, err)
			}
			name := strings.TrimPrefix(b.text(`label[for="`+id+`"]`), "Elegir ")
			before := b.scrollY()
			if before < 500 {
				t.Fatalf("scrolled to %.0f px only: the list is too short to show a jump", before)
			}
			b.do(chromedp.Click(chromedp.CSS("#" + id)))
			b.waitText("#booking-box", name)
			b.do(chromedp.Poll[chromedp.Void](`!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")`,
				chromedp.WithPollingTimeout(15*time.Second)))

			if after := b.scrollY(); math.Abs(after-before) > 4 {
				t.Errorf("after ticking %s the page scrolled from %.0f to %.0f px", name, before, after)
			}
			focused, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.activeElement ? document.activeElement.id : ""`))
			if focused != id {
				t.Errorf("after ticking, the focus is on %q, want the ticked box %q", focused, id)
			}
			if checked, _ := chromedp.Run(b.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`document.getElementById(%q).checked`, id))); !checked {
				t.Errorf("the ticked box is no longer ticked")
			}
			b.viewportShot("find-ticked-" + size.name)
		})
	}
}

// scrollY is how far the page is scrolled down, in CSS pixels.
func (b *tab) scrollY() float64 {
	b.t.Helper()
	y, err := chromedp.Run(b.ctx, chromedp.Evaluate[float64](`window.scrollY`))
	if err != nil {
		b.t.Fatalf("scrollY: %v", err)
	}
	return y
}

// viewportShot saves what the screen shows now, not the whole page, as testdata/screens/name.png.
func (b *tab) viewportShot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join("testdata", "screens")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

package views

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/boombuler/barcode/qr"
)

// decodePath draws the runs of a QR path back onto a size×size grid of modules.
func decodePath(t *testing.T, d string, size int) [][]bool {
	t.Helper()
	grid := make([][]bool, size)
	for i := range grid {
		grid[i] = make([]bool, size)
	}
	run := regexp.MustCompile(`^M(\d+) (\d+)h(\d+)v1h-(\d+)z`)
	for d != "" {
		m := run.FindStringSubmatch(d)
		if m == nil {
			t.Fatalf("path: unexpected %q", d[:min(len(d), 30)])
		}
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		w, _ := strconv.Atoi(m[3])
		if back, _ := strconv.Atoi(m[4]); back != w {
			t.Fatalf("path: run %q does not close", m[0])
		}
		for i := x; i < x+w; i++ {
			if i >= size || y >= size {
				t.Fatalf("path: run %q leaves the %d×%d box", m[0], size, size)
			}
			if grid[y][i] {
				t.Fatalf("path: module %d,%d drawn twice", i, y)
			}
			grid[y][i] = true
		}
		d = d[len(m[0]):]
	}
	return grid
}

func TestNewQRDrawsTheEncodedModules(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"https://booking.example.com/p/MAD-R1", "http://127.0.0.1:8080/p/NYC-R1", "A"} {
		t.Run(text, func(t *testing.T) {
			t.Parallel()
			q, err := NewQR(text)
			if err != nil {
				t.Fatalf("NewQR: %v", err)
			}
			code, err := qr.Encode(text, qr.M, qr.Auto)
			if err != nil {
				t.Fatalf("qr.Encode: %v", err)
			}
			n := code.Bounds().Dx()
			if got, want := q.Size, n+2*QuietZone; got != want {
				t.Fatalf("Size = %d, want %d (%d modules and the quiet zone)", got, want, n)
			}
			if q.Text != text {
				t.Errorf("Text = %q, want %q", q.Text, text)
			}
			grid := decodePath(t, q.Path, q.Size)
			dark := 0
			for y := range q.Size {
				for x := range q.Size {
					want := false
					if cx, cy := x-QuietZone, y-QuietZone; cx >= 0 && cy >= 0 && cx < n && cy < n {
						r, _, _, _ := code.At(cx, cy).RGBA()
						want = r < 0x8000
					}
					if grid[y][x] != want {
						t.Fatalf("module %d,%d: dark = %v, want %v", x, y, grid[y][x], want)
					}
					if want {
						dark++
					}
				}
			}
			if dark == 0 {
				t.Fatalf("no dark module drawn")
			}
		})
	}
}

func TestQRCodeRendersACrispSVG(t *testing.T) {
	t.Parallel()
	q, err := NewQR("https://booking.example.com/p/MAD-R1")
	if err != nil {
		t.Fatalf("NewQR: %v", err)
	}
	var b strings.Builder
	if err := QRCode(q, "QR code of the poster MAD-R1").Render(t.Context(), &b); err != nil {
		t.Fatalf("Render: %v", err)
	}
	svg := b.String()
	for _, want := range []string{
		`<svg`, `viewBox="0 0 ` + strconv.Itoa(q.Size) + ` ` + strconv.Itoa(q.Size) + `"`, `shape-rendering="crispEdges"`,
		`role="img"`, `aria-label="QR code of the poster MAD-R1"`, `d="` + q.Path + `"`,
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG does not contain %q:\n%s", want, svg[:min(len(svg), 300)])
		}
	}
	if got := strings.Count(svg, "<path"); got != 1 {
		t.Errorf("paths = %d, want 1", got)
	}
}

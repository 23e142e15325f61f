package views

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/boombuler/barcode/qr"
)

// QuietZone is the blank margin around a QR code, in modules, that scanners need.
const QuietZone = 4

// QR is a QR code drawn as SVG: Path covers the dark modules with unit squares (runs of them along each
// row), in a square of Size modules that includes the quiet zone. It scales to any size without blur.
type QR struct {
	Text string // what the code encodes
	Size int    // the side of the viewBox, in modules, quiet zone included
	Path string // the d attribute of one <path>: the dark modules
}

// NewQR encodes text at error-correction level M (15% of the code may be damaged or covered).
func NewQR(text string) (QR, error) {
	code, err := qr.Encode(text, qr.M, qr.Auto)
	if err != nil {
		return QR{}, fmt.Errorf("encode QR code: %w", err)
	}
	n := code.Bounds().Dx()
	dark := func(x, y int) bool {
		r, _, _, _ := code.At(x, y).RGBA()
		return r < 0x8000
	}
	var d strings.Builder
	for y := range n {
		for x := 0; x < n; {
			if !dark(x, y) {
				x++
				continue
			}
			run := 1
			for x+run < n && dark(x+run, y) {
				run++
			}
			// M x y h run v1 h-run z: a run of dark modules one module high.
			d.WriteString("M" + strconv.Itoa(x+QuietZone) + " " + strconv.Itoa(y+QuietZone) +
				"h" + strconv.Itoa(run) + "v1h-" + strconv.Itoa(run) + "z")
			x += run
		}
	}
	return QR{Text: text, Size: n + 2*QuietZone, Path: d.String()}, nil
}

// viewBox is the SVG viewBox of the code, quiet zone included.
func (q QR) viewBox() string { return "0 0 " + strconv.Itoa(q.Size) + " " + strconv.Itoa(q.Size) }

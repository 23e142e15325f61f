package main

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// latencyChart draws p50, p95 and p99 of each scenario as grouped bars on a logarithmic axis, each bar
// labelled with its value, and saves it as a PNG.
func latencyChart(path, title string, names []string, p50, p95, p99 []float64) error {
	p := plot.New()
	p.Title.Text = title
	p.Title.Padding = vg.Points(8)
	p.Y.Label.Text = "latency, ms (logarithmic)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Add(plotter.NewGrid())
	width := vg.Points(18)
	shades := []color.Color{
		color.RGBA{0x9e, 0xca, 0xe1, 0xff}, color.RGBA{0x42, 0x92, 0xc6, 0xff}, color.RGBA{0x08, 0x45, 0x94, 0xff},
	}
	// The axis runs from the power of ten below the lowest value (at least 0.01 ms, at most 1 ms) to the
	// one above the highest.
	bottom, top := 1.0, 1.0
	for _, series := range [][]float64{p50, p95, p99} {
		for _, v := range series {
			if v > 0 {
				bottom = math.Min(bottom, v)
			}
			top = math.Max(top, v)
		}
	}
	bottom = math.Max(0.01, math.Pow(10, math.Floor(math.Log10(bottom))))
	for i, series := range [][]float64{p50, p95, p99} {
		b := &logBars{values: series, width: width, offset: vg.Length(i-1) * (width + vg.Points(2)), color: shades[i], bottom: bottom}
		p.Add(b)
		p.Legend.Add([]string{"p50", "p95", "p99"}[i], b)
		labels := &plotter.Labels{Offset: vg.Point{X: b.offset - vg.Points(8), Y: vg.Points(2)}}
		for j, v := range series {
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(j), Y: math.Max(v, bottom)})
			labels.Labels = append(labels.Labels, short(v))
		}
		for range labels.Labels {
			labels.TextStyle = append(labels.TextStyle, text.Style{
				Font: font.From(plotter.DefaultFont, vg.Points(7)), Handler: plot.DefaultTextHandler, Color: color.Black,
			})
		}
		p.Add(labels)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.X.Tick.Label.Font.Size = vg.Points(11)
	p.Y.Min, p.Y.Max = bottom, math.Pow(10, math.Ceil(math.Log10(top*1.5)))
	// Top left, above the bars of status, the first scenario and the fastest by far: the slower scenarios'
	// bars may reach up to the top right.
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(14), -vg.Points(14)
	return p.Save(9*vg.Inch, 4.5*vg.Inch, path)
}

// short writes a latency in few characters.
func short(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// logBars are bars rising from the bottom of a logarithmic axis (where gonum's BarChart would start at 0).
type logBars struct {
	values        []float64
	width, offset vg.Length
	color         color.Color
	bottom        float64 // the axis' lowest value, where the bars start
}

// Plot implements plot.Plotter.
func (b *logBars) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for i, v := range b.values {
		if v <= b.bottom {
			continue
		}
		x := trX(float64(i)) + b.offset - b.width/2
		pts := []vg.Point{{X: x, Y: trY(b.bottom)}, {X: x, Y: trY(v)}, {X: x + b.width, Y: trY(v)}, {X: x + b.width, Y: trY(b.bottom)}}
		c.FillPolygon(b.color, c.ClipPolygonY(pts))
	}
}

// DataRange implements plot.DataRanger.
func (b *logBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	ymin, ymax = b.bottom, b.bottom
	for _, v := range b.values {
		ymax = math.Max(ymax, v)
	}
	return 0, float64(len(b.values) - 1), ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer: the bars' width, so that the outer ones are not cut.
func (b *logBars) GlyphBoxes(plt *plot.Plot) []plot.GlyphBox {
	boxes := make([]plot.GlyphBox, len(b.values))
	for i := range b.values {
		boxes[i].X = plt.X.Norm(float64(i))
		boxes[i].Rectangle = vg.Rectangle{Min: vg.Point{X: b.offset - b.width/2}, Max: vg.Point{X: b.offset + b.width/2}}
	}
	return boxes
}

// Thumbnail implements plot.Thumbnailer, for the legend.
func (b *logBars) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(b.color, []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}})
}

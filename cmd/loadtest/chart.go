package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"os"
	"strconv"
)

// chart.svg.tmpl writes out the shapes that layoutChart placed; it computes nothing itself. html/template
// escapes the title and the names as SVG text.
//
//go:embed chart.svg.tmpl
var chartSource string

var chartTemplate = template.Must(template.New("chart").Parse(chartSource))

// The chart's size and margins, in SVG user units (pixels).
const (
	chartWidth, chartHeight = 900.0, 450.0
	plotLeft, plotRight     = 70.0, 885.0
	plotTop, plotBottom     = 50.0, 410.0
	barWidth, barGap        = 24.0, 3.0
)

// barShades are the fills of the p50, p95 and p99 bars: light to dark.
var barShades = []string{"#9ecae1", "#4292c6", "#084594"}

// svgChart is what chart.svg.tmpl draws.
type svgChart struct {
	Width, Height            float64
	Left, Right, Top, Bottom float64 // the plot area
	Title                    string
	TitleX, AxisLabelY       float64
	Ticks                    []svgTick // one horizontal grid line per power of ten
	Groups                   []svgGroup
	Legend                   []svgLegend
}

type svgTick struct {
	Y, LabelX float64
	Label     string
}

// svgGroup is one scenario: its name under the axis and its three bars.
type svgGroup struct {
	X, NameY float64 // the centre of the group, and where its name stands
	Name     string
	Bars     []svgBar
}

type svgBar struct {
	X, Y, W, H     float64
	Fill           string
	Label          string // the value, written above the bar
	LabelX, LabelY float64
}

type svgLegend struct {
	X, Y, LabelX, LabelY float64
	Fill, Label          string
}

// latencyChart writes an SVG to path with p50, p95 and p99 of each scenario as grouped bars on a
// logarithmic axis, each bar labelled with its value.
func latencyChart(path, title string, names []string, p50, p95, p99 []float64) error {
	var b bytes.Buffer
	if err := chartTemplate.Execute(&b, layoutChart(title, names, [][]float64{p50, p95, p99})); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// layoutChart places the bars. series holds p50, p95 and p99, each with one value per name.
func layoutChart(title string, names []string, series [][]float64) svgChart {
	bottom, top := logRange(series)
	// y maps a latency to its height on the page: the logarithmic axis runs from bottom to top.
	y := func(v float64) float64 {
		v = math.Min(math.Max(v, bottom), top)
		share := (math.Log10(v) - math.Log10(bottom)) / (math.Log10(top) - math.Log10(bottom))
		return plotBottom - share*(plotBottom-plotTop)
	}
	c := svgChart{Width: chartWidth, Height: chartHeight, Left: plotLeft, Right: plotRight, Top: plotTop, Bottom: plotBottom,
		Title: title, TitleX: chartWidth / 2, AxisLabelY: (plotTop + plotBottom) / 2}
	for v := bottom; v <= top*1.001; v *= 10 {
		c.Ticks = append(c.Ticks, svgTick{Y: y(v), LabelX: plotLeft - 6, Label: strconv.FormatFloat(v, 'f', -1, 64)})
	}
	slot := (plotRight - plotLeft) / float64(max(1, len(names)))
	for i, name := range names {
		g := svgGroup{X: plotLeft + slot*(float64(i)+0.5), NameY: plotBottom + 18, Name: name}
		for s, values := range series {
			x := g.X + float64(s-1)*(barWidth+barGap) - barWidth/2
			top := y(values[i])
			g.Bars = append(g.Bars, svgBar{X: x, Y: top, W: barWidth, H: plotBottom - top, Fill: barShades[s],
				Label: short(values[i]), LabelX: x + barWidth/2, LabelY: top - 3})
		}
		c.Groups = append(c.Groups, g)
	}
	// Top left, above the bars of status, the first scenario and the fastest by far: the slower scenarios'
	// bars may reach up to the top right.
	for s, label := range []string{"p50", "p95", "p99"} {
		y := plotTop + 10 + float64(s)*16
		c.Legend = append(c.Legend, svgLegend{X: plotLeft + 14, Y: y, LabelX: plotLeft + 44, LabelY: y + 11, Fill: barShades[s], Label: label})
	}
	return c
}

// logRange is the span of the axis: from the power of ten at or below the lowest value (at least 0.01 ms,
// at most 1 ms) to the power of ten above one and a half times the highest, which leaves room for the
// labels above the bars.
func logRange(series [][]float64) (bottom, top float64) {
	bottom, top = 1.0, 1.0
	for _, values := range series {
		for _, v := range values {
			if v > 0 {
				bottom = math.Min(bottom, v)
			}
			top = math.Max(top, v)
		}
	}
	bottom = math.Max(0.01, math.Pow(10, math.Floor(math.Log10(bottom))))
	top = math.Pow(10, math.Ceil(math.Log10(top*1.5)))
	return bottom, top
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

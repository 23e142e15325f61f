package booking

import (
	"context"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/workspacebooking/booking/static"
)

var (
	planSizes   sync.Map // static floor image → [2]int32{width, height}
	viewBoxExpr = regexp.MustCompile(`<svg[^>]*\sviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"`)
)

// PlanDrawingSize is the coordinate system a floor is drawn in, on the employees' floor plan and in the admins'
// plan editor alike, so that a plan sits under its desks the same way in both: the size of its uploaded
// plan, else the viewBox of a built-in SVG plan (/static/…), else the bounding box of its resources'
// places with a margin. known is false for the last.
func (s *Service) PlanDrawingSize(ctx context.Context, actor User, image string, places []MapCoordinates) (w, h int32, known bool, err error) {
	if strings.HasPrefix(image, PlanPathPrefix) {
		w, h, ok, err := s.PlanSize(ctx, actor, image)
		if err != nil || ok {
			return w, h, ok, err
		}
	}
	if w, h, ok := staticPlanSize(image); ok {
		return w, h, true, nil
	}
	for _, m := range places {
		w, h = max(w, m.BottomRightX), max(h, m.BottomRightY)
	}
	if w == 0 || h == 0 {
		return DefaultPlanWidth, DefaultPlanHeight, false, nil
	}
	return w + 20, h + 20, false, nil
}

// staticPlanSize is the viewBox of a built-in SVG plan, one of the files under /static/.
func staticPlanSize(image string) (int32, int32, bool) {
	name, ok := strings.CutPrefix(image, "/static/")
	if !ok || !strings.HasSuffix(name, ".svg") {
		return 0, 0, false
	}
	if v, ok := planSizes.Load(name); ok {
		wh := v.([2]int32)
		return wh[0], wh[1], true
	}
	data, err := fs.ReadFile(static.Files, name)
	if err != nil {
		return 0, 0, false
	}
	m := viewBoxExpr.FindSubmatch(data)
	if m == nil {
		return 0, 0, false
	}
	w, errW := strconv.ParseFloat(string(m[1]), 64)
	h, errH := strconv.ParseFloat(string(m[2]), 64)
	if errW != nil || errH != nil || w < 1 || h < 1 {
		return 0, 0, false
	}
	wh := [2]int32{int32(w), int32(h)}
	planSizes.Store(name, wh)
	return wh[0], wh[1], true
}

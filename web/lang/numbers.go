package lang

import (
	"context"
	"math"
	"strconv"
	"strings"
)

// Number writes v with the given number of decimals, grouped by thousands with the marks of ctx's
// language: "12,345.5" ("12.345,5").
func Number(ctx context.Context, v float64, decimals int) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if v < 0 && strings.Trim(s, "0.") != "" {
		b.WriteByte('-')
	}
	group := T(ctx, "number.group")
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(r)
	}
	if frac != "" {
		b.WriteString(T(ctx, "number.decimal"))
		b.WriteString(frac)
	}
	return b.String()
}

// Percent writes a share from 0 to 1 as a whole percentage: "42%" ("42 %").
func Percent(ctx context.Context, share float64) string {
	return T(ctx, "number.percent", map[string]any{"N": Number(ctx, math.Round(share*100), 0)})
}

package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestUtilisationSection(t *testing.T) {
	if got := medianOf([]float64{9, 1, 5}); got != 5 {
		t.Errorf("median of 9 1 5 = %v, want 5", got)
	}
	if got := medianOf([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median of 4 1 3 2 = %v, want 2.5", got)
	}
	var s strings.Builder
	r := report{Utilisation: &utilisationResult{RollUp: 90 * time.Second, BuildingDays: 90, Bookings: 50000,
		PageMS: []float64{30, 20, 25}, PlainMS: []float64{300, 280, 310}}}
	r.writeUtilisation(func(format string, a ...any) { fmt.Fprintf(&s, format, a...) })
	for _, want := range []string{
		"the busiest building's last 90 closed days were rolled up in 1m30s",
		"| the page, from the daily roll-ups (rendered, over HTTP) | 25.0 | 30.0 |",
		"| the plain query over the bookings (SQL only) | 300.0 | 310.0 |",
	} {
		if !strings.Contains(s.String(), want) {
			t.Errorf("the section lacks %q:\n%s", want, s.String())
		}
	}
	s.Reset()
	report{}.writeUtilisation(func(format string, a ...any) { fmt.Fprintf(&s, format, a...) })
	if s.Len() != 0 {
		t.Errorf("a benchmark without the report writes %q, want nothing", s.String())
	}
}

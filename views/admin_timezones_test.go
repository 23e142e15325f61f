package views

import (
	"context"
	"slices"
	"testing"
	"time"

	"golang.org/x/text/language"

	"github.com/workspacebooking/booking/web/lang"
)

// TestTimeZonesLoad checks that every zone a building can choose is one Go knows, listed once, in order.
func TestTimeZonesLoad(t *testing.T) {
	if !slices.IsSorted(timeZones) {
		t.Error("the time zones are not in alphabetical order")
	}
	if len(slices.Compact(slices.Clone(timeZones))) != len(timeZones) {
		t.Error("a time zone is listed twice")
	}
	for _, z := range timeZones {
		if _, err := time.LoadLocation(z); err != nil {
			t.Errorf("%s: %v", z, err)
		}
	}
	for _, z := range []string{"Europe/Madrid", "America/New_York", "Asia/Tokyo", "UTC"} {
		if !slices.Contains(timeZones, z) {
			t.Errorf("%s is not offered", z)
		}
	}
}

func TestZoneOptionLabel(t *testing.T) {
	winter := time.Date(2026, 1, 15, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ zone, want string }{
		{"Europe/Madrid", "Madrid time (Europe, UTC+01:00)"},
		{"America/New_York", "New York time (America, UTC-05:00)"},
		{"America/Argentina/Buenos_Aires", "Buenos Aires time (America, Argentina, UTC-03:00)"},
		{"Asia/Kolkata", "Kolkata time (Asia, UTC+05:30)"},
		{"UTC", "UTC"},
		{"Nowhere/Atlantis", "Atlantis time"},
	} {
		if got := ZoneOptionLabel(context.Background(), tc.zone, winter); got != tc.want {
			t.Errorf("ZoneOptionLabel(%s) = %q, want %q", tc.zone, got, tc.want)
		}
	}
	es := lang.With(context.Background(), language.Spanish)
	if got, want := ZoneOptionLabel(es, "Europe/Madrid", winter), "hora de Madrid (Europe, UTC+01:00)"; got != want {
		t.Errorf("ZoneOptionLabel in Spanish = %q, want %q", got, want)
	}
	if got, want := LocalTime(es, "Europe/Madrid", winter), "jue 13:00"; got != want {
		t.Errorf("LocalTime in Spanish = %q, want %q", got, want)
	}
	if got, want := LocalTime(context.Background(), "Europe/Madrid", winter), "Thu 13:00"; got != want {
		t.Errorf("LocalTime = %q, want %q", got, want)
	}
	if got := ZoneChoices("Europe/Kiev"); got[0] != "Europe/Kiev" {
		t.Errorf("a building's zone missing from the list is not kept first: %v", got[:2])
	}
}

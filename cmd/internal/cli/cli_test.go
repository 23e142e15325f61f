package cli

import (
	"errors"
	"io"
	"testing"
	"time"
)

// TestParse checks flags, -h, unknown flags, an extra argument, and durations without a unit.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // the error message; "" for no error
		help bool
	}{
		{"Flags", []string{"--n", "3"}, "", false},
		{"None", nil, "", false},
		{"Help", []string{"-h"}, "help shown", true},
		{"UnknownFlag", []string{"--m", "3"}, "flag provided but not defined: -m", false},
		{"ArgumentLeftOver", []string{"--n", "3", "extra"}, `seed: unexpected argument "extra"`, false},
		{"Duration", []string{"--every", "1m30s", "--n=3"}, "", false},
		{"DurationWithoutUnit", []string{"--n", "3", "--every", "5"}, "--every 5: a unit is needed, e.g. 5s, 5m or 5h", false},
		{"DurationWithoutUnitAfterEquals", []string{"-every=2.5"}, "--every 2.5: a unit is needed, e.g. 2.5s, 2.5m or 2.5h", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCommand("seed", "usage: seed [flags]")
			c.Int("n", 1, "a number")
			c.Duration("every", time.Second, "a duration")
			_, err := c.Parse(tc.args, io.Discard, io.Discard)
			if got := errString(err); got != tc.want || errors.Is(err, ErrHelp) != tc.help {
				t.Errorf("Parse(%q) = %v, want %q (ErrHelp: %v)", tc.args, err, tc.want, tc.help)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

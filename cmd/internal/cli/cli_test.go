package cli

import (
	"errors"
	"flag"
	"io"
	"testing"
)

func TestParseFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string // the error; "" for none
		help bool
	}{
		{"Flags", []string{"--n", "3"}, "", false},
		{"None", nil, "", false},
		{"Help", []string{"-h"}, "help shown", true},
		{"UnknownFlag", []string{"--m", "3"}, "flag provided but not defined: -m", false},
		{"ArgumentLeftOver", []string{"--n", "3", "extra"}, `seed: unexpected argument "extra"`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("seed", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			fs.Int("n", 1, "a number")
			err := ParseFlags(fs, tc.args)
			if got := errString(err); got != tc.want || errors.Is(err, ErrHelp) != tc.help {
				t.Errorf("ParseFlags(%q) = %v, want %q (ErrHelp: %v)", tc.args, err, tc.want, tc.help)
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

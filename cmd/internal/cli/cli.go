// Package cli holds what the commands share in reading their arguments.
package cli

import (
	"errors"
	"flag"
	"fmt"
)

// ErrHelp ends a command that printed its help: successfully, with nothing more to say.
var ErrHelp = errors.New("help shown")

// ParseFlags parses a command's flags and refuses arguments left over; -h prints the flags and ends the
// command successfully (ErrHelp).
func ParseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ErrHelp
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	return nil
}

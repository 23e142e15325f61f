// Package cli holds what the commands share in reading their arguments.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// ErrHelp ends a command that printed its help: successfully, with nothing more to say.
var ErrHelp = errors.New("help shown")

// Command is a subcommand of a program: its flags, its usage and the arguments it takes.
type Command struct {
	*flag.FlagSet
	// Usage is the synopsis and a few words on what the command does; the flags' defaults follow it.
	Usage string
	// Args names the arguments the command takes, exactly that many ("FILE.json"); none when empty.
	Args []string
}

// NewCommand returns the command name with its usage, taking the arguments named.
func NewCommand(name, usage string, args ...string) *Command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // Parse says what is wrong, once
	fs.Usage = func() {}
	return &Command{FlagSet: fs, Usage: usage, Args: args}
}

// Parse reads the command's arguments and returns those that are not flags. -h, -help or --help
// anywhere (before a "--") prints the usage to stdout and returns ErrHelp, and nothing else is read.
// A bad flag or value, or a wrong number of arguments, prints the usage to stderr and returns an error
// saying what is wrong.
func (c *Command) Parse(args []string, stdout, stderr io.Writer) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			c.PrintUsage(stdout)
			return nil, ErrHelp
		}
	}
	err := checkDurations(c.FlagSet, args)
	if err == nil {
		err = c.FlagSet.Parse(args)
	}
	if err == nil {
		switch rest := c.FlagSet.Args(); {
		case len(rest) > len(c.Args):
			err = fmt.Errorf("%s: unexpected argument %q", c.Name(), rest[len(c.Args)])
		case len(rest) < len(c.Args):
			err = fmt.Errorf("%s: %s is missing", c.Name(), strings.Join(c.Args[len(rest):], " "))
		}
	}
	if err != nil {
		c.PrintUsage(stderr)
		return nil, err
	}
	return c.FlagSet.Args(), nil
}

// PrintUsage writes the usage and the flags' defaults.
func (c *Command) PrintUsage(w io.Writer) {
	fmt.Fprintln(w, strings.TrimRight(c.Usage, "\n"))
	n := 0
	c.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintln(w, "\nflags:")
	c.SetOutput(w)
	c.PrintDefaults()
	c.SetOutput(io.Discard)
}

// checkDurations refuses a duration flag given a bare number ("--sweep-every 5"), which Go's flags
// refuse with a bare "parse error": the message says that a unit is needed.
func checkDurations(fs *flag.FlagSet, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return nil // the flags end there
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue // Parse says it is unknown
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil // Parse says the value is missing
			}
			i++
			value = args[i]
		}
		g, ok := f.Value.(flag.Getter)
		if !ok {
			continue
		}
		if _, isDuration := g.Get().(time.Duration); !isDuration {
			continue
		}
		if _, err := strconv.ParseFloat(value, 64); err == nil && value != "0" {
			return fmt.Errorf("--%s %s: a unit is needed, e.g. %[2]ss, %[2]sm or %[2]sh", name, value)
		}
	}
	return nil
}

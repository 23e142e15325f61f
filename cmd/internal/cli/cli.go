// Package cli parses the command-line arguments of the project's commands.
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

// ErrHelp is returned by Parse after it printed the usage for -h or --help. The command should
// then exit successfully without doing anything else.
var ErrHelp = errors.New("help shown")

// Command is one subcommand of a program: its flags, its usage text and its positional arguments.
type Command struct {
	*flag.FlagSet
	// Usage is the synopsis and a short description. PrintUsage prints the flags' defaults after it.
	Usage string
	// Args names the positional arguments, such as "FILE.json". The command requires exactly
	// that many; an empty Args means it takes none.
	Args []string
}

// NewCommand returns a command with the given name, usage text and positional arguments.
func NewCommand(name, usage string, args ...string) *Command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // Parse reports errors itself, so the flag package must not print them too
	fs.Usage = func() {}
	return &Command{FlagSet: fs, Usage: usage, Args: args}
}

// Parse parses the command's flags and returns the positional arguments.
//
// If -h, -help or --help appears anywhere before "--", Parse prints the usage to stdout and returns
// ErrHelp without parsing anything else. For an unknown flag, a bad value or the wrong number of
// arguments, it prints the usage to stderr and returns an error that says what is wrong.
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

// PrintUsage writes the usage text to w, followed by the flags and their defaults if there are any.
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

// checkDurations returns an error when a duration flag is given a number without a unit, such as
// "--sweep-every 5". The flag package would reject it too, but with only "parse error"; this error
// says that a unit is needed.
func checkDurations(fs *flag.FlagSet, args []string) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return nil // no flags after this point
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if f == nil {
			continue // unknown flag: Parse reports it
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return nil // missing value: Parse reports it
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

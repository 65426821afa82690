package main

import (
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/features"
)

// interspersed moves the options that follow a command's positional
// arguments in front of them, so `ignn data fetch email --dir X` means
// `ignn data fetch --dir X email`, as git, go and kubectl users expect
// (urfave/cli stops reading options at the first positional argument).
// Everything after "--" stays positional.
func interspersed(cmds []*cli.Command, args []string) []string {
	if len(args) < 2 {
		return args
	}
	var cmd *cli.Command
	i := 1
	for i < len(args) {
		var next *cli.Command
		for _, c := range cmds {
			if c.HasName(args[i]) {
				next = c
			}
		}
		if next == nil {
			break
		}
		cmd, cmds = next, next.Subcommands
		i++
	}
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			takesValue[n] = !isBool
		}
	}
	var opts, pos []string
	rest := args[i:]
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case a == "--":
			pos = append(pos, rest[k+1:]...)
			k = len(rest)
		case len(a) > 1 && a[0] == '-':
			opts = append(opts, a)
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && takesValue[name] && k+1 < len(rest) {
				k++
				opts = append(opts, rest[k])
			}
		default:
			pos = append(pos, a)
		}
	}
	out := append(append([]string{}, args[:i]...), opts...)
	if len(pos) > 0 {
		out = append(append(out, "--"), pos...)
	}
	return out
}

// positions reads a --position or --positions value (a comma-separated
// list): the one place the CLI turns positional-input text into
// features.Position; everything after it holds the typed value.
func positions(flag, v string) ([]features.Position, error) {
	var out []features.Position
	for _, s := range splitList(v) {
		p, err := features.ParsePosition(s)
		if err != nil {
			return nil, usagef("--%s: %v", flag, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// arrayTasks is an array job's task count (--shards, default 4) and the
// binary its tasks run (this one).
func arrayTasks(c *cli.Context) (int, string, error) {
	shards := c.Int("shards")
	if shards < 1 {
		shards = 4
	}
	bin, err := os.Executable()
	return shards, bin, err
}

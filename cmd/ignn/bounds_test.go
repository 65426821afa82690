package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// numericFlags lists every numeric flag of every command and subcommand,
// with the command that has it.
func numericFlags(cmds []*cli.Command) (owners []*cli.Command, flags []cli.Flag) {
	for _, cmd := range cmds {
		for _, f := range cmd.Flags {
			switch f.(type) {
			case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag, *cli.Float64Flag:
				owners, flags = append(owners, cmd), append(flags, f)
			}
		}
		o, f := numericFlags(cmd.Subcommands)
		owners, flags = append(owners, o...), append(flags, f...)
	}
	return owners, flags
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// TestEveryNumericFlagBounded: every numeric flag of every command has a
// documented range (a new flag without one fails here); 2⁴⁰ (for the
// integer flags but --seed, whose range is every 64-bit value), text,
// NaN/Inf and each value
// just outside the range are refused with exit 2 by the check that runs
// before the command's work (the command's own Action is replaced by one
// that fails the test); the documented sentinels and both ends of the
// range are accepted.
func TestEveryNumericFlagBounded(t *testing.T) {
	app := newApp(io.Discard, io.Discard)
	owners, flags := numericFlags(app.Commands)
	if len(flags) < 20 {
		t.Fatalf("found only %d numeric flags", len(flags))
	}
	for i, f := range flags {
		name := f.Names()[0]
		b, ok := rangeOf(name)
		if !ok {
			t.Errorf("%s --%s has no entry in bounds and is no model's option", owners[i].Name, name)
			continue
		}
		_, isFloat := f.(*cli.Float64Flag)
		run := func(v string) error { // the real command (flags, Before, usage errors), its work replaced
			leaf := *owners[i]
			leaf.Subcommands = nil
			leaf.Action = func(*cli.Context) error { return errors.New("reached the action") }
			a := &cli.App{Writer: io.Discard, ErrWriter: io.Discard, Commands: []*cli.Command{&leaf},
				ExitErrHandler: func(*cli.Context, error) {}}
			args := []string{"ignn", leaf.Name, "--" + name, v}
			for _, g := range leaf.Flags {
				if r, ok := g.(cli.RequiredFlag); ok && r.IsRequired() {
					args = append(args, "--"+g.Names()[0], "placeholder")
				}
			}
			return a.RunContext(context.Background(), args)
		}
		refuse := []string{"text"}
		if name != "seed" && !isFloat {
			refuse = append(refuse, fmt.Sprint(int64(1)<<40))
		}
		if isFloat {
			refuse = append(refuse, "NaN", "Inf", "-Inf")
		}
		below, above := b.Min-1, b.Max+1
		if isFloat {
			below, above = b.Min-1e-9, b.Max*1.000001
		}
		if !b.Contains(below) && !math.IsInf(below, 0) && below >= -1<<53 && !(name == "seed") {
			refuse = append(refuse, num(below))
		}
		if !math.IsInf(b.Max, 0) && b.Max < 1<<53 {
			refuse = append(refuse, num(above))
		}
		for _, v := range refuse {
			err := run(v)
			if err == nil || exitCode(err) != 2 || err.Error() == "reached the action" {
				t.Errorf("--%s %s: %v (exit %d), want a usage error before any work", name, v, err, exitCode(err))
			}
		}
		accept := append([]float64(nil), b.Sentinels...)
		if !b.MinOpen {
			accept = append(accept, b.Min)
		}
		if !b.MaxOpen && b.Max < 1<<53 {
			accept = append(accept, b.Max)
		}
		for _, x := range accept {
			if err := run(num(x)); err == nil || err.Error() != "reached the action" {
				t.Errorf("--%s %v (documented as accepted): %v", name, x, err)
			}
		}
	}
}

// TestCountFlagsRefusedBeforeWork: the real commands refuse the counts
// that used to exhaust the machine, and --workers above the CPU count is
// capped with a note instead of refused.
func TestCountFlagsRefusedBeforeWork(t *testing.T) {
	for _, args := range [][]string{
		{"compare", "--workers", "1099511627776"},
		{"compare", "--repeats", "1099511627776"},
		{"train", "--epochs", "1099511627776"},
		{"neighbors", "--checkpoint", "nowhere", "--k", "1099511627776"},
	} {
		_, _, err := runCLI(args...)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), args[len(args)-2]+" must be an integer in") {
			t.Errorf("%v: %v", args, err)
		}
	}
	dir := t.TempDir()
	for name, body := range map[string]string{
		"--epochs must be an integer in": "settings:\n  epochs: 1099511627776\ngrids:\n  - models: [gcn]\n    variants: [both]\n    repeats: 1\n",
		"repeats (an integer in 1…1000)": "grids:\n  - models: [gcn]\n    variants: [both]\n    repeats: 1099511627776\n",
	} {
		path := dir + "/g.yaml"
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := runCLI("compare", "--grid", path, "--dry-run")
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), name) {
			t.Errorf("grid file %q: %v", body, err)
		}
	}
	var e bytes.Buffer
	w := capWorkers(1<<20, func(s string) { e.WriteString(s) })
	if w < 1 || w > 1<<12 || !strings.Contains(e.String(), "capped") && !strings.Contains(e.String(), "using") {
		t.Errorf("capWorkers: %d, note %q", w, e.String())
	}
}

// TestFlagReference: docs/flags.md's flag reference is the table the code
// generates (IGNN_UPDATE_DOCS=1 go test ./cmd/ignn -run FlagReference rewrites it).
func TestFlagReference(t *testing.T) {
	const path = "../../docs/flags.md"
	const begin, end = "<!-- flag table: generated by TestFlagReference -->\n", "<!-- end of flag table -->\n"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("docs/flags.md has no flag table between %q and %q", begin, end)
	}
	want := flagTable(newApp(io.Discard, io.Discard).Commands)
	if got := s[i+len(begin) : j]; got != want {
		if os.Getenv("IGNN_UPDATE_DOCS") != "" {
			if err := os.WriteFile(path, []byte(s[:i+len(begin)]+want+s[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("docs/flags.md's flag table is stale: run IGNN_UPDATE_DOCS=1 go test ./cmd/ignn -run FlagReference")
	}
}

package main

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/models"
)

// bound is a numeric flag's accepted range (models.Range: [min, max], an
// end excluded, documented sentinels outside it), checked before a command
// does any work (checkBounds) and printed in docs/flags.md, the flag
// reference (flagTable), so the limits and their documentation cannot
// drift apart. A model's own option declares its range where it is
// defined (models.Option.Range): it has no line here (rangeOf).
type bound = models.Range

// The limits of every integer and float flag of every command but the
// models' options. A new numeric flag without an entry fails
// TestEveryNumericFlagBounded.
var bounds = map[string]bound{
	// sizes (the memory plan refuses what does not fit; these refuse what
	// no run means)
	"hash-dim":     {Min: 1, Max: 1 << 20, Sentinels: []float64{-1, 0}, Note: "or -1 for the paper's rule; 0 only with an input other than the hash"},
	"hidden":       {Min: 1, Max: 65536},
	"layers":       {Min: 1, Max: 64, Sentinels: []float64{0}, Note: "or 0 for the model's default"},
	"mse-pairs":    {Min: 1, Max: 1 << 30},
	"mse-sources":  {Min: 1, Max: 65536},
	"rank-triples": {Min: 1, Max: 1 << 26, Sentinels: []float64{0}, Note: "or 0 for the default"},
	"tau-sources":  {Min: 1, Max: 65536},
	"tau-pairs":    {Min: 2, Max: 1 << 30},
	"batch-size":   {Min: 1, Max: 1 << 22, Sentinels: []float64{0}, Note: "or 0 for whole-graph steps"},
	"batch-steps":  {Min: 1, Max: 1 << 24, Sentinels: []float64{0}, Note: "or 0 for a full pass over the training positives"},
	"batch-fanout": {Min: 1, Max: 1 << 16, Sentinels: []float64{0}, Note: "or 0 for every neighbour"},
	"batch-nodes":  {Min: 16, Max: 1 << 26, Sentinels: []float64{0}, Note: "or 0 for the default"},
	// counts
	"epochs":     {Min: 1, Max: 1_000_000},
	"eval-every": {Min: 1, Max: 1_000_000},
	"patience":   {Min: 1, Max: 1_000_000, Sentinels: []float64{0}, Note: "or 0 to train every epoch"},
	"repeats":    {Min: 1, Max: 1000},
	"workers":    {Min: 1, Max: 4096, Note: "above the CPU count it is capped, with a note"},
	"shards":     {Min: 1, Max: 100_000, Sentinels: []float64{0}, Note: "or 0 when --shard gives it"},
	"slots":      {Min: 16, Max: 1 << 26, Sentinels: []float64{0}, Note: "or 0 for the training batch's"},
	"k":          {Min: 1, Max: 1 << 20},
	"seed":       {Min: 0, Max: math.MaxUint64},
	// weights and rates
	"lr":                {Min: 0, MinOpen: true, Max: math.Inf(1), MaxOpen: true},
	"weight-decay":      {Min: 0, Max: math.Inf(1), MaxOpen: true},
	"lambda-bce":        {Min: 0, Max: math.Inf(1), MaxOpen: true},
	"lambda-mse":        {Min: 0, Max: math.Inf(1), MaxOpen: true, Sentinels: []float64{-1}, Note: "or -1 for the model's default"},
	"alpha":             {Min: 0, MinOpen: true, Max: math.Inf(1), MaxOpen: true},
	"dropout":           {Min: 0, Max: 1, MaxOpen: true},
	"skip-mix":          {Min: 0, Max: 1, MaxOpen: true, Note: "0 = off"},
	"skip-smooth":       {Min: 0, Max: 1, Note: "0 = off"},
	"skip-smooth-steps": {Min: 0, Max: 64, Note: "0 = one step"},
	"sketch":            {Min: 0, Max: 1 << 14, Note: "0 = off"},
	"sketch-share":      {Min: 0, Max: 1, Note: "0 = chosen on the validation pairs"},
	"rank-temp":         {Min: 0, MinOpen: true, Max: math.Inf(1), MaxOpen: true, Sentinels: []float64{0}, Note: "or 0 for the default"},
}

// rangeOf is flag name's accepted range: its line in bounds, or the range
// its model option declares.
func rangeOf(name string) (bound, bool) {
	if b, ok := bounds[name]; ok {
		return b, true
	}
	for _, o := range models.Options() {
		if o.Flag == name && o.Range != nil {
			return *o.Range, true
		}
	}
	return bound{}, false
}

// numericValue returns a numeric flag's value in c and whether the flag is
// numeric (integer reports an integer flag).
func numericValue(c *cli.Context, f cli.Flag) (x float64, integer, ok bool) {
	name := f.Names()[0]
	switch f.(type) {
	case *cli.IntFlag:
		return float64(c.Int(name)), true, true
	case *cli.Int64Flag:
		return float64(c.Int64(name)), true, true
	case *cli.UintFlag:
		return float64(c.Uint(name)), true, true
	case *cli.Uint64Flag:
		return float64(c.Uint64(name)), true, true
	case *cli.Float64Flag:
		return c.Float64(name), false, true
	}
	return 0, false, false
}

// isInteger reports whether f is an integer flag.
func isInteger(f cli.Flag) bool {
	switch f.(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return true
	}
	return false
}

// checkBounds refuses (exit 2) any numeric flag of the running command
// outside its range, before the command does any work.
func checkBounds(c *cli.Context) error {
	for _, f := range c.Command.Flags {
		x, integer, ok := numericValue(c, f)
		if !ok {
			continue
		}
		name := f.Names()[0]
		b, known := rangeOf(name)
		if !known {
			return fmt.Errorf("ignn: --%s has no documented range (a bug: add it to cmd/ignn/bounds.go)", name)
		}
		if !b.Contains(x) {
			return usagef("--%s must be %s, got %s", name, b.Describe(integer), formatValue(x, integer))
		}
	}
	return nil
}

func formatValue(x float64, integer bool) string {
	if integer && !math.IsInf(x, 0) && !math.IsNaN(x) {
		return fmt.Sprintf("%.0f", x)
	}
	if math.IsInf(x, 1) {
		return "+Inf"
	}
	return fmt.Sprintf("%g", x)
}

// capWorkers caps --workers at the CPU count, with a note on stderr:
// schedulers over-ask, and more goroutines than cores only add memory.
func capWorkers(w int, note func(string)) int {
	if n := runtime.NumCPU(); w > n {
		note(fmt.Sprintf("note: --workers %d is above this machine's %d CPUs; using %d", w, n, n))
		return n
	}
	return w
}

// withBounds makes every command (and subcommand) check its numeric flags
// before its own Before and Action run.
func withBounds(cmds []*cli.Command) {
	for _, cmd := range cmds {
		prev := cmd.Before
		cmd.Before = func(c *cli.Context) error {
			if err := checkBounds(c); err != nil {
				return err
			}
			if prev != nil {
				return prev(c)
			}
			return nil
		}
		withBounds(cmd.Subcommands)
	}
}

// flagTable is the flag reference of docs/flags.md: every flag of every command
// with its default and accepted range, from the flags and bounds above.
func flagTable(cmds []*cli.Command) string {
	var b strings.Builder
	b.WriteString("| command | flag | default | accepted | meaning |\n|---|---|---|---|---|\n")
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, cmd := range cmds {
			name := strings.TrimSpace(prefix + " " + cmd.Name)
			flags := append([]cli.Flag(nil), cmd.Flags...)
			sort.SliceStable(flags, func(i, j int) bool { return flags[i].Names()[0] < flags[j].Names()[0] })
			for _, f := range flags {
				fn := f.Names()[0]
				def, acc, use := "", "", ""
				if df, ok := f.(cli.DocGenerationFlag); ok {
					def, use = df.GetDefaultText(), df.GetUsage()
					if def == "" {
						def = df.GetValue()
					}
				}
				// The registered names change with every new model; the
				// reference names the command that lists them instead.
				use = strings.ReplaceAll(use, modelNames(), "the registered names")
				if bd, ok := rangeOf(fn); ok {
					acc = bd.Describe(isInteger(f))
				} else if o, ok := modelOption(fn); ok {
					acc = o.Accepted() // a string option's choices
				}
				if def == "" {
					def = "—"
				}
				esc := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
				fmt.Fprintf(&b, "| %s | `--%s` | %s | %s | %s |\n", name, fn, esc(def), acc, esc(use))
			}
			walk(name, cmd.Subcommands)
		}
	}
	walk("", cmds)
	return b.String()
}

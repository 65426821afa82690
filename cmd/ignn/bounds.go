package main

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// bound is a numeric flag's accepted range, checked before a command does
// any work (checkBounds) and printed in docs/flags.md, the flag reference
// (flagTable), so the limits and their documentation cannot drift apart.
// Values in sentinels are accepted outside [min, max] with the meaning
// given in note.
type bound struct {
	min, max  float64
	minOpen   bool      // min itself is refused (> min)
	maxOpen   bool      // max itself is refused (< max)
	sentinels []float64 // documented values outside the range
	note      string    // what the sentinels mean, e.g. "or -1 for the model's default"
}

// The limits of every integer and float flag of every command. A new
// numeric flag without an entry fails TestEveryNumericFlagBounded.
var bounds = map[string]bound{
	// sizes (the memory plan refuses what does not fit; these refuse what
	// no run means)
	"hash-dim":     {min: 1, max: 1 << 20, sentinels: []float64{-1, 0}, note: "or -1 for the paper's rule; 0 only with an input other than the hash"},
	"hidden":       {min: 1, max: 65536},
	"layers":       {min: 1, max: 64, sentinels: []float64{0}, note: "or 0 for the model's default"},
	"heads":        {min: 1, max: 1024},
	"mse-pairs":    {min: 1, max: 1 << 30},
	"mse-sources":  {min: 1, max: 65536},
	"rank-triples": {min: 1, max: 1 << 26, sentinels: []float64{0}, note: "or 0 for the default"},
	"tau-sources":  {min: 1, max: 65536},
	"tau-pairs":    {min: 2, max: 1 << 30},
	"batch-size":   {min: 1, max: 1 << 22, sentinels: []float64{0}, note: "or 0 for whole-graph steps"},
	"batch-steps":  {min: 1, max: 1 << 24, sentinels: []float64{0}, note: "or 0 for a full pass over the training positives"},
	"batch-fanout": {min: 1, max: 1 << 16, sentinels: []float64{0}, note: "or 0 for every neighbour"},
	"batch-nodes":  {min: 16, max: 1 << 26, sentinels: []float64{0}, note: "or 0 for the default"},
	// counts
	"epochs":     {min: 1, max: 1_000_000},
	"eval-every": {min: 1, max: 1_000_000},
	"patience":   {min: 1, max: 1_000_000, sentinels: []float64{0}, note: "or 0 to train every epoch"},
	"repeats":    {min: 1, max: 1000},
	"workers":    {min: 1, max: 4096, note: "above the CPU count it is capped, with a note"},
	"shards":     {min: 1, max: 100_000, sentinels: []float64{0}, note: "or 0 when --shard gives it"},
	"slots":      {min: 16, max: 1 << 26, sentinels: []float64{0}, note: "or 0 for the training batch's"},
	"k":          {min: 1, max: 1 << 20},
	"seed":       {min: 0, max: math.MaxUint64},
	// weights and rates
	"lr":                 {min: 0, minOpen: true, max: math.Inf(1), maxOpen: true},
	"weight-decay":       {min: 0, max: math.Inf(1), maxOpen: true},
	"lambda-bce":         {min: 0, max: math.Inf(1), maxOpen: true},
	"lambda-mse":         {min: 0, max: math.Inf(1), maxOpen: true, sentinels: []float64{-1}, note: "or -1 for the model's default"},
	"alpha":              {min: 0, minOpen: true, max: math.Inf(1), maxOpen: true},
	"dropout":            {min: 0, max: 1, maxOpen: true},
	"rank-temp":          {min: 0, minOpen: true, max: math.Inf(1), maxOpen: true, sentinels: []float64{0}, note: "or 0 for the default"},
	"pgnn-anchor-copies": {min: 0, max: 64},
}

// accepts reports whether x is in b's range or one of its sentinels.
func (b bound) accepts(x float64) bool {
	for _, s := range b.sentinels {
		if x == s {
			return true
		}
	}
	switch {
	case math.IsNaN(x), x < b.min, x > b.max, b.minOpen && x == b.min, b.maxOpen && x == b.max:
		return false
	}
	return true
}

// describe is the range in words: "a finite number > 0", "in [0, 1)",
// "an integer in 1…1000".
func (b bound) describe(integer bool) string {
	num := func(x float64) string {
		switch {
		case x == math.MaxUint64:
			return "2⁶⁴ − 1"
		case x >= 1<<20 && x == math.Exp2(math.Round(math.Log2(x))):
			return fmt.Sprintf("2^%d", int(math.Round(math.Log2(x))))
		}
		if x == math.Trunc(x) {
			return fmt.Sprintf("%.0f", x)
		}
		return fmt.Sprintf("%g", x)
	}
	var s string
	switch {
	case integer:
		s = fmt.Sprintf("an integer in %s…%s", num(b.min), num(b.max))
	case math.IsInf(b.max, 1):
		op := "≥"
		if b.minOpen {
			op = ">"
		}
		s = fmt.Sprintf("a finite number %s %s", op, num(b.min))
	default:
		lo, hi := "[", "]"
		if b.minOpen {
			lo = "("
		}
		if b.maxOpen {
			hi = ")"
		}
		s = fmt.Sprintf("in %s%s, %s%s", lo, num(b.min), num(b.max), hi)
	}
	if b.note != "" {
		s += " (" + b.note + ")"
	}
	return s
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
		b, known := bounds[name]
		if !known {
			return fmt.Errorf("ignn: --%s has no documented range (a bug: add it to cmd/ignn/bounds.go)", name)
		}
		if !b.accepts(x) {
			return usagef("--%s must be %s, got %s", name, b.describe(integer), formatValue(x, integer))
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
				if bd, ok := bounds[fn]; ok {
					acc = bd.describe(isInteger(f))
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

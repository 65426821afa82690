// Command selectgrid turns a selection run's results.json (one row per
// model and variant, each at the setting with the best mean validation
// AUC) into a grid file that runs exactly those settings with more seeds:
// the second stage of `make reproduce-paper`.
//
//	go run ./scripts/selectgrid -results DIR/results.json -repeats 3 > grid.yaml
//
// Flags -set key=value add settings (dataset, task, epochs, …).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
)

type row struct {
	Model     string  `json:"model"`
	Variant   string  `json:"variant"`
	LR        float64 `json:"lr"`
	LambdaBCE float64 `json:"lambda_bce"`
	LambdaMSE float64 `json:"lambda_mse"`
}

type sets []string

func (s *sets) String() string     { return strings.Join(*s, ",") }
func (s *sets) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	results := flag.String("results", "", "results.json of the selection run")
	repeats := flag.Int("repeats", 3, "seeds per chosen setting")
	var settings sets
	flag.Var(&settings, "set", "a grid setting key=value (repeatable)")
	flag.Parse()
	if err := run(*results, *repeats, settings); err != nil {
		fmt.Fprintln(os.Stderr, "selectgrid:", err)
		os.Exit(1)
	}
}

func run(path string, repeats int, settings []string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var res struct {
		Rows []row `json:"rows"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(res.Rows) == 0 {
		return fmt.Errorf("%s: no rows (did the selection run finish?)", path)
	}
	var out strings.Builder
	out.WriteString("# chosen by validation AUC in " + path + "\nsettings:\n")
	for _, s := range settings {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return fmt.Errorf("-set %q: want key=value", s)
		}
		fmt.Fprintf(&out, "  %s: %s\n", k, v)
	}
	out.WriteString("grids:\n")
	for _, r := range res.Rows {
		if r.Model == "(input)" {
			continue
		}
		fmt.Fprintf(&out, "  - models: [%s]\n    variants: [%s]\n    repeats: %d\n    lr: %g\n", r.Model, r.Variant, repeats, r.LR)
		if r.LambdaBCE != 0 {
			fmt.Fprintf(&out, "    lambda-bce: %g\n", r.LambdaBCE)
		}
		if r.LambdaMSE != 0 {
			fmt.Fprintf(&out, "    lambda-mse: %g\n", r.LambdaMSE)
		}
	}
	_, err = os.Stdout.WriteString(out.String())
	return err
}

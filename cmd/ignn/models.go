package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/models"
)

// modelsCommand lists the registry: each model's depth (its layers, or the
// option that sets it), what it declares (mini-batches, the skip path) and
// its description.
func modelsCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:  "models",
		Usage: "list the registered architectures",
		Action: func(c *cli.Context) error {
			w, d := 0, len("depth")
			for _, n := range models.Names() {
				e, _ := models.Lookup(n)
				w, d = max(w, len(n)), max(d, len(e.Depth()))
			}
			fmt.Fprintf(stdout, "%-*s  %-*s  mini-batches  skip path  description\n", w, "name", d, "depth")
			for _, n := range models.Names() {
				e, _ := models.Lookup(n)
				fmt.Fprintf(stdout, "%-*s  %-*s  %-12s  %-9s  %s\n", w, n, d, e.Depth(), yesNo(e.Batches), yesNo(e.Skip), e.Description)
			}
			return nil
		},
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// modelNames is the registered models as --model's help lists them.
func modelNames() string { return strings.Join(models.Names(), ", ") }

// modelOption is the registered model option of flag name.
func modelOption(name string) (models.Option, bool) {
	for _, o := range models.Options() {
		if o.Flag == name {
			return o, true
		}
	}
	return models.Option{}, false
}

// checkModelOptions refuses a model's option set on the command line (or
// in a grid file's settings) for a run none of whose models (names)
// registers it: it would be stored in their configurations and read by
// none.
func checkModelOptions(c *cli.Context, names []string) error {
	for _, o := range models.Options() {
		if !c.IsSet(o.Flag) {
			continue
		}
		owners := models.Owners(o.Flag)
		if slices.ContainsFunc(names, func(n string) bool { return slices.Contains(owners, n) }) {
			continue
		}
		which := "--model " + strings.Join(names, "") + " does not read it"
		if len(names) != 1 {
			which = "none of --models " + strings.Join(names, ",") + " reads it"
		}
		return usagef("--%s is an option of %s; %s", o.Flag, strings.Join(owners, " and "), which)
	}
	return nil
}

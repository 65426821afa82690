package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/models"
)

// modelsCommand lists the registry: each model's depth, what it declares
// (mini-batches, the skip path) and its description.
func modelsCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:  "models",
		Usage: "list the registered architectures",
		Action: func(c *cli.Context) error {
			w := 0
			for _, n := range models.Names() {
				w = max(w, len(n))
			}
			fmt.Fprintf(stdout, "%-*s  layers  mini-batches  skip path  description\n", w, "name")
			for _, n := range models.Names() {
				e, _ := models.Lookup(n)
				fmt.Fprintf(stdout, "%-*s  %6d  %-12s  %-9s  %s\n", w, n, e.Config().Layers, yesNo(e.Batches), yesNo(e.Skip), e.Description)
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

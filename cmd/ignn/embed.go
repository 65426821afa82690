package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/experiment"
	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/data"
)

func embedCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name: "embed", Usage: "write a checkpoint's L2-normalised node embeddings (.tsv or .npy)",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Required: true, Usage: "directory written by ignn train --save"},
			&cli.StringFlag{Name: "dataset", Usage: "dataset (default: the checkpoint's); must be the data it was trained on"},
			dataDirFlag(),
			&cli.StringFlag{Name: "out", Required: true, Usage: "output file: .tsv (node id, then the vector) or .npy (float32 N×D)"},
		},
		Action: func(c *cli.Context) error {
			out := c.String("out")
			ext := strings.ToLower(filepath.Ext(out))
			if ext != ".tsv" && ext != ".npy" {
				return usagef("--out %s: the extension must be .tsv or .npy", out)
			}
			ck, err := experiment.LoadCheckpoint(c.String("checkpoint"))
			if err != nil {
				return err
			}
			cfg := ck.Config
			if d := c.String("dataset"); d != "" {
				cfg.Dataset = d
			}
			if d := c.String("data-dir"); d != "" {
				cfg.DataDir = d
			}
			ds, err := experiment.LoadDataset(cfg)
			if err != nil {
				return err
			}
			z, d, ids, err := experiment.Embed(ck, ds)
			if err != nil {
				return err
			}
			var b []byte
			if ext == ".npy" {
				b = report.NPY(len(ids), d, z)
			} else {
				b = report.TSV(ids, d, z)
			}
			if err := data.WriteFileAtomic(out, b); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "wrote %d embeddings of width %d to %s\n", len(ids), d, out)
			return nil
		},
	}
}

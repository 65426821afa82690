package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
)

func embedCommand(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name: "embed", Usage: "write a checkpoint's L2-normalised node embeddings (.tsv or .npy)",
		OnUsageError: onUsageError,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "checkpoint", Required: true, Usage: "directory written by ignn train --save"},
			&cli.StringFlag{Name: "dataset", Usage: "dataset (default: the checkpoint's); another or a grown graph is embedded inductively (hashed or attribute inputs only)"},
			&cli.StringFlag{Name: "labels", Usage: "with --dataset FILE: its labels file"},
			&cli.StringFlag{Name: "features", Usage: "with --dataset FILE: constant or a feature file, as in training"},
			dataDirFlag(),
			&cli.StringFlag{Name: "out", Required: true, Usage: "output file: .tsv (node id, then the vector) or .npy (float32 N×D)"},
		},
		Action: func(c *cli.Context) error {
			out := c.String("out")
			ext := strings.ToLower(filepath.Ext(out))
			if ext != ".tsv" && ext != ".npy" {
				return usagef("--out %s: the extension must be .tsv or .npy", out)
			}
			ck, err := run.LoadCheckpoint(c.String("checkpoint"))
			if err != nil {
				return err
			}
			cfg := ck.Config
			if d := c.String("data-dir"); d != "" {
				cfg.DataDir = d
			}
			train, err := run.LoadDataset(cfg)
			if err != nil {
				return fmt.Errorf("loading the training data: %w", err)
			}
			ds := train
			if d := c.String("dataset"); d != "" {
				cfg.Dataset, cfg.Labels, cfg.Features, cfg.GraphIndex = d, c.String("labels"), c.String("features"), ""
				if cfg.Features == "" && ck.Config.Features != "" {
					cfg.Features = ck.Config.Features
				}
				if ds, err = run.LoadDataset(cfg); err != nil {
					return err
				}
			}
			var z []float64
			var d int
			var ids []uint64
			if run.Fingerprint(ds) == ck.Fingerprint {
				if z, d, ids, err = run.Embed(ck, ds); err != nil {
					return err
				}
			} else {
				in, err := run.EmbedInductive(ck, train, ds)
				if err != nil {
					return err
				}
				z, d, ids = in.Z, in.D, in.IDs
				fmt.Fprintf(stdout, "inductive: %d nodes, %d of them new (the model was trained on %d)\n", len(ids), len(in.NewRows), in.Training)
				if len(in.NewRows) > 0 {
					sc := in.ScoreNew(500)
					fmt.Fprintf(stdout, "new nodes (%d scored): Kendall τ %.3f over their pairs, precision@10 %.3f\n", sc.Queries, sc.Tau, sc.PrecisionAt10)
				}
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

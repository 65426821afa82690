package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/grid"
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
			&cli.StringFlag{Name: "out", Usage: "output file: .tsv (node name or id, then the vector) or .npy (float32 N×D, with FILE.names.txt: the node of each row)"},
			&cli.StringFlag{Name: "projector", Usage: "also write a TensorBoard Embedding Projector folder here: vectors.tsv, metadata.tsv (name, label, degree, component), projector_config.pbtxt"},
			&cli.StringFlag{Name: "shard", Usage: "I/N: compute part I of N of the embeddings (chunked inference over the model's node slots) into OUT.shard-I-of-N.npz beside --out; auto: I and N from SLURM_ARRAY_TASK_ID/COUNT (or JOB_COMPLETION_INDEX with --shards)"},
			&cli.IntFlag{Name: "shards", Usage: "the number of parts, for --gather, --slurm (default 4) and --shard auto outside Slurm arrays"},
			&cli.BoolFlag{Name: "gather", Usage: "write --out from the --shards parts OUT.shard-I-of-N.npz (every node exactly once; the same file one process writes with --shard 0/1)"},
			&cli.IntFlag{Name: "slots", Usage: "node slots of the sharded chunked inference (default: the training batch's; every part of one --out must use the same)"},
			&cli.BoolFlag{Name: "slurm", Usage: "compute the parts as a Slurm array job of --shards tasks (script OUT.sbatch, logs in OUT.logs/); with --wait, gather when it ends"},
			&cli.BoolFlag{Name: "wait", Usage: "with --slurm: wait for the job, then gather"},
			&cli.StringSliceFlag{Name: "slurm-arg", Usage: "with --slurm: an extra #SBATCH line (repeatable), e.g. --slurm-arg=--partition=gpu"},
			&cli.StringFlag{Name: "prepared", Usage: "read the training run's landmark and τ-sample BFS from the parts ignn prepare wrote (as train --prepared) instead of running them again: the same embeddings"},
		},
		Action: func(c *cli.Context) error {
			out, proj := c.String("out"), c.String("projector")
			ext := strings.ToLower(filepath.Ext(out))
			switch {
			case out == "" && proj == "":
				return usagef("give --out FILE (.tsv or .npy), --projector DIR, or both")
			case out != "" && ext != ".tsv" && ext != ".npy":
				return usagef("--out %s: the extension must be .tsv or .npy", out)
			}
			sharded := c.String("shard") != "" || c.Bool("gather") || c.Bool("slurm")
			if sharded && (proj != "" || out == "" || c.String("dataset") != "") {
				return usagef("--shard, --gather and --slurm write --out (not --projector) for the checkpoint's own data (not --dataset)")
			}
			ck, err := run.LoadCheckpoint(c.String("checkpoint"))
			if err != nil {
				return err
			}
			if c.String("prepared") != "" && c.String("dataset") != "" {
				return usagef("--prepared holds the training graph's BFS stages: it cannot be combined with --dataset")
			}
			ck.Config.Stages = c.String("prepared")
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
			if sharded && run.Fingerprint(ds) != ck.Fingerprint {
				return fmt.Errorf("embed: the data differs from the checkpoint's (fingerprint %s, trained on %s): sharded embedding is for the training graph", run.Fingerprint(ds), ck.Fingerprint)
			}
			switch {
			case c.Bool("slurm"):
				return submitEmbed(c, stdout, ds, ck)
			case c.String("shard") != "":
				sh, err := grid.ParseShard(c.String("shard"), c.Int("shards"))
				if err != nil {
					return usageError{err}
				}
				return writeShard(stdout, ck, ds, out, sh, c.Int("slots"))
			case c.Bool("gather"):
				z, d, ids, err := gatherShards(out, ds, c.Int("shards"))
				if err != nil {
					return err
				}
				return writeEmbeddings(stdout, ds, ids, d, z, out, "")
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
			return writeEmbeddings(stdout, ds, ids, d, z, out, proj)
		},
	}
}

// writeEmbeddings writes embeddings z (width d, rows of nodes ids) to out
// (.npy with its names file, or .tsv; "" none) and the projector folder
// proj ("" none).
func writeEmbeddings(stdout io.Writer, ds *data.Dataset, ids []uint64, d int, z []float64, out, proj string) error {
	ext := strings.ToLower(filepath.Ext(out))
	names := data.NamesOf(ds)
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = names.Of(id)
	}
	if proj != "" {
		if err := writeProjector(proj, ds, ids, keys, d, z); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s/{vectors.tsv,metadata.tsv,projector_config.pbtxt}: %d nodes (open the folder in TensorBoard's Embedding Projector)\n", proj, len(ids))
	}
	if out == "" {
		return nil
	}
	if ext == ".npy" {
		rowsFile := strings.TrimSuffix(out, filepath.Ext(out)) + ".names.txt"
		if err := data.WriteFileAtomic(rowsFile, []byte(strings.Join(keys, "\n")+"\n")); err != nil {
			return err
		}
		if err := data.WriteFileAtomic(out, report.NPY(len(ids), d, z)); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d embeddings of width %d to %s (row nodes in %s)\n", len(ids), d, out, rowsFile)
		return nil
	}
	if err := data.WriteFileAtomic(out, report.TSV(keys, d, z)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %d embeddings of width %d to %s\n", len(ids), d, out)
	return nil
}

// writeProjector writes the Embedding Projector folder for the embedded
// nodes ids (rows of z): each node's name, label, degree and connected
// component (graph#k, components numbered by their smallest node).
func writeProjector(dir string, ds *data.Dataset, ids []uint64, keys []string, d int, z []float64) error {
	type where struct{ g, i int }
	at := map[uint64]where{}
	comp := make([][]int, len(ds.Graphs))
	deg := make([][]int, len(ds.Graphs))
	for g, gr := range ds.Graphs {
		for i := range gr.N {
			at[gr.ID(i)] = where{g, i}
		}
		deg[g] = make([]int, gr.N)
		for _, e := range gr.Edges {
			deg[g][e[0]]++
			deg[g][e[1]]++
		}
		comp[g] = data.NewAdj(gr.N, gr.Edges).Components()
	}
	rows := make([]report.ProjectorRow, len(ids))
	for r, id := range ids {
		w, ok := at[id]
		if !ok {
			return fmt.Errorf("embed --projector: node %s is not in the dataset", keys[r])
		}
		gr := ds.Graphs[w.g]
		row := report.ProjectorRow{Name: keys[r], Degree: deg[w.g][w.i], Component: fmt.Sprintf("%s#%d", gr.Name, comp[w.g][w.i])}
		if gr.Labels != nil {
			row.Label = strconv.Itoa(int(gr.Labels[w.i]))
		}
		rows[r] = row
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("embed --projector: %w", err)
	}
	for name, b := range report.Projector(rows, d, z) {
		if err := data.WriteFileAtomic(filepath.Join(dir, name), b); err != nil {
			return err
		}
	}
	return nil
}

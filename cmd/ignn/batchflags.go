package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/features"
)

// batchFlags shape mini-batch training (run.Config.BatchSize and kin) and
// pick the family of defaults (--scale).
func batchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "select", Value: "auc", Usage: "which epoch a run reports, and which setting a sweep keeps: auc (the paper's: the highest validation AUC, first on ties), objective (the lowest validation objective: BCE on validation pairs + λ_MSE × the distance term on a validation pair sample disjoint from the test τ pairs), or auc-then-objective (AUC ties within one standard error broken by the objective); compare applies it to the cells' histories, so changing it reruns nothing"},
		&cli.BoolFlag{Name: "skip-alone", Usage: "with --position-skip: leave the message passing out — the embedding is the skip path's map of the positional input alone (the ablation that shows what the message passing adds; gcn, sage, gat, gin, graphconv)"},
		&cli.Float64Flag{Name: "skip-mix", Usage: "with --position-skip, a share w in (0, 1): the embedding is [√w·skip | √(1−w)·message passing], two unit halves side by side, so a pair's cosine is w·(the skip's) + (1−w)·(the message passing's) — neither branch swamps the other (an experiment, issue 64; --skip-gate is then not used); 0: off"},
		&cli.BoolFlag{Name: "skip-gate", Usage: "with --position-skip: pass the message-passing output, L2-normalised, through a learned map that starts at 0, so training starts from the skip's map of the positional input (a large-graph default)"},
		&cli.BoolFlag{Name: "skip-standardise", Usage: "with --position-skip: standardise the skip path's positional columns over the nodes (mean 0, std 1 each; the message-passing input keeps them as they are), so no column-wide common part swamps the differences between nodes (a large-graph default)"},
		&cli.BoolFlag{Name: "skip-identity", Usage: "with --position-skip and one-hot identity features (a featureless graph's input): the skip path also reads the one-hot identity, so each node has a free vector added to its embedding (an experiment, issue 36)"},
		&cli.BoolFlag{Name: "skip-principal", Usage: "with --position-skip: start the skip path's map at the skip block's principal directions (the top eigenvectors of its uncentred Gram matrix) instead of at random, so training starts from the embedding that keeps the most of the block's own cosines (a large-graph default)"},
		&cli.StringFlag{Name: "skip-polar", Value: "off", Usage: "with --position-skip and --position landmark:L: on gives the skip path a cone of the landmark columns, [1 | g·ŝ] with ŝ the node's standardised row at unit length and g its mean landmark distance rescaled to 0 (most central) … 1 (most remote), so the embedding can keep a graph's centrality as well as its local position (supersedes --skip-standardise); auto (a large-graph default) builds the cone and the standardised columns and keeps the one whose untrained cosines rank the validation pairs better (the JSON's skip_choice); off"},
		&cli.StringFlag{Name: "scale", Value: "auto", Usage: fmt.Sprintf("defaults: paper (the paper's: whole-graph steps, hash input, MSE), large (for users' and big graphs: --position landmark:L with L = %d below %d nodes and 64 from there (where a featureless graph also gets --features constant instead of the one-hot identity), --position-skip --skip-gate --skip-standardise --skip-principal --skip-polar auto --distance-loss rank --rank-pairs --batch-size 512 --batch-steps 50 --epochs 10 --eval-every 2, each unless given), or auto: paper for the paper's datasets (communities, email, protein) below %d nodes, large for every other graph (your own, generated), whatever its size", run.SmallGraphLandmarks, run.LargeGraphNodes, run.LargeGraphNodes)},
		&cli.IntFlag{Name: "batch-size", Value: 0, Usage: "mini-batches: training positives per optimisation step, each step on the subgraph of their nodes' neighbourhoods with as many negatives and the distance term's triples or pairs (0 = whole-graph steps; the models whose 'mini-batches' ignn models says yes)"},
		&cli.IntFlag{Name: "batch-steps", Value: 0, Usage: "mini-batches: steps per epoch (0 = a full pass over the training positives)"},
		&cli.IntFlag{Name: "batch-fanout", Value: 0, Usage: "mini-batches: neighbours drawn per node and hop (0 = every neighbour: seeds see exactly what the whole graph gives them)"},
		&cli.IntFlag{Name: "batch-nodes", Value: 0, Usage: "mini-batches: node slots of a batch, the training graph's size (0 = sized from the mean neighbourhood of 64 probed nodes × a step's seed nodes, +25%, at most 65536); a neighbourhood beyond it is cut (the nearest hops kept), with a warning when the slots were set"},
	}
}

// setBatch reads the batch flags and --scale, and records which of the
// settings the large defaults choose the user gave (run.Config.Explicit).
func setBatch(c *cli.Context, cfg *run.Config) error {
	cfg.BatchSize, cfg.BatchSteps = c.Int("batch-size"), c.Int("batch-steps")
	cfg.BatchFanout, cfg.BatchNodes = c.Int("batch-fanout"), c.Int("batch-nodes")
	sel, err := run.ParseSelectRule(c.String("select"))
	if err != nil {
		return usagef("%v", err)
	}
	if sel != run.SelectAUC {
		cfg.Select = sel
	}
	sc, err := run.ParseScale(c.String("scale"))
	if err != nil {
		return usagef("%v", err)
	}
	cfg.Scale = sc
	if sc == run.ScaleAuto {
		cfg.Scale = ""
	}
	cfg.Explicit = map[string]bool{}
	cfg.ModelConfig.SkipGate, cfg.SkipStandardise, cfg.SkipIdentity = c.Bool("skip-gate"), c.Bool("skip-standardise"), c.Bool("skip-identity")
	cfg.SkipPrincipal, cfg.ModelConfig.SkipAlone, cfg.ModelConfig.SkipMix = c.Bool("skip-principal"), c.Bool("skip-alone"), c.Float64("skip-mix")
	if cfg.SkipPolar, err = features.ParseSkipPolar(c.String("skip-polar")); err != nil {
		return usagef("%v", err)
	}
	for _, n := range run.LargeDefaultSettings() {
		cfg.Explicit[n] = hasFlag(c, n) && c.IsSet(n)
	}
	if !cfg.Explicit["eval-every"] && cfg.EvalEvery > cfg.Epochs {
		cfg.EvalEvery = cfg.Epochs // --epochs 5 alone evaluates after the last epoch
	}
	if hasFlag(c, "positions") && c.IsSet("positions") {
		cfg.Explicit["position"] = true
	}
	return nil
}

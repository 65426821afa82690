package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/grid"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
)

// The flags: a run's settings and the models' own options, the
// mini-batch and skip-path flags, and compare's and sweep's.

// dataDirFlag is --data-dir, shared by every command that loads data.
func dataDirFlag() cli.Flag {
	return &cli.StringFlag{Name: "data-dir", EnvVars: []string{"IGNN_DATA"}, Usage: "directory holding email/ and protein/ raw files"}
}

// runFlags are the flags every training command shares, bound to a Config.
func runFlags() []cli.Flag {
	d := run.Default()
	flags := []cli.Flag{
		&cli.StringFlag{Name: "dataset", Value: d.Dataset, Usage: "communities, email, protein, a generated graph (caveman:AxB[:p], grid:RxC, rgg:N:DEGREE, ba:N:M, plc:N:M:P), or a path to an edge list"},
		&cli.StringFlag{Name: "labels", Usage: "user graphs: \"node label\" file (needed by --task pair)"},
		&cli.StringFlag{Name: "features", Usage: "user and generated graphs: identity (default: a one-hot input per node, as a PyG user gives x = I), constant (input 1 for every node), or (user graphs) a \"node v1 … vF\" file"},
		&cli.StringFlag{Name: "graph-index", Usage: "user graphs: \"node graph\" file splitting the nodes into several graphs"},
		&cli.StringFlag{Name: "header", Value: data.HeaderAuto, Usage: "user edge lists: a header line — auto (a first line with no number is one when the file bears it out: integer node columns on the next line, a column of numbers under a word, or column names that name no node; a first line of one or two integers is a count line when they match the file's counts (nodes, edges)), yes or no"},
		&cli.StringFlag{Name: "columns", Usage: "user edge lists: the source and target columns, by header name (src,dst) or 0-based position (0,1); default the first two"},
		dataDirFlag(),
		&cli.StringFlag{Name: "task", Value: string(d.Task), Usage: "link (link prediction) or pair (pairwise node classification)"},
		&cli.StringFlag{Name: "model", Value: d.Model, Usage: "architecture: " + modelNames() + " (ignn models describes them)"},
		&cli.StringFlag{Name: "variant", Value: string(d.Variant), Usage: "base, hash, mse or both"},
		&cli.StringFlag{Name: "position", Value: "hash", Usage: "positional input of the hash and both variants: hash (the paper's), lap:K (Laplacian eigenvectors), rw:K (random-walk return probabilities) or landmark:L (1/(1+d) to L seeded landmarks)"},
		&cli.BoolFlag{Name: "position-skip", Usage: "add a linear map of the positional input to the embedding before normalising (a skip path; the models whose 'skip path' ignn models says yes)"},
		&cli.IntFlag{Name: "hash-dim", Value: d.HashDim, Usage: "hash vector dimension n (-1 = the paper's rule: input feature dimension, 32 for featureless graphs)"},
		&cli.Float64Flag{Name: "lambda-bce", Value: d.LambdaBCE, Usage: "weight of the task BCE term"},
		&cli.Float64Flag{Name: "lambda-mse", Value: d.LambdaMSE, Usage: "weight of the distance MSE term, used by mse and both (-1 = the model's default: 10, P-GNN 1)"},
		&cli.Float64Flag{Name: "alpha", Value: d.Alpha, Usage: "distance transform exponent: target 1 − 1/d^α"},
		&cli.IntFlag{Name: "epochs", Value: d.Epochs, Usage: fmt.Sprintf("training epochs: under the paper's scheme one whole-graph step each; under --scale large (auto for every graph but the paper's three datasets) --batch-steps mini-batch steps each (default 10 epochs × 50 steps), so --epochs 100 there is 5000 steps, except a link run with the skip path of up to %d nodes, which trains one layer on the whole graph (default %d epochs of one step; --batch-size or --batch-steps asks for mini-batches); train states the total before it starts", run.WholeGraphNodes, run.WholeGraphSteps)},
		&cli.Float64Flag{Name: "lr", Value: d.LR, Usage: "Adam learning rate"},
		&cli.Float64Flag{Name: "weight-decay", Value: d.WeightDec, Usage: "Adam L2 weight decay"},
		&cli.Float64Flag{Name: "dropout", Value: d.ModelConfig.Dropout, Usage: "dropout between layers"},
		&cli.IntFlag{Name: "hidden", Value: d.ModelConfig.Hidden, Usage: "hidden and embedding width"},
		&cli.IntFlag{Name: "layers", Value: 0, Usage: "message-passing layers (0 = the model's default, which ignn models lists; the large-graph defaults' whole-graph recipe: 1)"},
	}
	flags = append(flags, modelFlags()...)
	flags = append(flags, batchFlags()...)
	return append(flags, []cli.Flag{
		&cli.IntFlag{Name: "eval-every", Value: d.EvalEvery, Usage: "evaluate every K epochs (the large-graph defaults: 2 in mini-batches, and 5 from 5·10⁷ nodes; 50 in the whole-graph recipe)"},
		&cli.Uint64Flag{Name: "seed", Value: d.Seed, Usage: "random seed (split, negatives, init, dropout)"},
		&cli.StringFlag{Name: "dtype", Value: string(d.DType), Usage: "float32 or float64"},
		&cli.IntFlag{Name: "mse-pairs", Value: d.MSEPairs, Usage: "max MSE pairs per epoch (all intra-graph pairs when they fit)"},
		&cli.StringFlag{Name: "distances", Value: string(d.Distances), Usage: "distance source: exact (all-pairs tables), sampled (BFS rows from seeded sources; for large graphs), or auto (exact while Σ n² ≤ 2.5·10⁷)"},
		&cli.IntFlag{Name: "mse-sources", Value: d.MSESources, Usage: "sampled distances: BFS sources drawn per epoch for the MSE pairs"},
		&cli.StringFlag{Name: "mse-sampling", Value: "uniform", Usage: "sampled distances: each source's MSE targets uniform over its graph (an unbiased sample of the all-pairs MSE), or stratified: equally many per hop distance"},
		&cli.StringFlag{Name: "distance-loss", Value: "mse", Usage: "the distance term of mse and both: mse (the paper's: (1 − cos)/2 towards 1 − 1/d^α) or rank (a logistic ranking loss on triples i, j, k with d(i, j) < d(i, k): orders cosines by distance, far pairs included, with no target to match; weighted by --lambda-mse)"},
		&cli.Float64Flag{Name: "rank-temp", Value: 0, Usage: fmt.Sprintf("--distance-loss rank: temperature T of softplus((cos_ik − cos_ij)/T) (0 = %g)", run.DefaultRankTemp)},
		&cli.IntFlag{Name: "rank-triples", Value: 0, Usage: fmt.Sprintf("--distance-loss rank: triples drawn per epoch, or per step with --batch-size (0 = %d; with --batch-size, the batch size; the large-graph defaults' whole-graph recipe: %d)", run.DefaultRankTriples, run.WholeGraphTriples)},
		&cli.BoolFlag{Name: "rank-pairs", Usage: "--distance-loss rank: each triple compares two pairs, d(i, j) < d(a, k) with two anchors drawn apart — a global order over pairs, which is what Kendall's τ scores — instead of two nodes' distances to one anchor (a large-graph default)"},
		&cli.BoolFlag{Name: "rank-fixed-sources", Usage: "--distance-loss rank on sampled distances: draw the --mse-sources BFS sources once for the run instead of every epoch (each epoch's BFS over the whole graph is what makes a large graph's epoch cost grow with N); the large-graph default from 5·10⁷ nodes"},
		&cli.IntFlag{Name: "tau-sources", Value: d.TauSources, Usage: "sampled distances: BFS sources of the fixed τ sample (more sources, a narrower test_kendall_tau_ci; the large-graph defaults take 128 from 5·10⁷ nodes)"},
		&cli.IntFlag{Name: "tau-pairs", Value: d.TauPairs, Usage: "sampled distances: pairs in the fixed τ sample"},
		&cli.IntFlag{Name: "patience", Value: 0, Usage: "stop after this many evaluations without a better validation AUC (0 = train every epoch, the paper's protocol)"},
		&cli.StringFlag{Name: "max-memory", Value: "auto", Usage: "refuse runs whose memory plan exceeds this (e.g. 8G; auto = 75% of physical memory); also the garbage collector's soft limit"},
		&cli.StringFlag{Name: "spill", Value: run.SpillAuto, Usage: "a directory for the large run's arrays that need not stay in memory (the landmark input's hop counts, the ranking sources' BFS rows, the evaluation embeddings, the τ faithfulness queries' BFS rows): kept in unlinked files read back by pread, the same numbers; auto = the temporary directory ($TMPDIR or /tmp, not a tmpfs), only when the run would not fit --max-memory otherwise; off = never"},
	}...)
}

// modelFlags are the flags of the options models register
// (models.Entry.Options): a model with its own setting needs no change here.
func modelFlags() []cli.Flag {
	var flags []cli.Flag
	for _, o := range models.Options() {
		switch v := o.Default.(type) {
		case int:
			flags = append(flags, &cli.IntFlag{Name: o.Flag, Value: v, Usage: o.Usage})
		case float64:
			flags = append(flags, &cli.Float64Flag{Name: o.Flag, Value: v, Usage: o.Usage})
		case string:
			flags = append(flags, &cli.StringFlag{Name: o.Flag, Value: v, Usage: o.Usage})
		case bool:
			flags = append(flags, &cli.BoolFlag{Name: o.Flag, Usage: o.Usage})
		default:
			panic(fmt.Sprintf("ignn: model option --%s has a default of type %T", o.Flag, o.Default))
		}
	}
	return flags
}

// setModelOptions stores every model option's flag value in mc, checked
// against what the option accepts; train refuses another model's option.
func setModelOptions(c *cli.Context, mc *models.Config) error {
	if hasFlag(c, "model") { // train and prepare; compare checks its --models
		if err := checkModelOptions(c, []string{c.String("model")}); err != nil {
			return err
		}
	}
	for _, o := range models.Options() {
		var v any
		switch o.Default.(type) {
		case int:
			v = c.Int(o.Flag)
		case float64:
			v = c.Float64(o.Flag)
		case string:
			v = c.String(o.Flag)
		case bool:
			v = c.Bool(o.Flag)
		}
		if err := o.Apply(mc, v); err != nil {
			return usagef("%v", err)
		}
	}
	return nil
}

// batchFlags shape mini-batch training (run.Config.BatchSize and kin) and
// pick the family of defaults (--scale).
func batchFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "select", Value: "auc", Usage: "which epoch a run reports, and which setting a sweep keeps: auc (the paper's: the highest validation AUC, first on ties), objective (the lowest validation objective: BCE on validation pairs + λ_MSE × the distance term on a validation pair sample disjoint from the test τ pairs), or auc-then-objective (AUC ties within one standard error broken by the objective); compare applies it to the cells' histories, so changing it reruns nothing"},
		&cli.BoolFlag{Name: "skip-alone", Usage: "with --position-skip: leave the message passing out — the embedding is the skip path's map of the positional input alone (the ablation that shows what the message passing adds; gcn, sage, gat, gin, graphconv); the large defaults give such a run no sketch, and --sketch M keeps one: the recipe without its trained layers"},
		&cli.Float64Flag{Name: "skip-mix", Usage: "with --position-skip, a share w in (0, 1): the embedding is [√w·skip | √(1−w)·message passing], two unit halves side by side, so a pair's cosine is w·(the skip's) + (1−w)·(the message passing's) — neither branch swamps the other (an experiment, issue 64; --skip-gate is then not used); 0: off"},
		&cli.BoolFlag{Name: "skip-split", Usage: "with --position-skip: the distance term trains only the skip path (it reads the same embedding with the message-passing branch's gradient stopped), the link term both (an experiment, issue 64, that did not help: trained on the link term alone the message passing overfits; docs/frontier-notes.md)"},
		&cli.Float64Flag{Name: "skip-smooth", Usage: "with --position-skip, a share β in (0, 1]: the normalised embedding is smoothed once over the graph, normalise((1−β)·z + β·Â·z), so pairs whose neighbourhoods overlap move together (an experiment, issue 64); 0: off"},
		&cli.IntFlag{Name: "sketch", Usage: "with --position-skip, a width M: the embedding ends with the node's neighbourhood sketch, the sum of its neighbours' M-dimensional hash vectors normalised (one hop of message passing over hash identities, no parameters), z = normalise([√w·model | √(1−w)·sketch]), so a pair's cosine adds the overlap of the two neighbourhoods; the model trains without it, and it joins the embeddings evaluated and written (issue 64, docs/frontier-notes.md; a --skip-alone run has none unless it is given); the embedding is --hidden + M wide; 0: off; the large defaults: 1024 on a link task below 50,000 nodes"},
		&cli.Float64Flag{Name: "sketch-share", Usage: "with --sketch M, the model's share w in (0, 1] of a pair's cosine beside the sketch; 0: chosen at every evaluation on the validation pairs, the highest validation AUC among w = 1 (the sketch unused), 0.85, 0.7, 0.55 and 0.4 that gains more than its standard error over w = 1 and costs at most 0.01 of validation τ"},
		&cli.StringFlag{Name: "popularity", Value: "off", Usage: "with a skip path, end the embedding with a popularity column: a pair's cosine then ranks, to first order, as the model's plus b·ln((1 + deg i)(1 + deg j)), the log of preferential attachment, which unit rows cannot carry otherwise (degrees on the message-passing edges; joins after training, as the sketch does; one more column); off, a weight b in [0, 1] (0 = off), or auto: b chosen at every evaluation on the validation pairs, the highest validation AUC among b = 0 (the column unused), 0.03, 0.1 and 0.3 that gains more than its standard error over b = 0 and costs at most 0.005 of validation τ (a fixed 0.03 lifted link AUC on four heavy-tailed graphs by 0.002–0.011 with τ level or up; 0.1 gained more AUC on some and cost others 0.016–0.019 τ: docs/frontier-notes.md, \"Ninth session\"); the large defaults: auto on a link task with the skip path (not on the skip path alone)"},
		&cli.IntFlag{Name: "skip-smooth-steps", Usage: "with --skip-smooth β: K personalised-PageRank steps v ← (1−β)·z + β·Â·v from v = z, then normalised (an experiment, issue 64); 0: one step"},
		&cli.BoolFlag{Name: "skip-gate", Usage: "with --position-skip: pass the message-passing output, L2-normalised, through a learned map that starts at 0, so training starts from the skip's map of the positional input (a large-graph default)"},
		&cli.BoolFlag{Name: "skip-standardise", Usage: "with --position-skip: standardise the skip path's positional columns over the nodes (mean 0, std 1 each; the message-passing input keeps them as they are), so no column-wide common part swamps the differences between nodes (a large-graph default)"},
		&cli.BoolFlag{Name: "skip-identity", Usage: "with --position-skip and one-hot identity features (a featureless graph's input): the skip path also reads the one-hot identity, so each node has a free vector added to its embedding (an experiment, issue 36)"},
		&cli.BoolFlag{Name: "skip-principal", Usage: "with --position-skip: start the skip path's map at the skip block's principal directions (the top eigenvectors of its uncentred Gram matrix) instead of at random, so training starts from the embedding that keeps the most of the block's own cosines (a large-graph default)"},
		&cli.StringFlag{Name: "skip-polar", Value: "off", Usage: "with --position-skip and --position landmark:L: on gives the skip path a cone of the landmark columns, [1 | g·ŝ] with ŝ the node's standardised row at unit length and g its mean landmark distance rescaled to 0 (most central) … 1 (most remote), so the embedding can keep a graph's centrality as well as its local position (supersedes --skip-standardise); auto (a large-graph default) builds the cone and the standardised columns and keeps the one whose untrained cosines rank the validation pairs better (the JSON's skip_choice); off"},
		&cli.StringFlag{Name: "scale", Value: "auto", Usage: fmt.Sprintf("defaults: paper (the paper's: whole-graph steps, hash input, MSE), large (for users' and big graphs: --position landmark:L with L = %d below %d nodes and 64 from there (where a featureless graph also gets --features constant instead of the one-hot identity), --position-skip --skip-gate --skip-standardise --skip-principal --skip-polar auto --distance-loss rank --rank-pairs --batch-size 512 --batch-steps 50 --epochs 10 --eval-every 2; a link run below %d nodes also gets --sketch %d, and one with the skip path of up to %d nodes trains one layer on the whole graph instead: --layers 1 --epochs %d --eval-every 50 --rank-triples %d; each unless given), or auto: paper for the paper's datasets (communities, email, protein) below %d nodes, large for every other graph (your own, generated), whatever its size", run.SmallGraphLandmarks, run.LargeGraphNodes, run.LargeGraphNodes, run.SketchColumns, run.WholeGraphNodes, run.WholeGraphSteps, run.WholeGraphTriples, run.LargeGraphNodes)},
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
	sel, err := eval.ParseSelectRule(c.String("select"))
	if err != nil {
		return usagef("%v", err)
	}
	if sel != eval.SelectAUC {
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
	cfg.ModelConfig.SkipSplit, cfg.ModelConfig.SkipSmooth = c.Bool("skip-split"), c.Float64("skip-smooth")
	cfg.ModelConfig.SkipSmoothSteps = c.Int("skip-smooth-steps")
	cfg.ModelConfig.Sketch, cfg.ModelConfig.SketchShare = c.Int("sketch"), c.Float64("sketch-share")
	if cfg.ModelConfig.Popularity, cfg.ModelConfig.PopularityAuto, err = models.ParsePopularity(c.String("popularity")); err != nil {
		return usagef("%v", err)
	}
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

func compareFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "models", Value: "gcn,sage,gat,gin,pgnn-f,pgnn-e", Usage: "comma-separated models (default: the paper's six)"},
		&cli.StringFlag{Name: "variants", Value: "base,hash,mse,both", Usage: "comma-separated variants"},
		&cli.StringFlag{Name: "positions", Usage: "comma-separated positional inputs for the hash and both variants (hash, lap:K, rw:K, landmark:L), one row each, plus a reference row per input: its own AUC and τ, untrained (beside a featureless graph's one-hot identity; from 50000 nodes, where a run reads a constant column instead, a second row scores that input) (default: the hash only, no reference rows)"},
		&cli.BoolFlag{Name: "inputs-only", Usage: "with --positions: only the reference rows (each input's own AUC and τ, untrained, seeds 1..R); no model is trained"},
		&cli.IntFlag{Name: "repeats", Value: 3, Usage: "seeds 1..R per cell"},
		&cli.BoolFlag{Name: "capacity", Value: true, Usage: fmt.Sprintf("add a (capacity) row: per seed, a free embedding table of the output width trained on the runs' own objective — the first model's BCE and distance term at their weights, the runs' ranking triples a step or %d per node if more, at most %d (%d whole-graph steps at lr %g) — on the same splits and τ pairs: a point of the link-AUC/τ frontier that cosine similarity in that many dimensions reaches, up to %d nodes (on larger graphs the steps are too few: no row unless --capacity is given, and then with thinned BFS draws); --capacity=false: none; sweep: none", grid.CapacityTriplesPerNode, grid.CapacityTriples, grid.CapacityEpochs, grid.CapacityLR, run.CapacityFullNodes)},
		&cli.BoolFlag{Name: "ablation", Value: true, Usage: "when the runs have a skip path (the large-graph recipe, or --position-skip) and the variants include both: add a (skip path alone) row: for each seed and setting of the both cells (positional input, rate, weights), the both variant with --skip-alone — the embedding the skip path's map of the positional input alone, no message passing — trained as the runs are, so each model's both row shows what its message passing adds (one cell, not one per model: the skip path alone is the same for every model of the layer stack); when the runs have a neighbourhood sketch (--sketch; the large defaults below 50,000 nodes), also a (skip path + sketch) row, the same cells keeping the sketch: the recipe without its trained layers; --ablation=false: none (a grid file: ablation: false under settings); sweep: none"},
		&cli.BoolFlag{Name: "heuristics", Value: true, Usage: "on the link task, add (common neighbours), (adamic-adar) and (preferential attachment) rows: each seed's own test pairs scored by the heuristic on its message-passing edges (AUC, AP; τ blank), nothing trained; --heuristics=false: none"},
		&cli.IntFlag{Name: "workers", Value: 1, Usage: "cells run in parallel (results do not depend on it)"},
		&cli.StringFlag{Name: "format", Value: "table", Usage: "table, markdown, csv or json"},
		&cli.StringFlag{Name: "out", Usage: "directory for results.{json,csv,md} and per-cell files; re-running resumes"},
		&cli.BoolFlag{Name: "sweep", Usage: "per cell, select lr and λ by validation AUC (the paper's protocol)"},
		&cli.BoolFlag{Name: "quiet", Usage: "no progress or notes on stderr (warnings stay)"},
		&cli.BoolFlag{Name: "fresh", Usage: "discard the cells and results already in --out and start over"},
		&cli.BoolFlag{Name: "retry-failed", Usage: "run the cells whose earlier attempt failed again"},
		&cli.StringFlag{Name: "grid", Usage: "a YAML grid file (settings + sub-grids whose cells are joined); see scripts/run.grid.yaml"},
		&cli.BoolFlag{Name: "dry-run", Usage: "list the cells and print the grid as a grid file, run nothing"},
		&cli.StringFlag{Name: "shard", Usage: "run only part I/N of the grid (cost-balanced round robin), or auto: from SLURM_ARRAY_TASK_ID/COUNT or JOB_COMPLETION_INDEX; a plain compare on the same --out then builds the table"},
		&cli.IntFlag{Name: "shards", Usage: "with --shard auto under a Kubernetes Indexed Job: the number of shards"},
		&cli.BoolFlag{Name: "slurm", Usage: "write --out/ignn.sbatch, an array job of --shards tasks (default 4) each running its shard, and submit it with sbatch"},
		&cli.StringSliceFlag{Name: "slurm-arg", Usage: "an extra #SBATCH line for --slurm (repeatable), e.g. --slurm-arg=--partition=gpu"},
		&cli.BoolFlag{Name: "wait", Usage: "with --slurm: wait for the job, then print the table"},
		&cli.BoolFlag{Name: "status", Usage: "list the grid's cells in --out as finished, running (host, pid), stale, failed or missing, run nothing"},
	}
}

// gridFlags are runFlags without the per-run ones a grid sets itself
// (--model, --variant, --seed, --position: use --models, --variants,
// --repeats, --positions).
func gridFlags() []cli.Flag {
	var out []cli.Flag
	for _, f := range runFlags() {
		switch f.Names()[0] {
		case "model", "variant", "seed", "position":
			continue
		}
		out = append(out, f)
	}
	return out
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

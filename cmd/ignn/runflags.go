package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/models"
)

// The flags of one run: its settings and the models' own options.

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
		&cli.StringFlag{Name: "header", Value: data.HeaderAuto, Usage: "user edge lists: a header line — auto (a first line with no number is one when the file bears it out: integer node columns on the next line, a column of numbers under a word, or column names that name no node; a first line of two integers is a count line when they match the file's counts), yes or no"},
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
		&cli.IntFlag{Name: "epochs", Value: d.Epochs, Usage: fmt.Sprintf("training epochs: under the paper's scheme one whole-graph step each; under --scale large (auto for every graph but the paper's three datasets) --batch-steps mini-batch steps each (default 10 epochs × 50 steps), so --epochs 100 there is 5000 steps; train states the total before it starts")},
		&cli.Float64Flag{Name: "lr", Value: d.LR, Usage: "Adam learning rate"},
		&cli.Float64Flag{Name: "weight-decay", Value: d.WeightDec, Usage: "Adam L2 weight decay"},
		&cli.Float64Flag{Name: "dropout", Value: d.ModelConfig.Dropout, Usage: "dropout between layers"},
		&cli.IntFlag{Name: "hidden", Value: d.ModelConfig.Hidden, Usage: "hidden and embedding width"},
		&cli.IntFlag{Name: "layers", Value: 0, Usage: "message-passing layers (0 = the model's default, which ignn models lists)"},
	}
	flags = append(flags, modelFlags()...)
	flags = append(flags, batchFlags()...)
	return append(flags, []cli.Flag{
		&cli.IntFlag{Name: "eval-every", Value: d.EvalEvery, Usage: "evaluate every K epochs (the large-graph defaults: 2, and 5 from 5·10⁷ nodes)"},
		&cli.Uint64Flag{Name: "seed", Value: d.Seed, Usage: "random seed (split, negatives, init, dropout)"},
		&cli.StringFlag{Name: "dtype", Value: string(d.DType), Usage: "float32 or float64"},
		&cli.IntFlag{Name: "mse-pairs", Value: d.MSEPairs, Usage: "max MSE pairs per epoch (all intra-graph pairs when they fit)"},
		&cli.StringFlag{Name: "distances", Value: string(d.Distances), Usage: "distance source: exact (all-pairs tables), sampled (BFS rows from seeded sources; for large graphs), or auto (exact while Σ n² ≤ 2.5·10⁷)"},
		&cli.IntFlag{Name: "mse-sources", Value: d.MSESources, Usage: "sampled distances: BFS sources drawn per epoch for the MSE pairs"},
		&cli.StringFlag{Name: "mse-sampling", Value: "uniform", Usage: "sampled distances: each source's MSE targets uniform over its graph (an unbiased sample of the all-pairs MSE), or stratified: equally many per hop distance"},
		&cli.StringFlag{Name: "distance-loss", Value: "mse", Usage: "the distance term of mse and both: mse (the paper's: (1 − cos)/2 towards 1 − 1/d^α) or rank (a logistic ranking loss on triples i, j, k with d(i, j) < d(i, k): orders cosines by distance, far pairs included, with no target to match; weighted by --lambda-mse)"},
		&cli.Float64Flag{Name: "rank-temp", Value: 0, Usage: fmt.Sprintf("--distance-loss rank: temperature T of softplus((cos_ik − cos_ij)/T) (0 = %g)", run.DefaultRankTemp)},
		&cli.IntFlag{Name: "rank-triples", Value: 0, Usage: fmt.Sprintf("--distance-loss rank: triples drawn per epoch, or per step with --batch-size (0 = %d; with --batch-size, the batch size)", run.DefaultRankTriples)},
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

// configFrom binds the shared flags.

package run

import (
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/objective"
)

// The capacity reference (compare's (capacity) row): a free embedding
// table trained on the objective of the runs it stands beside.

// CapacityModel is the free embedding table (models/table.go) that the
// capacity reference trains.
const CapacityModel = "table"

// CapacityEpochs and CapacityLR are how the capacity reference trains:
// 1000 whole-graph Adam steps at lr 0.001. Measured on Wiki-Vote (7,115
// nodes; test τ of the table trained on the ranking term alone after
// 250/500/1000/2000 steps): lr 0.01 0.595/0.603/0.617/0.621, lr 0.003
// –/0.655, lr 0.001 0.628/0.672/0.681/0.684, lr 0.0003 –/0.591; a free table
// is an easy model for Adam to overshoot. On the runs' own objective
// (BCE + 10 × the ranking term, 512 triples) the rate matters less: after
// 1000 steps Wiki-Vote reads AUC 0.913 / 0.917 / 0.911 and τ 0.562 / 0.580 /
// 0.563 at lr 0.001 / 0.003 / 0.01 (docs/frontier-notes.md).
const (
	CapacityEpochs = 1000
	CapacityLR     = 0.001
)

// CapacityTriples is the most ranking triples a capacity step draws: the
// run's own count per step (its batch size under mini-batches) when it is
// smaller. 65,536 triples a step made the reference 95% of a compare on a
// 77-node graph (42 s a seed; on make run's grid its two cells were 43.5%
// of the cells' time, now 9.8%); 4,096 a step over 1000 steps draw 4·10⁶
// triples, about 0.13 of a 400-node graph's ≈ 3·10⁷ ordered ones with
// d(i, j) < d(i, k).
const CapacityTriples = 1 << 12

// Objective is what a run minimises: λ_BCE·BCE + λ_MSE·D with its distance
// term D (the paper's MSE or the ranking loss, its temperature, α, its
// triples per step).
type Objective struct {
	LambdaBCE, LambdaMSE float64
	DistanceLoss         objective.DistanceLoss
	RankTemp, Alpha      float64
	RankTriples          int
	RankPairs            bool
}

// ObjectiveOf is the objective of a run of c's model with the distance
// term (variant both) on ds, as Resolve decides it (the large-graph
// defaults by ds's size included).
func ObjectiveOf(c Config, ds *data.Dataset) Objective {
	c.Variant = Both
	r := c.applyScale(graphSize{ds.NumNodes(), TrainPositives(ds, c.Task)}).WithDefaults()
	if r.DistanceLoss != objective.DistanceRank || r.LambdaMSE == 0 {
		r.RankPairs = false
	}
	return Objective{LambdaBCE: r.LambdaBCE, LambdaMSE: r.LambdaMSE, DistanceLoss: r.DistanceLoss, RankTemp: r.RankTemp,
		Alpha: r.Alpha, RankTriples: r.RankTriples, RankPairs: r.RankPairs}
}

// CapacityConfig is c's capacity reference (compare's (capacity) row): the
// free embedding table of c's output width trained on the objective o (the
// run's own, ObjectiveOf: its BCE on the split's pairs plus its distance
// term at its weights, at most CapacityTriples ranking triples a step) for
// CapacityEpochs whole-graph steps at CapacityLR, evaluated at the end. So
// its AUC and τ are what a free table of that width reaches on the runs'
// objective: a point of the joint frontier, not only its distance end.
// Seed, data, task, distance source and τ sample settings are c's, so it
// is scored on c's splits and τ pairs. No positional input, no
// mini-batches, no early stopping.
func CapacityConfig(c Config, o Objective) Config {
	c.Model, c.Variant = CapacityModel, MSE
	c.LambdaBCE, c.LambdaMSE, c.Alpha = o.LambdaBCE, o.LambdaMSE, o.Alpha
	c.DistanceLoss, c.RankTemp, c.RankTriples, c.RankPairs = o.DistanceLoss, o.RankTemp, 0, o.RankPairs
	if o.DistanceLoss == objective.DistanceRank {
		c.RankTriples = min(max(o.RankTriples, 1), CapacityTriples)
	}
	c.Epochs, c.EvalEvery, c.Patience, c.LR = CapacityEpochs, CapacityEpochs, 0, CapacityLR
	c.Scale, c.ScaleNote, c.Explicit = ScalePaper, "", nil
	c.Position, c.PositionSkip, c.SkipStandardise, c.SkipPolar = features.Position{}, false, false, features.SkipPolarOff
	c.HashDim, c.BatchSize, c.BatchSteps, c.BatchFanout, c.BatchNodes = -1, 0, 0, 0, 0
	c.MSESampling = ""
	c.ModelConfig.SkipGate = false
	c.CapacitySampled = true
	return c
}

// CapacityFullNodes is the graph size up to which the capacity reference
// draws its ranking term's BFS sources as any run does (MSESources fresh
// ones every step); above it the draws are thinned (capacityThinning), so
// its BFS work stays that of a graph of this size: 1000 steps × 64 BFS over
// 10⁶ nodes would be ≈ 9 minutes on 2 cores, over 10⁷ nodes ≈ 3 hours.
const CapacityFullNodes = 100_000

// capacityMinSources is the fewest BFS sources a thinned draw has.
const capacityMinSources = 8

// capacityThinning is the thinned draw of a capacity run (Config.
// CapacitySampled) on n nodes: sources per draw and the epochs each draw
// is kept, with sources × n / every ≤ MSESources × CapacityFullNodes node
// visits per epoch; every = 0 (no thinning) up to CapacityFullNodes nodes
// and on other runs.
func capacityThinning(cfg Config, n int) (sources, every int) {
	if !cfg.CapacitySampled || n <= CapacityFullNodes {
		return 0, 0
	}
	budget := int64(cfg.MSESources) * CapacityFullNodes
	sources = max(capacityMinSources, int(budget/int64(n)))
	every = int((int64(sources)*int64(n) + budget - 1) / budget)
	return sources, every
}

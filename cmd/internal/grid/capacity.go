package grid

import (
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/objective"
)

// The capacity reference (CompareConfig.Capacity): per seed, a cell that
// trains the free embedding table on the objective of the grid's first
// model with the distance term (CapacityConfig, run.ObjectiveOf). Its
// cells are ordinary cells — resumed, sharded and checked for staleness
// like the others — and its row is named as a reference row.

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

// CapacityTriples is the most ranking triples a capacity step draws, and
// CapacityTriplesPerNode how many it draws per node of the graph up to
// that: a free table has a row per node to train, where the runs' skip path
// shares one map, so the runs' own count a step (512 under the large-graph
// defaults) left it far short. Table, BCE + 10 × the ranking term, 1000
// steps at lr 0.001, seed 1 (final test AUC / τ; the GCN recipe beside it):
// caveman:500x20 512 triples 0.622 / 0.112, 4,096 0.931 / 0.497, 16,384
// 0.991 / 0.670 (recipe 0.991 / 0.681); Wiki-Vote 512 0.913 / 0.562, 4,096
// 0.930 / 0.657, 16,384 0.933 / 0.687 (recipe 0.927 / 0.681), at 51.8 and
// 59.7 ms a step. lr 0.01 with 4,096 is worse on Wiki-Vote (0.920 / 0.623).
// The cap was 16,384 until the twelfth session: at 10⁵ nodes that is 0.16
// a node, and each row's share of the ranking term's kicks, ten times the
// link term's weight, scattered the link term's clusters as fast as it
// formed them (caveman:5000x20: the table on BCE alone reaches AUC 0.992
// in 100 steps; switched to the runs' objective after them it falls to
// 0.686 in the next 100). At 131,072 (with the pool of sources,
// run.capacityThinning) it ends at 0.985 / 0.456 against the recipe's
// 0.990 / 0.437 (docs/frontier-notes.md, "Twelfth session"; 0.984 / 0.455
// with the fourteenth session's pool). 65,536 with that pool: 0.878 / 0.402.
// A graph of a few hundred nodes draws CapacityMinTriples, not two per
// node: 65,536 triples a step once made the reference 95% of a compare on
// a 77-node graph.
const (
	CapacityTriples        = 1 << 17
	CapacityTriplesPerNode = 2
)

// capacityTriples is the ranking triples a capacity step draws for the
// objective o: CapacityTriplesPerNode a node of its graph, at least
// CapacityMinTriples and at most CapacityTriples, whatever the runs draw (a
// mini-batch run draws 512 a step, a whole-graph one up to 65,536).
func capacityTriples(o run.Objective) int {
	return min(max(CapacityMinTriples, CapacityTriplesPerNode*o.Nodes), CapacityTriples)
}

// CapacityMinTriples is the fewest ranking triples a capacity step draws:
// the mini-batch recipe's count a step, which a graph of a few hundred
// nodes kept.
const CapacityMinTriples = 512

// With the ranking term, a capacity step's link term reads as many
// training positives as the step draws triples (capacityTriples; with as
// many fresh negatives: run.Config.BCESample), at most CapacityBCESample,
// not every one: the BCE over all training pairs was 45% of a step at 10⁵
// nodes (ba:100000:4, CPU profile). Table, seed 1, final test AUC / τ and seconds, every positive
// against the sample (on a machine shared with a compare): Email 0.907 /
// 0.708 both, 13.6 → 7.2 s; Wiki-Vote 0.933 / 0.685 both, 77.3 → 45.4 s;
// caveman:500x20 0.991 / 0.670 both, 155.8 → 104.8 s; plc:20000:4:0.5
// 0.618 / 0.558 → 0.619 / 0.558, 118.9 → 57.2 s; ba:100000:4 0.563 / 0.437
// both, 359.8 s (a frontier compare's cell) → 203.3 s.
//
// CapacityBCESample caps that sample: a 10⁵-node step drew 131,072
// positives and as many negatives, a quarter of its time, for a term the
// table learns in its first 100 steps on its own. With 32,768 (seed 1, two
// cells at once, final test AUC / τ and ms a step, 131,072 against 32,768)
// ba:100000:4 reads 0.559 / 0.498 and 0.558 / 0.498 (283 → 209 ms),
// grid:316x316 0.974 / 0.884 both (301 → 211 ms), caveman:5000x20 0.985 /
// 0.456 both (370 → 282 ms); every evaluation of the learning curve agrees
// to 0.001 (docs/frontier-notes.md, "Fourteenth session"). Graphs of up to
// 16,384 nodes draw fewer triples than that and are unchanged.
const CapacityBCESample = 1 << 15

// CapacityConfig is c's capacity reference (compare's (capacity) row): the
// free embedding table of c's output width trained on the objective o (the
// run's own, ObjectiveOf: its BCE on the split's pairs plus its distance
// term at its weights, capacityTriples ranking triples and as many
// training positives a step, at most CapacityBCESample) for
// CapacityEpochs whole-graph steps at CapacityLR, evaluated at the end. So
// its AUC and τ are what a free table of that width reaches on the runs'
// objective: a point of the joint frontier, not only its distance end.
// Seed, data, task, distance source and τ sample settings are c's, so it
// is scored on c's splits and τ pairs. No positional input, no
// mini-batches, no early stopping.
func CapacityConfig(c run.Config, o run.Objective) run.Config {
	c.Model, c.Variant = CapacityModel, run.MSE
	c.LambdaBCE, c.LambdaMSE, c.Alpha = o.LambdaBCE, o.LambdaMSE, o.Alpha
	c.DistanceLoss, c.RankTemp, c.RankTriples, c.RankPairs = o.DistanceLoss, o.RankTemp, 0, o.RankPairs
	if o.DistanceLoss == objective.DistanceRank { // the paper's MSE keeps every positive: its rows as they were
		c.RankTriples = capacityTriples(o)
		c.BCESample = min(c.RankTriples, CapacityBCESample)
	}
	c.Epochs, c.EvalEvery, c.Patience, c.LR = CapacityEpochs, CapacityEpochs, 0, CapacityLR
	c.Scale, c.ScaleNote, c.Explicit = run.ScalePaper, "", nil
	c.Position, c.PositionSkip, c.SkipStandardise, c.SkipPolar = features.Position{}, false, false, features.SkipPolarOff
	c.HashDim, c.BatchSize, c.BatchSteps, c.BatchFanout, c.BatchNodes = -1, 0, 0, 0, 0
	c.MSESampling = ""
	c.ModelConfig.SkipGate, c.ModelConfig.Popularity, c.ModelConfig.PopularityAuto = false, 0, false // a free table has no skip path to end with the column
	c.CapacitySampled = true
	return c
}

// CapacityObjective is the objective the capacity cells train on: that of
// the grid's first model with the distance term, on the grid's graph
// (run.ObjectiveOf). It loads the graph; Compare does it once and keeps the
// result in CompareConfig.Objective.
func (cc CompareConfig) CapacityObjective() (run.Objective, error) {
	if cc.Objective != nil {
		return *cc.Objective, nil
	}
	c := cc.Base
	if len(cc.Models) > 0 {
		c.Model = cc.Models[0]
	} else if len(cc.Grids) > 0 && len(cc.Grids[0].Models) > 0 {
		c.Model = cc.Grids[0].Models[0]
	}
	ds, err := run.LoadDataset(c)
	if err != nil {
		return run.Objective{}, err
	}
	return run.ObjectiveOf(c, ds), nil
}

// capacityObjective is CapacityObjective for listing the jobs: Compare and
// the CLI set Objective first (one load of the graph); without it the graph
// is loaded here, and one that does not load leaves the zero objective (the
// run of the cell then reports the error).
func (cc CompareConfig) capacityObjective() run.Objective {
	o, _ := cc.CapacityObjective()
	return o
}

// withCapacity appends, with Capacity, one capacity cell per seed: the free
// embedding table trained on the runs' objective (capacityObjective).
func (cc CompareConfig) withCapacity(jobs []Job, repeats int) []Job {
	if !cc.Capacity {
		return jobs
	}
	o := cc.capacityObjective()
	for seed := uint64(1); seed <= uint64(repeats); seed++ {
		j := Job{Model: CapacityModel, Variant: run.MSE, Seed: seed, LR: CapacityLR, LambdaBCE: o.LambdaBCE, LambdaMSE: o.LambdaMSE, Capacity: true}
		if o.DistanceLoss != "" && o.DistanceLoss != objective.DistanceMSE { // its name says its term, as the other cells' do
			j.Distance = string(o.DistanceLoss)
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// IsCapacity reports whether j is a capacity cell (withCapacity).
func (j Job) IsCapacity() bool { return j.Capacity }

// resolvedEpochs is the epoch count every cell ran (0 when they differ),
// capacity cells aside.
func resolvedEpochs(cells []CellMetrics) int {
	n := 0
	for _, x := range cells {
		if x.IsCapacity() {
			continue
		}
		if n > 0 && x.Settings.Epochs != n {
			return 0
		}
		n = x.Settings.Epochs
	}
	return n
}

// The capacity reference's row in tables (CompareConfig.Capacity).
const (
	CapacityRow   = "(capacity)"
	CapacityLabel = "table, the runs' objective"
)

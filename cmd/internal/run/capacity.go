package run

import (
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/objective"
)

// The capacity reference (compare's (capacity) row): a free embedding
// table trained on the ranking distance term alone.

// CapacityModel is the free embedding table (models/table.go) that the
// capacity reference trains.
const CapacityModel = "table"

// CapacityEpochs and CapacityLR are how the capacity reference trains:
// 1000 whole-graph Adam steps at lr 0.001, each on DefaultRankTriples fresh
// triples. Measured on Wiki-Vote (7,115 nodes; test τ of the table after
// 250/500/1000/2000 steps): lr 0.01 0.595/0.603/0.617/0.621, lr 0.003
// –/0.655, lr 0.001 0.628/0.672/0.681/0.684, lr 0.0003 –/0.591; a free table
// is an easy model for Adam to overshoot.
const (
	CapacityEpochs = 1000
	CapacityLR     = 0.001
)

// CapacityConfig is c's capacity reference (compare's (capacity) row): the
// free embedding table of c's output width, trained on the ranking
// distance term alone (λ_BCE = 0, λ_MSE = 1, the strongest distance term:
// it orders every distance and asks nothing infeasible of unit vectors)
// for CapacityEpochs whole-graph steps at CapacityLR, evaluated at the end. Seed, data,
// task, distance source and τ sample settings are c's, so it is scored on
// c's splits and τ pairs. No positional input, no mini-batches, no early
// stopping.
func CapacityConfig(c Config) Config {
	c.Model, c.Variant, c.LambdaBCE, c.LambdaMSE = CapacityModel, MSE, 0, 1
	c.DistanceLoss, c.RankTemp, c.RankTriples = objective.DistanceRank, 0, 0
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

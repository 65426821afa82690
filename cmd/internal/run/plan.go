package run

import (
	"errors"

	"github.com/ignn/ignn/cmd/internal/memplan"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/models"
	"github.com/ignn/ignn/objective"
)

// The plan stage: what a run of a resolved Config does at its scale,
// decided once here (chunked inference, input views, float32 embeddings,
// the spill), so that the memory plan (package memplan) and the run read
// the same decisions; the plan is made from them before anything is built.

// ChunkedInferenceNodes is the graph size from which a mini-batch run
// computes its evaluation embeddings in chunks of nodes (package infer)
// rather than with one forward pass over the whole graph, whose N × hidden
// buffers per layer are the largest part of a 10⁷-node run (issue 37). A
// variable for tests.
var ChunkedInferenceNodes = 1 << 18

// ViewInputNodes is the graph size from which a float32 mini-batch run
// whose positional encoding is landmark hop counts keeps those (2 bytes an
// entry) and computes its input's and skip block's rows from them as
// batches load them (engine.Features.View), instead of storing both as
// N × K float32 values (5.2 GB at 10⁷ nodes, plus the skip candidate while
// --skip-polar auto chooses). The values are the same, bit for bit; from
// this size on inference is chunked too (ChunkedInferenceNodes), so no
// whole-graph graph stores the rows after all. A variable for tests.
var ViewInputNodes = ChunkedInferenceNodes

// chunked reports whether a run of cfg on n nodes infers its evaluation
// embeddings in chunks of nodes (ChunkedInferenceNodes).
func chunked(cfg Config, n int) bool { return cfg.BatchSize > 0 && n >= ChunkedInferenceNodes }

// viewInputs reports whether a run of cfg on n nodes reads its input and
// skip rows through views of the landmark hop counts (ViewInputNodes).
func viewInputs(cfg Config, n int) bool {
	return cfg.BatchSize > 0 && cfg.DType == Float32 && n >= ViewInputNodes && cfg.Position.Kind == features.PosLandmark
}

// float32Embeddings reports whether a run of cfg on n nodes keeps its
// evaluation embeddings in float32: a float32 run's chunked inference,
// whose values are float32 already (half the memory; the scores sum in
// float64 as for float64 rows, so they are the same); not with a
// Laplacian input, whose column signs an evaluation resets.
func float32Embeddings(cfg Config, n int) bool {
	return chunked(cfg, n) && cfg.DType == Float32 && cfg.Position.Kind != features.PosLap
}

// SpillAuto is Config.Spill's "decide by the memory plan": spill into
// memplan.AutoSpillDir only when the run would not fit --max-memory
// otherwise.
const SpillAuto = "auto"

// spillDir is where the run spills: Config.Spill, "" for auto (which
// Run resolves before anything is built; a run made otherwise keeps all
// in memory).
func (c Config) spillDir() string {
	if c.Spill == SpillAuto {
		return ""
	}
	return c.Spill
}

// ErrPlanOnly is Run's error when Hooks.Plan stopped it after planning.
var ErrPlanOnly = errors.New("stopped after the memory plan")

// PlanMemory estimates the peak memory of a resolved run on ds before any
// of it is built (memplan.Estimate of its shape). With cfg.Spill auto, it
// is the plan of the run as it will be made: in memory when that fits
// cfg.MaxMemory (or no limit is set), else spilled into
// memplan.AutoSpillDir when that is smaller (the plan's Spill then names
// the directory).
func PlanMemory(cfg Config, ds *data.Dataset) memplan.Plan {
	_, p := planOf(cfg, ds)
	return p
}

// planOf is PlanMemory and the shape it planned (with the slot probe's
// sizes, and spilling where --spill auto chose to).
func planOf(cfg Config, ds *data.Dataset) (memplan.Shape, memplan.Plan) {
	s := shapeOf(cfg, ds)
	if cfg.BatchSize > 0 {
		s.Slots, s.Widest = planSlotsWidest(cfg, ds)
		s.Staged = staged(cfg)
	}
	p := memplan.Estimate(s)
	if cfg.Spill != SpillAuto || cfg.MaxMemory <= 0 || p.Total <= cfg.MaxMemory {
		return s, p
	}
	dir := memplan.AutoSpillDir()
	if dir == "" || s.CheckSpill(dir) != nil {
		return s, p // no disk to spill to: the plan refuses the run as it is
	}
	spilled := s
	spilled.Spill = true
	if q := memplan.Estimate(spilled); q.Total < p.Total {
		q.Spill = dir
		return spilled, q
	}
	return s, p
}

// PlanStagePart is the memory one of n parts of cfg's BFS stages on ds
// needs (memplan.Shape.StagePart).
func PlanStagePart(cfg Config, ds *data.Dataset, n int) int64 { return shapeOf(cfg, ds).StagePart(n) }

// shapeOf is the shape of a resolved run of cfg on ds: its sizes and the
// decisions above (its batch's slots are the plan's probe: planOf).
func shapeOf(cfg Config, ds *data.Dataset) memplan.Shape {
	n := ds.NumNodes()
	s := memplan.Shape{
		Nodes: int64(n), Edges: int64(ds.NumEdges()), Attributes: ds.FeatureDim(), Identity: ds.Identity,
		Float64: cfg.DType == Float64, Model: cfg.Model, ModelConfig: cfg.ModelConfig,
		BatchSize: cfg.BatchSize, MSE: cfg.Variant.MSE(), Rank: cfg.DistanceLoss == objective.DistanceRank,
		RankTriples: cfg.RankTriples, MSEPairs: cfg.MSEPairs, MSESources: rankSources(cfg, n), Exact: cfg.Distances == DistExact,
		TauPairs: cfg.TauPairs, TauSources: cfg.TauSources,
		ChunkedInfer: chunked(cfg, n), ViewInputs: viewInputs(cfg, n), Float32Emb: float32Embeddings(cfg, n),
		Spill: cfg.spillDir() != "",
	}
	for _, g := range ds.Graphs {
		s.GraphNodes = append(s.GraphNodes, g.N)
	}
	if cfg.Variant.Hash() && cfg.Position.IsHash() {
		s.HashDim = cfg.HashDim
	}
	if cfg.Variant.Hash() && !cfg.Position.IsHash() {
		s.Position, s.PositionSkip, s.SkipPolar = cfg.Position, cfg.PositionSkip, cfg.SkipPolar != features.SkipPolarOff
	}
	return s
}

// staged reports whether cfg's model runs its stages apart (models.Staged).
func staged(cfg Config) bool {
	e, err := models.Lookup(cfg.Model)
	if err != nil {
		return false
	}
	_, ok := e.New(cfg.ModelConfig).(models.Staged)
	return ok
}

// planSlotsWidest is the plan's probe of a mini-batch run's node slots and
// the widest neighbourhood it met (memplan.ProbeSlots), for a step's seed
// nodes: its positives and as many negatives, both ends each, and its
// triples' nodes or its share of the epoch's MSE pairs.
func planSlotsWidest(cfg Config, ds *data.Dataset) (slots, widest int64) {
	triples := 0
	if cfg.DistanceLoss == objective.DistanceRank && cfg.Variant.MSE() {
		triples = cfg.RankTriples * 3
		if cfg.RankPairs {
			triples = cfg.RankTriples * 4
		}
	}
	mse := 0
	if cfg.Variant.MSE() && cfg.DistanceLoss != objective.DistanceRank && cfg.BatchSteps > 0 {
		mse = 2 * ((cfg.MSEPairs + cfg.BatchSteps - 1) / cfg.BatchSteps)
	}
	return memplan.ProbeSlots(ds.Graphs, cfg.ModelConfig.Layers, 4*cfg.BatchSize+triples+mse, cfg.BatchNodes, engine.Stream(cfg.Seed, "plan-probe"))
}

// CapacityFullNodes is the graph size up to which compare adds the capacity
// reference by default (cmd/ignn): above it 1000 steps are too few for a
// free table's rows.
const CapacityFullNodes = 100_000

// The capacity reference's ranking sources on the sampled path are a pool
// (Build thins its sampler with capacityThinning; the plan above counts its
// rows with rankSources): capacityPoolSources BFS rows (fewer where the
// pool would pass capacityPoolBytes, at least capacityMinSources), each
// step's pair triples anchored across all of them, the pool drawn afresh
// every few epochs so that its BFS work is capacityPoolBFS BFS an epoch on
// average (a quarter of a run's 64 fresh sources), at most
// capacityPoolVisits node visits (those BFS over 10⁵ nodes). Against 64 fresh
// sources every step (table, 131,072 triples a step, caveman:5000x20, seed
// 1, two cells at once): final test AUC / τ 0.985 / 0.456 in 445 s, where 64
// fresh sources and 16,384 triples gave 0.556 / 0.246 in 650 s and the pool
// with 16,384 triples 0.564 / 0.238 in 238 s (docs/frontier-notes.md,
// "Twelfth session").
//
// The pool was 1,024 sources kept 64 epochs until the fourteenth session.
// 256 kept 16 (the same 16 BFS an epoch) trains the table as far or
// further, sooner, in a quarter of the memory (seed 1, 1000 steps, final
// test AUC / τ for 1,024 / 256 / 64 sources kept 64 / 16 / 4 epochs):
// ba:100000:4 0.559 / 0.498, 0.568 / 0.530, 0.578 / 0.547; grid:316x316
// 0.974 / 0.884, 0.973 / 0.886, 0.967 / 0.867; caveman:5000x20 0.985 /
// 0.456, 0.984 / 0.456, 0.970 / 0.435. After 100 steps τ reads 0.169,
// 0.335, 0.430 on ba:100000:4. A step reads its pool rows at random (51
// MB instead of 205 at 10⁵ nodes): 283 → 250 ms on ba:100000:4, 301 → 254
// on grid:316x316, 370 → 334 on caveman:5000x20. The same 256 kept 32
// epochs (8 BFS an epoch) lost τ on ba:100000:4 (0.509).
const (
	capacityPoolSources = 256
	capacityPoolBytes   = 256 << 20
	capacityPoolBFS     = 16
	capacityPoolVisits  = capacityPoolBFS * CapacityFullNodes
	capacityMinSources  = 8
)

// capacityThinning is the pool of a capacity run's ranking sources (Config.
// CapacitySampled) on n nodes: its sources and the epochs each draw is
// kept; 0, 0 on other runs. (A run on exact distances has no sources: the
// sampler ignores it.)
func capacityThinning(cfg Config, n int) (sources, every int) {
	if !cfg.CapacitySampled || n < 1 {
		return 0, 0
	}
	sources = min(capacityPoolSources, max(capacityMinSources, int(capacityPoolBytes/(2*int64(n)))))
	visits := min(capacityPoolVisits, capacityPoolBFS*int64(n))
	every = max(1, int((int64(sources)*int64(n)+visits-1)/visits))
	return sources, every
}

// rankSources is how many BFS sources' rows cfg's ranking term holds at
// once on n nodes: the capacity reference's pool, or MSESources.
func rankSources(cfg Config, n int) int {
	if s, _ := capacityThinning(cfg, n); s > 0 && cfg.DistanceLoss == objective.DistanceRank {
		return s
	}
	return cfg.MSESources
}

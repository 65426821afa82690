package grid

import (
	"fmt"
	"runtime/debug"

	"github.com/ignn/ignn/cmd/internal/memplan"
	"github.com/ignn/ignn/cmd/internal/report"
	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// InputReference scores a positional input itself, untrained: the cosine
// between two nodes' complete input rows ([identity | attributes |
// position], what the first layer sees; for a featureless graph the
// one-hot identity as loaded, even where the run's large defaults give it
// a constant column instead, which would only add one common part to
// every row and drown the positions: at 10⁵ nodes τ 0.177 instead of
// 0.637) as the embedding, with the
// run's own splits, τ pairs and metrics. cfg is a hash-variant
// configuration (the position it names is the one scored); its seed picks
// the split, the generated graph and the encoding's landmarks or walks.
// The table's reference row shows what the GNN and the MSE add on top of
// the input.
func InputReference(cfg run.Config) (eval.Scores, error) {
	s, _, err := inputReference(cfg, false)
	return s, err
}

// RunInputReference is InputReference of the input rows the run itself
// reads: where the large defaults give a featureless graph a constant
// column instead of its one-hot identity (from 50,000 nodes), those rows,
// [1 | position], are scored, and differs is true; otherwise the scores
// are InputReference's and differs is false. It is the reference a run of
// that size can be held to: the identity's private dimension per node
// (which damps a row's cosines by its norm, a centrality the landmark
// values carry) is not in its input (issue 64, goal 4).
func RunInputReference(cfg run.Config) (s eval.Scores, differs bool, err error) {
	if s, differs, err = inputReference(cfg, true); err == nil && !differs {
		s, err = InputReference(cfg)
	}
	return s, differs, err
}

// inputReference is InputReference (asRun false) or RunInputReference's
// scores where the run's input differs (asRun true; when it does not,
// nothing is scored: zero scores and differs false).

func inputReference(cfg run.Config, asRun bool) (eval.Scores, bool, error) {
	cfg.Variant, cfg.LambdaMSE = run.Hash, run.AutoLambdaMSE
	if err := cfg.Validate(); err != nil {
		return eval.Scores{}, false, err
	}
	ds, err := run.LoadDataset(cfg)
	if err != nil {
		return eval.Scores{}, false, err
	}
	if cfg, err = cfg.Resolve(ds); err != nil {
		return eval.Scores{}, false, err
	}
	differs := false
	if asRun {
		loaded := ds
		ds = run.UseFeatures(ds, cfg)
		if differs = ds != loaded; !differs {
			return eval.Scores{}, false, nil
		}
	}
	// As the run would: --spill auto spills where its plan does, and a big
	// graph's collector runs at the lower GC percentage (at 10⁸ nodes the
	// default's heap goal reached 20 GB while the graph was being split).
	plan := run.PlanMemory(cfg, ds)
	if cfg.Spill == run.SpillAuto {
		cfg.Spill = plan.Spill
	}
	if plan.BigRun {
		defer debug.SetGCPercent(debug.SetGCPercent(memplan.BigRunGCPercent))
	}
	// The input rows are all it scores: no skip block (at 10⁷ nodes the
	// standardised block and the cone are 5 GB); the draws are unchanged.
	cfg.PositionSkip, cfg.SkipPolar, cfg.SkipPrincipal = false, features.SkipPolarOff, false
	p, err := run.Prepare(ds, cfg)
	if err != nil {
		return eval.Scores{}, false, err
	}
	var e eval.Evaluator
	if x := p.Input.X; !p.Exact() {
		// The sampled pairs read two rows each: computed as they are needed,
		// no N × d copy (5 GB at 10⁷ nodes × 64 columns, 51 GB at 10⁸).
		var s eval.Scores
		score := func(dot func(i, j int) float64) { s, _ = e.SampledMetricsOf(dot, p.Splits, p.Union, p.TauSample) }
		if x.ViewInOrder {
			// Hop counts in a spill file: two scattered reads a pair would
			// be a disk seek each (8·10⁷ pairs at 10⁸ nodes); the rows
			// stream in order instead, a block of them held at a time.
			eval.BlockScores(inputUnitRows(x), x.N, x.DenseDim, inputCosine(x), score, InputBlockBytes)
		} else {
			score(inputCosine(x))
		}
		return s, differs, nil
	}
	z, d := inputRows(p)
	s, _ := e.GraphMetrics(z, d, p.Splits, p.Union)
	return s, differs, nil
}

// identityNorm returns the squared norm a one-hot identity adds to row r
// of x (nil when x has none).
func identityNorm(x *engine.Features) func(r int) float64 {
	if x.Sparse == nil {
		return nil
	}
	return func(r int) float64 {
		var sq float64
		for k := x.Sparse.RowPtr[r]; k < x.Sparse.RowPtr[r+1]; k++ {
			sq += x.Sparse.Val[k] * x.Sparse.Val[k]
		}
		return sq
	}
}

// InputBlockBytes is how much of the unit input rows the reference holds
// at a time when it streams them (eval.BlockScores): at 10⁸ nodes × 64
// columns, 8·10⁶ rows, the hop-count file read about 6 times over.
var InputBlockBytes = 4 << 30

// inputUnit returns a function writing row r of inputRows' matrix into z
// (d values): the row read, then scaled by its inverse norm, the one-hot
// identity's part included. One goroutine.
func inputUnit(x *engine.Features) func(r int, z []float64) {
	d, read, extra := x.DenseDim, x.Rows(), identityNorm(x)
	return func(r int, z []float64) {
		read(r, z[:d])
		var sq float64
		if extra != nil {
			sq = extra(r)
		}
		inv := eval.InvNorm(z[:d], sq)
		for k := range z[:d] {
			z[k] *= inv
		}
	}
}

// inputCosine is the dot product of inputRows' rows i and j, each row read
// and scaled as it is needed: the same products in the same order, so the
// same value bit for bit, in O(d) memory. The row of the previous call's i
// is kept (the τ sample's pairs come source by source). One goroutine.
func inputCosine(x *engine.Features) func(i, j int) float64 {
	d, unit := x.DenseDim, inputUnit(x)
	a, b, last := make([]float64, d), make([]float64, d), -1
	return func(i, j int) float64 {
		if i != last {
			unit(i, a)
			last = i
		}
		unit(j, b)
		return engine.Dot64(a, b)
	}
}

// inputUnitRows reads rows lo … hi−1 of inputRows' matrix into buf, in
// order (eval.BlockScores' reader).
func inputUnitRows(x *engine.Features) func(lo, hi int, buf []float64) []float64 {
	d, unit := x.DenseDim, inputUnit(x)
	return func(lo, hi int, buf []float64) []float64 {
		buf = buf[:(hi-lo)*d]
		for r := lo; r < hi; r++ {
			unit(r, buf[(r-lo)*d:(r-lo+1)*d])
		}
		return buf
	}
}

// inputRows returns rows z_i = x_i^dense / ‖x_i‖ whose dot products are the
// cosines of the complete input rows for i ≠ j: a one-hot identity adds 1
// to ‖x_i‖² and nothing to ⟨x_i, x_j⟩, so it need not be materialised
// (N × N at 10⁵ nodes). All-zero rows stay zero.
func inputRows(p *run.Prepared) ([]float64, int) {
	x := p.Input.X
	d := x.DenseDim
	z, read := make([]float64, x.N*d), x.Rows()
	for r := range x.N {
		read(r, z[r*d:(r+1)*d]) // float32 values when the run is float32 (what its first layer reads)
	}
	inv := eval.InvNorms(z, x.N, d, identityNorm(x))
	for i := 0; i < x.N; i++ {
		for k := range d {
			z[i*d+k] *= inv[i]
		}
	}
	return z, d
}

// InputRow is a reference row: a positional input's own scores over seeds.
type InputRow struct {
	Position string `json:"position"`
	// Features is empty for the input as loaded (a featureless graph's
	// one-hot identity beside the position); "constant" for the input a
	// run of the large defaults reads instead from 50,000 nodes, the row
	// RunInputReference scores, kept beside the first.
	Features string     `json:"features,omitempty"`
	Runs     int        `json:"runs"`
	AUCMean  run.Num    `json:"auc_mean"`
	AUCStd   run.Num    `json:"auc_std"`
	TauMean  run.Num    `json:"tau_mean"`
	TauStd   run.Num    `json:"tau_std"`
	TauCI    [2]run.Num `json:"tau_ci95"`
	// TauBySeed is τ for seeds 1, 2, …: what a paired comparison with the
	// trained rows of the same seeds needs.
	TauBySeed []run.Num `json:"tau_by_seed"`
}

// inputReferences scores every position of the grid on seeds 1..repeats:
// the input as loaded, and where the run reads another (RunInputReference
// differs: a constant column instead of the one-hot identity), that one too
// in a second row.
func (cc CompareConfig) inputReferences() ([]InputRow, []report.Row, error) {
	var rows []InputRow
	var trows []report.Row
	for _, pos := range cc.positions() {
		for _, asRun := range []bool{false, true} {
			var auc, tau []float64
			differs := false
			for seed := uint64(1); seed <= uint64(max(1, cc.Repeats)); seed++ {
				cfg := cc.Base
				cfg.Position, cfg.Seed, cfg.Model = pos, seed, cc.Models[0]
				s, d, err := inputReference(cfg, asRun)
				if err != nil {
					return nil, nil, fmt.Errorf("reference row for input %s: %w", pos.String(), err)
				}
				if differs = d; asRun && !differs { // the same input as the first row's
					break
				}
				auc, tau = append(auc, s.TestAUC), append(tau, s.Tau)
			}
			if asRun && !differs {
				continue
			}
			a, t := eval.Summarise(auc), eval.Summarise(tau)
			var bySeed []run.Num
			for _, x := range tau {
				bySeed = append(bySeed, run.Num(x))
			}
			row := InputRow{Position: pos.String(), Runs: len(tau), AUCMean: run.Num(a.Mean), AUCStd: run.Num(a.Std),
				TauMean: run.Num(t.Mean), TauStd: run.Num(t.Std), TauCI: ci(t), TauBySeed: bySeed}
			variant := pos.String()
			if asRun {
				row.Features, variant = data.FeaturesConstant, pos.String()+" as run (constant feature)"
			}
			rows = append(rows, row)
			nan := eval.Summarise(nil)
			trows = append(trows, report.Row{Model: "(input)", Variant: variant, Runs: len(tau), AUC: a, Tau: t, FinalAUC: a, FinalTau: t, FinalP10: nan, FinalAP: nan})
		}
	}
	return rows, trows, nil
}

package grid

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// TestInputCentrality pins why a unit-length embedding cannot copy the
// (input) reference row on a small-world caveman graph, and what
// features.Polar gives back (issue 25; the 10⁵-node figures are in
// docs/results.md). Untrained, on caveman:1000x20 with landmark:64:
//   - the reference's τ comes from the one-hot identity in its rows: it
//     adds 1 to every norm and nothing to any dot product, so cosines rank
//     pairs of central nodes (near many landmarks) first. The same rows
//     with a 32-dim random unit part in place of the identity lose it;
//   - the standardised landmark rows (the skip's --skip-standardise block)
//     keep the local position, not the centrality;
//   - the cone [1 | g·ŝ] (--skip-polar) keeps both, and no trained weight
//     is needed to see it.
func TestInputCentrality(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20,000-node graph")
	}
	cfg := run.Default()
	cfg.Variant, cfg.Dataset, cfg.PositionSkip = run.Hash, "caveman:1000x20", true
	cfg.Position, _ = features.ParsePosition("landmark:64")
	tau := func(cfg run.Config, rows func(p *run.Prepared) ([]float64, int)) float64 {
		t.Helper()
		p, _ := prepareFor(t, cfg)
		z, d := rows(p)
		var e eval.Evaluator
		var s eval.Scores
		if p.Exact() {
			s, _ = e.GraphMetrics(z, d, p.Splits, p.Union)
		} else {
			s, _ = e.SampledMetrics(z, d, p.Splits, p.Union, p.TauSample)
		}
		return s.Tau
	}
	unit := func(v []float64, d int) []float64 {
		out := make([]float64, len(v))
		for r := 0; r < len(v)/d; r++ {
			var sq float64
			for _, x := range v[r*d : (r+1)*d] {
				sq += x * x
			}
			if sq > 0 {
				for c := 0; c < d; c++ {
					out[r*d+c] = v[r*d+c] / math.Sqrt(sq)
				}
			}
		}
		return out
	}
	skip := func(p *run.Prepared) ([]float64, int) {
		return unit(p.Input.Skip.DenseFloat64(), p.Input.Skip.DenseDim), p.Input.Skip.DenseDim
	}
	ref := tau(cfg, inputRows)
	private := tau(cfg, func(p *run.Prepared) ([]float64, int) { // the landmark columns, then a random unit vector per node
		x, l, k := p.Input.X, p.Input.X.DenseDim-p.EncodingCol, 32
		rng := rand.New(rand.NewPCG(1, 2))
		v, xd := make([]float64, x.N*(l+k)), x.DenseFloat64()
		for r := 0; r < x.N; r++ {
			copy(v[r*(l+k):], xd[r*x.DenseDim+p.EncodingCol:(r+1)*x.DenseDim])
			u := v[r*(l+k)+l : (r+1)*(l+k)]
			for c := range u {
				u[c] = rng.NormFloat64()
			}
			copy(u, unit(u, k))
		}
		return unit(v, l+k), l + k
	})
	std := cfg
	std.SkipStandardise = true
	stdTau := tau(std, skip)
	polar := cfg
	polar.SkipPolar = features.SkipPolarOn
	polarTau := tau(polar, skip)
	polar.SkipPolar = features.SkipPolarAuto
	var choice *run.SkipChoice
	tau(polar, func(p *run.Prepared) ([]float64, int) { choice = p.SkipChoice; return skip(p) })
	t.Logf("τ: reference %.3f, identity → 32 random dims %.3f, standardised %.3f, polar %.3f; auto: %+v", ref, private, stdTau, polarTau, choice)
	if !(private < ref-0.1) {
		t.Errorf("32 random dims in place of the identity keep τ %.3f of the reference's %.3f: the identity is not what carries it", private, ref)
	}
	if choice == nil || choice.Block != "polar" {
		t.Errorf("--skip-polar auto chose %+v, not the cone", choice)
	}
	if !(polarTau > stdTau+0.1) {
		t.Errorf("the polar block's τ %.3f is not above the standardised block's %.3f", polarTau, stdTau)
	}
}

// prepareFor loads, resolves and prepares cfg's run, failing t on error.
func prepareFor(t *testing.T, cfg run.Config) (*run.Prepared, run.Config) {
	t.Helper()
	ds, err := run.LoadDataset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = cfg.Resolve(ds); err != nil {
		t.Fatal(err)
	}
	p, err := run.Prepare(ds, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p, cfg
}

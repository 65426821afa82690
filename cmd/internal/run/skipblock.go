package run

import (
	"fmt"
	"math"
	"slices"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// The --skip-polar settings (Config.SkipPolar).
const (
	SkipPolarOff  = ""     // the skip block is the positional columns (standardised with SkipStandardise)
	SkipPolarOn   = "on"   // features.Polar's cone of the landmark columns
	SkipPolarAuto = "auto" // whichever of the two the validation pairs rank better, untrained
)

// ParseSkipPolar reads --skip-polar.
func ParseSkipPolar(s string) (string, error) {
	switch s {
	case "off", "false", "":
		return SkipPolarOff, nil
	case SkipPolarOn, "true":
		return SkipPolarOn, nil
	case SkipPolarAuto:
		return SkipPolarAuto, nil
	}
	return "", fmt.Errorf("unknown --skip-polar %q (valid: off, on, auto)", s)
}

// SkipChoice is what --skip-polar auto chose, and why: the τ over the
// validation pairs (valSample, disjoint from the test τ pairs) of the
// cosines of each candidate block's own rows, before any training.
type SkipChoice struct {
	Block              string  `json:"block"` // "polar" or "standardised"
	ValTauPolar        float64 `json:"val_tau_polar"`
	ValTauStandardised float64 `json:"val_tau_standardised"`
}

// skipBlock builds the skip path's input from the k positional columns of
// x that start at p.EncodingCol: the columns as they are, standardised, or
// their polar cone. With SkipPolarAuto it returns the standardised block
// and the cone; chooseSkip picks one once the validation pairs exist.
func (p *Prepared) skipBlock(cfg Config, x *engine.Features, k int) (*engine.Features, *engine.Features) {
	sk := &engine.Features{N: x.N, DenseDim: k, Dense: make([]float64, x.N*k)}
	for r := 0; r < x.N; r++ {
		copy(sk.Dense[r*k:(r+1)*k], x.Dense[r*x.DenseDim+p.EncodingCol:])
	}
	var polar *engine.Features
	if cfg.SkipPolar != SkipPolarOff {
		u := p.Union
		polar = &engine.Features{N: x.N, DenseDim: k + 1, Dense: features.Polar(sk.Dense, x.N, k, append(slices.Clone(u.Offsets), u.N))}
	}
	switch {
	case cfg.SkipPolar == SkipPolarOn:
		return polar, nil
	case cfg.SkipStandardise || cfg.SkipPolar == SkipPolarAuto:
		features.Standardise(sk.Dense, x.N, k)
	}
	return sk, polar
}

// chooseSkip keeps, of the standardised block std and the cone polar, the
// one whose rows' cosines have the higher τ over the validation pairs
// (the cone on a tie), into p.Input.Skip and p.SkipChoice.
func (p *Prepared) chooseSkip(cfg Config, std, polar *engine.Features) {
	v := newValSample(p, cfg)
	p.val = v
	var e eval.Evaluator
	tau := func(f *engine.Features) float64 {
		return e.SampleTauOf(cosine(f.Dense, f.N, f.DenseDim), &v.pairs)
	}
	c := &SkipChoice{Block: "polar", ValTauPolar: tau(polar), ValTauStandardised: tau(std)}
	p.Input.Skip = polar
	if c.ValTauStandardised > c.ValTauPolar || math.IsNaN(c.ValTauPolar) {
		c.Block, p.Input.Skip = "standardised", std
	}
	p.SkipChoice = c
}

// cosine returns the cosine of rows i and j of the n × d matrix v (0
// when either row is zero), from row norms computed once: no unit copy of
// v (0.5 GB at 10⁶ nodes × 64 columns).
func cosine(v []float64, n, d int) func(i, j int) float64 {
	inv := make([]float64, n)
	for r := range n {
		var sq float64
		for _, x := range v[r*d : (r+1)*d] {
			sq += x * x
		}
		if sq > 0 {
			inv[r] = 1 / math.Sqrt(sq)
		}
	}
	return func(i, j int) float64 {
		var s float64
		a, b := v[i*d:(i+1)*d], v[j*d:(j+1)*d]
		for k := range a {
			s += a[k] * b[k]
		}
		return s * inv[i] * inv[j]
	}
}

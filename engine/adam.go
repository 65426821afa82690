package engine

import (
	"fmt"
	"math"
	"slices"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Adam is the Adam optimiser with coupled L2 weight decay, exactly as
// PyTorch's torch.optim.Adam(weight_decay=wd): g ← g + wd·w;
// m ← β₁m + (1−β₁)g; v ← β₂v + (1−β₂)g²; w ← w − lr·m̂/(√v̂ + ε) with
// m̂ = m/(1−β₁ᵗ), v̂ = v/(1−β₂ᵗ). Moments are kept in the parameters' dtype
// and are exported by State, so a checkpoint resumes bit for bit (gorgonia's
// AdamSolver keeps its moments private).
type Adam struct {
	LR, Beta1, Beta2, Eps, WeightDecay float64
	T                                  int             // steps taken
	M, V                               []*tensor.Dense // per parameter, in Step's order
}

// NewAdam returns Adam with PyTorch's defaults β = (0.9, 0.999), ε = 1e-8.
func NewAdam(lr, weightDecay float64) *Adam {
	return &Adam{LR: lr, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8, WeightDecay: weightDecay}
}

// Step updates every parameter node in place from the value of its gradient
// node (grads[i] = ∂loss/∂params[i], as G.Grad returns them) and leaves the
// gradients as they are. params must be passed in the same order on every
// call. A parameter left with a NaN or ±Inf (an overflowing update) is
// reported as a *DivergedError naming the first one, after every parameter
// is updated. Large parameters are updated in parallel row ranges (each
// value by the same arithmetic: bit-identical to the serial loop).
func (a *Adam) Step(params, grads G.Nodes) error {
	if len(grads) != len(params) {
		return fmt.Errorf("engine: Adam: %d parameters, %d gradients", len(params), len(grads))
	}
	if a.M == nil {
		for _, p := range params {
			w := p.Value().(*tensor.Dense)
			a.M = append(a.M, tensor.New(tensor.WithShape(w.Shape()...), tensor.Of(w.Dtype())))
			a.V = append(a.V, tensor.New(tensor.WithShape(w.Shape()...), tensor.Of(w.Dtype())))
		}
	}
	if len(a.M) != len(params) {
		return fmt.Errorf("engine: Adam has state for %d parameters, got %d", len(a.M), len(params))
	}
	a.T++
	c1 := 1 - math.Pow(a.Beta1, float64(a.T))
	c2 := 1 - math.Pow(a.Beta2, float64(a.T))
	var diverged *DivergedError
	for i, p := range params {
		g, ok := grads[i].Value().(*tensor.Dense)
		w := p.Value().(*tensor.Dense)
		if !ok || g.Dtype() != w.Dtype() || g.Shape().TotalSize() != w.Shape().TotalSize() {
			return fmt.Errorf("engine: Adam: the gradient of %s is %v, want a %v tensor of %v", p.Name(), grads[i].Value(), w.Dtype(), w.Shape())
		}
		var bad float64
		var finite bool
		switch w.Dtype() {
		case tensor.Float64:
			bad, finite = adamParam(a, vals[float64](w), vals[float64](g), vals[float64](a.M[i]), vals[float64](a.V[i]), c1, c2)
		case tensor.Float32:
			bad, finite = adamParam(a, vals[float32](w), vals[float32](g), vals[float32](a.M[i]), vals[float32](a.V[i]), c1, c2)
		default:
			return fmt.Errorf("engine: Adam: %s has dtype %v", p.Name(), w.Dtype())
		}
		if !finite && diverged == nil {
			diverged = &DivergedError{Term: "parameter " + p.Name(), Value: bad}
		}
	}
	if diverged != nil {
		return diverged
	}
	return nil
}

// adamParam updates one parameter, in rowChunks ranges when it is large,
// and returns its first non-finite value after the update (and false), or
// 0 and true.
func adamParam[T Float](a *Adam, w, g, m, v []T, c1, c2 float64) (float64, bool) {
	if len(w) < minParallelWork {
		k := adamStep(a, w, g, m, v, c1, c2)
		if k < 0 {
			return 0, true
		}
		return float64(w[k]), false
	}
	b := evenBounds(len(w))
	var first [rowChunks]int
	runRanges(b, func(lo, hi int) {
		c := slices.Index(b[:], lo) // the chunk lo starts (ranges are non-empty here)
		first[c] = adamStep(a, w[lo:hi], g[lo:hi], m[lo:hi], v[lo:hi], c1, c2)
		if first[c] >= 0 {
			first[c] += lo
		}
	})
	for c, k := range first {
		if k >= 0 && b[c] < b[c+1] {
			return float64(w[k]), false
		}
	}
	return 0, true
}

// adamStep is Adam's update of w from g, m and v (the same length); it
// returns the index of the first value of w left non-finite, or −1.
func adamStep[T Float](a *Adam, w, g, m, v []T, c1, c2 float64) int {
	lr, b1, b2, eps, wd := T(a.LR), T(a.Beta1), T(a.Beta2), T(a.Eps), T(a.WeightDecay)
	ic1, ic2 := T(1/c1), T(1/c2)
	first := -1
	for k := range w {
		gk := g[k] + wd*w[k]
		m[k] = b1*m[k] + (1-b1)*gk
		v[k] = b2*v[k] + (1-b2)*gk*gk
		mh, vh := m[k]*ic1, v[k]*ic2
		w[k] -= lr * mh / (T(math.Sqrt(float64(vh))) + eps)
		if x := w[k]; x-x != 0 && first < 0 { // NaN − NaN and ∞ − ∞ are NaN ≠ 0
			first = k
		}
	}
	return first
}

package engine

import (
	"fmt"
	"math"

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
// call.
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
	for i, p := range params {
		g, ok := grads[i].Value().(*tensor.Dense)
		w := p.Value().(*tensor.Dense)
		if !ok || g.Dtype() != w.Dtype() || g.Shape().TotalSize() != w.Shape().TotalSize() {
			return fmt.Errorf("engine: Adam: the gradient of %s is %v, want a %v tensor of %v", p.Name(), grads[i].Value(), w.Dtype(), w.Shape())
		}
		switch w.Dtype() {
		case tensor.Float64:
			wd := vals[float64](w)
			adamStep(a, wd, vals[float64](g), vals[float64](a.M[i]), vals[float64](a.V[i]), c1, c2)
		case tensor.Float32:
			wd := vals[float32](w)
			adamStep(a, wd, vals[float32](g), vals[float32](a.M[i]), vals[float32](a.V[i]), c1, c2)
		default:
			return fmt.Errorf("engine: Adam: %s has dtype %v", p.Name(), w.Dtype())
		}
	}
	return nil
}

func adamStep[T Float](a *Adam, w, g, m, v []T, c1, c2 float64) {
	lr, b1, b2, eps, wd := T(a.LR), T(a.Beta1), T(a.Beta2), T(a.Eps), T(a.WeightDecay)
	ic1, ic2 := T(1/c1), T(1/c2)
	for k := range w {
		gk := g[k] + wd*w[k]
		m[k] = b1*m[k] + (1-b1)*gk
		v[k] = b2*v[k] + (1-b2)*gk*gk
		mh, vh := m[k]*ic1, v[k]*ic2
		w[k] -= lr * mh / (T(math.Sqrt(float64(vh))) + eps)
	}
}

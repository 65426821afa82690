// Package enginetest holds test helpers for code built on engine: the
// finite-difference gradient check every op, layer and loss is tested with,
// and fixed pseudo-random test values. It is imported by tests only.
package enginetest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/ignn/ignn/engine"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// CheckGradient compares gorgonia's symbolic gradient with central finite
// differences in float64. build creates, in the given float64 builder, an
// output node and the nodes to differentiate (parameters or inputs with
// values bound). The scalar checked is L = Σ out ⊙ R for a fixed random R, so
// every output entry is exercised with a distinct weight.
//
// An entry passes when |analytic − numeric| ≤ tol·max(1, |numeric|). The
// first failing entry is returned as an error naming the node and position.
func CheckGradient(build func(b *engine.Builder) (out *G.Node, wrt []*G.Node), h, tol float64) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("engine: gradient check: %v", r)
		}
	}()
	b := engine.NewBuilder(engine.NewParamStore(tensor.Float64, engine.Stream(7, "gradcheck.init")), true)
	out, wrt := build(b)
	rng := engine.Stream(7, "gradcheck.R")
	r := make([]float64, out.Shape().TotalSize())
	for i := range r {
		r[i] = rng.Float64()*2 - 1
	}
	var loss *G.Node
	if out.IsScalar() {
		loss = out
	} else {
		rn := b.Constant("gradcheck.R", r, out.Shape()...)
		loss = G.Must(G.Sum(G.Must(G.HadamardProd(out, rn))))
	}
	if _, err := G.Grad(loss, wrt...); err != nil {
		return err
	}
	var lv G.Value
	G.Read(loss, &lv)
	vm := G.NewTapeMachine(b.G, G.BindDualValues(wrt...))
	defer engine.CloseMachine(vm)
	maskRNG := engine.Stream(7, "gradcheck.dropout")
	run := func() (float64, error) {
		// The same masks on every run: reseed the dropout stream.
		*maskRNG = *engine.Stream(7, "gradcheck.dropout")
		if err := b.FillMasks(maskRNG); err != nil {
			return 0, err
		}
		defer vm.Reset()
		if err := vm.RunAll(); err != nil {
			return 0, err
		}
		return engine.ScalarValue(lv), nil
	}
	if _, err := run(); err != nil {
		return err
	}
	analytic := make([][]float64, len(wrt))
	for i, n := range wrt {
		g, err := n.Grad()
		if err != nil {
			return fmt.Errorf("engine: no gradient for %s: %w", n.Name(), err)
		}
		analytic[i] = engine.ToFloat64(g.(*tensor.Dense))
	}
	for i, n := range wrt {
		x := n.Value().(*tensor.Dense).Data().([]float64)
		for k := range x {
			orig := x[k]
			x[k] = orig + h
			lp, err := run()
			if err != nil {
				return err
			}
			x[k] = orig - h
			lm, err := run()
			if err != nil {
				return err
			}
			x[k] = orig
			num := (lp - lm) / (2 * h)
			if diff := math.Abs(num - analytic[i][k]); diff > tol*math.Max(1, math.Abs(num)) || math.IsNaN(diff) {
				return fmt.Errorf("engine: gradient of %s[%d]: analytic %.10g, numeric %.10g", n.Name(), k, analytic[i][k], num)
			}
		}
	}
	return nil
}

// RandomValues returns n values uniform in [-1, 1) from a fixed stream
// (test inputs).
func RandomValues(seed uint64, n int) []float64 {
	rng := rand.New(rand.NewPCG(seed, 99))
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.Float64()*2 - 1
	}
	return v
}

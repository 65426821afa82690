package engine

import (
	"math"
	"runtime"
	"testing"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestAnchorScatterDeterministic: AnchorMessage's gradient scatters (modes
// 1 and 2) and its per-slot modes are bit-identical under GOMAXPROCS 1 and
// 2 on a slot count large enough to split, and the split scatters equal the
// serial slot-order sum within rounding.
func TestAnchorScatterDeterministic(t *testing.T) {
	const n, slots, d = 500, 3000, 32
	rng := Stream(3, "anchor-test")
	arg, self := make([]int, slots), make([]int, slots)
	for s := range arg {
		arg[s], self[s] = rng.IntN(n), s%n
	}
	mk := func(seed uint64, r, c int) *tensor.Dense {
		return tensor.New(tensor.WithShape(r, c), tensor.WithBacking(testValues(seed, r*c)))
	}
	ints := func(v []int) *tensor.Dense { return tensor.New(tensor.WithShape(len(v)), tensor.WithBacking(v)) }
	g, f, hm := mk(1, slots, d), mk(2, slots, 1), mk(4, n, d)
	inputs := map[int][]G.Value{1: {g, f, ints(arg)}, 2: {g, ints(self)}, 3: {g, hm, ints(arg)}}
	for mode, in := range inputs {
		var outs [2][]float64
		for q, procs := range []int{1, 2} {
			old := runtime.GOMAXPROCS(procs)
			outs[q] = append([]float64(nil), anchorDo[float64](&anchorOp{mode: mode, n: n}, in).Data().([]float64)...)
			runtime.GOMAXPROCS(old)
		}
		for i := range outs[0] {
			if outs[0][i] != outs[1][i] {
				t.Fatalf("mode %d: output %d differs across GOMAXPROCS", mode, i)
			}
		}
		if mode == 3 {
			continue
		}
		want := make([]float64, n*d)
		gv, fv := g.Data().([]float64), f.Data().([]float64)
		for s := 0; s < slots; s++ {
			row, w := self[s], 1.0
			if mode == 1 {
				row, w = arg[s], fv[s]
			}
			for k := 0; k < d; k++ {
				want[row*d+k] += w * gv[s*d+k]
			}
		}
		for i := range want {
			if math.Abs(outs[0][i]-want[i]) > 1e-12 {
				t.Fatalf("mode %d: dH[%d] = %v, serial %v", mode, i, outs[0][i], want[i])
			}
		}
	}
}

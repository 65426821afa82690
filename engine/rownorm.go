package engine

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// normEps is the floor on a row norm (as torch.nn.functional.normalize).
const normEps = 1e-12

// RowNormalize returns x with every row divided by max(‖row‖₂, 1e-12), the
// L2-normalised embeddings of the paper. Gradient per row: (g − ⟨g,y⟩y)/‖x‖
// (g/1e-12 for rows below the floor). O(N·D).
func RowNormalize(x *G.Node) *G.Node {
	if x.Dims() != 2 {
		panic(fmt.Sprintf("engine: RowNormalize: input has shape %v, want a matrix", x.Shape()))
	}
	return G.Must(G.ApplyOp(&rowNormOp{}, x))
}

type rowNormOp struct {
	opBase
	grad bool
}

func (op *rowNormOp) Arity() int {
	if op.grad {
		return 2
	}
	return 1
}
func (op *rowNormOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	if op.grad {
		return hm.NewFnType(tt(2, a), tt(2, a), tt(2, a))
	}
	return hm.NewFnType(tt(2, a), tt(2, a))
}
func (*rowNormOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *rowNormOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	x := dense(op, in[0])
	n, d := x.Shape()[0], x.Shape()[1]
	out := op.outputRaw(x.Dtype(), n, d) // every element written
	switch x.Dtype() {
	case tensor.Float64:
		xs := vals[float64](x)
		var g []float64
		if op.grad {
			g = vals[float64](dense(op, in[1]))
		}
		rowNorm(xs, g, d, vals[float64](out))
	case tensor.Float32:
		xs := vals[float32](x)
		var g []float32
		if op.grad {
			g = vals[float32](dense(op, in[1]))
		}
		rowNorm(xs, g, d, vals[float32](out))
	default:
		return nil, fmt.Errorf("engine: RowNormalize: unsupported dtype %v", x.Dtype())
	}
	return out, nil
}

// rowNorm writes y = x/‖x‖ per row, or, when g is non-nil, the gradient
// (g − ⟨g,y⟩y)/‖x‖. Norms accumulate in float64.
func rowNorm[T Float](x, g []T, d int, out []T) {
	n := len(x) / d
	if len(x) < minParallelWork { // no closure: it would be allocated every call
		rowNormRows(x, g, d, out, 0, n)
		return
	}
	parallelRanges(evenBounds(n), len(x), func(lo, hi int) { rowNormRows(x, g, d, out, lo, hi) })
}

func rowNormRows[T Float](x, g []T, d int, out []T, lo, hi int) {
	for r := lo; r < hi; r++ {
		xr := x[r*d : (r+1)*d]
		var ss float64
		for _, v := range xr {
			ss += float64(v) * float64(v)
		}
		nrm := math.Sqrt(ss)
		or := out[r*d : (r+1)*d]
		if nrm < normEps {
			inv := T(1 / normEps)
			src := xr
			if g != nil {
				src = g[r*d : (r+1)*d]
			}
			for k := range or {
				or[k] = src[k] * inv
			}
			continue
		}
		inv := 1 / nrm
		if g == nil {
			for k := range or {
				or[k] = T(float64(xr[k]) * inv)
			}
			continue
		}
		gr := g[r*d : (r+1)*d]
		var gy float64
		for k := range gr {
			gy += float64(gr[k]) * float64(xr[k]) * inv
		}
		for k := range or {
			or[k] = T((float64(gr[k]) - gy*float64(xr[k])*inv) * inv)
		}
	}
}

func (op *rowNormOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.%s{eps=%g}", op.String(), normEps)
}
func (op *rowNormOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *rowNormOp) String() string {
	if op.grad {
		return "RowNormalizeGrad"
	}
	return "RowNormalize"
}
func (*rowNormOp) DiffWRT(int) []bool { return []bool{true} }
func (*rowNormOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dx, err := G.ApplyOp(&rowNormOp{grad: true}, in[0], grad)
	return G.Nodes{dx}, err
}

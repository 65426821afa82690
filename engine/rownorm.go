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

// rowNormRows normalises rows lo…hi−1 (or their gradient). Each row's
// sums (‖x‖², and ⟨g, x⟩ for the gradient) run in float64 in column order;
// four rows' sums run side by side, so the four chains of dependent adds
// overlap instead of waiting on one another — the same operations in the
// same order for each row, so the same bits.
func rowNormRows[T Float](x, g []T, d int, out []T, lo, hi int) {
	r := lo
	for ; r+4 <= hi; r += 4 {
		x0, x1, x2, x3 := x[r*d:(r+1)*d], x[(r+1)*d:(r+2)*d], x[(r+2)*d:(r+3)*d], x[(r+3)*d:(r+4)*d]
		x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
		var s0, s1, s2, s3 float64
		for k, v := range x0 {
			a, b, c, e := float64(v), float64(x1[k]), float64(x2[k]), float64(x3[k])
			s0 += a * a
			s1 += b * b
			s2 += c * c
			s3 += e * e
		}
		n0, n1, n2, n3 := math.Sqrt(s0), math.Sqrt(s1), math.Sqrt(s2), math.Sqrt(s3)
		i0, i1, i2, i3 := 1/n0, 1/n1, 1/n2, 1/n3
		var gy [4]float64
		if g != nil {
			g0, g1, g2, g3 := g[r*d:(r+1)*d], g[(r+1)*d:(r+2)*d], g[(r+2)*d:(r+3)*d], g[(r+3)*d:(r+4)*d]
			g1, g2, g3 = g1[:len(g0)], g2[:len(g0)], g3[:len(g0)]
			var y0, y1, y2, y3 float64
			for k, v := range g0 {
				y0 += float64(v) * float64(x0[k]) * i0
				y1 += float64(g1[k]) * float64(x1[k]) * i1
				y2 += float64(g2[k]) * float64(x2[k]) * i2
				y3 += float64(g3[k]) * float64(x3[k]) * i3
			}
			gy = [4]float64{y0, y1, y2, y3}
		}
		for k, nrm := range [4]float64{n0, n1, n2, n3} {
			rowNormOut(x, g, d, out, r+k, nrm, gy[k])
		}
	}
	for ; r < hi; r++ {
		xr := x[r*d : (r+1)*d]
		var ss float64
		for _, v := range xr {
			ss += float64(v) * float64(v)
		}
		nrm := math.Sqrt(ss)
		var gy float64
		if g != nil && nrm >= normEps {
			inv := 1 / nrm
			gr := g[r*d : (r+1)*d]
			for k := range gr {
				gy += float64(gr[k]) * float64(xr[k]) * inv
			}
		}
		rowNormOut(x, g, d, out, r, nrm, gy)
	}
}

// rowNormOut writes row r of the output from its norm nrm and (for the
// gradient) gy = ⟨g, x⟩/‖x‖: x/‖x‖, or (g − gy·x/‖x‖)/‖x‖, or below the
// norm's floor the row (or its gradient) times 1/normEps.
func rowNormOut[T Float](x, g []T, d int, out []T, r int, nrm, gy float64) {
	xr, or := x[r*d:(r+1)*d], out[r*d:(r+1)*d]
	if nrm < normEps {
		inv := T(1 / normEps)
		src := xr
		if g != nil {
			src = g[r*d : (r+1)*d]
		}
		for k := range or {
			or[k] = src[k] * inv
		}
		return
	}
	inv := 1 / nrm
	if g == nil {
		for k := range or {
			or[k] = T(float64(xr[k]) * inv)
		}
		return
	}
	gr := g[r*d : (r+1)*d]
	for k := range or {
		or[k] = T((float64(gr[k]) - gy*float64(xr[k])*inv) * inv)
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

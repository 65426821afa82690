package engine

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// PairDot returns the vector s with s[p] = ⟨Z[I[p]], Z[J[p]]⟩ for an N×D
// matrix node Z and two int index vectors I, J of equal length P (input
// nodes, so pair sets can be rebound with Let every epoch). The indices are
// not differentiable; dZ is the scatter-add dZ[I[p]] += g[p]·Z[J[p]],
// dZ[J[p]] += g[p]·Z[I[p]]. Cost O(P·D) forward and backward, with no N×D
// intermediate per pair side (unlike two ByIndices gathers).
//
// Do panics (recovered into an error) if an index is outside [0, N).
func PairDot(z, i, j *G.Node) *G.Node {
	if z.Dims() != 2 {
		panic(fmt.Sprintf("engine: PairDot: Z has shape %v, want a matrix", z.Shape()))
	}
	if i.Shape().TotalSize() != j.Shape().TotalSize() {
		panic(fmt.Sprintf("engine: PairDot: I has %d pairs, J has %d", i.Shape().TotalSize(), j.Shape().TotalSize()))
	}
	return G.Must(G.ApplyOp(pairDotOp{}, z, i, j))
}

type pairDotOp struct{}

func (pairDotOp) Arity() int { return 3 }
func (pairDotOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), intVec, intVec, tt(1, a))
}
func (pairDotOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{in[1].(tensor.Shape).TotalSize()}, nil
}
func (pairDotOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense("PairDot", in[0])
	I, J := ints("PairDot", in[1]), ints("PairDot", in[2])
	n, d := z.Shape()[0], z.Shape()[1]
	checkIdx("PairDot", I, n)
	checkIdx("PairDot", J, n)
	out := newDense(z.Dtype(), len(I))
	switch zs := z.Data().(type) {
	case []float64:
		pairDot(zs, I, J, d, out.Data().([]float64))
	case []float32:
		pairDot(zs, I, J, d, out.Data().([]float32))
	default:
		return nil, fmt.Errorf("engine: PairDot: unsupported dtype %v", z.Dtype())
	}
	return out, nil
}

func checkIdx(op string, idx []int, n int) {
	for p, v := range idx {
		if v < 0 || v >= n {
			panic(fmt.Sprintf("engine: %s: index %d at position %d outside [0,%d)", op, v, p, n))
		}
	}
}

func pairDot[T Float](z []T, I, J []int, d int, out []T) {
	for p := range I {
		a, b := z[I[p]*d:(I[p]+1)*d], z[J[p]*d:(J[p]+1)*d]
		var s T
		for k := range a {
			s += a[k] * b[k]
		}
		out[p] = s
	}
}

func (pairDotOp) ReturnsPtr() bool      { return false }
func (pairDotOp) CallsExtern() bool     { return false }
func (pairDotOp) OverwritesInput() int  { return -1 }
func (pairDotOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "engine.PairDot") }
func (op pairDotOp) Hashcode() uint32   { return hashOf(op.WriteHash) }
func (pairDotOp) String() string        { return "PairDot" }
func (pairDotOp) DiffWRT(int) []bool    { return []bool{true, false, false} }
func (pairDotOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dz, err := G.ApplyOp(pairDotGradOp{}, in[0], in[1], in[2], grad)
	return G.Nodes{dz, nil, nil}, err
}

// pairDotGradOp computes dZ from (Z, I, J, g).
type pairDotGradOp struct{}

func (pairDotGradOp) Arity() int { return 4 }
func (pairDotGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), intVec, intVec, tt(1, a), tt(2, a))
}
func (pairDotGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (pairDotGradOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense("PairDotGrad", in[0])
	I, J := ints("PairDotGrad", in[1]), ints("PairDotGrad", in[2])
	g := dense("PairDotGrad", in[3])
	n, d := z.Shape()[0], z.Shape()[1]
	out := newDense(z.Dtype(), n, d)
	switch zs := z.Data().(type) {
	case []float64:
		pairDotGrad(zs, I, J, g.Data().([]float64), d, out.Data().([]float64))
	case []float32:
		pairDotGrad(zs, I, J, g.Data().([]float32), d, out.Data().([]float32))
	}
	return out, nil
}

func pairDotGrad[T Float](z []T, I, J []int, g []T, d int, dz []T) {
	for p := range I {
		gp := g[p]
		if gp == 0 {
			continue
		}
		i, j := I[p], J[p]
		a, b := z[i*d:(i+1)*d], z[j*d:(j+1)*d]
		da, db := dz[i*d:(i+1)*d], dz[j*d:(j+1)*d]
		for k := range a {
			da[k] += gp * b[k]
			db[k] += gp * a[k]
		}
	}
}

func (pairDotGradOp) ReturnsPtr() bool      { return false }
func (pairDotGradOp) CallsExtern() bool     { return false }
func (pairDotGradOp) OverwritesInput() int  { return -1 }
func (pairDotGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "engine.PairDotGrad") }
func (op pairDotGradOp) Hashcode() uint32   { return hashOf(op.WriteHash) }
func (pairDotGradOp) String() string        { return "PairDotGrad" }

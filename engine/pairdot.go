package engine

import (
	"fmt"
	"hash"
	"sync"

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
	return G.Must(G.ApplyOp(&pairDotOp{}, z, i, j))
}

type pairDotOp struct{ opBase }

func (*pairDotOp) Arity() int { return 3 }
func (*pairDotOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), intVec, intVec, tt(1, a))
}
func (*pairDotOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{in[1].(tensor.Shape).TotalSize()}, nil
}
func (op *pairDotOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense("PairDot", in[0])
	I, J := ints("PairDot", in[1]), ints("PairDot", in[2])
	n, d := z.Shape()[0], z.Shape()[1]
	checkIdx("PairDot", I, n)
	checkIdx("PairDot", J, n)
	out := op.output(z.Dtype(), len(I))
	switch zs := z.Data().(type) {
	case []float64:
		parallelPairs(len(I), d, func(lo, hi int) { pairDot(zs, I[lo:hi], J[lo:hi], d, out.Data().([]float64)[lo:hi]) })
	case []float32:
		parallelPairs(len(I), d, func(lo, hi int) { pairDot(zs, I[lo:hi], J[lo:hi], d, out.Data().([]float32)[lo:hi]) })
	default:
		return nil, fmt.Errorf("engine: PairDot: unsupported dtype %v", z.Dtype())
	}
	return out, nil
}

func checkIdx(op any, idx []int, n int) {
	for p, v := range idx {
		if v < 0 || v >= n {
			panic(fmt.Sprintf("engine: %v: index %d at position %d outside [0,%d)", op, v, p, n))
		}
	}
}

func pairDot[T Float](z []T, I, J []int, d int, out []T) {
	for p := range I {
		out[p] = dot4(z[I[p]*d:(I[p]+1)*d], z[J[p]*d:(J[p]+1)*d])
	}
}

func (*pairDotOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "engine.PairDot") }
func (op *pairDotOp) Hashcode() uint32   { return hashOf(op.WriteHash) }
func (*pairDotOp) String() string        { return "PairDot" }
func (*pairDotOp) DiffWRT(int) []bool    { return []bool{true, false, false} }
func (*pairDotOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	dz, err := G.ApplyOp(&pairDotGradOp{}, in[0], in[1], in[2], grad)
	return G.Nodes{dz, nil, nil}, err
}

// pairDotGradOp computes dZ from (Z, I, J, g).
type pairDotGradOp struct {
	opBase
	chunks [pairChunks - 1]opBase // the scatter-add buffers of chunks 1…3, reused
}

func (*pairDotGradOp) Arity() int { return 4 }
func (*pairDotGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(tt(2, a), intVec, intVec, tt(1, a), tt(2, a))
}
func (*pairDotGradOp) InferShape(in ...G.DimSizer) (tensor.Shape, error) {
	return in[0].(tensor.Shape).Clone(), nil
}
func (op *pairDotGradOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense("PairDotGrad", in[0])
	I, J := ints("PairDotGrad", in[1]), ints("PairDotGrad", in[2])
	g := dense("PairDotGrad", in[3])
	n, d := z.Shape()[0], z.Shape()[1]
	out := op.output(z.Dtype(), n, d)
	extra := func(c int) *tensor.Dense { return op.chunks[c-1].output(z.Dtype(), n, d) }
	switch zs := z.Data().(type) {
	case []float64:
		pairDotGradChunked(zs, I, J, g.Data().([]float64), d, out.Data().([]float64), func(c int) []float64 { return extra(c).Data().([]float64) })
	case []float32:
		pairDotGradChunked(zs, I, J, g.Data().([]float32), d, out.Data().([]float32), func(c int) []float32 { return extra(c).Data().([]float32) })
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
		b, da, db = b[:len(a)], da[:len(a)], db[:len(a)]
		k := 0
		for ; k+4 <= len(a); k += 4 {
			a0, a1, a2, a3 := a[k], a[k+1], a[k+2], a[k+3]
			b0, b1, b2, b3 := b[k], b[k+1], b[k+2], b[k+3]
			da[k] += gp * b0
			da[k+1] += gp * b1
			da[k+2] += gp * b2
			da[k+3] += gp * b3
			db[k] += gp * a0
			db[k+1] += gp * a1
			db[k+2] += gp * a2
			db[k+3] += gp * a3
		}
		for ; k < len(a); k++ {
			da[k] += gp * b[k]
			db[k] += gp * a[k]
		}
	}
}

func (*pairDotGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, "engine.PairDotGrad") }
func (op *pairDotGradOp) Hashcode() uint32   { return hashOf(op.WriteHash) }
func (*pairDotGradOp) String() string        { return "PairDotGrad" }

// pairChunks is the fixed number of pair ranges PairDot splits its work
// into. The split depends only on the pair count, never on the number of
// CPUs, so results are bit-identical whatever GOMAXPROCS is.
const pairChunks = 4

// minParallelWork is the P·D below which the ops stay single-threaded.
const minParallelWork = 1 << 16

func chunkBounds(p, c int) (lo, hi int) { return p * c / pairChunks, p * (c + 1) / pairChunks }

// parallelPairs runs f over the fixed pair chunks, concurrently when the
// work is large enough. f must write only its own range.
func parallelPairs(p, d int, f func(lo, hi int)) {
	if p*d < minParallelWork {
		f(0, p)
		return
	}
	var wg sync.WaitGroup
	for c := 0; c < pairChunks; c++ {
		lo, hi := chunkBounds(p, c)
		wg.Add(1)
		go func() { defer wg.Done(); f(lo, hi) }()
	}
	wg.Wait()
}

// pairDotGradChunked accumulates each chunk's scatter-add into its own
// buffer (chunk 0 into dz, chunk c > 0 into the zeroed buf(c)) and sums the
// buffers in chunk order (deterministic).
func pairDotGradChunked[T Float](z []T, I, J []int, g []T, d int, dz []T, buf func(c int) []T) {
	p := len(I)
	// Chunks 1…3 each need an N×D buffer: worth it only while the pairs
	// outnumber the rows (at 10⁶ nodes they would be 3 × 128 MB per op).
	if p*d < minParallelWork || p < 4*(len(dz)/max(1, d)) {
		pairDotGrad(z, I, J, g, d, dz)
		return
	}
	bufs := make([][]T, pairChunks)
	bufs[0] = dz
	var wg sync.WaitGroup
	for c := 0; c < pairChunks; c++ {
		if c > 0 {
			bufs[c] = buf(c)
		}
		lo, hi := chunkBounds(p, c)
		wg.Add(1)
		go func() { defer wg.Done(); pairDotGrad(z, I[lo:hi], J[lo:hi], g[lo:hi], d, bufs[c]) }()
	}
	wg.Wait()
	for c := 1; c < pairChunks; c++ {
		for k, v := range bufs[c] {
			dz[k] += v
		}
	}
}

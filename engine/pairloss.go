package engine

import (
	"fmt"
	"hash"
	"math"
	"sync/atomic"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// PairLossKind is the per-pair function f(s, v) of a PairLoss.
type PairLossKind int

const (
	// Logistic is the BCE on the logit s with label v: softplus(s) − v·s.
	Logistic PairLossKind = iota
	// Square is (v − s)².
	Square
)

func (k PairLossKind) String() string {
	if k == Logistic {
		return "logistic"
	}
	return "square"
}

// PairSet is the pairs a PairLoss reads at every run: pair p joins rows
// I[p] and J[p] with value V[p] and weight W[p]. Its owner refills it
// between runs (any length, the four slices equally long); the op checks it.
type PairSet struct {
	I, J []int
	V, W []float64
}

var pairLossIDs atomic.Uint64

// PairLoss returns the scalar Σ_p W[p]·f(s_p, V[p]) with s_p = ⟨Z[I[p]],
// Z[J[p]]⟩, for the pairs in ps at run time: the pair scores, the per-pair
// loss and the sum in one op (one tape instruction each way instead of a
// gather and five elementwise ops with their gradients; nothing P-long is
// bound as a graph input). Per-pair values and the sum are computed in
// float64 in pair order; the gradient dZ[I[p]] += g·W[p]·f'(s_p)·Z[J[p]]
// (and symmetrically) is PairDot's fixed-chunk scatter: bit-identical
// whatever GOMAXPROCS is. Cost O(P·D) each way.
func PairLoss(kind PairLossKind, z *G.Node, ps *PairSet) *G.Node {
	if z.Dims() != 2 {
		panic(fmt.Sprintf("engine: PairLoss: Z has shape %v, want a matrix", z.Shape()))
	}
	return G.Must(G.ApplyOp(&pairLossOp{kind: kind, ps: ps, id: pairLossIDs.Add(1), st: &pairLossState{}}, z))
}

type pairLossOp struct {
	opBase
	kind PairLossKind
	ps   *PairSet
	id   uint64
	lossShape
	st     *pairLossState
	chunks [pairChunks - 1]opBase // the gradient's scatter buffers of chunks 1…3
	sc     scalarOut              // the forward output
}

// pairLossState carries the forward pass's scores and per-pair derivative
// W[p]·f'(s_p) to the backward pass of the same run.
type pairLossState struct {
	s32, c32 []float32
	s64, c64 []float64
}

func (op *pairLossOp) check(n int) {
	ps := op.ps
	if len(ps.J) != len(ps.I) || len(ps.V) != len(ps.I) || len(ps.W) != len(ps.I) {
		panic(fmt.Sprintf("engine: %s: pair set has %d I, %d J, %d V, %d W", op, len(ps.I), len(ps.J), len(ps.V), len(ps.W)))
	}
	checkIdx(op, ps.I, n)
	checkIdx(op, ps.J, n)
}

func (op *pairLossOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense(op, in[0])
	n, d := z.Shape()[0], z.Shape()[1]
	if op.grad {
		g := scalar(in[1])
		out := op.output(z.Dtype(), n, d)
		switch z.Dtype() {
		case tensor.Float64:
			zs := vals[float64](z)
			pairLossBackward(op, zs, vals[float64](out), n, d, g, op.st.c64)
		case tensor.Float32:
			zs := vals[float32](z)
			pairLossBackward(op, zs, vals[float32](out), n, d, g, op.st.c32)
		default:
			return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, z.Dtype())
		}
		return out, nil
	}
	op.check(n)
	switch z.Dtype() {
	case tensor.Float64:
		zs := vals[float64](z)
		op.st.s64, op.st.c64 = grow(op.st.s64, len(op.ps.I)), grow(op.st.c64, len(op.ps.I))
		return op.sc.set64(pairLossForward(op, zs, d, op.st.s64, op.st.c64)), nil
	case tensor.Float32:
		zs := vals[float32](z)
		op.st.s32, op.st.c32 = grow(op.st.s32, len(op.ps.I)), grow(op.st.c32, len(op.ps.I))
		return op.sc.set32(float32(pairLossForward(op, zs, d, op.st.s32, op.st.c32))), nil
	}
	return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, z.Dtype())
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// pairLossForward scores every pair (fixed chunks), then adds W·f in pair
// order in float64 and keeps c[p] = W[p]·f'(s_p) for the gradient.
func pairLossForward[T Float](op *pairLossOp, z []T, d int, s, c []T) float64 {
	ps := op.ps
	parallelPairs(len(ps.I), d, func(lo, hi int) { pairDot(z, ps.I[lo:hi], ps.J[lo:hi], d, s[lo:hi]) })
	var total float64
	for p, sp := range s {
		w := ps.W[p]
		if w == 0 {
			c[p] = 0
			continue
		}
		x, v := float64(sp), ps.V[p]
		var f, df float64
		if op.kind == Logistic {
			// softplus(x), whose derivative is σ(x).
			f = Softplus(x) - v*x
			df = 1/(1+math.Exp(-x)) - v
		} else {
			r := v - x
			f, df = r*r, -2*r
		}
		total += w * f
		c[p] = T(w * df)
	}
	return total
}

// Softplus is log(1 + eˣ) = max(x, 0) + log1p(e^−|x|), stable for large
// |x|: the logistic BCE and the ranking loss, in the ops and in every
// forward-only value of them (objective.LogisticMean, objective.RankMean).
func Softplus(x float64) float64 { return math.Max(x, 0) + math.Log1p(math.Exp(-math.Abs(x))) }

func pairLossBackward[T Float](op *pairLossOp, z, dz []T, n, d int, g float64, c []T) {
	if g != 1 { // c is this run's: scaled in place, recomputed by the next forward
		for p, v := range c {
			c[p] = T(g * float64(v))
		}
	}
	pairDotGradChunked(z, op.ps.I, op.ps.J, c, d, dz, func(k int) []T {
		return vals[T](op.chunks[k-1].output(tensorDtype[T](), n, d))
	})
}

func tensorDtype[T Float]() tensor.Dtype {
	if _, ok := any(T(0)).(float32); ok {
		return tensor.Float32
	}
	return tensor.Float64
}

func (op *pairLossOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.PairLoss{%v id=%d grad=%v}", op.kind, op.id, op.grad)
}
func (op *pairLossOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *pairLossOp) String() string {
	if op.grad {
		return fmt.Sprintf("PairLossGrad[%v,%d]", op.kind, op.id)
	}
	return fmt.Sprintf("PairLoss[%v,%d]", op.kind, op.id)
}
func (op *pairLossOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	g := &pairLossOp{kind: op.kind, ps: op.ps, id: op.id, lossShape: lossShape{grad: true}, st: op.st}
	dz, err := G.ApplyOp(g, in[0], grad)
	return G.Nodes{dz}, err
}

package engine

import (
	"fmt"
	"hash"
	"math"
	"sync/atomic"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TripleSet is the triples a RankLoss reads at every run: triple t says row
// J[t] should score higher against I[t] than row K[t] does (J is nearer I
// than K), with weight W[t]. Its owner refills it between runs (any length,
// the four slices equally long); the op checks it.
//
// With A set (as long as I), triple t compares two pairs instead: (I[t],
// J[t]) should score higher than (A[t], K[t]) — a global order over pairs,
// not one anchor's. A nil A means A = I.
type TripleSet struct {
	I, J, K []int
	A       []int
	W       []float64
}

var rankLossIDs atomic.Uint64

// RankLoss returns the scalar Σ_t W[t]·softplus((s_ik − s_ij)/T) with
// s_ab = ⟨Z[a], Z[b]⟩, for the triples in ts at run time: a logistic
// ranking loss that is small when the nearer row J scores above the farther
// row K by a few multiples of the temperature T > 0, and that asks nothing
// of the scores' level — only their order, which is what Kendall's τ
// measures. Scores and per-triple values are computed in float64 in triple
// order; the gradient
//
//	dZ[I] += c·(Z[K] − Z[J]),  dZ[J] −= c·Z[I],  dZ[K] += c·Z[I],
//	c = g·W·σ((s_ik − s_ij)/T)/T
//
// is scattered serially in triple order: bit-identical whatever GOMAXPROCS
// is. With pair triples (ts.A set) the score is softplus((s_ak − s_ij)/T)
// and dZ[I] −= c·Z[J], dZ[J] −= c·Z[I], dZ[A] += c·Z[K], dZ[K] += c·Z[A].
// Cost O(P·D) each way. It panics if T is not a finite number > 0.
func RankLoss(z *G.Node, ts *TripleSet, temp float64) *G.Node {
	if z.Dims() != 2 {
		panic(fmt.Sprintf("engine: RankLoss: Z has shape %v, want a matrix", z.Shape()))
	}
	if !(temp > 0) || math.IsInf(temp, 0) {
		panic(fmt.Sprintf("engine: RankLoss: temperature %g, want a finite number > 0", temp))
	}
	return G.Must(G.ApplyOp(&rankLossOp{ts: ts, temp: temp, id: rankLossIDs.Add(1), st: &rankLossState{}}, z))
}

type rankLossOp struct {
	opBase
	ts   *TripleSet
	temp float64
	id   uint64
	lossShape
	st *rankLossState
	sc scalarOut // the forward output
}

// rankLossState carries the forward pass's per-triple coefficient
// W·σ(u)/T to the backward pass of the same run.
type rankLossState struct {
	c, f []float64 // per triple: W·σ(u)/T and W·softplus(u)
}

func (op *rankLossOp) check(n int) {
	ts := op.ts
	if len(ts.J) != len(ts.I) || len(ts.K) != len(ts.I) || len(ts.W) != len(ts.I) {
		panic(fmt.Sprintf("engine: %s: triple set has %d I, %d J, %d K, %d W", op, len(ts.I), len(ts.J), len(ts.K), len(ts.W)))
	}
	checkIdx(op, ts.I, n)
	checkIdx(op, ts.J, n)
	checkIdx(op, ts.K, n)
	if ts.A != nil {
		if len(ts.A) != len(ts.I) {
			panic(fmt.Sprintf("engine: %s: triple set has %d I, %d A", op, len(ts.I), len(ts.A)))
		}
		checkIdx(op, ts.A, n)
	}
}

func (op *rankLossOp) Do(in ...G.Value) (v G.Value, err error) {
	defer recoverOp(&err)
	z := dense(op, in[0])
	n, d := z.Shape()[0], z.Shape()[1]
	if op.grad {
		g := scalar(in[1])
		out := op.output(z.Dtype(), n, d)
		switch z.Dtype() {
		case tensor.Float64:
			rankLossBackward(op, vals[float64](z), vals[float64](out), d, g)
		case tensor.Float32:
			rankLossBackward(op, vals[float32](z), vals[float32](out), d, g)
		default:
			return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, z.Dtype())
		}
		return out, nil
	}
	op.check(n)
	op.st.c, op.st.f = grow(op.st.c, len(op.ts.I)), grow(op.st.f, len(op.ts.I))
	switch z.Dtype() {
	case tensor.Float64:
		return op.sc.set64(rankLossForward(op, vals[float64](z), d)), nil
	case tensor.Float32:
		return op.sc.set32(float32(rankLossForward(op, vals[float32](z), d))), nil
	}
	return nil, fmt.Errorf("engine: %s: unsupported dtype %v", op, z.Dtype())
}

func dot64[T Float](a, b []T) float64 {
	var s float64
	for x := range a {
		s += float64(a[x]) * float64(b[x])
	}
	return s
}

// rankLossForward computes every triple's W·softplus(u) and c[t] =
// W·σ(u)/T in fixed chunks (concurrently on large sets; each triple's
// values do not depend on the others), then adds the former in triple
// order: the same numbers whatever GOMAXPROCS is.
func rankLossForward[T Float](op *rankLossOp, z []T, d int) float64 {
	ts, c, f := op.ts, op.st.c, op.st.f
	parallelPairs(len(ts.W), d, func(lo, hi int) {
		for t := lo; t < hi; t++ {
			w := ts.W[t]
			if w == 0 {
				c[t], f[t] = 0, 0
				continue
			}
			zi := z[ts.I[t]*d : ts.I[t]*d+d]
			za := zi // the far pair's anchor: I, or A for pair triples
			if ts.A != nil {
				za = z[ts.A[t]*d : ts.A[t]*d+d]
			}
			u := (dot64(za, z[ts.K[t]*d:ts.K[t]*d+d]) - dot64(zi, z[ts.J[t]*d:ts.J[t]*d+d])) / op.temp
			// softplus(u), whose derivative is σ(u).
			f[t] = w * Softplus(u)
			c[t] = w / (1 + math.Exp(-u)) / op.temp
		}
	})
	var total float64
	for t, w := range ts.W {
		if w != 0 {
			total += f[t]
		}
	}
	return total
}

func rankLossBackward[T Float](op *rankLossOp, z, dz []T, d int, g float64) {
	ts := op.ts
	for t, ct := range op.st.c {
		if ct == 0 {
			continue
		}
		c := g * ct
		i, j, k := ts.I[t]*d, ts.J[t]*d, ts.K[t]*d
		if ts.A != nil {
			a := ts.A[t] * d
			for x := 0; x < d; x++ {
				zi, za := float64(z[i+x]), float64(z[a+x])
				zj, zk := float64(z[j+x]), float64(z[k+x])
				dz[i+x] -= T(c * zj)
				dz[j+x] -= T(c * zi)
				dz[a+x] += T(c * zk)
				dz[k+x] += T(c * za)
			}
			continue
		}
		for x := 0; x < d; x++ {
			zi := float64(z[i+x])
			dz[i+x] += T(c * (float64(z[k+x]) - float64(z[j+x])))
			dz[j+x] -= T(c * zi)
			dz[k+x] += T(c * zi)
		}
	}
}

func (op *rankLossOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "engine.RankLoss{id=%d temp=%v grad=%v}", op.id, op.temp, op.grad)
}
func (op *rankLossOp) Hashcode() uint32 { return hashOf(op.WriteHash) }
func (op *rankLossOp) String() string {
	if op.grad {
		return fmt.Sprintf("RankLossGrad[%g,%d]", op.temp, op.id)
	}
	return fmt.Sprintf("RankLoss[%g,%d]", op.temp, op.id)
}
func (op *rankLossOp) SymDiff(in G.Nodes, out, grad *G.Node) (G.Nodes, error) {
	g := &rankLossOp{ts: op.ts, temp: op.temp, id: op.id, lossShape: lossShape{grad: true}, st: op.st}
	dz, err := G.ApplyOp(g, in[0], grad)
	return G.Nodes{dz}, err
}

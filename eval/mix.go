package eval

import (
	"cmp"
	"math"
	"slices"

	"github.com/ignn/ignn/engine"
)

// Mixed reads embeddings whose rows are two unit parts side by side,
// normalise([√w·a | √(1−w)·s]) (a model's D−M columns and an appended
// block of M, as models' neighbourhood sketch makes them), at any other
// share without making them again: a pair's cosine at share v is (v·â_i·â_j + (1−v)·ŝ_i·ŝ_j) / (n_i·n_j)
// with n_i = √(v + (1−v)·[s_i ≠ 0]) — the row's norm before normalising. A
// part must not be zero everywhere: read at w in (0, 1).
type Mixed[T engine.Float] struct {
	z          []T
	d, m, tail int
	ia, is     []float64 // 1/‖a_i‖ and 1/‖s_i‖ (0 for a zero part)
}

// NewMixed reads z (N rows of d columns, the last m the appended block).
// O(N·d).
func NewMixed[T engine.Float](z []T, d, m int) *Mixed[T] { return NewMixedTail(z, d, m, 0) }

// NewMixedTail is NewMixed for rows that end with tail more columns after
// the appended block (models' popularity column), which it does not read:
// the parts are columns [0, d−tail−m) and [d−tail−m, d−tail). Each part is
// normalised on its own, so the tail's share of a row's norm does not
// matter. O(N·d).
func NewMixedTail[T engine.Float](z []T, d, m, tail int) *Mixed[T] {
	n := len(z) / d
	x := &Mixed[T]{z: z, d: d, m: m, tail: tail, ia: make([]float64, n), is: make([]float64, n)}
	e := d - tail
	for i := range n {
		var a, s float64
		for _, v := range z[i*d : i*d+e-m] {
			a += float64(v) * float64(v)
		}
		for _, v := range z[i*d+e-m : i*d+e] {
			s += float64(v) * float64(v)
		}
		if a > 0 {
			x.ia[i] = 1 / math.Sqrt(a)
		}
		if s > 0 {
			x.is[i] = 1 / math.Sqrt(s)
		}
	}
	return x
}

// parts are the two parts' cosines of rows i and j (0 where a part is zero).
func (x *Mixed[T]) parts(i, j int) (ca, cs float64) {
	d, e := x.d, x.d-x.tail
	k := e - x.m
	zi, zj := x.z[i*d:(i+1)*d], x.z[j*d:(j+1)*d]
	for c := range k {
		ca += float64(zi[c]) * float64(zj[c])
	}
	for c := k; c < e; c++ {
		cs += float64(zi[c]) * float64(zj[c])
	}
	return ca * x.ia[i] * x.ia[j], cs * x.is[i] * x.is[j]
}

func (x *Mixed[T]) norm(i int, v float64) float64 {
	if x.is[i] == 0 {
		return math.Sqrt(v)
	}
	return 1
}

// Dot is the row product at share v.
func (x *Mixed[T]) Dot(v float64) func(i, j int) float64 {
	return func(i, j int) float64 {
		ca, cs := x.parts(i, j)
		return (v*ca + (1-v)*cs) / (x.norm(i, v) * x.norm(j, v))
	}
}

// MixParts are some pairs' two part cosines (Mixed.parts), computed once
// and read at any share (Sim).
type MixParts struct {
	ca, cs []float64
	zi, zj []bool // row i's, row j's appended part is zero
}

// PartsOf computes pairs (I[k], J[k])'s parts. O(len(I)·d), in
// evalChunks ranges of pairs on as many goroutines when there are many
// (each pair's parts are computed alone: the same numbers).
func PartsOf[T engine.Float, X int | int32](x *Mixed[T], I, J []X) MixParts {
	p := MixParts{ca: make([]float64, len(I)), cs: make([]float64, len(I)), zi: make([]bool, len(I)), zj: make([]bool, len(I))}
	fill := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			i, j := int(I[k]), int(J[k])
			p.ca[k], p.cs[k] = x.parts(i, j)
			p.zi[k], p.zj[k] = x.is[i] == 0, x.is[j] == 0
		}
	}
	if len(I)*x.d < minParallelCosines {
		fill(0, len(I))
		return p
	}
	inChunks(func(c int) { fill(len(I)*c/evalChunks, len(I)*(c+1)/evalChunks) })
	return p
}

// Sim is pair k's cosine at share v.
func (p MixParts) Sim(v float64) func(k int) float64 {
	nz := math.Sqrt(v)
	return func(k int) float64 {
		n := 1.0
		if p.zi[k] {
			n *= nz
		}
		if p.zj[k] {
			n *= nz
		}
		return (v*p.ca[k] + (1-v)*p.cs[k]) / n
	}
}

// MixChoice is ChooseMix's outcome: the share, and each tried share's
// validation AUC and τ (Shares[k] gave AUC[k] and Tau[k]; Tau[k] is NaN
// where the choice did not need it).
type MixChoice struct {
	Share            float64
	Shares, AUC, Tau []float64
}

// ChooseMix tries shares (the model's alone, 1, first) and keeps the one
// of highest validation AUC among those that raise it by more than its
// standard error (AUCStdErr of the first share's AUC on nPos positives
// and nNeg negatives: a gain validation noise would not give) and keep
// validation τ at least the first's minus give (the earlier share on a
// tie): the appended block may buy link AUC with at most give of τ, and
// where it buys none the model's own embedding stays. auc and tau score
// the embeddings at a share. Every share's AUC is computed, τ only where
// it decides: the first share's and, from the highest AUC down, the
// candidates' until one keeps τ (a τ is the costlier of the two).
func ChooseMix(shares []float64, give float64, nPos, nNeg int, auc, tau func(v float64) float64) MixChoice {
	c := MixChoice{Share: shares[0], Shares: shares, AUC: make([]float64, len(shares)), Tau: make([]float64, len(shares))}
	for k, v := range shares {
		c.AUC[k], c.Tau[k] = auc(v), math.NaN()
	}
	bar := c.AUC[0] + AUCStdErr(c.AUC[0], nPos, nNeg)
	var cand []int
	for k := 1; k < len(shares); k++ {
		if c.AUC[k] > bar {
			cand = append(cand, k)
		}
	}
	slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(c.AUC[b], c.AUC[a]) }) // highest first, the earlier on a tie
	for n, k := range cand {
		if n == 0 {
			c.Tau[0] = tau(shares[0])
		}
		if c.Tau[k] = tau(shares[k]); c.Tau[k] >= c.Tau[0]-give {
			c.Share = shares[k]
			break
		}
	}
	return c
}

// PopularityCos is the cosine of two rows that end with a popularity
// column (models' --popularity), normalise([√w·a | √(1−w)·k]) with a unit
// part a before the column: c is the two parts' cosine, ki and kj the
// rows' column values and w the share. So the column's weight can be
// chosen from one set of embeddings. O(1).
func PopularityCos(c, ki, kj, w float64) float64 {
	return (w*c + (1-w)*ki*kj) / math.Sqrt((w+(1-w)*ki*ki)*(w+(1-w)*kj*kj))
}

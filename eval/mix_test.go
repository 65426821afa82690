package eval

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// mixedRows makes n rows normalise([√w·a_i | √(1−w)·s_i]) of unit parts a_i
// (k columns) and s_i (m columns; zero for the rows in zero).
func mixedRows(a, s []float64, n, k, m int, w float64, zero map[int]bool) []float64 {
	d := k + m
	z := make([]float64, n*d)
	for i := range n {
		nrm := 1.0
		if zero[i] {
			nrm = math.Sqrt(w)
		}
		for c := range k {
			z[i*d+c] = math.Sqrt(w) * a[i*k+c] / nrm
		}
		if !zero[i] {
			for c := range m {
				z[i*d+k+c] = math.Sqrt(1-w) * s[i*m+c] / nrm
			}
		}
	}
	return z
}

func unitRows(rng *rand.Rand, n, k int) []float64 {
	v := make([]float64, n*k)
	for i := range n {
		var s float64
		for c := range k {
			v[i*k+c] = rng.NormFloat64()
			s += v[i*k+c] * v[i*k+c]
		}
		for c := range k {
			v[i*k+c] /= math.Sqrt(s)
		}
	}
	return v
}

// TestMixed: embeddings made at share 0.5 read at another share (Dot, and
// PartsOf's Sim) give the products of the rows made at that share directly,
// including a row whose appended part is zero (a node without neighbours).
func TestMixed(t *testing.T) {
	const n, k, m = 7, 3, 5
	rng := rand.New(rand.NewPCG(1, 2))
	a, s := unitRows(rng, n, k), unitRows(rng, n, m)
	zero := map[int]bool{4: true}
	for _, v := range []float64{1, 0.85, 0.4, 0.5} {
		want := mixedRows(a, s, n, k, m, v, zero)
		z := mixedRows(a, s, n, k, m, 0.5, zero)
		x := NewMixed(z, k+m, m)
		dot := x.Dot(v)
		var I, J []int
		for i := range n {
			for j := range n {
				I, J = append(I, i), append(J, j)
			}
		}
		sim := PartsOf(x, I, J).Sim(v)
		for p := range I {
			i, j := I[p], J[p]
			var w float64
			for c := range k + m {
				w += want[i*(k+m)+c] * want[j*(k+m)+c]
			}
			if g := dot(i, j); math.Abs(g-w) > 1e-12 {
				t.Fatalf("share %v: Dot(%d, %d) = %v, want %v", v, i, j, g, w)
			}
			if g := sim(p); math.Abs(g-w) > 1e-12 {
				t.Fatalf("share %v: PartsOf's Sim(%d: %d, %d) = %v, want %v", v, p, i, j, g, w)
			}
		}
	}
}

// TestMixedTail: rows ending with a column after the appended block (the
// popularity column), scaled with it as models make them, read at any share
// as the rows without it (NewMixedTail ignores the tail).
func TestMixedTail(t *testing.T) {
	const n, k, m = 6, 3, 4
	rng := rand.New(rand.NewPCG(5, 6))
	a, s := unitRows(rng, n, k), unitRows(rng, n, m)
	z := mixedRows(a, s, n, k, m, 0.5, map[int]bool{2: true})
	d := k + m
	tailed := make([]float64, n*(d+1))
	for i := range n {
		p := 1 + 0.3*float64(i) // normalise([z_i | A·p_i]), A = 3
		nrm := math.Sqrt(1 + 9*p*p)
		for c := range d {
			tailed[i*(d+1)+c] = z[i*d+c] / nrm
		}
		tailed[i*(d+1)+d] = 3 * p / nrm
	}
	plain, x := NewMixed(z, d, m), NewMixedTail(tailed, d+1, m, 1)
	for _, v := range []float64{1, 0.7, 0.4} {
		want, got := plain.Dot(v), x.Dot(v)
		for i := range n {
			for j := range n {
				if g, w := got(i, j), want(i, j); math.Abs(g-w) > 1e-12 {
					t.Fatalf("share %v: (%d, %d) with the tail %v, without %v", v, i, j, g, w)
				}
			}
		}
	}
}

// TestChooseMix: the highest AUC among the shares within give of the
// first share's τ that beat its AUC by more than the standard error, the
// earlier share on a tie, and the first share when no other is better by
// that much or τ is undefined.
func TestChooseMix(t *testing.T) {
	shares := []float64{1, 0.7, 0.5, 0.3}
	pick := func(auc, tau []float64) float64 {
		at := func(v float64) int { return slices.Index(shares, v) }
		return ChooseMix(shares, 0.01, 1000, 1000, func(v float64) float64 { return auc[at(v)] }, func(v float64) float64 { return tau[at(v)] }).Share
	}
	for _, tc := range []struct {
		auc, tau []float64
		want     float64
	}{
		{[]float64{0.90, 0.92, 0.93, 0.95}, []float64{0.70, 0.71, 0.70, 0.65}, 0.5},   // 0.3 costs τ 0.05
		{[]float64{0.90, 0.92, 0.93, 0.94}, []float64{0.70, 0.695, 0.691, 0.69}, 0.3}, // within 0.01
		{[]float64{0.90, 0.90, 0.89, 0.88}, []float64{0.70, 0.72, 0.73, 0.74}, 1},     // no AUC gained
		{[]float64{0.90, 0.93, 0.93, 0.90}, []float64{0.70, 0.70, 0.70, 0.70}, 0.7},   // a tie: the earlier
		{[]float64{0.90, 0.95, 0.96, 0.97}, []float64{math.NaN(), 0.7, 0.7, 0.7}, 1},  // τ undefined
		{[]float64{0.90, 0.903, 0.906, 0.93}, []float64{0.70, 0.70, 0.70, 0.60}, 1},   // gains within the standard error (≈ 0.007)
		{[]float64{0.90, 0.903, 0.915, 0.93}, []float64{0.70, 0.70, 0.70, 0.60}, 0.5}, // 0.015 is above it
	} {
		if got := pick(tc.auc, tc.tau); got != tc.want {
			t.Errorf("AUC %v, τ %v: chose %v, want %v", tc.auc, tc.tau, got, tc.want)
		}
	}
}

// TestChooseMixLazy: ChooseMix's choice is the eager rule's (every share's
// AUC and τ, the highest AUC among those past the bar that keep τ, the
// earlier on a tie) on random scores with ties, and it asks for no τ when
// no share passes the bar.
func TestChooseMixLazy(t *testing.T) {
	rn := rand.New(rand.NewPCG(7, 8))
	shares := []float64{1, 0.85, 0.7, 0.55, 0.4}
	for range 2000 {
		auc, tau := make([]float64, len(shares)), make([]float64, len(shares))
		for k := range shares {
			auc[k] = 0.9 + float64(rn.IntN(5))*0.01 // ties are common
			tau[k] = 0.7 + float64(rn.IntN(5))*0.005
		}
		best, bar := 0, auc[0]+AUCStdErr(auc[0], 1000, 1000)
		for k := 1; k < len(shares); k++ {
			if tau[k] >= tau[0]-0.01 && auc[k] > bar && auc[k] > auc[best] {
				best = k
			}
		}
		calls := 0
		at := func(v float64) int { return slices.Index(shares, v) }
		ch := ChooseMix(shares, 0.01, 1000, 1000, func(v float64) float64 { return auc[at(v)] },
			func(v float64) float64 { calls++; return tau[at(v)] })
		if ch.Share != shares[best] {
			t.Fatalf("AUC %v τ %v: chose %v, the eager rule %v", auc, tau, ch.Share, shares[best])
		}
		if passed := slices.ContainsFunc(auc[1:], func(a float64) bool { return a > bar }); !passed && calls > 0 {
			t.Fatalf("AUC %v: no share past the bar, and %d τ asked for", auc, calls)
		}
	}
}

// TestPopularityCos: the cosine of normalise([√w·a | √(1−w)·k]) rows,
// computed from the rows themselves, for unit parts a and column values k.
func TestPopularityCos(t *testing.T) {
	rn := rand.New(rand.NewPCG(5, 6))
	unit := func(d int) []float64 {
		v := make([]float64, d)
		var s float64
		for i := range v {
			v[i] = rn.NormFloat64()
			s += v[i] * v[i]
		}
		for i := range v {
			v[i] /= math.Sqrt(s)
		}
		return v
	}
	row := func(a []float64, k, w float64) []float64 {
		r := append(slices.Clone(a), math.Sqrt(1-w)*k)
		var s float64
		for i := range a {
			r[i] *= math.Sqrt(w)
		}
		for _, v := range r {
			s += v * v
		}
		for i := range r {
			r[i] /= math.Sqrt(s)
		}
		return r
	}
	for range 100 {
		a, b := unit(7), unit(7)
		ki, kj, w := 1+rn.Float64()*3, 1+rn.Float64()*3, rn.Float64()
		ri, rj := row(a, ki, w), row(b, kj, w)
		var want, c float64
		for i := range ri {
			want += ri[i] * rj[i]
		}
		for i := range a {
			c += a[i] * b[i]
		}
		if got := PopularityCos(c, ki, kj, w); math.Abs(got-want) > 1e-12 {
			t.Fatalf("k %v %v, w %v: %v, want %v", ki, kj, w, got, want)
		}
	}
}

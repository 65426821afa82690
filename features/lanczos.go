package features

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// lanczosSmallest returns the k smallest non-trivial eigenpairs of L as the
// k largest of M = 2I − L restricted to the complement of the trivial
// vector: thick-restart Lanczos, basis size m = 2k + 32, keeping the best
// k + (m − k)/2 Ritz vectors at each restart, full reorthogonalisation
// (twice), converged when every wanted Ritz residual is ≤ LapTol.
func (s *normAdj) lanczosSmallest(k int, rng *rand.Rand) ([]float64, [][]float64, error) {
	n := s.n
	m := min(2*k+32, n-1)
	keep := k + (m-k)/2
	V := make([][]float64, m+1)
	for i := range V {
		V[i] = make([]float64, n)
	}
	orth := func(w []float64, upto int, h []float64) {
		for pass := 0; pass < 2; pass++ {
			project(w, s.trivU)
			for i := 0; i < upto; i++ {
				c := dot(V[i], w)
				axpy(-c, V[i], w)
				if h != nil {
					h[i] += c
				}
			}
		}
	}
	randomUnit := func(dst []float64, upto int) {
		for {
			for i := range dst {
				dst[i] = rng.NormFloat64()
			}
			orth(dst, upto, nil)
			if nrm := math.Sqrt(dot(dst, dst)); nrm > 1e-8 {
				scale(1/nrm, dst)
				return
			}
		}
	}
	randomUnit(V[0], 0)
	H := make([]float64, m*m)
	h := make([]float64, m)
	j0 := 0
	w := make([]float64, n)
	for restart := 0; restart < lapMaxRestarts; restart++ {
		var beta float64
		for j := j0; j < m; j++ {
			s.mulM(w, V[j])
			clear(h)
			orth(w, j+1, h)
			for i := 0; i <= j; i++ { // with i < j0 at j = j0: the arrow of the kept Ritz vectors
				H[i*m+j], H[j*m+i] = h[i], h[i]
			}
			beta = math.Sqrt(dot(w, w))
			if beta < 1e-12 { // invariant subspace: continue with a fresh direction
				beta = 0
				if j+1 < m {
					randomUnit(V[j+1], j+1)
				} else {
					clear(V[j+1])
				}
				continue
			}
			copy(V[j+1], w)
			scale(1/beta, V[j+1])
		}
		sym := mat.NewSymDense(m, nil)
		for i := 0; i < m; i++ {
			for j := i; j < m; j++ {
				sym.SetSym(i, j, (H[i*m+j]+H[j*m+i])/2)
			}
		}
		var es mat.EigenSym
		if !es.Factorize(sym, true) {
			return nil, nil, fmt.Errorf("features: lap: Rayleigh–Ritz eigensolver did not converge")
		}
		theta := es.Values(nil) // ascending: the wanted ones are last
		var S mat.Dense
		es.VectorsTo(&S)
		conv := true
		for t := 0; t < k; t++ {
			c := m - 1 - t
			if math.Abs(beta*S.At(m-1, c)) > LapTol {
				conv = false
				break
			}
		}
		nk := keep
		if conv {
			nk = k
		}
		// Ritz vectors of the nk largest, written back into V[0:nk].
		Y := make([][]float64, nk)
		for t := 0; t < nk; t++ {
			c := m - 1 - t
			y := make([]float64, n)
			for i := 0; i < m; i++ {
				axpy(S.At(i, c), V[i], y)
			}
			Y[t] = y
		}
		if conv {
			vals := make([]float64, k)
			for t := range vals {
				vals[t] = 2 - theta[m-1-t]
			}
			return vals, Y, nil
		}
		for t := 0; t < nk; t++ {
			copy(V[t], Y[t])
		}
		copy(V[nk], V[m])
		clear(H)
		for t := 0; t < nk; t++ {
			H[t*m+t] = theta[m-1-t]
		}
		j0 = nk
	}
	return nil, nil, fmt.Errorf("features: lap: Lanczos did not reach residual %g in %d restarts (K = %d, %d nodes); use a smaller K", LapTol, lapMaxRestarts, k, n)
}

// project removes u's component from w (u a unit vector).
func project(w, u []float64) { axpy(-dot(u, w), u, w) }

func dot(a, b []float64) float64 {
	var s float64
	for i, x := range a {
		s += x * b[i]
	}
	return s
}

func axpy(alpha float64, x, y []float64) {
	for i, v := range x {
		y[i] += alpha * v
	}
}

func scale(alpha float64, x []float64) {
	for i := range x {
		x[i] *= alpha
	}
}

package features

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPrincipalMap: rows in a 2-dimensional subspace of R⁵ keep every
// inner product exactly through a 5×2 map; the map's columns are
// orthonormal on full-rank rows, with a fixed sign, and its top column is
// the direction of largest energy (checked against a brute-force search
// over unit vectors); out ≥ k gives the identity.
func TestPrincipalMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, k = 40, 5
	a, b := make([]float64, k), make([]float64, k)
	for i := range a {
		a[i], b[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	x := make([]float64, n*k)
	for r := 0; r < n; r++ {
		s, u := rng.NormFloat64(), rng.NormFloat64()
		for c := 0; c < k; c++ {
			x[r*k+c] = s*a[c] + u*b[c]
		}
	}
	w := PrincipalMap(x, n, k, 2)
	proj := func(x, w []float64, r, out int) []float64 {
		p := make([]float64, out)
		for c := 0; c < out; c++ {
			for a := 0; a < k; a++ {
				p[c] += x[r*k+a] * w[a*out+c]
			}
		}
		return p
	}
	dot := func(p, q []float64) float64 {
		var s float64
		for i := range p {
			s += p[i] * q[i]
		}
		return s
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			got, want := dot(proj(x, w, i, 2), proj(x, w, j, 2)), dot(x[i*k:(i+1)*k], x[j*k:(j+1)*k])
			if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("rank-2 rows %d, %d: projected inner product %v, want %v", i, j, got, want)
			}
		}
	}

	for i := range x {
		x[i] = rng.NormFloat64() * float64(1+i%k) // unequal variances: distinct eigenvalues
	}
	w = PrincipalMap(x, n, k, 3)
	for c := 0; c < 3; c++ {
		big, sign := 0.0, 0.0
		for d := 0; d < 3; d++ {
			var s float64
			for a := 0; a < k; a++ {
				s += w[a*3+c] * w[a*3+d]
			}
			if want := map[bool]float64{true: 1, false: 0}[c == d]; math.Abs(s-want) > 1e-9 {
				t.Errorf("columns %d·%d = %v, want %v", c, d, s, want)
			}
		}
		for a := 0; a < k; a++ {
			if v := w[a*3+c]; math.Abs(v) > big {
				big, sign = math.Abs(v), v
			}
		}
		if sign <= 0 {
			t.Errorf("column %d: largest entry %v, want it positive", c, sign)
		}
	}
	energy := func(u []float64) float64 {
		var e float64
		for r := 0; r < n; r++ {
			p := dot(x[r*k:(r+1)*k], u)
			e += p * p
		}
		return e
	}
	top := make([]float64, k)
	for a := range top {
		top[a] = w[a*3]
	}
	for trial := 0; trial < 2000; trial++ {
		u := make([]float64, k)
		var nu float64
		for a := range u {
			u[a] = rng.NormFloat64()
			nu += u[a] * u[a]
		}
		for a := range u {
			u[a] /= math.Sqrt(nu)
		}
		if energy(u) > energy(top)*(1+1e-9) {
			t.Fatalf("a random direction holds energy %v, above the top column's %v", energy(u), energy(top))
		}
	}

	w = PrincipalMap(x, n, k, 7)
	for a := 0; a < k; a++ {
		for c := 0; c < 7; c++ {
			if want := map[bool]float64{true: 1, false: 0}[a == c]; w[a*7+c] != want {
				t.Fatalf("out ≥ k: W[%d][%d] = %v, want the identity", a, c, w[a*7+c])
			}
		}
	}
}

// TestGramRowsPipelined: the Gram sums of rows read a block ahead on
// another goroutine (more rows than two blocks, a last block cut short)
// equal a plain row-by-row loop's bit for bit, the rows are read once
// each in order, and rows with zero entries skip them the same way.
func TestGramRowsPipelined(t *testing.T) {
	for _, n := range []int{principalBlock + 7, 5*principalBlock + 3} {
		const k = 6
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		x := make([]float64, n*k)
		for i := range x {
			if rng.IntN(4) > 0 {
				x[i] = rng.NormFloat64() * 1e3
			}
		}
		next := 0
		read := func(r int, dst []float64) {
			if r != next {
				t.Errorf("row %d read when %d was next", r, next)
			}
			next++
			copy(dst, x[r*k:(r+1)*k])
		}
		got := gramRows(read, n, k)
		if next != n {
			t.Fatalf("n = %d: %d rows read", n, next)
		}
		want := make([]float64, k*k)
		for r := 0; r < n; r++ {
			row := x[r*k : (r+1)*k]
			for a := 0; a < k; a++ {
				if row[a] == 0 {
					continue
				}
				for b := a; b < k; b++ {
					want[a*k+b] += row[a] * row[b]
				}
			}
		}
		for a := 0; a < k; a++ {
			for b := 0; b < a; b++ {
				want[a*k+b] = want[b*k+a]
			}
		}
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("n = %d: entry %d = %v, want %v", n, i, got[i], want[i])
			}
		}
	}
}

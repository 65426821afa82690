package eval

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// TestNearestByCosine against sorting every row for every query.
func TestNearestByCosine(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	const n, d, k = 300, 8, 7
	z := make([]float64, n*d)
	for i := range z {
		z[i] = float64(rng.IntN(5)) // many ties
	}
	queries := []int{0, 5, 5, 299, 17, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112, 113, 114, 115}
	keep := func(q, r int) bool { return (q+r)%3 != 0 }
	got := NearestByCosine(z, d, queries, k, keep)
	for qi, q := range queries {
		var all []Neighbor
		for r := 0; r < n; r++ {
			if r == q || !keep(q, r) {
				continue
			}
			var s float64
			for x := 0; x < d; x++ {
				s += z[q*d+x] * z[r*d+x]
			}
			all = append(all, Neighbor{r, s})
		}
		sort.SliceStable(all, func(a, b int) bool { return all[a].Cosine > all[b].Cosine })
		for i := 0; i < k; i++ {
			if got[qi][i] != all[i] {
				t.Fatalf("query %d rank %d: %+v, want %+v", q, i, got[qi][i], all[i])
			}
		}
	}
}

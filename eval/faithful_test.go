package eval

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/ignn/ignn/data"
)

// TestFaithfulnessBruteForce checks precision@k against the average over
// every way of breaking the hop-distance tie at the ball's edge, distortion
// against its formula evaluated directly, and the buckets against direct
// means and the brute-force τ-b.
func TestFaithfulnessBruteForce(t *testing.T) {
	ds, _ := data.Communities(data.CommunitiesConfig{Cliques: 4, Size: 5, Rewire: 0.1}, rand.New(rand.NewPCG(2, 3)))
	g := ds.Graphs[0]
	dist, _ := data.HopDistances(g.N, g.Edges, 0, 1)
	u := ds.Union()
	const d, k = 4, 5
	rng := rand.New(rand.NewPCG(9, 9))
	z := make([]float64, g.N*d)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	for i := 0; i < g.N; i++ { // unit rows, as the models output
		var s float64
		for x := 0; x < d; x++ {
			s += z[i*d+x] * z[i*d+x]
		}
		for x := 0; x < d; x++ {
			z[i*d+x] /= math.Sqrt(s)
		}
	}
	cos := func(i, j int) float64 {
		var s float64
		for x := 0; x < d; x++ {
			s += z[i*d+x] * z[j*d+x]
		}
		return s
	}
	var queries []Query
	for q := 0; q < g.N; q++ {
		queries = append(queries, Query{Graph: 0, Node: q, Row: dist.D[q*g.N : (q+1)*g.N]})
	}
	got := FaithfulnessOf(z, d, u, queries, k)

	var precSum float64
	var ratios []float64
	byD := map[int][]float64{}
	for q := 0; q < g.N; q++ {
		var others []int
		for j := 0; j < g.N; j++ {
			if j != q {
				others = append(others, j)
			}
		}
		emb := append([]int(nil), others...)
		sort.Slice(emb, func(a, b int) bool { return cos(q, emb[a]) > cos(q, emb[b]) })
		top := map[int]bool{}
		for _, j := range emb[:k] {
			top[j] = true
		}
		byHop := append([]int(nil), others...)
		sort.Slice(byHop, func(a, b int) bool { return dist.At(q, byHop[a]) < dist.At(q, byHop[b]) })
		dk := dist.At(q, byHop[k-1])
		var sure, tied []int
		for _, j := range others {
			if dist.At(q, j) < dk {
				sure = append(sure, j)
			} else if dist.At(q, j) == dk {
				tied = append(tied, j)
			}
		}
		// Average over every choice of k − |sure| tied nodes.
		need := k - len(sure)
		var total, count float64
		var choose func(start int, picked []int)
		choose = func(start int, picked []int) {
			if len(picked) == need {
				hit := 0
				for _, j := range append(append([]int(nil), sure...), picked...) {
					if top[j] {
						hit++
					}
				}
				total += float64(hit) / k
				count++
				return
			}
			for i := start; i < len(tied); i++ {
				choose(i+1, append(picked, tied[i]))
			}
		}
		choose(0, nil)
		precSum += total / count
		for _, j := range others {
			h := dist.At(q, j)
			c := cos(q, j)
			byD[int(h)] = append(byD[int(h)], c)
			ratios = append(ratios, math.Max(math.Acos(math.Max(-1, math.Min(1, c)))/math.Pi, 1e-3)/float64(h))
		}
	}
	if want := precSum / float64(g.N); math.Abs(got.PrecisionAtK-want) > 1e-12 {
		t.Errorf("precision@%d = %v, brute force %v", k, got.PrecisionAtK, want)
	}
	s := append([]float64(nil), ratios...)
	sort.Float64s(s)
	med := (s[len(s)/2-1] + s[len(s)/2]) / 2
	if len(s)%2 == 1 {
		med = s[len(s)/2]
	}
	prod, worst := 1.0, 0.0
	for _, r := range ratios {
		v := math.Max(r/med, med/r)
		prod, worst = prod*math.Pow(v, 1/float64(len(ratios))), math.Max(worst, v)
	}
	if math.Abs(got.DistortionMean-prod) > 1e-9 || math.Abs(got.DistortionMax-worst) > 1e-9 {
		t.Errorf("distortion %v/%v, brute force %v/%v", got.DistortionMean, got.DistortionMax, prod, worst)
	}
	for _, b := range got.Buckets {
		cs := byD[b.D]
		var m float64
		for _, c := range cs {
			m += c
		}
		if b.Pairs != len(cs) || math.Abs(b.MeanCos-m/float64(len(cs))) > 1e-12 {
			t.Errorf("bucket %d: %+v, want %d pairs, mean %v", b.D, b, len(cs), m/float64(len(cs)))
		}
		if next, ok := byD[b.D+1]; ok {
			var x, y []float64
			for _, c := range cs {
				x, y = append(x, float64(b.D)), append(y, -c)
			}
			for _, c := range next {
				x, y = append(x, float64(b.D+1)), append(y, -c)
			}
			if want := bruteTauB(x, y); math.Abs(b.TauNext-want) > 1e-12 {
				t.Errorf("bucket %d: τ next %v, brute force %v", b.D, b.TauNext, want)
			}
		}
	}
	// Embeddings equal to the graph's own distances rank perfectly.
	if len(got.Buckets) < 3 {
		t.Fatalf("buckets %+v", got.Buckets)
	}
}

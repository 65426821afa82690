package eval

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
)

// pathSplit is a split on the path 0-1-…-(n-1) with hand-picked pairs.
func pathSplit(t *testing.T, name string, n int) *data.Split {
	t.Helper()
	var es [][2]int32
	for i := 0; i+1 < n; i++ {
		es = append(es, [2]int32{int32(i), int32(i + 1)})
	}
	g, err := data.NewGraph(name, n, es)
	if err != nil {
		t.Fatal(err)
	}
	dist, err := data.HopDistances(n, es, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &data.Split{Graph: g, MP: es, Dist: dist,
		Val: []data.Pair{{I: 0, J: 1}, {I: 2, J: 3}}, ValNeg: []data.Pair{{I: 0, J: 3}, {I: 1, J: 4}},
		Test: []data.Pair{{I: 1, J: 2}, {I: 3, J: 4}}, TestNeg: []data.Pair{{I: 0, J: 4}, {I: 0, J: 2}}}
}

// TestGraphMetrics checks the per-graph averaging against a direct
// evaluation of each graph with AUC and KendallTauB, and the collapse rule.
func TestGraphMetrics(t *testing.T) {
	splits := []*data.Split{pathSplit(t, "a", 6), pathSplit(t, "b", 5)}
	u := data.NewUnion([]*data.Graph{splits[0].Graph, splits[1].Graph})
	const d = 3
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() []float64 {
		z := make([]float64, u.N*d)
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		return z
	}
	collapsedB := random()
	for i := u.Offsets[1]; i < u.N; i++ { // graph b: every row the same
		copy(collapsedB[i*d:(i+1)*d], []float64{0.6, 0.8, 0})
	}
	tests := []struct {
		name     string
		z        []float64
		graphs   []int // the graphs that count
		warnings int
	}{
		{"both graphs defined", random(), []int{0, 1}, 0},
		{"graph b collapsed", collapsedB, []int{0}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dot := func(i, j int) float64 {
				var s float64
				for k := 0; k < d; k++ {
					s += tc.z[i*d+k] * tc.z[j*d+k]
				}
				return s
			}
			var want Scores
			for _, g := range tc.graphs {
				s := splits[g]
				aucOf := func(pos, neg []data.Pair) float64 {
					var sc []float64
					var lb []bool
					for _, q := range pos {
						sc, lb = append(sc, dot(u.GlobalPair(g, q))), append(lb, true)
					}
					for _, q := range neg {
						sc, lb = append(sc, dot(u.GlobalPair(g, q))), append(lb, false)
					}
					return AUC(sc, lb)
				}
				var x, y []float64
				for i := 0; i < s.Graph.N; i++ {
					for j := i + 1; j < s.Graph.N; j++ {
						x, y = append(x, float64(s.Dist.At(i, j))), append(y, -dot(u.Global(g, i), u.Global(g, j)))
					}
				}
				want.ValAUC += aucOf(s.Val, s.ValNeg) / float64(len(tc.graphs))
				want.TestAUC += aucOf(s.Test, s.TestNeg) / float64(len(tc.graphs))
				want.Tau += bruteTauB(x, y) / float64(len(tc.graphs))
			}
			got, warns := GraphMetrics(tc.z, d, splits, u)
			for _, c := range [][2]float64{{got.ValAUC, want.ValAUC}, {got.TestAUC, want.TestAUC}, {got.Tau, want.Tau}} {
				if math.Abs(c[0]-c[1]) > 1e-12 {
					t.Errorf("got %+v, want %+v", got, want)
					break
				}
			}
			if len(warns) != tc.warnings || (tc.warnings > 0 && !strings.Contains(warns[0], "graph b: embeddings collapsed")) {
				t.Errorf("warnings %q", warns)
			}
		})
	}
	// Everything collapsed: nothing is defined.
	z := make([]float64, u.N*d)
	for i := 0; i < u.N; i++ {
		z[i*d] = 1
	}
	if got, _ := GraphMetrics(z, d, splits, u); !math.IsNaN(got.ValAUC) || !math.IsNaN(got.TestAUC) || !math.IsNaN(got.Tau) {
		t.Errorf("all collapsed: %+v, want NaN everywhere", got)
	}
}

// TestSampledMetricsAllPairs: a PairSample holding every ordered pair (i, j),
// i ≠ j, gives GraphMetrics's τ exactly (τ-b is unchanged by listing each
// pair twice: concordant and discordant counts and ties all double), with a
// finite interval around it; the AUCs are GraphMetrics's.
func TestSampledMetricsAllPairs(t *testing.T) {
	splits := []*data.Split{pathSplit(t, "a", 7), pathSplit(t, "b", 6)}
	u := data.NewUnion([]*data.Graph{splits[0].Graph, splits[1].Graph})
	const d = 3
	rng := rand.New(rand.NewPCG(5, 6))
	z := make([]float64, u.N*d)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	ps := &PairSample{Batches: 3}
	src := 0
	for g, s := range splits {
		for i := 0; i < s.Graph.N; i++ {
			for j := 0; j < s.Graph.N; j++ {
				if i != j {
					ps.I, ps.J = append(ps.I, int32(u.Global(g, i))), append(ps.J, int32(u.Global(g, j)))
					ps.D, ps.Graph = append(ps.D, s.Dist.At(i, j)), append(ps.Graph, int32(g))
					ps.Batch = append(ps.Batch, uint8(src%3))
				}
			}
			src++
		}
	}
	want, _ := GraphMetrics(z, d, splits, u)
	var e Evaluator
	got, warns := e.SampledMetrics(z, d, splits, u, ps)
	if len(warns) != 0 || got.ValAUC != want.ValAUC || got.TestAUC != want.TestAUC || math.Abs(got.Tau-want.Tau) > 1e-15 {
		t.Fatalf("sampled %+v, exact %+v", got, want)
	}
	if !(got.TauLo < got.Tau && got.Tau < got.TauHi) {
		t.Errorf("interval [%v, %v] does not bracket τ %v", got.TauLo, got.TauHi, got.Tau)
	}
}

// TestHeldoutAndSampleTau: TauHeldout is the brute-force τ-b over the
// pairs with no excluded endpoint, per graph, averaged; SampleTau is the
// brute-force τ-b over a sample's pairs per graph, averaged.
func TestHeldoutAndSampleTau(t *testing.T) {
	splits := []*data.Split{pathSplit(t, "a", 7), pathSplit(t, "b", 6)}
	u := data.NewUnion([]*data.Graph{splits[0].Graph, splits[1].Graph})
	const d = 3
	rng := rand.New(rand.NewPCG(7, 8))
	z := make([]float64, u.N*d)
	for i := range z {
		z[i] = rng.NormFloat64()
	}
	dot := rowDot(z, d)
	exclude := make([]bool, u.N)
	exclude[1], exclude[u.Global(1, 4)] = true, true
	var want, wantS float64
	ps := &PairSample{}
	for g, s := range splits {
		var hx, hy, sx, sy []float64
		for i := 0; i < s.Graph.N; i++ {
			for j := i + 1; j < s.Graph.N; j++ {
				gi, gj := u.Global(g, i), u.Global(g, j)
				if !exclude[gi] && !exclude[gj] {
					hx, hy = append(hx, float64(s.Dist.At(i, j))), append(hy, -dot(gi, gj))
				}
				if (i+j)%3 == 0 { // an arbitrary sample
					ps.I, ps.J = append(ps.I, int32(gi)), append(ps.J, int32(gj))
					ps.D, ps.Graph = append(ps.D, s.Dist.At(i, j)), append(ps.Graph, int32(g))
					sx, sy = append(sx, float64(s.Dist.At(i, j))), append(sy, -dot(gi, gj))
				}
			}
		}
		want += bruteTauB(hx, hy) / 2
		wantS += bruteTauB(sx, sy) / 2
	}
	e := Evaluator{Exclude: exclude}
	got, _ := e.GraphMetrics(z, d, splits, u)
	if math.Abs(got.TauHeldout-want) > 1e-12 {
		t.Fatalf("held-out τ %v, brute force %v", got.TauHeldout, want)
	}
	if s := e.SampleTau(z, d, ps); math.Abs(s-wantS) > 1e-12 {
		t.Fatalf("sample τ %v, brute force %v", s, wantS)
	}
	var plain Evaluator
	if s, _ := plain.GraphMetrics(z, d, splits, u); !math.IsNaN(s.TauHeldout) || s.Tau != got.Tau {
		t.Fatalf("without Exclude: held-out %v (want NaN), τ %v vs %v", s.TauHeldout, s.Tau, got.Tau)
	}
}

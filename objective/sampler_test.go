package objective

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/data/datatest"
	"github.com/ignn/ignn/engine"
)

// trueDist is the BFS distance of global rows i and j of h's only graph.
func trueDist(h *data.Hops, i, j int) uint16 {
	row := make([]uint16, h.Union.N)
	data.NewAdj(h.Union.N, h.Union.Graphs[0].Edges).BFS(i, 0, row, nil)
	return row[j]
}

// TestPairSampler: on both distance paths every drawn pair joins two
// different nodes with the target of their true distance; the exact path
// binds all pairs once when they fit (and only then); draws are a function
// of the seed, not of the worker count.
func TestPairSampler(t *testing.T) {
	for _, exact := range []bool{true, false} {
		var draws []Pairs
		for _, w := range []int{1, 2} {
			h := datatest.Hops(t, "caveman:6x5", exact, w)
			m := NewPairSampler(h, engine.NewSeeded(3, "mse-pairs"), PairSamplerOptions{Alpha: 1, Cap: 100, MayFix: true, Sources: 4})
			ps := m.Draw()
			if ps.Len() != 100 || m.Fixed {
				t.Fatalf("exact %v: %d pairs, fixed %v", exact, ps.Len(), m.Fixed)
			}
			for k := range ps.I {
				d := trueDist(h, ps.I[k], ps.J[k])
				if ps.I[k] == ps.J[k] || ps.V[k] != Target(int(d), d != data.Unreachable, 1) {
					t.Fatalf("exact %v: pair (%d, %d) target %v, distance %d", exact, ps.I[k], ps.J[k], ps.V[k], d)
				}
			}
			draws = append(draws, Pairs{I: append([]int(nil), ps.I...), J: append([]int(nil), ps.J...), V: append([]float64(nil), ps.V...)})
		}
		if !reflect.DeepEqual(draws[0], draws[1]) {
			t.Errorf("exact %v: the draw depends on the worker count", exact)
		}
	}
	h := datatest.Hops(t, "caveman:6x5", true, 1)
	all := NewPairSampler(h, engine.NewSeeded(3, "mse-pairs"), PairSamplerOptions{Alpha: 1, Cap: 1000, MayFix: true})
	if !all.Fixed || all.Total != 30*29/2 || all.Draw() != nil || len(all.Blocks) != 1 {
		t.Errorf("435 pairs under a cap of 1000: fixed %v, total %d", all.Fixed, all.Total)
	}
	if batched := NewPairSampler(h, engine.NewSeeded(3, "mse-pairs"), PairSamplerOptions{Alpha: 1, Cap: 1000}); batched.Fixed || batched.Draw().Len() != 435 {
		t.Error("without MayFix the pairs are drawn, not bound once")
	}
}

// TestStratifiedPairs: with Stratified each source's targets take the
// distances present in its BFS row in turn (counts per distance differ by
// at most one).
func TestStratifiedPairs(t *testing.T) {
	h := datatest.Hops(t, "caveman:20x10", false, 1)
	m := NewPairSampler(h, engine.NewSeeded(1, "mse-pairs"), PairSamplerOptions{Alpha: 1, Cap: 4 * 60, Sources: 4, Stratified: true})
	pairs := m.Draw()
	if pairs.Len() != 240 || !strings.Contains(m.Mode, "stratified") {
		t.Fatalf("%d pairs, mode %q", pairs.Len(), m.Mode)
	}
	row := make([]uint16, h.Union.N)
	for src := 0; src < 4; src++ {
		s := pairs.I[src*60]
		h.Adjs[0].BFS(s, 0, row, nil)
		count := map[uint16]int{}
		for k := src * 60; k < (src+1)*60; k++ {
			if pairs.I[k] != s {
				t.Fatalf("pair %d does not start at its source", k)
			}
			count[row[pairs.J[k]]]++
		}
		present := map[uint16]bool{}
		for j, d := range row {
			if j != s {
				present[d] = true
			}
		}
		lo, hi := 1<<30, 0
		for d := range present {
			lo, hi = min(lo, count[d]), max(hi, count[d])
		}
		if len(count) != len(present) || hi-lo > 1 {
			t.Fatalf("source %d: counts per distance %v over %d distances", s, count, len(present))
		}
	}
}

// TestTripleSampler: every triple (i, j, k) has d(i, j) < d(i, k) by true
// BFS distance on both paths, whole-graph draws and mini-batch draws alike,
// and the draws are the same for 1 and 2 workers.
func TestTripleSampler(t *testing.T) {
	for _, exact := range []bool{true, false} {
		var draws []Triples
		for _, w := range []int{1, 2} {
			h := datatest.Hops(t, "grid:8x8", exact, w)
			r := NewTripleSampler(h, engine.NewSeeded(5, "mse-pairs"), 300, 6, false)
			tr, err := r.Draw()
			if err != nil {
				t.Fatal(err)
			}
			if tr.Len() < 250 {
				t.Fatalf("exact %v: %d of 300 triples", exact, tr.Len())
			}
			got := Triples{I: append([]int(nil), tr.I...), J: append([]int(nil), tr.J...), K: append([]int(nil), tr.K...)}
			r.Refresh()
			step := r.DrawN(50)
			for _, set := range []*Triples{&got, step} {
				for k := range set.I {
					if dj, dk := trueDist(h, set.I[k], set.J[k]), trueDist(h, set.I[k], set.K[k]); dj >= dk {
						t.Fatalf("exact %v: triple (%d, %d, %d) with distances %d, %d", exact, set.I[k], set.J[k], set.K[k], dj, dk)
					}
				}
			}
			draws = append(draws, got)
		}
		if !reflect.DeepEqual(draws[0], draws[1]) {
			t.Errorf("exact %v: the draw depends on the worker count", exact)
		}
	}
}

// TestTripleSamplerPairs: with Pairs every triple compares two pairs,
// d(i, j) < d(a, k) by true BFS distance, with anchors that differ in most
// triples, on both paths and for mini-batch draws; the same for 1 and 2
// workers.
func TestTripleSamplerPairs(t *testing.T) {
	for _, exact := range []bool{true, false} {
		var draws []Triples
		for _, w := range []int{1, 2} {
			h := datatest.Hops(t, "grid:8x8", exact, w)
			r := NewTripleSampler(h, engine.NewSeeded(5, "mse-pairs"), 300, 6, true)
			tr, err := r.Draw()
			if err != nil {
				t.Fatal(err)
			}
			if tr.Len() < 250 || len(tr.A) != tr.Len() {
				t.Fatalf("exact %v: %d of 300 triples, %d anchors", exact, tr.Len(), len(tr.A))
			}
			got := Triples{I: slices.Clone(tr.I), J: slices.Clone(tr.J), K: slices.Clone(tr.K), A: slices.Clone(tr.A)}
			r.Refresh()
			step := r.DrawN(50)
			apart := 0
			for _, set := range []*Triples{&got, step} {
				if len(set.A) != set.Len() {
					t.Fatalf("exact %v: %d triples, %d anchors", exact, set.Len(), len(set.A))
				}
				for k := range set.I {
					if dj, dk := trueDist(h, set.I[k], set.J[k]), trueDist(h, set.A[k], set.K[k]); dj >= dk {
						t.Fatalf("exact %v: pair triple (%d, %d) vs (%d, %d) with distances %d, %d", exact, set.I[k], set.J[k], set.A[k], set.K[k], dj, dk)
					}
					if set.A[k] != set.I[k] {
						apart++
					}
				}
			}
			if apart < (got.Len()+step.Len())/2 {
				t.Errorf("exact %v: only %d of %d pair triples have two anchors", exact, apart, got.Len()+step.Len())
			}
			draws = append(draws, got)
		}
		if !reflect.DeepEqual(draws[0], draws[1]) {
			t.Errorf("exact %v: the draw depends on the worker count", exact)
		}
	}
}

// TestForwardValues: the forward-only terms against hand-computed values on
// two 2-dim rows: dot 0.6, so BCE = mean(softplus(0.6) − 1·0.6,
// softplus(0.6)), MSE at distance 1 (target 0) = ((1 − 0.6)/2)², rank over
// one triple = softplus((s_ik − s_ij)/T).
func TestForwardValues(t *testing.T) {
	z := []float64{1, 0, 0.6, 0.8, 0, 1}
	sp := func(x float64) float64 { return engine.Softplus(x) }
	var ps Pairs
	ps.Add(0, 1, 1)
	ps.Add(0, 1, 0)
	if got, want := LogisticMean(engine.RowDot(z, 2), &ps), (sp(0.6)-0.6+sp(0.6))/2; got != want {
		t.Errorf("BCE %v, want %v", got, want)
	}
	if got, want := MSEMean(engine.RowDot(z, 2), []int32{0}, []int32{1}, []uint16{1}, 1), 0.2*0.2; got < want-1e-15 || got > want+1e-15 {
		t.Errorf("MSE %v, want %v", got, want)
	}
	if got, want := RankMean(engine.RowDot(z, 2), [][3]int32{{0, 1, 2}}, 0.1), sp(-6); got < want*(1-1e-12) || got > want*(1+1e-12) {
		t.Errorf("rank %v, want %v", got, want)
	}
}

// TestTripleSamplerFixedSources: FixSources draws the sources once from
// its own stream (the same sources for the same stream, whatever the
// sampler's own stream has drawn), Refresh keeps them and their rows, and
// every triple is still ordered by true distance.
func TestTripleSamplerFixedSources(t *testing.T) {
	h := datatest.Hops(t, "grid:8x8", false, 2)
	var srcs [][]int
	for _, seed := range []uint64{5, 6} {
		r := NewTripleSampler(h, engine.NewSeeded(seed, "mse-pairs"), 300, 6, false)
		r.FixSources(engine.Stream(1, "rank-sources"))
		src := append([]int(nil), r.srcLocal...)
		rows := r.rows
		r.Refresh()
		tr := r.DrawN(100)
		if !slices.Equal(src, r.srcLocal) || &rows[0][0] != &r.rows[0][0] || !strings.Contains(r.Mode, "drawn once for the run") {
			t.Fatalf("Refresh changed the fixed sources %v → %v (mode %q)", src, r.srcLocal, r.Mode)
		}
		for k := range tr.I {
			if dj, dk := trueDist(h, tr.I[k], tr.J[k]), trueDist(h, tr.I[k], tr.K[k]); dj >= dk {
				t.Fatalf("triple (%d, %d, %d) with distances %d, %d", tr.I[k], tr.J[k], tr.K[k], dj, dk)
			}
		}
		srcs = append(srcs, src)
	}
	if !slices.Equal(srcs[0], srcs[1]) {
		t.Errorf("the fixed sources depend on the sampler's stream: %v, %v", srcs[0], srcs[1])
	}
}

// TestTripleSamplerThin: a thinned sampler draws its sources (that many)
// on the first of every `every` Refresh calls and keeps them in between;
// the same seed gives the same draws.
func TestTripleSamplerThin(t *testing.T) {
	h := datatest.Hops(t, "grid:8x8", false, 2)
	var runs [][]int
	for range 2 {
		r := NewTripleSampler(h, engine.NewSeeded(5, "mse-pairs"), 300, 6, false)
		r.Thin(2, 3)
		var seen []int
		var prev []int
		for call := 1; call <= 7; call++ {
			r.Refresh()
			if len(r.srcLocal) != 2 {
				t.Fatalf("call %d: %d sources, want 2", call, len(r.srcLocal))
			}
			kept := slices.Equal(prev, r.srcLocal)
			if drew := (call-1)%3 == 0; drew == kept && call > 1 {
				t.Fatalf("call %d: sources %v after %v (a draw expected: %v)", call, r.srcLocal, prev, drew)
			}
			prev = append(prev[:0:0], r.srcLocal...)
			seen = append(seen, prev...)
			r.DrawN(10)
		}
		if !strings.Contains(r.Mode, "each draw kept for 3 epochs") {
			t.Fatalf("mode %q", r.Mode)
		}
		runs = append(runs, seen)
	}
	if !slices.Equal(runs[0], runs[1]) {
		t.Fatal("the same seed drew other thinned sources")
	}
}

// TestTripleSamplerSpilledRows: sources whose rows are in a spill file
// give the same triples, in the same order, as rows held in memory, for
// triples and pair triples, fixed or redrawn at every Refresh, over a union of two graphs of different
// sizes (rows of different lengths, one after another in the file); the
// held rows are dropped.
func TestTripleSamplerSpilledRows(t *testing.T) {
	var graphs []*data.Graph
	for _, spec := range []string{"grid:9x7", "caveman:6x5:0.2"} {
		ds, err := data.Generate(spec, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		graphs = append(graphs, ds.Graphs[0])
	}
	ds := &data.Dataset{Name: "two", Graphs: graphs}
	h, err := data.NewHops(ds.Union(), [][][2]int32{graphs[0].Edges, graphs[1].Edges}, false, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ pairs, fixed bool }{{false, true}, {true, true}, {true, false}} {
		pairs := c.pairs
		var got [2]Triples
		for s, dir := range []string{"", t.TempDir()} {
			r := NewTripleSampler(h, engine.NewSeeded(9, "mse-pairs"), 300, 11, pairs)
			if dir != "" {
				r.SpillTo(dir)
			}
			if c.fixed {
				if err := r.FixSources(engine.Stream(1, "rank-sources")); err != nil {
					t.Fatal(err)
				}
			}
			for range 3 {
				if err := r.Refresh(); err != nil { // a new draw each time unless fixed
					t.Fatal(err)
				}
				if (dir != "") != (r.spill != nil) || (dir != "") != (r.rows == nil) {
					t.Fatalf("spill %q: spill file %v, held rows %d", dir, r.spill != nil, len(r.rows))
				}
				tr := r.DrawN(200)
				got[s].I, got[s].J, got[s].K = append(got[s].I, tr.I...), append(got[s].J, tr.J...), append(got[s].K, tr.K...)
				got[s].A = append(got[s].A, tr.A...)
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
		}
		if len(got[0].I) == 0 || !slices.Equal(got[0].I, got[1].I) || !slices.Equal(got[0].J, got[1].J) || !slices.Equal(got[0].K, got[1].K) || !slices.Equal(got[0].A, got[1].A) {
			t.Fatalf("%+v: %d triples held, %d spilled, not the same", c, len(got[0].I), len(got[1].I))
		}
	}
}

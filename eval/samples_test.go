package eval

import (
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/data/datatest"
)

// TestTauSampleChunked: with more τ sources than one BFS chunk, every pair's
// distance is the true hop distance (a fresh BFS from its source), at most
// TauChunk evenly spaced sources come back as faithfulness queries with
// their own, correct rows, and the sample is a function of the seed alone
// (the same for 1 and 3 workers, another for another seed).
func TestTauSampleChunked(t *testing.T) {
	sources := 3*TauChunk + 5
	var samples []*PairSample
	for _, w := range []int{1, 3} {
		h := datatest.Hops(t, "caveman:40x10", false, w)
		ps, qs := DrawTauSample(h, sources, 20_000, 7)
		if ps.Sources != sources || len(qs) == 0 || len(qs) > TauChunk {
			t.Fatalf("%d sources, %d queries; want %d sources, 1–%d queries", ps.Sources, len(qs), sources, TauChunk)
		}
		adj := h.Adjs[0]
		row := make([]uint16, adj.N)
		for _, q := range qs {
			adj.BFS(q.Node, 0, row, nil)
			if !slices.Equal(row, q.Row) {
				t.Fatalf("query %d: its row is not its BFS row", q.Node)
			}
		}
		rows := map[int32][]uint16{}
		for k := range ps.I {
			s := ps.I[k]
			if rows[s] == nil {
				rows[s] = make([]uint16, adj.N)
				adj.BFS(int(s), 0, rows[s], nil)
			}
			if d := rows[s][ps.J[k]]; d != ps.D[k] || d == data.Unreachable || ps.J[k] == s {
				t.Fatalf("pair %d (%d, %d): distance %d, BFS says %d", k, s, ps.J[k], ps.D[k], d)
			}
		}
		samples = append(samples, ps)
	}
	if !reflect.DeepEqual(samples[0], samples[1]) {
		t.Error("the τ sample depends on the worker count")
	}
	other, _ := DrawTauSample(datatest.Hops(t, "caveman:40x10", false, 1), sources, 20_000, 8)
	if slices.Equal(other.J, samples[0].J) {
		t.Error("seeds 7 and 8 drew the same τ sample")
	}
}

// TestValSampleDisjointAndSeeded: on the exact path every validation pair
// holds one of the anchors the held-out test τ leaves out, and no pair
// comes twice; on the sampled path no validation pair has an endpoint
// among the τ sample's sources, which every τ pair has. Both are the same
// for one and two workers, and the ranking triples are ordered nearer
// first.
func TestValSampleDisjointAndSeeded(t *testing.T) {
	for _, exact := range []bool{true, false} {
		var samples []*ValSample
		for _, w := range []int{1, 2} {
			h := datatest.Hops(t, "grid:20x20", exact, w)
			var tau *PairSample
			if !exact {
				tau, _ = DrawTauSample(h, 64, 20000, 1)
			}
			v := DrawValSample(h, tau, 64, 20000, 1)
			samples = append(samples, v)
			if v.Pairs.Len() < 100 || len(v.Triples) < 10 {
				t.Fatalf("exact %v: %d pairs, %d triples", exact, v.Pairs.Len(), len(v.Triples))
			}
			dist := map[[2]int32]uint16{}
			for k := range v.Pairs.I {
				dist[[2]int32{v.Pairs.I[k], v.Pairs.J[k]}] = v.Pairs.D[k]
			}
			for _, tr := range v.Triples {
				if dist[[2]int32{tr[0], tr[1]}] >= dist[[2]int32{tr[0], tr[2]}] {
					t.Fatalf("exact %v: triple %v is not nearer first", exact, tr)
				}
			}
			if exact {
				anchors := 0
				for _, a := range v.Exclude {
					if a {
						anchors++
					}
				}
				if anchors != 40 {
					t.Fatalf("exact: %d anchors in 400 nodes, want 40", anchors)
				}
				seen := map[[2]int32]bool{}
				for k := range v.Pairs.I {
					i, j := v.Pairs.I[k], v.Pairs.J[k]
					if !v.Exclude[i] && !v.Exclude[j] {
						t.Fatalf("exact: validation pair (%d, %d) has no anchor: the held-out test τ would count it", i, j)
					}
					key := [2]int32{min(i, j), max(i, j)}
					if seen[key] {
						t.Fatalf("exact: pair %v twice", key)
					}
					seen[key] = true
				}
				continue
			}
			src := map[int32]bool{}
			for _, i := range tau.I {
				src[i] = true
			}
			for k := range v.Pairs.I {
				if src[v.Pairs.I[k]] || src[v.Pairs.J[k]] {
					t.Fatalf("sampled: validation pair (%d, %d) touches a τ source", v.Pairs.I[k], v.Pairs.J[k])
				}
			}
		}
		if !reflect.DeepEqual(samples[0], samples[1]) {
			t.Fatalf("exact %v: the sample differs between one and two workers", exact)
		}
	}
}

// TestRowCosine: against the cosine of explicitly normalised rows, with a
// zero row giving 0.
func TestRowCosine(t *testing.T) {
	v := []float64{3, 4, 0, 0, 1, 0, -2, 0}
	cos := RowCosine(v, 4, 2)
	for _, c := range []struct {
		i, j int
		want float64
	}{{0, 2, 0.6}, {0, 3, -0.6}, {2, 3, -1}, {0, 1, 0}} {
		if got := cos(c.i, c.j); got < c.want-1e-15 || got > c.want+1e-15 {
			t.Errorf("cos(%d, %d) = %v, want %v", c.i, c.j, got, c.want)
		}
	}
}

// TestTauSampleSpilledQueries: the queries' rows written to a spill file
// as the BFS makes them read back as the held rows, entry by entry and by
// span, on a union of two graphs of different sizes (the shorter rows
// padded in the file); the sample itself is the held draw's.
func TestTauSampleSpilledQueries(t *testing.T) {
	var graphs []*data.Graph
	var edges [][][2]int32
	for _, spec := range []string{"caveman:40x10", "grid:7x9"} {
		ds, err := data.Generate(spec, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		graphs, edges = append(graphs, ds.Graphs[0]), append(edges, ds.Graphs[0].Edges)
	}
	u := (&data.Dataset{Graphs: graphs}).Union()
	h, err := data.NewHops(u, edges, false, 2)
	if err != nil {
		t.Fatal(err)
	}
	held, hq := DrawTauSample(h, 150, 5000, 3)
	dir := t.TempDir()
	ps, sq, err := DrawTauSampleSpilled(h, 150, 5000, 3, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ps, held) || len(sq) != len(hq) || len(hq) < 2 {
		t.Fatalf("spilled draw: %d queries, sample equal %v; held: %d queries", len(sq), reflect.DeepEqual(ps, held), len(hq))
	}
	graphsSeen := map[int]bool{}
	buf := make([]uint16, u.N)
	for x, q := range hq {
		s := sq[x]
		graphsSeen[q.Graph] = true
		if s.Graph != q.Graph || s.Node != q.Node || s.Row != nil {
			t.Fatalf("query %d: spilled %+v, held graph %d node %d", x, s, q.Graph, q.Node)
		}
		n := len(q.Row)
		for j := range n {
			if s.Hop(j) != q.Row[j] {
				t.Fatalf("query %d: hop %d reads %d, held %d", x, j, s.Hop(j), q.Row[j])
			}
		}
		if lo, hi := n/3, n-1; !slices.Equal(s.Hops(lo, hi, buf), q.Hops(lo, hi, nil)) {
			t.Fatalf("query %d: span [%d, %d) differs", x, lo, hi)
		}
	}
	if len(graphsSeen) != 2 {
		t.Fatalf("the queries cover graphs %v; the test wants both sizes", graphsSeen)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("the spill left %d files behind", len(entries))
	}
}

// TestFillSweepChunk: where the τ sample's own bound would hold fewer rows
// than a multi-source sweep takes (TauRows below 24 past 10⁷ nodes; here
// forced to 12 on small graphs), a small world's Fill asks for a sweep's
// chunk of rows (data.Hops.ChunkRows) and a grid's keeps its own; either
// way every pair's distance is its source's BFS distance, the queries
// are the same sources with their BFS rows, and filling the sources in
// two ranges (two shards) gives the same distances — for the τ sample
// and the validation sample alike.
func TestFillSweepChunk(t *testing.T) {
	for _, c := range []struct {
		spec  string
		chunk int // what ChunkRows(12) must give
	}{{"ba:3000:3", 64}, {"grid:50x50", 12}} {
		h := datatest.Hops(t, c.spec, false, 2)
		if got := h.ChunkRows(12); got != c.chunk {
			t.Fatalf("%s: ChunkRows(12) = %d, want %d", c.spec, got, c.chunk)
		}
		p := PlanTauSample(h.Union, 100, 8000, 5)
		p.chunk = 12 // as at 10⁷ nodes
		p.stride = (100 + p.chunk - 1) / p.chunk
		d := make([]uint16, p.Sample.Len())
		qs, err := p.Fill(h, 0, 100, d)
		if err != nil {
			t.Fatal(err)
		}
		adj, row := h.Adjs[0], make([]uint16, h.Adjs[0].N)
		nq := 0
		for k := 0; k < 100; k++ {
			adj.BFS(p.srcLocal[k], 0, row, nil)
			lo, hi := p.Pairs(k, k+1)
			for i := lo; i < hi; i++ {
				if d[i] != row[p.Sample.J[i]] {
					t.Fatalf("%s: pair %d of source %d: distance %d, BFS says %d", c.spec, i, k, d[i], row[p.Sample.J[i]])
				}
			}
			if p.IsQuery(k) {
				if nq >= len(qs) || qs[nq].Node != p.srcLocal[k] || !slices.Equal(qs[nq].Row, row) {
					t.Fatalf("%s: query %d (source %d) is not that source with its BFS row", c.spec, nq, k)
				}
				nq++
			}
		}
		if nq != len(qs) || nq != 12 {
			t.Fatalf("%s: %d queries, %d query sources; want 12", c.spec, len(qs), nq)
		}
		parts := make([]uint16, len(d))
		for _, r := range [][2]int{{0, 37}, {37, 100}} {
			if _, err := p.Fill(h, r[0], r[1], parts); err != nil {
				t.Fatal(err)
			}
		}
		if !slices.Equal(parts, d) {
			t.Fatalf("%s: the τ distances filled in two ranges differ", c.spec)
		}

		tau := &PairSample{I: p.Sample.I}
		v := PlanValSample(h.Union, tau, 400, 8000, 5)
		v.chunk = 12
		whole, split := make([]uint16, len(v.D())), make([]uint16, len(v.D()))
		v.Fill(h, 0, v.Sources(), whole)
		v.Fill(h, 0, 20, split)
		v.Fill(h, 20, v.Sources(), split)
		if !slices.Equal(whole, split) {
			t.Fatalf("%s: the validation distances filled in two ranges differ", c.spec)
		}
		for k := 0; k < v.Sources(); k++ {
			adj.BFS(v.srcLocal[k], 0, row, nil)
			lo, hi := v.Pairs(k, k+1)
			for i := lo; i < hi; i++ {
				if whole[i] != row[v.v.Pairs.J[i]] {
					t.Fatalf("%s: validation pair %d: distance %d, BFS says %d", c.spec, i, whole[i], row[v.v.Pairs.J[i]])
				}
			}
		}
	}
}

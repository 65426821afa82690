package run

import (
	"slices"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
)

// TestTauSampleChunked: with more τ sources than one BFS chunk, every pair's
// distance is the true hop distance (a fresh BFS from its source), at most
// tauChunk evenly spaced sources come back as faithfulness queries with
// their own, correct rows, and the sample is the same for any worker count.
func TestTauSampleChunked(t *testing.T) {
	cfg := Default()
	cfg.Dataset, cfg.Distances, cfg.Variant = "caveman:40x10", DistSampled, Base
	cfg.TauSources, cfg.TauPairs = 3*tauChunk+5, 20_000
	ds, err := LoadDataset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = cfg.Resolve(ds); err != nil {
		t.Fatal(err)
	}
	var samples []*eval.PairSample
	for _, w := range []int{1, 3} {
		cfg.Workers = w
		p, err := Prepare(ds, cfg)
		if err != nil {
			t.Fatal(err)
		}
		ps, qs := p.TauSample, p.Queries
		if ps.Sources != cfg.TauSources || len(qs) == 0 || len(qs) > tauChunk {
			t.Fatalf("%d sources, %d queries; want %d sources, 1–%d queries", ps.Sources, len(qs), cfg.TauSources, tauChunk)
		}
		adj := p.Adjs[0]
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
			if d := rows[s][ps.J[k]]; d != ps.D[k] || d == data.Unreachable {
				t.Fatalf("pair %d (%d, %d): distance %d, BFS says %d", k, s, ps.J[k], ps.D[k], d)
			}
		}
		samples = append(samples, ps)
	}
	a, b := samples[0], samples[1]
	if !slices.Equal(a.I, b.I) || !slices.Equal(a.J, b.J) || !slices.Equal(a.D, b.D) || !slices.Equal(a.Batch, b.Batch) {
		t.Error("the τ sample depends on the worker count")
	}
}

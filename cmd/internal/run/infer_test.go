package run

import (
	"fmt"
	"math"
	"testing"

	"github.com/ignn/ignn/cmd/internal/infer"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/models"
)

// TestChunkedInference: chunk by chunk, every node gets the embedding the
// whole-graph forward pass gives it (up to float32 rounding: the batch
// sums a node's neighbours in slot order), for each model that batches,
// with node slots small enough that chunks shrink; a second pass
// gives the same numbers bit for bit.
func TestChunkedInference(t *testing.T) {
	for _, m := range []string{"gcn", "sage", "gin"} {
		c, p, _, f, got, d := chunkedAgainstWhole(t, m, "caveman:30x6", 40)
		small, bounds := 20, f.Bounds()
		for k := 1; k < len(bounds); k++ {
			small = min(small, bounds[k]-bounds[k-1])
		}
		if f.Chunks < 2 || small >= 20 || bounds[len(bounds)-1] != p.Union.N || f.Layerwise() {
			t.Errorf("%s: %d chunks (the smallest %d nodes) in 40 slots, bounds %v, layer-wise %v: the shrinking was not exercised", m, f.Chunks, small, bounds, f.Layerwise())
		}
		// Kept in float32, the embeddings are the same values, and every
		// score of an evaluation is the same.
		z32, d32, err := f.Embeddings32(c.evalRN.Rand)
		if err != nil || d32 != d {
			t.Fatal(err, d32)
		}
		for i := range got {
			if float64(z32[i]) != got[i] {
				t.Fatalf("%s: float32 value %d = %v, float64 %v", m, i, z32[i], got[i])
			}
		}
		s64, _, err64 := evaluate(c, got, d)
		v64 := c.lastVal
		s32, _, err32 := evaluate(c, z32, d)
		if err64 != nil || err32 != nil || fmt.Sprint(s64) != fmt.Sprint(s32) || fmt.Sprint(v64) != fmt.Sprint(c.lastVal) {
			t.Fatalf("%s: scores of float64 and float32 embeddings differ:\n%+v %+v\n%+v %+v", m, s64, v64, s32, c.lastVal)
		}
		f.Close()
		c.Close()
	}
}

// chunkedAgainstWhole builds model m's mini-batch run of Both on the
// generated graph spec (small: evaluated on the whole graph), trains it
// three steps (trained parameters, not the initial ones), and computes the
// embeddings with an inferer of slots node slots: every value within 1e-5
// of the whole-graph forward pass's (float32 rounding: the batch sums a
// node's neighbours in slot order), and a second pass equal bit for bit.
func chunkedAgainstWhole(t *testing.T, m, spec string, slots int) (c *Built, p *Prepared, newInf func() *infer.Inferer, f *infer.Inferer, got []float64, d int) {
	t.Helper()
	cfg := shortRun(m)
	cfg.Dataset, cfg.Variant, cfg.Explicit = spec, Both, map[string]bool{}
	miniBatchRecipe(&cfg)
	rc, _, p := prepared(t, cfg)
	c, err := Build(p, rc)
	if err != nil {
		t.Fatal(err)
	}
	if c.infer != nil || c.batch == nil {
		t.Fatalf("%s: a %d-node graph evaluated in chunks (or without mini-batches)", m, p.Union.N)
	}
	for step := range 3 {
		if err := c.Batch(0, step); err != nil {
			t.Fatal(err)
		}
		if _, err := c.tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	want, d, err := c.Embeddings()
	if err != nil {
		t.Fatal(err)
	}
	entry, _ := models.Lookup(m)
	newInf = func() *infer.Inferer {
		f, err := infer.New(infer.Input{Graph: p.Input, Model: entry.New(rc.ModelConfig), Params: c.ps, Layers: rc.ModelConfig.Layers, Slots: slots})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	f = newInf()
	got, gd, err := f.Embeddings(c.evalRN.Rand)
	if err != nil || gd != d || len(got) != len(want) {
		t.Fatalf("%s: %v, width %d of %d, %d values of %d", m, err, gd, d, len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-5 {
			t.Fatalf("%s: value %d (node %d) = %v, whole graph %v", m, i, i/d, got[i], want[i])
		}
	}
	again, _, _ := f.Embeddings(c.evalRN.Rand)
	for i := range got {
		if again[i] != got[i] {
			t.Fatalf("%s: a second pass changed value %d: %v → %v", m, i, got[i], again[i])
		}
	}
	return c, p, newInf, f, got, d
}

// TestPipelinedInference: chunks prepared while the chunk before runs
// (engine.Prefetch) give every embedding bit for bit as chunks prepared
// one after the other, chunked (caveman:30x6 in 40 slots) and layer-wise
// (ba:600:3 in 120 slots).
func TestPipelinedInference(t *testing.T) {
	defer func(p bool) { engine.Prefetch = p }(engine.Prefetch)
	for _, g := range []struct {
		spec  string
		slots int
	}{{"caveman:30x6", 40}, {"ba:600:3", 120}} {
		engine.Prefetch = true
		c, _, newInf, f, want, _ := chunkedAgainstWhole(t, "gcn", g.spec, g.slots)
		if f.Ahead() == 0 {
			t.Errorf("%s: no chunk was prepared ahead", g.spec)
		}
		f.Close()
		engine.Prefetch = false
		for pass := range 2 { // the sizing pass, then the sized chunks
			f = newInf()
			for range pass + 1 {
				got, _, err := f.Embeddings(c.evalRN.Rand)
				if err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s, pass %d: value %d = %v one chunk after the other, %v pipelined", g.spec, pass, i, got[i], want[i])
					}
				}
			}
			if f.Ahead() != 0 {
				t.Errorf("%s: %d chunks prepared ahead with engine.Prefetch off", g.spec, f.Ahead())
			}
			f.Close()
		}
		c.Close()
	}
}

// TestLayerwiseInference: on a small world (a Barabási–Albert graph, whose
// nodes' 3-hop neighbourhoods are larger than the 120 node slots), the
// inference runs layer-wise, and every node still gets the embedding the
// whole-graph forward pass gives it (up to float32 rounding), for each
// staged model that batches; a second pass and the shards of `embed
// --shard` give the same numbers bit for bit.
func TestLayerwiseInference(t *testing.T) {
	for _, m := range []string{"gcn", "sage", "gin", "sgc"} {
		c, p, newInf, f, got, d := chunkedAgainstWhole(t, m, "ba:600:3", 120)
		if !f.Layerwise() || f.Chunks < 2 {
			t.Fatalf("%s: layer-wise %v, %d chunks: not layer-wise", m, f.Layerwise(), f.Chunks)
		}
		// Shards, each on a fresh inferer as `embed --shard` makes them.
		seen := 0
		for i := range 3 {
			fs := newInf()
			rows, z, sd, err := fs.Shard(c.evalRN.Rand, i, 3)
			if err != nil || (len(rows) > 0 && sd != d) {
				t.Fatalf("%s: shard %d: %v (width %d)", m, i, err, sd)
			}
			for k, v := range rows {
				for j := range d {
					if float64(z[k*d+j]) != float64(float32(got[v*d+j])) {
						t.Fatalf("%s: shard %d, node %d: %v, one process %v", m, i, v, z[k*d+j], got[v*d+j])
					}
				}
			}
			seen += len(rows)
			fs.Close()
		}
		if seen != p.Union.N {
			t.Errorf("%s: the shards gave %d rows of %d", m, seen, p.Union.N)
		}
		f.Close()
		c.Close()
	}
}

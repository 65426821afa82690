package run

import (
	"fmt"
	"testing"
)

// TestKeptEmbeddings: the final evaluation's embeddings, kept for the
// faithfulness, give the numbers of a second inference bit for bit, held
// and spilled, and save that inference; after a training step, or from an
// inference that drew from the evaluation stream, nothing is kept.
func TestKeptEmbeddings(t *testing.T) {
	defer func(v, c int) { ViewInputNodes, ChunkedInferenceNodes = v, c }(ViewInputNodes, ChunkedInferenceNodes)
	ViewInputNodes, ChunkedInferenceNodes = 0, 0
	cfg := shortRun("gcn")
	// No neighbourhood sketch: choosing its share takes an inference pass of
	// its own; no popularity column: a changed weight takes another.
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{"sketch": true, "popularity": true}
	miniBatchRecipe(&cfg)
	cfg.Distances = DistSampled
	for _, spill := range []string{"", t.TempDir()} {
		cfg.Spill = spill
		rc, _, p := prepared(t, cfg)
		// keep: keep the evaluation's embeddings; step: a training step
		// between the evaluation and the faithfulness.
		score := func(keep, step bool) (string, int) {
			c, err := Build(p, rc)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if !c.float32Embeddings() || (spill != "") != (c.spillEmbeddings() != "") {
				t.Fatalf("spill %q: the test wants the chunked float32 evaluation, spilled when asked", spill)
			}
			c.keepNext = keep
			s, _, err := c.Evaluate()
			c.keepNext = false
			if err != nil {
				t.Fatal(err)
			}
			if step {
				if err := c.Feed(0); err != nil {
					t.Fatal(err)
				}
				if err := c.Batch(0, 0); err != nil {
					t.Fatal(err)
				}
				if _, err := c.tr.Step(); err != nil {
					t.Fatal(err)
				}
			}
			f, err := c.Faithfulness()
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("%+v %+v", s, *f), c.infer.Passes()
		}
		again, n2 := score(false, false)
		kept, n1 := score(true, false)
		if n2 != 2 || n1 != 1 || kept != again {
			t.Fatalf("spill %q: kept %d passes, again %d (want 1 and 2); equal: %v\n%.300s\n%.300s", spill, n1, n2, kept == again, kept, again)
		}
		stepAgain, _ := score(false, true)
		stepKept, n := score(true, true)
		if n != 2 || stepKept != stepAgain || stepKept == again {
			t.Fatalf("spill %q: after a step the faithfulness took %d passes (want 2: the kept rows are stale); equal to a fresh one: %v", spill, n, stepKept == stepAgain)
		}
	}
	c, err := Build(func() *Prepared { _, _, p := prepared(t, cfg); return p }(), func() Config { rc, _, _ := prepared(t, cfg); return rc }())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	before := c.evalState()
	c.evalRN.Uint64() // an inference that drew
	c.keepNext = true
	if c.keep(before, &emb32{}) || c.kept != nil {
		t.Fatal("embeddings kept from an inference that drew from the evaluation stream")
	}
}

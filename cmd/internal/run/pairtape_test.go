package run

import (
	"fmt"
	"testing"
)

// TestPairTape: a run's evaluations on the sampled path give the same
// scores whether their products come off the tape or as asked: the first
// evaluation records (eval.PairTape), the later ones answer from the tape.
func TestPairTape(t *testing.T) {
	defer func(v, c int) { ViewInputNodes, ChunkedInferenceNodes = v, c }(ViewInputNodes, ChunkedInferenceNodes)
	ViewInputNodes, ChunkedInferenceNodes = 0, 0
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{}
	cfg.Distances = DistSampled
	rc, _, p := prepared(t, cfg)
	c, err := Build(p, rc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.p.Exact() {
		t.Fatal("the test wants the sampled path")
	}
	scores := func() string {
		t.Helper()
		s, _, err := c.Evaluate()
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%+v %+v", s, c.lastVal)
	}
	first := scores()
	recorded := c.tape.Recorded()
	if recorded == 0 {
		t.Fatal("the first evaluation recorded no pairs")
	}
	for range 2 {
		if again := scores(); again != first || c.tape.Recorded() != recorded {
			t.Fatalf("from the tape: %d pairs (want %d); equal scores: %v\n%.300s\n%.300s", c.tape.Recorded(), recorded, again == first, again, first)
		}
	}
}

// TestEvalPairCount: the memory plan's count of an evaluation's pairs
// (memplan.Shape.EvalPairs) bounds what the first evaluation records on the
// sampled path, and closely (the validation sample's triples are at most,
// not exactly, one per two of its pairs).
func TestEvalPairCount(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "grid:60x60", Both, map[string]bool{}
	cfg.TauPairs, cfg.Distances = 20000, DistSampled // well below the graph's pairs: the τ sample holds as many as asked
	rc, ds, p := prepared(t, cfg)
	if p.Exact() {
		t.Fatal("the test wants the sampled path")
	}
	c, err := Build(p, rc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := c.Evaluate(); err != nil {
		t.Fatal(err)
	}
	recorded, bound := int64(c.tape.Recorded()), shapeOf(rc, ds).EvalPairs()
	t.Logf("recorded %d pairs; the plan counts %d", recorded, bound)
	if recorded > bound || float64(recorded) < 0.97*float64(bound) {
		t.Fatalf("the first evaluation recorded %d pairs; the memory plan counts %d", recorded, bound)
	}
}

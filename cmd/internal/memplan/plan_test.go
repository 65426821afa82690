package memplan

import (
	"strings"
	"testing"

	"github.com/ignn/ignn/models"
)

// TestPlanSteps: a phase's peak is its whole-phase parts plus its largest
// step (steps of a phase never overlap), the plan's the whole-run parts
// plus the larger phase.
func TestPlanSteps(t *testing.T) {
	p := Plan{Parts: []MemPart{
		{What: "graph", Bytes: 100},
		{What: "encode rows", Bytes: 30, Phase: PhasePrepare, step: "encode"},
		{What: "τ rows", Bytes: 20, Phase: PhasePrepare, step: "tau"},
		{What: "τ scratch", Bytes: 15, Phase: PhasePrepare, step: "tau"},
		{What: "batch", Bytes: 10, Phase: PhaseTrain},
		{What: "rank rows", Bytes: 25, Phase: PhaseTrain, step: "rank"},
		{What: "products", Bytes: 28, Phase: PhaseTrain, step: "evaluate"},
	}}
	if got, want := p.total(), int64(100+10+28); got != want { // prepare max(30, 35) = 35 < train 10 + max(25, 28)
		t.Fatalf("total %d, want %d", got, want)
	}
	p.Parts[2].Bytes = 40 // τ step 55 > train 38
	if got, want := p.total(), int64(100+55); got != want {
		t.Fatalf("total %d, want %d", got, want)
	}
}

// TestParseBytes: sizes with and without units; nonsense refused.
func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{"12G": 12 << 30, "500M": 500 << 20, "1.5k": 1536, "2TB": 2 << 40, "4096": 4096} {
		if got, err := ParseBytes(s); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, bad := range []string{"12X", "-1G", "NaN", "0"} {
		if _, err := ParseBytes(bad); err == nil {
			t.Errorf("ParseBytes(%q) accepted", bad)
		}
	}
}

// TestPlanLayerwiseSteps: where the evaluations' inference runs layer-wise
// (a staged model's chunked inference whose widest neighbourhood exceeds
// the slots), its two stages' rows of every node and the held embeddings
// with their pair tape are steps of the training phase that do not overlap
// (the stages' rows are garbage once the last stage has put every row), so
// the plan counts the larger of them, not both.
func TestPlanLayerwiseSteps(t *testing.T) {
	s := Shape{Nodes: 300_000, Edges: 900_000, GraphNodes: []int{300_000}, Attributes: 1, Model: "gcn",
		ModelConfig: models.Config{Hidden: 32, Layers: 3, Out: 32}, Staged: true,
		BatchSize: 64, Slots: 1200, Widest: 250_000, MSE: true, Rank: true, RankTriples: 64, MSESources: 16,
		TauPairs: 100_000, TauSources: 64, ChunkedInfer: true, Float32Emb: true}
	if !s.Layerwise() {
		t.Fatal("the shape does not run layer-wise")
	}
	p := Estimate(s)
	steps := map[string]int64{}
	var whole, common int64
	for _, q := range p.Parts {
		switch {
		case q.Phase == "":
			whole += q.Bytes
		case q.Phase == PhaseTrain && q.step == "":
			common += q.Bytes
		case q.Phase == PhaseTrain:
			steps[q.step] += q.Bytes
		}
		for prefix, step := range map[string]string{"layer-wise inference": "layerwise", "evaluation embeddings": "evaluate", "evaluation pairs and products": "evaluate"} {
			if strings.HasPrefix(q.What, prefix) && (q.Phase != PhaseTrain || q.step != step) {
				t.Errorf("%q: phase %q step %q, want %q %q", q.What, q.Phase, q.step, PhaseTrain, step)
			}
		}
	}
	if steps["layerwise"] == 0 || steps["evaluate"] == 0 {
		t.Fatalf("steps %v: want layerwise and evaluate", steps)
	}
	if want := whole + common + max(steps["layerwise"], steps["evaluate"]); p.Total != want {
		t.Errorf("total %d, want %d (whole %d, training %d, steps %v)", p.Total, want, whole, common, steps)
	}
	s.Staged = false // chunked, one pass: no layer-wise part
	for _, q := range Estimate(s).Parts {
		if strings.HasPrefix(q.What, "layer-wise") {
			t.Errorf("an unstaged model's plan has %q", q.What)
		}
	}
}

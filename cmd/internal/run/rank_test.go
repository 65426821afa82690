package run

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/features"
	"github.com/ignn/ignn/objective"
)

// TestRankDistanceLoss: --distance-loss rank resolves its defaults and is
// recorded; the history carries the ranking loss and no MSE; the same seed
// gives the same numbers for 1 and 3 BFS workers on the sampled path and
// on the exact path; a run interrupted and resumed ends exactly like the
// full run (the triples come from a checkpointed stream); variants without
// the distance term drop it.
func TestRankDistanceLoss(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.DistanceLoss = objective.DistanceRank
	full, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	rc := full.Config
	if rc.RankTemp != DefaultRankTemp || rc.RankTriples != DefaultRankTriples || !strings.Contains(full.Supervision, "ranking") {
		t.Fatalf("resolved %+v, pairs %q", rc, full.Supervision)
	}
	if b, _ := json.Marshal(rc); !strings.Contains(string(b), `"distance_loss":"rank"`) {
		t.Errorf("config JSON without the distance loss: %s", b)
	}
	h := full.History[len(full.History)-1]
	if !(h.RankLoss > 0) || h.MSELoss != 0 {
		t.Errorf("history: rank loss %v, MSE loss %v", h.RankLoss, h.MSELoss)
	}
	dir := t.TempDir()
	c2 := cfg
	c2.Save = dir
	interruptAfter(t, c2, 9)
	resumed, err := Resume(context.Background(), dir, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(full.Final, resumed.Final) {
		t.Errorf("resumed rank run differs: %+v vs %+v", full.Final, resumed.Final)
	}
	for _, d := range []DistanceSource{DistSampled, DistExact} {
		var finals []Metrics
		for _, w := range []int{1, 3} {
			c := shortRun("gcn")
			c.Dataset, c.Distances, c.Workers, c.Epochs = "caveman:30x6", d, w, 10
			c.DistanceLoss, c.RankTriples, c.MSESources = objective.DistanceRank, 4096, 8
			r, err := Run(context.Background(), c, Hooks{})
			if err != nil {
				t.Fatal(err)
			}
			finals = append(finals, r.Final)
		}
		if !reflect.DeepEqual(finals[0], finals[1]) {
			t.Errorf("%s: workers 1 and 3 differ: %+v vs %+v", d, finals[0], finals[1])
		}
	}
	h2 := Default()
	h2.Variant, h2.DistanceLoss, h2.RankTemp = Hash, objective.DistanceRank, 0.5
	if r := h2.WithDefaults(); r.DistanceLoss != "" || r.RankTemp != 0 {
		t.Errorf("hash variant keeps the ranking term: %+v", r)
	}
}

// TestRecipePrincipalAndPairs: a user's graph under the large defaults
// resolves to SmallGraphLandmarks landmarks, the principal skip start and
// pair triples (and says so in its note); the skip map starts at exactly
// features.PrincipalMap of the chosen skip block; the run trains on pair
// triples (its supervision says so, the history has a ranking loss) and
// gives the same numbers for 1 and 2 workers.
func TestRecipePrincipalAndPairs(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{}
	cfg.BatchSteps, cfg.Explicit["batch-steps"] = 5, true
	rc, _, p := prepared(t, cfg)
	if !rc.SkipPrincipal || !rc.RankPairs || rc.Position.K != SmallGraphLandmarks || !strings.Contains(rc.ScaleNote, "--skip-principal=true") || !strings.Contains(rc.ScaleNote, "--rank-pairs=true") {
		t.Fatalf("resolved: principal %v, pairs %v, position %v, note %q", rc.SkipPrincipal, rc.RankPairs, rc.Position, rc.ScaleNote)
	}
	sk := p.Input.Skip
	want := features.PrincipalMap(sk.Dense32, sk.N, sk.DenseDim, rc.ModelConfig.Out) // a float32 run: the block as stored
	c, err := Build(p, rc)
	if err != nil {
		t.Fatal(err)
	}
	got := c.ps.Tensor("gcn.skip.Wd")
	if got == nil {
		t.Fatalf("no gcn.skip.Wd among %v", c.ps.Names())
	}
	for i, v := range got.Float32s() {
		if v != float32(want[i]) {
			t.Fatalf("skip map entry %d starts at %v, want the principal map's %v", i, v, want[i])
		}
	}
	c.Close()
	var finals []Metrics
	for _, w := range []int{1, 2} {
		c := cfg
		c.Workers = w
		r, err := Run(context.Background(), c, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Supervision, "pair triples") || !(r.History[len(r.History)-1].RankLoss > 0) {
			t.Fatalf("supervision %q, last rank loss %v", r.Supervision, r.History[len(r.History)-1].RankLoss)
		}
		finals = append(finals, r.Final)
	}
	if !reflect.DeepEqual(finals[0], finals[1]) {
		t.Errorf("workers 1 and 2 differ: %+v vs %+v", finals[0], finals[1])
	}
}

// TestIneffectiveRecipeFlags: --rank-pairs without the ranking term and
// --skip-principal without the skip path are said to do nothing.
func TestIneffectiveRecipeFlags(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Variant, cfg.Epochs, cfg.EvalEvery = Base, 1, 1
	cfg.RankPairs, cfg.SkipPrincipal = true, true
	var warned []string
	if _, err := Run(context.Background(), cfg, Hooks{Warn: func(m string) { warned = append(warned, m) }}); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(warned, "\n")
	for _, want := range []string{"--rank-pairs has no effect", "--skip-principal"} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings %q lack %q", all, want)
		}
	}
}

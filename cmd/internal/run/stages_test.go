package run

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/stages"
	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/features"
)

// stagesUnion is a 3-graph link dataset (one in two pieces, so some
// landmarks and τ targets are unreachable).
func stagesUnion(t *testing.T) *data.Dataset {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	var gs []*data.Graph
	for gi, n := range []int{70, 36, 52} {
		var edges [][2]int32
		for i := 1; i < n; i++ {
			if gi != 1 || i != n/2 {
				edges = append(edges, [2]int32{int32(rng.IntN(i)), int32(i)})
			}
		}
		for range n / 2 {
			a, b := rng.IntN(n), rng.IntN(n)
			if a != b {
				edges = append(edges, [2]int32{int32(a), int32(b)})
			}
		}
		g, err := data.NewGraph("g", n, edges)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	return &data.Dataset{Name: "stages-union", Graphs: gs, Identity: false}
}

// TestStagePartsEqualInProcess: the BFS stages computed as 1, 3 or 7 parts
// (some holding no landmark) and read back give Prepare's τ sample,
// faithfulness queries, validation sample, encoding and model input bit
// for bit, on a 3-graph
// union; a missing part, a part of another seed and a mixed --shards count
// are named errors.
func TestStagePartsEqualInProcess(t *testing.T) {
	ds := stagesUnion(t)
	for _, g := range ds.Graphs {
		g.XDim = 1
		g.X = make([]float64, g.N)
	}
	cfg := Default()
	cfg.Model, cfg.Variant, cfg.Distances, cfg.TauSources, cfg.TauPairs = "gcn", Both, DistSampled, 20, 900
	cfg.Position = features.Position{Kind: features.PosLandmark, K: 5}
	cfg.PositionSkip = true
	cfg, err := cfg.Resolve(ds)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Prepare(ds, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 3, 7} {
		dir := t.TempDir()
		for i := range n {
			if _, _, err := PrepareStagePart(ds, cfg, dir, i, n); err != nil {
				t.Fatal(err)
			}
		}
		c := cfg
		c.Stages = dir
		got, err := Prepare(ds, c)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.TauSample, want.TauSample) || !reflect.DeepEqual(got.Queries, want.Queries) {
			t.Fatalf("%d parts: the τ sample or its queries differ", n)
		}
		if !reflect.DeepEqual(got.valSample(c), want.valSample(cfg)) || got.val == nil {
			t.Fatalf("%d parts: the validation sample differs (or was not read)", n)
		}
		if !reflect.DeepEqual(got.Encoding, want.Encoding) || !reflect.DeepEqual(got.Input, want.Input) {
			t.Fatalf("%d parts: the landmark encoding or the model input differ", n)
		}
		if n == 7 {
			other := cfg
			other.Seed = 9
			if _, _, err := PrepareStagePart(ds, other, dir, 2, 7); err != nil {
				t.Fatal(err)
			}
			if _, err := Prepare(ds, c); err == nil || !strings.Contains(err.Error(), "bfs.shard-2-of-7.npz: computed for another run") {
				t.Fatalf("a part of another seed: %v", err)
			}
			os.Remove(stages.PartPath(dir, 2, 7))
			if _, err := Prepare(ds, c); err == nil || !strings.Contains(err.Error(), "part 2 of 7") {
				t.Fatalf("a missing part: %v", err)
			}
			if _, _, err := PrepareStagePart(ds, cfg, dir, 0, 2); err != nil {
				t.Fatal(err)
			}
			if _, err := Prepare(ds, c); err == nil || !strings.Contains(err.Error(), "keep the parts of one --shards count") {
				t.Fatalf("mixed counts: %v", err)
			}
		}
	}
	exact := cfg
	exact.Distances, exact.Stages = DistExact, t.TempDir()
	if _, err := Prepare(ds, exact); err == nil || !strings.Contains(err.Error(), "exact tables") {
		t.Fatalf("exact distances: %v", err)
	}
}

// TestStagesRun: a whole run reading its BFS stages from 3 parts has the
// history of the run that computes them, and its checkpoint's embedding
// parts are the same with the stages read (embed --prepared) or computed.
func TestStagesRun(t *testing.T) {
	cfg := shortRun("gcn")
	// No sketch: the BFS stages are tested (test-cluster runs --prepared with it).
	cfg.Dataset, cfg.Variant, cfg.Explicit, cfg.Distances = "caveman:30x6", Both, map[string]bool{"sketch": true}, DistSampled
	miniBatchRecipe(&cfg)
	want, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	rc, ds, _ := prepared(t, cfg)
	dir := t.TempDir()
	for i := range 3 {
		if _, _, err := PrepareStagePart(UseFeatures(ds, rc), rc, dir, i, 3); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Stages, cfg.Save = dir, t.TempDir()
	got, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	// JSON: the faithfulness report's last bucket holds a NaN.
	gf, _ := json.Marshal(got.Faithfulness)
	wf, _ := json.Marshal(want.Faithfulness)
	if !reflect.DeepEqual(got.History, want.History) || string(gf) != string(wf) {
		t.Fatalf("a run on precomputed stages differs:\n%+v\n%+v", got.History, want.History)
	}
	ck, err := LoadCheckpoint(cfg.Save)
	if err != nil {
		t.Fatal(err)
	}
	rows, z, _, _, err := EmbedShard(ck, ds, 1, 2, 40)
	if err != nil {
		t.Fatal(err)
	}
	ck.Config.Stages = dir
	rows2, z2, _, _, err := EmbedShard(ck, ds, 1, 2, 40)
	if err != nil || !reflect.DeepEqual(rows, rows2) || !reflect.DeepEqual(z, z2) {
		t.Fatalf("an embedding part on the stages read differs from the part that computes them (%v)", err)
	}
}

package run

import (
	"context"
	"reflect"
	"testing"

	"github.com/ignn/ignn/cmd/internal/infer"
	"github.com/ignn/ignn/models"
)

// TestViewInputs: a run whose input and skip block are views of the
// landmark hop counts (ViewInputNodes lowered to every size) gives the
// stored run's numbers bit for bit — mini-batch steps (LoadRows), the
// whole-graph evaluation (the view stored once), the skip choice's cosines
// and the principal start — and chunked inference reads the same rows.
func TestViewInputs(t *testing.T) {
	defer func(v int) { ViewInputNodes = v }(ViewInputNodes)
	cfg := shortRun("gcn")
	cfg.Dataset, cfg.Variant, cfg.Explicit = "caveman:30x6", Both, map[string]bool{}
	miniBatchRecipe(&cfg)
	var res []*Result
	var preps []*Prepared
	for _, nodes := range []int{ChunkedInferenceNodes, 0} {
		ViewInputNodes = nodes
		r, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, r)
		_, _, p := prepared(t, cfg)
		preps = append(preps, p)
	}
	if v := preps[1].Input; v.X.View == nil || v.Skip == nil || v.Skip.View == nil || preps[0].Input.X.View != nil {
		t.Fatal("the lowered threshold made no views (or the default made some)")
	}
	if !reflect.DeepEqual(res[0].History, res[1].History) || !reflect.DeepEqual(res[0].SkipChoice, res[1].SkipChoice) {
		t.Fatalf("stored and viewed inputs differ:\n%+v\n%+v", res[0].History, res[1].History)
	}
	if !reflect.DeepEqual(preps[0].Input.SkipInit, preps[1].Input.SkipInit) {
		t.Fatal("the principal skip start differs")
	}
	rc, _, _ := prepared(t, cfg)
	c, err := Build(preps[0], rc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	entry, _ := models.Lookup("gcn")
	var embs [][]float64
	for _, p := range preps {
		f, err := infer.New(infer.Input{Graph: p.Input, Model: entry.New(rc.ModelConfig), Params: c.ps, Layers: rc.ModelConfig.Layers, Slots: 40})
		if err != nil {
			t.Fatal(err)
		}
		z, _, err := f.Embeddings(c.evalRN.Rand)
		if err != nil {
			t.Fatal(err)
		}
		embs = append(embs, z)
	}
	if !reflect.DeepEqual(embs[0], embs[1]) {
		t.Fatal("chunked inference differs between stored and viewed inputs")
	}
}

package grid

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/cmd/internal/run"
	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// TestInputRowsCosine: inputRows' dot products are the cosines of the full
// input rows, one-hot identity included, by brute force.
func TestInputRowsCosine(t *testing.T) {
	cfg := run.Default()
	cfg.Variant, cfg.Dataset = run.Hash, "caveman:6x5"
	cfg.Position, _ = features.ParsePosition("landmark:6")
	p, cfg := prepareFor(t, cfg)
	z, d := inputRows(p)
	x := p.Input.X
	xd := x.DenseFloat64()
	full := func(i int) []float64 { // [one-hot | dense], explicitly
		row := make([]float64, x.Sparse.Cols+d)
		for k := x.Sparse.RowPtr[i]; k < x.Sparse.RowPtr[i+1]; k++ {
			row[x.Sparse.ColIdx[k]] = x.Sparse.Val[k]
		}
		copy(row[x.Sparse.Cols:], xd[i*d:(i+1)*d])
		return row
	}
	for i := 0; i < x.N; i++ {
		for j := i + 1; j < x.N; j++ {
			a, b := full(i), full(j)
			var ab, aa, bb, got float64
			for k := range a {
				ab, aa, bb = ab+a[k]*b[k], aa+a[k]*a[k], bb+b[k]*b[k]
			}
			for k := 0; k < d; k++ {
				got += z[i*d+k] * z[j*d+k]
			}
			if want := ab / math.Sqrt(aa*bb); math.Abs(got-want) > 1e-12 {
				t.Fatalf("cos(%d, %d) = %g, want %g", i, j, got, want)
			}
		}
	}
	s, err := InputReference(cfg)
	if err != nil || !(s.Tau > 0.3) {
		t.Fatalf("landmark input τ %v, err %v (distances to landmarks should track hop distance)", s.Tau, err)
	}
}

// TestInputCosineOnDemand: the sampled path's cosine, each row read as it
// is needed, equals inputRows' dot products bit for bit, on a one-hot
// identity with a dense encoding and on a float32 view of hop counts;
// and the sampled reference scores the same as over the whole copy,
// pair by pair and, from hop counts in a spill file, streamed in blocks.
func TestInputCosineOnDemand(t *testing.T) {
	defer func(v int) { run.ViewInputNodes = v }(run.ViewInputNodes)
	run.ViewInputNodes = 0
	small := run.Default()
	small.Variant, small.Dataset = run.Hash, "caveman:6x5"
	small.Position, _ = features.ParsePosition("landmark:6")
	large := run.Default()
	large.Variant, large.Dataset, large.Scale, large.Explicit = run.Hash, "grid:12x12", run.ScaleLarge, map[string]bool{"batch-steps": true}
	large.BatchSteps = 50 // the mini-batch recipe, whose input is a view
	large.Position, _ = features.ParsePosition("landmark:8")
	large.Distances, large.TauSources, large.TauPairs = run.DistSampled, 12, 400
	spilled := large
	spilled.Spill = t.TempDir()
	defer func(b int) { InputBlockBytes = b }(InputBlockBytes)
	sampled := false
	for _, cfg := range []run.Config{small, large, spilled} {
		p, cfg := prepareFor(t, cfg)
		if cfg.Scale == run.ScaleLarge && p.Input.X.View == nil {
			t.Fatalf("%s: the large configuration should read its input through a view: %+v", cfg.Dataset, cfg)
		}
		if x := p.Input.X; x.ViewInOrder != (cfg.Spill != "") {
			t.Fatalf("%s, spill %q: view in order %v", cfg.Dataset, cfg.Spill, x.ViewInOrder)
		}
		InputBlockBytes = 8 * p.Input.X.DenseDim * 10 // 10 rows: 15 blocks, the rows streamed past each
		z, d := inputRows(p)
		want, got := engine.RowDot(z, d), inputCosine(p.Input.X)
		n := p.Input.X.N
		for i := range n {
			for j := range n { // i repeats (the kept row) and changes
				if a, b := got(i, j), want(i, j); a != b {
					t.Fatalf("%s: cos(%d, %d) = %v on demand, %v from the copy", cfg.Dataset, i, j, a, b)
				}
			}
		}
		if p.Exact() {
			continue
		}
		sampled = true
		var e eval.Evaluator
		s1, _ := e.SampledMetrics(z, d, p.Splits, p.Union, p.TauSample)
		s2, err := InputReference(cfg)
		if err != nil || fmt.Sprint(s1) != fmt.Sprint(s2) {
			t.Fatalf("%s: reference %+v (err %v), over the copy %+v", cfg.Dataset, s2, err, s1)
		}
	}
	if !sampled {
		t.Fatal("no configuration took the sampled path")
	}
}

// TestCompareInputsOnly: --inputs-only gives the reference rows of the
// full comparison, trains no cell, and refuses a grid with nothing to score
// or a shard.
func TestCompareInputsOnly(t *testing.T) {
	base := run.Default()
	base.Dataset, base.Epochs, base.EvalEvery = "caveman:6x5", 2, 1
	lm, _ := features.ParsePosition("landmark:6")
	hash, _ := features.ParsePosition("hash")
	cc := CompareConfig{Base: base, Models: []string{"gcn"}, Variants: []run.Variant{run.Hash}, Repeats: 2, Positions: []features.Position{lm, hash}}
	full, err := Compare(context.Background(), cc, CompareHooks{})
	if err != nil {
		t.Fatal(err)
	}
	cc.InputsOnly, cc.Out = true, t.TempDir()
	only, err := Compare(context.Background(), cc, CompareHooks{})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Cells) == 0 || len(only.Cells) != 0 || len(only.Inputs) != 2 || !reflect.DeepEqual(full.Inputs, only.Inputs) {
		t.Fatalf("inputs only: %d cells, inputs %+v; the full comparison: %d cells, inputs %+v", len(only.Cells), only.Inputs, len(full.Cells), full.Inputs)
	}
	if cells, _ := os.ReadDir(filepath.Join(cc.Out, "cells")); len(cells) != 0 {
		t.Fatalf("inputs only wrote %d cell files", len(cells))
	}
	for _, bad := range []func(*CompareConfig){
		func(c *CompareConfig) { c.Positions = nil },
		func(c *CompareConfig) { c.Shard = Shard{I: 1, N: 2} },
	} {
		c := cc
		bad(&c)
		if _, err := Compare(context.Background(), c, CompareHooks{}); err == nil || !strings.Contains(err.Error(), "--inputs-only") {
			t.Fatalf("want an --inputs-only error, got %v", err)
		}
	}
}

// TestRunInputReference: from 50,000 nodes a featureless graph's run reads
// a constant column instead of the one-hot identity, and the as-run row
// scores exactly that input (the same scores as a configuration that asks
// for --features constant); below, the run reads the input as loaded and
// the as-run scores are InputReference's. The compare's reference rows
// carry the second row only where it differs.
func TestRunInputReference(t *testing.T) {
	small := run.Default()
	small.Variant, small.Dataset = run.Hash, "caveman:6x5"
	small.Position, _ = features.ParsePosition("landmark:6")
	s, differs, err := RunInputReference(small)
	want, err2 := InputReference(small)
	if err != nil || err2 != nil || differs || fmt.Sprint(s) != fmt.Sprint(want) {
		t.Fatalf("small graph: as run %+v (differs %v, err %v), as loaded %+v (err %v)", s, differs, err, want, err2)
	}

	large := run.Default()
	large.Dataset, large.Explicit = "grid:224x224", map[string]bool{} // 50,176 nodes; the large defaults apply
	large.Position, _ = features.ParsePosition("landmark:8")
	large.TauSources, large.TauPairs = 16, 4000
	asRun, differs, err := RunInputReference(large)
	if err != nil || !differs {
		t.Fatalf("large graph: differs %v, err %v", differs, err)
	}
	loaded, err := InputReference(large)
	if err != nil {
		t.Fatal(err)
	}
	constant := large
	constant.Features = "constant"
	want, err = InputReference(constant)
	if err != nil || fmt.Sprint(asRun) != fmt.Sprint(want) {
		t.Fatalf("large graph: as run %+v, with --features constant %+v (err %v)", asRun, want, err)
	}
	if fmt.Sprint(asRun) == fmt.Sprint(loaded) {
		t.Fatalf("large graph: the as-run row scored the identity input: %+v", asRun)
	}

	cc := CompareConfig{Base: large, Models: []string{"gcn"}, Variants: []run.Variant{run.Hash}, Repeats: 1, Positions: []features.Position{large.Position}}
	rows, trows, err := cc.inputReferences()
	if err != nil || len(rows) != 2 || len(trows) != 2 || rows[0].Features != "" || rows[1].Features != "constant" ||
		float64(rows[1].TauMean) != asRun.Tau || float64(rows[0].TauMean) != loaded.Tau || !strings.Contains(trows[1].Variant, "as run") {
		t.Fatalf("compare rows %+v, table rows %+v, err %v", rows, trows, err)
	}
	cc.Base = small
	cc.Positions = []features.Position{small.Position}
	if rows, _, err = cc.inputReferences(); err != nil || len(rows) != 1 {
		t.Fatalf("small graph: rows %+v, err %v", rows, err)
	}
}

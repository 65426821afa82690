package run

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ignn/ignn/data"
	"github.com/ignn/ignn/eval"
	"github.com/ignn/ignn/features"
)

// TestPositionRuns trains both with each graph encoding: the configuration
// records it, no hash is built, the encoding is described, the history has
// every evaluation with both losses, and a lap run interrupted and resumed
// (its sign-flip stream is checkpointed) ends exactly like the full run.
func TestPositionRuns(t *testing.T) {
	for _, pos := range []string{"lap:8", "rw:8", "landmark:8"} {
		cfg := shortRun("gcn")
		cfg.Epochs, cfg.EvalEvery, cfg.Position = 10, 5, position(t, pos)
		full, err := Run(context.Background(), cfg, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		if full.Config.Position.String() != pos || full.HashDim != 0 || len(full.Encoding) != 1 || full.EncodingSeconds <= 0 {
			t.Fatalf("%s: config position %q, hash dim %d, encoding %+v", pos, full.Config.Position, full.HashDim, full.Encoding)
		}
		if len(full.History) != 3 || full.History[2].Epoch != 9 || !(full.History[0].BCELoss > 0) || !(full.History[0].MSELoss > 0) {
			t.Fatalf("%s: history %+v", pos, full.History)
		}
		if pos != "lap:8" {
			continue
		}
		if e := full.Encoding[0]; e.Method != "dense" || e.MaxResidual > 1e-8 || len(e.Eigenvalues) != 8 {
			t.Fatalf("lap encoding %+v", e)
		}
		dir := t.TempDir()
		cfg.Save = dir
		interruptAfter(t, cfg, 6)
		resumed, err := Resume(context.Background(), dir, Hooks{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(full.Final, resumed.Final) || !reflect.DeepEqual(full.History, resumed.History) {
			t.Fatalf("resumed lap run differs:\nfull    %+v\nresumed %+v", full.History, resumed.History)
		}
	}
}

// TestHashPositionIsTheDefault: --position hash is the run without the
// flag, bit for bit, and resolves to the same configuration.
func TestHashPositionIsTheDefault(t *testing.T) {
	a, b := shortRun("gcn"), shortRun("gcn")
	a.Epochs, a.EvalEvery, b.Epochs, b.EvalEvery = 5, 5, 5, 5
	b.Position = position(t, "hash")
	ra, err := Run(context.Background(), a, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Run(context.Background(), b, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if rb.Config.Position != (features.Position{}) || !reflect.DeepEqual(ra.Final, rb.Final) || ra.HashDim != 400 {
		t.Fatalf("--position hash differs from the default: %q %+v %+v", rb.Config.Position, ra.Final, rb.Final)
	}
}

func TestEmbedRefusesGraphEncodings(t *testing.T) {
	ck := &Checkpoint{Config: Config{Position: position(t, "lap:16")}}
	_, err := EmbedInductive(ck, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "lap:16") || !strings.Contains(err.Error(), "--position hash") {
		t.Fatalf("embed with a lap model: %v", err)
	}
}

// TestPositionValidation: a stored configuration (a checkpoint, a cell
// file) with a position that does not parse is refused when it is read;
// one that parses round-trips to the same JSON.
func TestPositionValidation(t *testing.T) {
	for _, p := range []string{"lap", "lap:0", "pca:3", "rw:99999"} {
		var cfg Config
		err := json.Unmarshal([]byte(`{"position":"`+p+`"}`), &cfg)
		if err == nil || !strings.Contains(err.Error(), "positional input") {
			t.Errorf("position %q: %v", p, err)
		}
	}
	for _, p := range []string{"lap:16", "rw:8", "landmark:32"} {
		var cfg Config
		in := `{"position":"` + p + `"}`
		if err := json.Unmarshal([]byte(in), &cfg); err != nil || cfg.Position.String() != p {
			t.Fatalf("position %q: %v %v", p, cfg.Position, err)
		}
		if b, _ := json.Marshal(cfg); !strings.Contains(string(b), `"position":"`+p+`"`) {
			t.Errorf("position %q marshals as %s", p, b)
		}
	}
	if b, _ := json.Marshal(Default()); strings.Contains(string(b), `"position"`) {
		t.Errorf("the hash position is written: %s", b)
	}
}

// position parses a --position value or fails the test.
func position(t testing.TB, s string) features.Position {
	t.Helper()
	p, err := features.ParsePosition(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPositionSkip: --position-skip adds the skip weights for the stack
// models (the parameter count grows by K × out) and is refused for P-GNN.
func TestPositionSkip(t *testing.T) {
	cfg := shortRun("gcn")
	cfg.Epochs, cfg.EvalEvery, cfg.Position = 5, 5, position(t, "landmark:8")
	plain, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.PositionSkip = true
	skip, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if skip.Params != plain.Params+8*cfg.ModelConfig.Hidden || !skip.Config.PositionSkip {
		t.Fatalf("params %d → %d with the skip path (want +%d)", plain.Params, skip.Params, 8*cfg.ModelConfig.Hidden)
	}
	cfg.SkipIdentity = true // the one-hot identity joins the skip block: a free N × Out table
	ident, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if ident.Params != skip.Params+ident.Nodes*cfg.ModelConfig.Out || !ident.Config.SkipIdentity {
		t.Fatalf("--skip-identity: params %d → %d (want +%d)", skip.Params, ident.Params, ident.Nodes*cfg.ModelConfig.Out)
	}
	cfg.SkipIdentity = false
	cfg.SkipStandardise = true
	cfg.DType = Float64 // the blocks' exact values; a float32 run stores them rounded (checked at the end)
	_, _, pr := prepared(t, cfg)
	x, sk := pr.Input.X, pr.Input.Skip
	for c := 0; c < 8; c++ {
		var mean, sq float64
		same := true
		for r := 0; r < x.N; r++ {
			v := sk.Dense[r*8+c]
			mean, sq = mean+v, sq+v*v
			same = same && v == x.Dense[r*x.DenseDim+pr.EncodingCol+c]
		}
		mean /= float64(x.N)
		if math.Abs(mean) > 1e-12 || math.Abs(sq/float64(x.N)-1) > 1e-9 || same {
			t.Errorf("--skip-standardise: skip column %d has mean %g, mean square %g (the input's own column: %v)", c, mean, sq/float64(x.N), same)
		}
	}
	cfg.SkipPolar = features.SkipPolarOn // the cone: a pole column, then the landmark columns, through features.Polar
	_, _, pr = prepared(t, cfg)
	if pr.Input.Skip.DenseDim != 9 || pr.Input.Skip.Dense[0] != 1 {
		t.Errorf("--skip-polar: skip block %d columns, first value %g (want 9 columns, the pole 1)", pr.Input.Skip.DenseDim, pr.Input.Skip.Dense[0])
	}
	enc := make([]float64, x.N*8)
	for r := 0; r < x.N; r++ {
		copy(enc[r*8:(r+1)*8], x.Dense[r*x.DenseDim+pr.EncodingCol:])
	}
	if !slices.Equal(pr.Input.Skip.Dense, features.Polar(enc, x.N, 8, []int{0, x.N})) {
		t.Errorf("--skip-polar: the skip block is not features.Polar of the landmark columns")
	}
	polar := pr.Input.Skip
	cfg.SkipPolar = features.SkipPolarAuto // both blocks, and the one the validation pairs rank better
	_, _, pr = prepared(t, cfg)
	c := pr.SkipChoice
	if c == nil || (c.Block == "polar") != (c.ValTauPolar >= c.ValTauStandardised) {
		t.Fatalf("--skip-polar auto chose %+v", c)
	}
	std := append([]float64(nil), enc...)
	features.Standardise(std, x.N, 8)
	v := pr.valSample(cfg)
	var e eval.Evaluator
	if got := e.SampleTau(unitRowsForTest(polar.Dense, 9), 9, &v.Pairs); math.Abs(got-float64(c.ValTauPolar)) > 1e-4 { // rounding of the cosines may flip near-ties
		t.Errorf("auto: polar validation τ %v, recomputed %v", c.ValTauPolar, got)
	}
	if got := e.SampleTau(unitRowsForTest(std, 8), 8, &v.Pairs); math.Abs(got-float64(c.ValTauStandardised)) > 1e-4 {
		t.Errorf("auto: standardised validation τ %v, recomputed %v", c.ValTauStandardised, got)
	}
	if want := map[string][]float64{"polar": polar.Dense, "standardised": std}[c.Block]; !slices.Equal(pr.Input.Skip.Dense, want) {
		t.Errorf("auto: the skip block is not the %s block it names", c.Block)
	}
	f32 := cfg
	f32.DType = Float32
	_, _, p32 := prepared(t, f32)
	if sk := p32.Input.Skip; sk.Dense != nil || len(sk.Dense32) != len(pr.Input.Skip.Dense) || p32.Input.X.Dense != nil {
		t.Fatalf("float32: the skip block and the input are not stored in float32")
	}
	for i, v := range pr.Input.Skip.Dense {
		if p32.Input.Skip.Dense32[i] != float32(v) {
			t.Fatalf("float32 skip value %d = %v, want float32(%v)", i, p32.Input.Skip.Dense32[i], v)
		}
	}
	bad := cfg
	bad.SkipPolar = "sometimes"
	if _, err := bad.Resolve(graphOfN(10)); err == nil {
		t.Errorf("--skip-polar %q resolved", bad.SkipPolar)
	}
	cfg.SkipPolar = features.SkipPolarOn
	lap := cfg
	lap.Position = position(t, "lap:4")
	if _, err := lap.Resolve(graphOfN(10)); err == nil || !strings.Contains(err.Error(), "landmark") {
		t.Errorf("--skip-polar with a Laplacian input: %v, want an error naming the landmark input", err)
	}
	cfg.PositionSkip = false
	if r, err := cfg.Resolve(graphOfN(10)); err != nil || r.SkipStandardise || r.SkipPolar != features.SkipPolarOff {
		t.Errorf("--skip-standardise/--skip-polar without the skip path resolve to %v/%q (%v)", r.SkipStandardise, r.SkipPolar, err)
	}
	p := shortRun("pgnn-e")
	p.Position, p.PositionSkip = position(t, "landmark:8"), true
	if _, err := Run(context.Background(), p, Hooks{}); err == nil || !strings.Contains(err.Error(), "no skip path") {
		t.Fatalf("P-GNN with --position-skip: %v", err)
	}
}

// TestStratifiedNeedsSampled: --mse-sampling stratified is refused on the
// exact path (objective.TestStratifiedPairs tests the draw itself).
func TestStratifiedNeedsSampled(t *testing.T) {
	cfg := Default()
	cfg.Dataset, cfg.Distances, cfg.MSESampling = "caveman:20x10", DistExact, MSEStratified
	ds, err := LoadDataset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cfg.Resolve(ds); err == nil || !strings.Contains(err.Error(), "--distances sampled") {
		t.Fatalf("stratified on the exact path: %v", err)
	}
}

// prepared loads, resolves and prepares cfg's dataset.
func prepared(t *testing.T, cfg Config) (Config, *data.Dataset, *Prepared) {
	t.Helper()
	ds, err := LoadDataset(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = cfg.Resolve(ds); err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(ds, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, ds, p
}

// interruptAfter runs cfg (with Save set) and cancels it after epoch,
// checking that it stops with an InterruptedError naming its directory.
func interruptAfter(t *testing.T, cfg Config, epoch int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Run(ctx, cfg, Hooks{Epoch: func(e int, _ float64, _ *Metrics) {
		if e == epoch {
			cancel()
		}
	}})
	var ie *InterruptedError
	if !errors.As(err, &ie) || ie.Epoch != epoch || ie.Dir != cfg.Save {
		t.Fatalf("interrupted run returned %v", err)
	}
	if !strings.Contains(err.Error(), "ignn train --resume "+cfg.Save) {
		t.Errorf("message does not say how to resume: %v", err)
	}
}

// TestPGNNSampledPath: P-GNN runs on the sampled distance path (anchors
// by BFS, no hop table), and its embeddings there are those of the exact
// path: the same seeds give the same AUC.
func TestPGNNSampledPath(t *testing.T) {
	cfg := shortRun("pgnn-f")
	cfg.Dataset, cfg.Epochs, cfg.EvalEvery, cfg.Variant = "caveman:12x8", 6, 3, Base
	exact, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Distances = DistSampled
	sampled, err := Run(context.Background(), cfg, Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	if sampled.Distances != DistSampled || sampled.TestAUC != exact.TestAUC || sampled.Final.TestAUC != exact.Final.TestAUC {
		t.Fatalf("sampled path %q: AUC %v/%v, exact %v/%v", sampled.Distances, sampled.TestAUC, sampled.Final.TestAUC, exact.TestAUC, exact.Final.TestAUC)
	}
}

// unitRowsForTest scales v's rows (width d) to unit length, zero rows kept.
func unitRowsForTest(v []float64, d int) []float64 {
	out := make([]float64, len(v))
	for r := 0; r < len(v)/d; r++ {
		var sq float64
		for _, x := range v[r*d : (r+1)*d] {
			sq += x * x
		}
		for c := 0; sq > 0 && c < d; c++ {
			out[r*d+c] = v[r*d+c] / math.Sqrt(sq)
		}
	}
	return out
}

package models

import (
	"encoding/json"
	"testing"

	"gorgonia.org/tensor"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
)

// pathInput is the path 0-1-…-(n−1) with dense random features x (n × 3)
// and, when skip is not nil, a skip block (n × 2).
func pathInput(n int, x, skip []float64) *engine.GraphInput {
	var es [][2]int32
	for i := 0; i+1 < n; i++ {
		es = append(es, [2]int32{int32(i), int32(i + 1)})
	}
	adj := engine.NewAdjacency(n, es)
	hops, _ := bfs(adj)
	in := &engine.GraphInput{Adj: adj, X: &engine.Features{N: n, Dense: x, DenseDim: 3}, Blocks: []engine.Block{{Off: 0, N: n, Hops: hops}}}
	if skip != nil {
		in.Skip = &engine.Features{N: n, Dense: skip, DenseDim: 2}
	}
	return in
}

// embed runs model e (its own defaults, small widths) on in with the
// parameters of ps (created on first use), evaluation mode.
func embed(t *testing.T, e Entry, ps *engine.ParamStore, in *engine.GraphInput) []float64 {
	t.Helper()
	return embedWith(t, e, e.Config(), ps, in)
}

// embedWith is embed with the configuration cfg (widths made small).
func embedWith(t *testing.T, e Entry, cfg Config, ps *engine.ParamStore, in *engine.GraphInput) []float64 {
	t.Helper()
	cfg.Hidden, cfg.Out = 16, 3
	b := engine.NewBuilder(ps, false)
	z, err := Build(e.New(cfg), b, in)
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	f, err := engine.NewForward(b, z)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, _, err := f.Run(engine.Stream(1, "eval"))
	if err != nil {
		t.Fatalf("%s: %v", e.Name, err)
	}
	return append([]float64(nil), v...)
}

// TestSkipDeclared: every model whose entry declares Skip uses the skip
// block — its embeddings change with it — so a model that drops it
// (implementing Model without ending in Output) fails here, whatever its
// name.
func TestSkipDeclared(t *testing.T) {
	n := 8
	x := enginetest.RandomValues(1, 3*n)
	for _, name := range NamesWhere(func(e Entry) bool { return e.Skip }) {
		e, _ := Lookup(name)
		ps := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
		a := embed(t, e, ps, pathInput(n, x, enginetest.RandomValues(2, 2*n)))
		b := embed(t, e, ps, pathInput(n, x, enginetest.RandomValues(3, 2*n)))
		same := true
		for k := range a {
			same = same && a[k] == b[k]
		}
		if same {
			t.Errorf("%s declares a skip path, but its embeddings ignore the skip block", name)
		}
	}
}

// TestBatchesDeclared: every model whose entry declares Batches reads
// nothing beyond its Layers-hop neighbourhood — a mini-batch holds that
// much — so changing the features of the node Layers+1 hops from node 0
// on a path leaves node 0's embedding bit for bit the same (and changing
// the node Layers hops away does not, so the test sees the whole field).
func TestBatchesDeclared(t *testing.T) {
	for _, name := range NamesWhere(func(e Entry) bool { return e.Batches }) {
		e, _ := Lookup(name)
		layers := e.Config().Layers
		seen, leaked := field(t, e, e.Config(), layers)
		if leaked {
			t.Errorf("%s declares mini-batches with %d layers, but node 0's embedding reads node %d, %d hops away: a batch would truncate it", name, layers, layers+1, layers+1)
		}
		if !seen {
			t.Errorf("%s: node 0's embedding never reads node %d, %d hops away (the test does not see its field)", name, layers, layers)
		}
	}
}

// field reports whether, on a 12-node path, node 0's embedding under cfg
// reads the features of node depth (seen) and of node depth+1 (leaked),
// over a few initialisations (some let a far node's change vanish).
func field(t *testing.T, e Entry, cfg Config, depth int) (seen, leaked bool) {
	t.Helper()
	n := 12
	x := enginetest.RandomValues(4, 3*n)
	for seed := uint64(1); seed <= 4; seed++ {
		ps := engine.NewParamStore(tensor.Float64, engine.Stream(seed, "init"))
		base := embedWith(t, e, cfg, ps, pathInput(n, x, nil))
		for _, far := range []int{depth, depth + 1} {
			y := append([]float64(nil), x...)
			for k := 0; k < 3; k++ {
				y[far*3+k] += 1
			}
			z := embedWith(t, e, cfg, ps, pathInput(n, y, nil))
			same := z[0] == base[0] && z[1] == base[1] && z[2] == base[2]
			leaked = leaked || (far > depth && !same)
			seen = seen || (far == depth && !same)
		}
	}
	return seen, leaked
}

// TestDepthDeclared: a model whose depth is its own option (DepthFlag)
// reads exactly that many hops whatever --layers is: with the option at 3
// and 1 layer, node 0's embedding on a path reads node 3 and not node 4.
func TestDepthDeclared(t *testing.T) {
	for _, name := range NamesWhere(func(e Entry) bool { return e.DepthFlag != "" }) {
		e, _ := Lookup(name)
		cfg := e.Config()
		cfg.Layers = 1
		for _, o := range e.Options {
			if o.Flag == e.DepthFlag {
				if err := o.Apply(&cfg, 3); err != nil {
					t.Fatalf("%s: --%s 3: %v", name, o.Flag, err)
				}
			}
		}
		if seen, leaked := field(t, e, cfg, 3); !seen || leaked {
			t.Errorf("%s: --%s 3 with 1 layer: node 0 reads node 3: %v, node 4: %v", name, e.DepthFlag, seen, leaked)
		}
	}
}

// TestWholeGraphDeclared: every model says either that it trains on
// mini-batches or why it does not (the --batch-size refusal quotes it).
func TestWholeGraphDeclared(t *testing.T) {
	for _, name := range Names() {
		if e, _ := Lookup(name); e.Batches == (e.WholeGraph != "") {
			t.Errorf("%s: Batches %v with WholeGraph %q: give the reason exactly when it does not batch", name, e.Batches, e.WholeGraph)
		}
	}
}

// TestOwnOptions: a model's own option stored in Config.Own survives a JSON
// round trip (numbers come back as float64; the typed accessors convert),
// an unset option reads as its default, and setting the default stores
// nothing, so DefaultConfig's JSON is unchanged; a copy of a Config keeps
// its options when the original's change.
func TestOwnOptions(t *testing.T) {
	c := DefaultConfig()
	c.SetOwn("k-int", 7, 1)
	c.SetOwn("k-float", 0.25, 0.0)
	c.SetOwn("k-str", "mean", "gcn")
	c.SetOwn("k-bool", true, false)
	c.SetOwn("k-default", 3, 3)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.OwnInt("k-int", 1) != 7 || back.OwnFloat("k-float", 0) != 0.25 || back.OwnString("k-str", "gcn") != "mean" ||
		!back.OwnBool("k-bool", false) || back.OwnInt("k-default", 3) != 3 || back.OwnInt("unset", 9) != 9 {
		t.Errorf("round trip: %+v", back.Own)
	}
	if _, ok := back.Own["k-default"]; ok {
		t.Error("an option at its default was stored")
	}
	cp := back // a copy keeps its options when the original's change
	back.SetOwn("k-int", 1, 1)
	back.SetOwn("k-float", 0.5, 0.0)
	if cp.OwnInt("k-int", 1) != 7 || cp.OwnFloat("k-float", 0) != 0.25 {
		t.Errorf("a copy's options changed with the original's: %v", cp.Own)
	}
	d := DefaultConfig()
	d.SetOwn("k-int", 1, 1)
	db, _ := json.Marshal(d)
	want, _ := json.Marshal(DefaultConfig())
	if string(db) != string(want) {
		t.Errorf("defaults change the JSON: %s vs %s", db, want)
	}
}

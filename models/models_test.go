package models

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// tiny is a 6-node graph (a triangle with a tail and a pendant) with 3 dense
// features and a sparse identity part, so every input path is exercised.
func tiny() *engine.GraphInput {
	adj := engine.NewAdjacency(6, [][2]int32{{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {1, 5}})
	var id []engine.Entry
	for i := 0; i < 6; i++ {
		id = append(id, engine.Entry{Row: i, Col: (i * 5) % 6, Val: 1})
	}
	x := &engine.Features{N: 6, Sparse: engine.NewCSR(6, 6, id), Dense: enginetest.RandomValues(21, 18), DenseDim: 3}
	hops := make([]uint16, 36)
	d, _ := bfs(adj)
	copy(hops, d)
	return &engine.GraphInput{Adj: adj, X: x, Blocks: []engine.Block{{Off: 0, N: 6, Hops: hops}}}
}

func bfs(a *engine.Adjacency) ([]uint16, error) {
	n := a.N
	d := make([]uint16, n*n)
	for s := 0; s < n; s++ {
		for i := range d[s*n : (s+1)*n] {
			d[s*n+i] = engine.HopUnreachable
		}
		d[s*n+s] = 0
		q := []int{s}
		for h := 0; h < len(q); h++ {
			u := q[h]
			for k := a.Structure().RowPtr[u]; k < a.Structure().RowPtr[u+1]; k++ {
				v := a.Structure().ColIdx[k]
				if d[s*n+v] == engine.HopUnreachable {
					d[s*n+v] = d[s*n+u] + 1
					q = append(q, v)
				}
			}
		}
	}
	return d, nil
}

// TestModelGradients checks every registered model's gradient with respect
// to every parameter by central differences (float64, dropout on with fixed
// masks), with and without the pre-layer.
func TestModelGradients(t *testing.T) {
	for _, name := range Names() {
		for _, pre := range []bool{true, false} {
			e, _ := Lookup(name)
			cfg := e.Config()
			cfg.Hidden, cfg.Out, cfg.Pre, cfg.Dropout = 4, 3, pre, 0.3
			cfg.Layers = min(cfg.Layers, 2)
			cfg.Heads, cfg.TrainEps = 2, true
			if err := checkModelGradient(t, e, cfg); err != nil {
				t.Errorf("%s (pre=%v): %v", name, pre, err)
			}
		}
	}
}

// checkModelGradient is TestModelGradients' check of one model and
// configuration on tiny(): central differences, step 1e-6, tolerance 2e-6.
func checkModelGradient(t *testing.T, e Entry, cfg Config) error {
	t.Helper()
	return checkModelGradientOn(t, e, cfg, tiny())
}

// checkModelGradientOn is checkModelGradient on the input in.
func checkModelGradientOn(t *testing.T, e Entry, cfg Config, in *engine.GraphInput) error {
	t.Helper()
	m := e.New(cfg)
	return enginetest.CheckGradient(func(b *engine.Builder) (*G.Node, []*G.Node) {
		z, err := Build(m, b, in)
		if err != nil {
			t.Fatal(err)
		}
		moveZeros(b)
		return z, b.ParamNodes()
	}, 1e-6, 2e-6)
}

// moveZeros gives every parameter entry at exactly 0 a small value:
// zero-initialised biases (and gates) would leave rows exactly at 0, where
// L2 normalisation is not differentiable.
func moveZeros(b *engine.Builder) {
	for i, p := range b.ParamNodes() {
		v := p.Value().(*tensor.Dense).Data().([]float64)
		for k := range v {
			if v[k] == 0 {
				v[k] = 0.3 * enginetest.RandomValues(uint64(100+i), len(v))[k]
			}
		}
	}
}

// TestOutputsNormalised: every model's embeddings have unit rows and
// parameter names are unique (the builder panics otherwise).
func TestOutputsNormalised(t *testing.T) {
	for _, name := range Names() {
		e, _ := Lookup(name)
		cfg := e.Config()
		b := engine.NewBuilder(engine.NewParamStore(tensor.Float64, engine.Stream(1, "init")), false)
		z, err := Build(e.New(cfg), b, tiny())
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f, err := engine.NewForward(b, z)
		if err != nil {
			t.Fatal(err)
		}
		v, shape, err := f.Run(engine.Stream(1, "eval"))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d := shape[1]
		for r := 0; r < shape[0]; r++ {
			var s float64
			for k := 0; k < d; k++ {
				s += v[r*d+k] * v[r*d+k]
			}
			if math.Abs(s-1) > 1e-9 {
				t.Errorf("%s: row %d has squared norm %g", name, r, s)
			}
		}
	}
}

func TestLookupUnknown(t *testing.T) {
	_, err := Lookup("nope")
	if err == nil || err.Error()[:22] != `unknown model "nope" (` {
		t.Errorf("error %v", err)
	}
}

// TestAnchorIndexSemantics: on the path 0-1-2-3-4-5 with the anchor set
// {4, 2, 5}, node 0's closest anchor is 2 (2 hops) — the fixed semantics
// sends node 2's message; the original (pre-fix) code read the anchor's
// position in the set, 1, as the node, so node 1's message arrived instead.
// Both see the same distance. With nothing reachable, both fall back to
// position 0 (node 4 fixed, node 0 original).
func TestAnchorIndexSemantics(t *testing.T) {
	row := []uint16{0, 1, 2, 3, 4, 5} // hops from node 0
	set := []int{4, 2, 5}
	if n, s := closestAnchor(row, set, false); n != 2 || s != 3 {
		t.Errorf("fixed: node %d sim index %d, want 2 and 3", n, s)
	}
	if n, s := closestAnchor(row, set, true); n != 1 || s != 3 {
		t.Errorf("original: node %d sim index %d, want 1 and 3", n, s)
	}
	none := []uint16{0, engine.HopUnreachable, engine.HopUnreachable, engine.HopUnreachable, engine.HopUnreachable, engine.HopUnreachable}
	if n, s := closestAnchor(none, set, false); n != 4 || s != 0 {
		t.Errorf("fixed, unreachable: %d %d", n, s)
	}
	if n, s := closestAnchor(none, set, true); n != 0 || s != 0 {
		t.Errorf("original, unreachable: %d %d", n, s)
	}
}

// TestSkipPathGradients checks the skip path (a linear map of a positional
// block added before normalisation) by central differences for the stack
// models, including the skip weights.
func TestSkipPathGradients(t *testing.T) {
	for _, gated := range []bool{false, true} {
		testSkipPathGradients(t, gated)
	}
}

// testSkipPathGradients is TestSkipPathGradients without or with the gate
// (SkipGate: the message-passing branch through an Out×Out map started at 0;
// the check moves it off 0 like every zero-initialised parameter).
func testSkipPathGradients(t *testing.T, gated bool) {
	for _, name := range NamesWhere(func(e Entry) bool { return e.Skip }) {
		e, _ := Lookup(name)
		cfg := e.Config()
		cfg.Hidden, cfg.Out, cfg.Layers, cfg.Heads, cfg.SkipGate = 4, 3, 2, 2, gated
		in := tiny()
		in.Skip = &engine.Features{N: 6, Dense: enginetest.RandomValues(33, 12), DenseDim: 2}
		err := enginetest.CheckGradient(func(b *engine.Builder) (*G.Node, []*G.Node) {
			z, err := Build(e.New(cfg), b, in)
			if err != nil {
				t.Fatal(err)
			}
			found, gate := false, false
			for _, p := range b.ParamNodes() {
				found = found || p.Name() == name+".skip.Wd"
				gate = gate || p.Name() == name+".gate"
			}
			moveZeros(b)
			if !found || gate != gated {
				t.Fatalf("%s: skip weights %v, gate %v (want %v)", name, found, gate, gated)
			}
			return z, b.ParamNodes()
		}, 1e-6, 2e-6)
		if err != nil {
			t.Errorf("%s with a skip path: %v", name, err)
		}
	}
}

// TestAnchorDrawModes: by default training redraws the anchor sets every
// step and evaluation reuses the last draw; AnchorDraw once keeps the first
// draw; AnchorEval fresh evaluates on a new draw without touching the
// training draw.
func TestAnchorDrawModes(t *testing.T) {
	big := func() *engine.GraphInput { // 40 nodes: 25 anchor sets, many possible draws
		var edges [][2]int32
		for i := 0; i < 39; i++ {
			edges = append(edges, [2]int32{int32(i), int32(i + 1)})
		}
		adj := engine.NewAdjacency(40, edges)
		hops, _ := bfs(adj)
		x := &engine.Features{N: 40, Dense: enginetest.RandomValues(5, 40*2), DenseDim: 2}
		return &engine.GraphInput{Adj: adj, X: x, Blocks: []engine.Block{{Off: 0, N: 40, Hops: hops}}}
	}
	for _, c := range []struct {
		draw, eval            string
		trainSame, evalStable bool
	}{
		{"", "", false, true}, {AnchorOnce, "", true, true}, {"", AnchorFresh, false, false},
	} {
		e, _ := Lookup("pgnn-e")
		cfg := e.Config()
		cfg.Hidden, cfg.Out, cfg.Dropout, cfg.AnchorDraw, cfg.AnchorEval = 4, 4, 0, c.draw, c.eval
		m := e.New(cfg).(*pgnn)
		in := big()
		ps := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
		bt, be := engine.NewBuilder(ps, true), engine.NewBuilder(ps, false)
		zt, err := Build(m, bt, in)
		if err != nil {
			t.Fatal(err)
		}
		ze, err := Build(m, be, in)
		if err != nil {
			t.Fatal(err)
		}
		ft, _ := engine.NewForward(bt, zt)
		fe, _ := engine.NewForward(be, ze)
		rng := engine.Stream(1, "anchors")
		ft.Run(rng)
		first := append([]int(nil), m.arg...)
		ft.Run(rng)
		if same := equalInts(first, m.arg); same != c.trainSame {
			t.Errorf("draw %q: training draws equal across steps = %v, want %v", c.draw, same, c.trainSame)
		}
		last := append([]int(nil), m.arg...)
		e1, _, _ := fe.Run(rng)
		e1 = append([]float64(nil), e1...)
		e2, _, _ := fe.Run(rng)
		stable := true
		for i := range e1 {
			stable = stable && e1[i] == e2[i]
		}
		if stable != c.evalStable || !equalInts(last, m.arg) {
			t.Errorf("eval %q: evaluations equal = %v (want %v); training draw kept = %v", c.eval, stable, c.evalStable, equalInts(last, m.arg))
		}
		ft.Close()
		fe.Close()
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAnchorsByBFS: without hop tables P-GNN finds each set's closest
// anchor by multi-source BFS; the draws equal the table-based ones exactly
// (ties to the first anchor in set order, unreachable nodes, the 2-hop
// cutoff of pgnn-f, the original indexing), on a graph of two components
// with many equidistant anchors.
func TestAnchorsByBFS(t *testing.T) {
	var edges [][2]int32
	for i := 0; i < 30; i++ { // a 6×5 grid: many ties
		if i%5 < 4 {
			edges = append(edges, [2]int32{int32(i), int32(i + 1)})
		}
		if i+5 < 30 {
			edges = append(edges, [2]int32{int32(i), int32(i + 5)})
		}
	}
	edges = append(edges, [2]int32{30, 31}, [2]int32{31, 32}, [2]int32{32, 33}) // a path component
	adj := engine.NewAdjacency(35, edges)                                       // node 34 isolated
	full, _ := bfs(adj)
	for _, c := range []struct {
		cutoff   int
		original bool
	}{{0, false}, {2, false}, {0, true}} {
		hops := append([]uint16(nil), full...)
		if c.cutoff > 0 {
			for i, d := range hops {
				if d != engine.HopUnreachable && int(d) > c.cutoff {
					hops[i] = engine.HopUnreachable
				}
			}
		}
		withTable := &engine.GraphInput{Adj: adj, Blocks: []engine.Block{{Off: 0, N: 35, Hops: hops}}}
		byBFS := &engine.GraphInput{Adj: adj, Blocks: []engine.Block{{Off: 0, N: 35}}}
		lt, lb := layout(withTable, c.cutoff, 0), layout(byBFS, c.cutoff, 0)
		lt.original, lb.original = c.original, c.original
		if lb.maxHop < lt.maxHop {
			t.Fatalf("BFS hop bound %d below the largest distance %d", lb.maxHop, lt.maxHop)
		}
		for seed := uint64(1); seed <= 5; seed++ {
			at, dt := make([]int, lt.slots), make([]int, lt.slots)
			ab, db := make([]int, lb.slots), make([]int, lb.slots)
			lt.draw(engine.Stream(seed, "anchors"), at, dt)
			lb.draw(engine.Stream(seed, "anchors"), ab, db)
			if !equalInts(at, ab) || !equalInts(dt, db) {
				t.Fatalf("cutoff %d original %v seed %d: BFS draw differs from the table's", c.cutoff, c.original, seed)
			}
		}
	}
}

// TestAnchorCopies: c (Config.AnchorCopies) sets how many anchor sets of each
// size P-GNN draws — m·max(1, ⌊c·m⌋), m = ⌊log₂ n⌋; 0 and 1 are the
// reference's m² — the layout and the draw agree with that count, set
// sizes halve as in the reference, and Validate rejects c outside [0, 64].
func TestAnchorCopies(t *testing.T) {
	for _, c := range []struct {
		n    int
		c    float64
		want int
	}{{1000, 0, 81}, {1000, 1, 81}, {1000, 0.25, 18}, {1000, 0.01, 9}, {100_000, 0.25, 64}, {1, 0.5, 1}} {
		if got := AnchorSets(c.n, c.c); got != c.want {
			t.Errorf("AnchorSets(%d, %g) = %d, want %d", c.n, c.c, got, c.want)
		}
	}
	var edges [][2]int32
	for i := 0; i+1 < 40; i++ {
		edges = append(edges, [2]int32{int32(i), int32(i + 1)})
	}
	adj := engine.NewAdjacency(40, edges)
	gi := &engine.GraphInput{Adj: adj, Blocks: []engine.Block{{Off: 0, N: 40}}}
	l := layout(gi, 0, 0.5) // m = 5, 2 copies: 10 sets
	if l.k[0] != 10 || l.slots != 40*10 {
		t.Fatalf("layout: %d sets, %d slots; want 10, 400", l.k[0], l.slots)
	}
	arg, dist := make([]int, l.slots), make([]int, l.slots)
	l.draw(engine.Stream(1, "anchors"), arg, dist)
	for v := 0; v < 40; v++ { // every node reaches an anchor on a path graph
		for s := 0; s < 10; s++ {
			if dist[v*10+s] < 1 {
				t.Fatalf("node %d set %d: no anchor reached", v, s)
			}
		}
	}
	for _, bad := range []float64{-1, 65, math.NaN()} {
		cfg := DefaultConfig()
		cfg.AnchorCopies = bad
		if cfg.Validate() == nil {
			t.Errorf("AnchorCopies %g accepted", bad)
		}
	}
}

// TestOptionsDefaultsLeaveConfigUnchanged, over every registered model's
// options: set to its default, an option leaves DefaultConfig as it is (so
// a run of another model stores the configuration it stored before the
// option existed); Options lists it once; another accepted value reaches
// the Config, and Entry.Strip keeps it for the models that register it
// only; a value outside its range or choices is refused.
func TestOptionsDefaultsLeaveConfigUnchanged(t *testing.T) {
	listed := map[string]int{}
	for _, o := range Options() {
		listed[o.Flag]++
	}
	for _, name := range Names() {
		e, _ := Lookup(name)
		for _, o := range e.Options {
			if listed[o.Flag] != 1 {
				t.Errorf("%s: --%s listed %d times by Options", name, o.Flag, listed[o.Flag])
			}
			c := DefaultConfig()
			if err := o.Apply(&c, o.Default); err != nil || !reflect.DeepEqual(c, DefaultConfig()) {
				t.Errorf("%s: --%s at its default %v: %+v, %v", name, o.Flag, o.Default, c, err)
			}
			other, bad := otherValues(o)
			c = DefaultConfig()
			if err := o.Apply(&c, other); err != nil || reflect.DeepEqual(c, DefaultConfig()) {
				t.Errorf("%s: --%s %v did not reach the Config: %+v, %v", name, o.Flag, other, c, err)
			}
			for _, m := range Names() { // Strip keeps it for its owners only
				me, _ := Lookup(m)
				if kept := !reflect.DeepEqual(me.Strip(c), DefaultConfig()); kept != me.Owns(o.Flag) {
					t.Errorf("%s.Strip: --%s %v kept %v, registered %v", m, o.Flag, other, kept, me.Owns(o.Flag))
				}
			}
			if bad != nil {
				if err := o.Apply(&c, bad); err == nil || !strings.Contains(err.Error(), "--"+o.Flag+" must be") {
					t.Errorf("%s: --%s %v: %v, want a refusal naming the flag", name, o.Flag, bad, err)
				}
			}
		}
	}
}

// otherValues returns an accepted value of o other than its default and,
// when o has one, a refused value (nil for a bool).
func otherValues(o Option) (other, bad any) {
	switch d := o.Default.(type) {
	case bool:
		return !d, nil
	case string:
		for _, c := range o.Choices {
			if c != d {
				return c, "no-such-" + o.Flag
			}
		}
		return d + "-other", nil // any string is accepted
	}
	r := *o.Range
	x := r.Max
	if math.IsInf(x, 1) || r.MaxOpen {
		x = r.Min + 1
	}
	if _, ok := o.Default.(int); ok {
		return int(x), int(r.Min) - 1
	}
	return x, math.NaN()
}

// TestModelMemoryTerms, over every registered model with memory terms:
// each term says what it holds and the flags that shrink it (the model's
// options, --hidden or --layers), is positive, doubles with the bytes per
// value, and does not shrink when the graph doubles, while their sum grows.
func TestModelMemoryTerms(t *testing.T) {
	shape := func(e Entry, scale, bytes int64) MemoryShape {
		c := e.Config()
		c.Heads = 2
		s := MemoryShape{Config: c, Nodes: 64 * scale, Edges: 200 * scale, BytesPerValue: bytes}
		for range scale {
			s.GraphNodes = append(s.GraphNodes, 64)
		}
		return s
	}
	for _, name := range NamesWhere(func(e Entry) bool { return e.Memory != nil }) {
		e, _ := Lookup(name)
		flags := map[string]bool{"--hidden": true, "--layers": true}
		for _, o := range e.Options {
			flags["--"+o.Flag] = true
		}
		terms := func(s MemoryShape) (m MemoryTerms, all []MemTerm) {
			m = e.Memory(s)
			return m, append(append([]MemTerm(nil), m.Before...), m.After...)
		}
		m, base := terms(shape(e, 1, 4))
		_, wide := terms(shape(e, 1, 8))
		_, big := terms(shape(e, 2, 4))
		if len(base) == 0 && m.ActivationScale <= 1 {
			t.Errorf("%s declares Memory but adds nothing", name)
		}
		for _, f := range strings.FieldsFunc(m.ActivationFlags+" ", func(r rune) bool { return r == ',' || r == ' ' }) {
			if strings.HasPrefix(f, "--") && !flags[f] {
				t.Errorf("%s: ActivationFlags names %s, not one of its flags", name, f)
			}
		}
		var sum, bigSum int64
		for i, tm := range base {
			named := false
			for _, f := range strings.Fields(strings.ReplaceAll(tm.Flag, ",", " ")) {
				if strings.HasPrefix(f, "--") {
					named = true
					if !flags[f] {
						t.Errorf("%s: term %q names %s, not one of its flags", name, tm.What, f)
					}
				}
			}
			switch {
			case tm.What == "" || !named:
				t.Errorf("%s: term %+v does not say what it holds and which flag shrinks it", name, tm)
			case tm.Bytes <= 0:
				t.Errorf("%s: term %q has %d bytes", name, tm.What, tm.Bytes)
			case wide[i].Bytes != 2*tm.Bytes:
				t.Errorf("%s: term %q: %d bytes at 4 B a value, %d at 8 B", name, tm.What, tm.Bytes, wide[i].Bytes)
			case big[i].Bytes < tm.Bytes:
				t.Errorf("%s: term %q shrinks from %d to %d bytes when the graph doubles", name, tm.What, tm.Bytes, big[i].Bytes)
			}
			sum, bigSum = sum+tm.Bytes, bigSum+big[i].Bytes
		}
		if len(base) > 0 && bigSum <= sum {
			t.Errorf("%s: terms of %d bytes for 64 nodes, %d for 128", name, sum, bigSum)
		}
	}
}

// TestMemoryTermsValues: the terms' numbers, from their formulas: GAT
// scales the activations by its heads and adds the attention term (edges ×
// heads × layers); P-GNN adds one anchor message per node, anchor set and
// hidden unit; APPNP one row of out per node and propagation step.
func TestMemoryTermsValues(t *testing.T) {
	gat, _ := Lookup("gat")
	c := DefaultConfig()
	c.Heads = 2
	m := gat.Memory(MemoryShape{Config: c, Nodes: 10, Edges: 20, GraphNodes: []int{10}, BytesPerValue: 4})
	// (2·20 + 10) edges and self-loops × 2 heads × 4 B × 3 per edge × 3 layers
	if m.ActivationScale != 2 || len(m.Before) != 1 || m.Before[0].Bytes != 50*2*4*3*3 {
		t.Errorf("GAT terms %+v", m)
	}
	pg, _ := Lookup("pgnn-e")
	c = DefaultConfig()
	m = pg.Memory(MemoryShape{Config: c, Nodes: 64, GraphNodes: []int{64}, BytesPerValue: 4})
	// 64 nodes × AnchorSets(64, 0) = 6² sets × 32 hidden × 4 B × 12
	if want := int64(64 * 36 * 32 * 4 * 12); len(m.After) != 1 || m.After[0].Bytes != want || AnchorSets(64, 0) != 36 {
		t.Errorf("P-GNN terms %+v, want %d bytes", m, want)
	}
	e, c := appnpConfig(t, 7, 0.1)
	m = e.Memory(MemoryShape{Config: c, Nodes: 64, GraphNodes: []int{64}, BytesPerValue: 4})
	// 7 steps × 64 nodes × 32 out × 4 B × 6
	if want := int64(7 * 64 * 32 * 4 * 6); len(m.After) != 1 || m.After[0].Bytes != want {
		t.Errorf("APPNP terms %+v, want %d bytes", m, want)
	}
}

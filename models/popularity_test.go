package models

import (
	"math"
	"strings"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	"gorgonia.org/tensor"
)

// TestPopularity: with a popularity column in the input, the embedding is
// the model's own (with its sketch) and the column at PopularityScale,
// normalise([ẑ | A·k]), one column wider; a pair's cosine then ranks as
// ẑ_i·ẑ_j + b·(g_i + g_j) to first order (checked on the rows at a large
// scale); a training graph leaves the column out.
func TestPopularity(t *testing.T) {
	const n, m, d = 6, 4, 3
	sketch := enginetest.RandomValues(41, n*m)
	pop := []float64{1, 1.2, 1.5, 1.1, 1.9, 1.05}
	for _, name := range []string{"gcn", "sage", "gin"} {
		e, _ := Lookup(name)
		cfg := e.Config()
		cfg.Layers, cfg.Dropout, cfg.Sketch = 2, 0, m
		in := tiny()
		in.Skip = &engine.Features{N: n, Dense: enginetest.RandomValues(33, 2*n), DenseDim: 2}
		in.Sketch, in.SketchMix = &engine.Features{N: n, Dense: sketch, DenseDim: m}, &engine.Mix{W: 0.6}
		ps := engine.NewParamStore(tensor.Float64, engine.Stream(1, "init"))
		plain := embedWith(t, e, cfg, ps, in) // the sketched embedding, d + m wide
		in.Popularity, in.PopularityMix = &engine.Features{N: n, Dense: pop, DenseDim: 1}, &engine.Mix{W: PopularityShare}
		pc := cfg
		pc.Popularity = 0.1
		got := embedWith(t, e, pc, ps, in)
		w := d + m
		if len(got) != n*(w+1) {
			t.Fatalf("%s: %d values, want %d×%d", name, len(got), n, w+1)
		}
		for i := range n {
			s := 1 + PopularityScale*PopularityScale*pop[i]*pop[i] // plain's rows are unit
			for x := range w + 1 {
				want := PopularityScale * pop[i]
				if x < w {
					want = plain[i*w+x]
				}
				if g := got[i*(w+1)+x]; math.Abs(g-want/math.Sqrt(s)) > 1e-12 {
					t.Fatalf("%s: z[%d][%d] = %v, want %v", name, i, x, g, want/math.Sqrt(s))
				}
			}
		}
		b := engine.NewBuilder(ps, true)
		pc.Hidden, pc.Out = 16, d // embedWith's
		if z, err := Build(e.New(pc), b, in); err != nil {
			t.Fatal(err)
		} else if c := z.Shape()[1]; c != d {
			t.Errorf("%s: a training graph's embedding has %d columns, want the model's %d", name, c, d)
		}
	}
	// The first-order claim, on unit rows u and columns A·(1 + b·g) at A =
	// 1000: cos − (1 − 1/A²) = (u_i·u_j + b·g_i + b·g_j)/A² up to O(b²g²/A²).
	const A, bw = 1000.0, 1e-3
	u := [][2]float64{{1, 0}, {0.6, 0.8}}
	g := []float64{0.5, 2}
	a := []float64{A * (1 + bw*g[0]), A * (1 + bw*g[1])}
	cos := (u[0][0]*u[1][0] + u[0][1]*u[1][1] + a[0]*a[1]) / math.Sqrt((1+a[0]*a[0])*(1+a[1]*a[1]))
	want := (u[0][0]*u[1][0] + u[0][1]*u[1][1] + bw*(g[0]+g[1])) / (A * A)
	if got := cos - (1 - 1/(A*A)); math.Abs(got-want) > 1e-2*want {
		t.Errorf("cos − (1 − 1/A²) = %v, first order %v", got, want)
	}
}

// TestParsePopularity: --popularity's values, and the ones refused.
func TestParsePopularity(t *testing.T) {
	for _, c := range []struct {
		in   string
		b    float64
		auto bool
	}{{"off", 0, false}, {"0", 0, false}, {"auto", 0, true}, {"0.03", 0.03, false}, {"1", 1, false}} {
		b, auto, err := ParsePopularity(c.in)
		if err != nil || b != c.b || auto != c.auto {
			t.Errorf("%q: %v %v %v, want %v %v", c.in, b, auto, err, c.b, c.auto)
		}
		if s := (Config{Popularity: b, PopularityAuto: auto}).PopularityString(); c.in != "0" && s != c.in {
			t.Errorf("%q written back as %q", c.in, s)
		}
	}
	for _, in := range []string{"2", "-0.1", "NaN", "on"} {
		if _, _, err := ParsePopularity(in); err == nil || !strings.Contains(err.Error(), "--popularity must be off, auto or a weight in [0, 1]") {
			t.Errorf("%q: %v", in, err)
		}
	}
	if err := (Config{Hidden: 1, Out: 1, Layers: 1, Heads: 1, Popularity: 0.1, PopularityAuto: true}).Validate(); err == nil {
		t.Error("a given and a chosen weight at once: accepted")
	}
}

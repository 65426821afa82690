package models

import (
	"math"
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Dense reference implementations of one layer each, written from the
// papers' formulas with explicit loops, compared with the gorgonia graphs.

type mat struct {
	r, c int
	v    []float64
}

func (m mat) at(i, j int) float64 { return m.v[i*m.c+j] }

func matmul(a, b mat) mat {
	out := mat{a.r, b.c, make([]float64, a.r*b.c)}
	for i := 0; i < a.r; i++ {
		for j := 0; j < b.c; j++ {
			for k := 0; k < a.c; k++ {
				out.v[i*b.c+j] += a.at(i, k) * b.at(k, j)
			}
		}
	}
	return out
}

func neighbours(a *engine.Adjacency, i int) []int {
	return a.Structure().ColIdx[a.Structure().RowPtr[i]:a.Structure().RowPtr[i+1]]
}

func param(ps *engine.ParamStore, name string, r, c int) mat {
	return mat{r, c, engine.ToFloat64(ps.Tensor(name))}
}

func runLayer(t *testing.T, f func(b *engine.Builder, h *G.Node) *G.Node, hv []float64) ([]float64, *engine.ParamStore) {
	t.Helper()
	ps := engine.NewParamStore(tensor.Float64, engine.Stream(3, "init"))
	b := engine.NewBuilder(ps, false)
	h := b.Constant("h", hv, 6, 3)
	out := f(b, h)
	// Zero-initialised biases would hide a wrong bias add: make every
	// parameter entry non-zero before the forward pass.
	for i, name := range ps.Names() {
		t := ps.Tensor(name)
		v := engine.ToFloat64(t)
		for k := range v {
			if v[k] == 0 {
				v[k] = enginetest.RandomValues(uint64(200+i), len(v))[k]
			}
		}
		engine.SetFloat64(t, v)
	}
	fw, err := engine.NewForward(b, out)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := fw.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	return v, ps
}

func near(t *testing.T, layer string, got []float64, want mat) {
	t.Helper()
	for i := range want.v {
		if math.Abs(got[i]-want.v[i]) > 1e-12 {
			t.Fatalf("%s: entry %d = %.15g, dense reference %.15g", layer, i, got[i], want.v[i])
		}
	}
}

func TestLayersAgainstDenseReferences(t *testing.T) {
	in := tiny()
	adj := in.Adj
	hv := enginetest.RandomValues(31, 18)
	h := mat{6, 3, hv}
	deg := func(i int) float64 { return float64(len(neighbours(adj, i))) }

	// GCN: Â h W + b, Â_ij = 1/√((d_i+1)(d_j+1)) over N(i) ∪ {i}.
	got, ps := runLayer(t, func(b *engine.Builder, x *G.Node) *G.Node { return withBias(b, gcnLayer(b, "l", x, nil, adj, 3, 2)) }, hv)
	hw := matmul(h, param(ps, "l.W", 3, 2))
	bias := param(ps, "l.b", 1, 2)
	want := mat{6, 2, make([]float64, 12)}
	for i := 0; i < 6; i++ {
		for j := 0; j < 2; j++ {
			s := hw.at(i, j) / (deg(i) + 1)
			for _, n := range neighbours(adj, i) {
				s += hw.at(n, j) / math.Sqrt((deg(i)+1)*(deg(n)+1))
			}
			want.v[i*2+j] = s + bias.v[j]
		}
	}
	near(t, "gcn", got, want)

	// SAGE: W_root h_i + W_rel mean_{N(i)} h_j + b.
	got, ps = runLayer(t, func(b *engine.Builder, x *G.Node) *G.Node { return withBias(b, sageLayer(b, "l", x, nil, adj, 3, 2)) }, hv)
	root, rel := matmul(h, param(ps, "l.root.W", 3, 2)), param(ps, "l.rel.W", 3, 2)
	bias = param(ps, "l.b", 1, 2)
	for i := 0; i < 6; i++ {
		mean := mat{1, 3, make([]float64, 3)}
		for _, n := range neighbours(adj, i) {
			for k := 0; k < 3; k++ {
				mean.v[k] += h.at(n, k) / deg(i)
			}
		}
		r := matmul(mean, rel)
		for j := 0; j < 2; j++ {
			want.v[i*2+j] = root.at(i, j) + r.v[j] + bias.v[j]
		}
	}
	near(t, "sage", got, want)

	// GIN: W2 ReLU(W1 ((1+ε) h_i + Σ h_j) + b1) + b2 with ε = 0.
	got, ps = runLayer(t, func(b *engine.Builder, x *G.Node) *G.Node {
		return withBias(b, ginLayer(b, "l", x, nil, adj, 3, 2, false))
	}, hv)
	w1, b1 := param(ps, "l.mlp.0.W", 3, 2), param(ps, "l.mlp.0.b", 1, 2)
	w2, b2 := param(ps, "l.mlp.1.W", 2, 2), param(ps, "l.mlp.1.b", 1, 2)
	for i := 0; i < 6; i++ {
		agg := mat{1, 3, append([]float64(nil), hv[i*3:i*3+3]...)}
		for _, n := range neighbours(adj, i) {
			for k := 0; k < 3; k++ {
				agg.v[k] += h.at(n, k)
			}
		}
		u := matmul(agg, w1)
		for j := range u.v {
			u.v[j] = math.Max(0, u.v[j]+b1.v[j])
		}
		o := matmul(u, w2)
		for j := 0; j < 2; j++ {
			want.v[i*2+j] = o.v[j] + b2.v[j]
		}
	}
	near(t, "gin", got, want)

	// GAT, one head: α_ij = softmax_j LeakyReLU(a_dst·Wh_i + a_src·Wh_j)
	// over N(i) ∪ {i}; h'_i = Σ α_ij Wh_j + b.
	got, ps = runLayer(t, func(b *engine.Builder, x *G.Node) *G.Node { return withBias(b, gatLayer(b, "l", x, nil, adj, 3, 2, 1)) }, hv)
	wh := matmul(h, param(ps, "l.head0.W", 3, 2))
	as, ad := param(ps, "l.head0.att_src", 2, 1), param(ps, "l.head0.att_dst", 2, 1)
	bias = param(ps, "l.b", 1, 2)
	sc := func(i int, a mat) float64 { return wh.at(i, 0)*a.v[0] + wh.at(i, 1)*a.v[1] }
	for i := 0; i < 6; i++ {
		js := append([]int{i}, neighbours(adj, i)...)
		var z float64
		e := make([]float64, len(js))
		for k, j := range js {
			x := sc(i, ad) + sc(j, as)
			if x < 0 {
				x *= 0.2
			}
			e[k] = math.Exp(x)
			z += e[k]
		}
		for c := 0; c < 2; c++ {
			var s float64
			for k, j := range js {
				s += e[k] / z * wh.at(j, c)
			}
			want.v[i*2+c] = s + bias.v[c]
		}
	}
	near(t, "gat", got, want)
}

// withBias adds a layer's bias as the stack's last layer does.
func withBias(b *engine.Builder, o Biased) *G.Node { return b.AddBias(o.Name, o.Y, o.Init) }

// forwardModel builds model e with cfg on in (float64, evaluation mode),
// sets the parameters named in set (zero biases would hide a wrong bias
// add) and returns its embeddings and parameters.
func forwardModel(t *testing.T, e Entry, cfg Config, in *engine.GraphInput, set map[string][]float64) ([]float64, *engine.ParamStore) {
	t.Helper()
	ps := engine.NewParamStore(tensor.Float64, engine.Stream(5, "init"))
	b := engine.NewBuilder(ps, false)
	z, err := Build(e.New(cfg), b, in)
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range set {
		engine.SetFloat64(ps.Tensor(name), v)
	}
	f, err := engine.NewForward(b, z)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := f.Run(nil)
	if err != nil {
		t.Fatal(err)
	}
	return got, ps
}

// gcnPropagate is Â·h with Â = D^{-1/2}(A+I)D^{-1/2} (degrees counting the
// self-loop), written as loops.
func gcnPropagate(adj *engine.Adjacency, h mat) mat {
	deg := func(i int) float64 { return float64(len(neighbours(adj, i)) + 1) }
	out := mat{h.r, h.c, make([]float64, len(h.v))}
	for i := 0; i < h.r; i++ {
		for _, j := range append([]int{i}, neighbours(adj, i)...) {
			w := 1 / math.Sqrt(deg(i)*deg(j))
			for c := 0; c < h.c; c++ {
				out.v[i*h.c+c] += w * h.at(j, c)
			}
		}
	}
	return out
}

// normalizeRows L2-normalises h's rows in place.
func normalizeRows(h mat) {
	for i := 0; i < h.r; i++ {
		var s float64
		for c := 0; c < h.c; c++ {
			s += h.at(i, c) * h.at(i, c)
		}
		for c := 0; c < h.c; c++ {
			h.v[i*h.c+c] /= math.Sqrt(s)
		}
	}
}

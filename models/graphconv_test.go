package models

import (
	"testing"

	"github.com/ignn/ignn/engine"
	"github.com/ignn/ignn/engine/enginetest"
	G "gorgonia.org/gorgonia"
)

// TestGraphConvLayer checks the extension example against its formula; its
// gradient is checked by TestModelGradients like every registered model.
func TestGraphConvLayer(t *testing.T) {
	in := tiny()
	hv := enginetest.RandomValues(61, 18)
	h := mat{6, 3, hv}
	got, ps := runLayer(t, func(b *engine.Builder, x *G.Node) *G.Node {
		return withBias(b, graphConvLayer(b, "l", x, nil, in.Adj, 3, 2))
	}, hv)
	root := matmul(h, param(ps, "l.root.W", 3, 2))
	rel, bias := param(ps, "l.rel.W", 3, 2), param(ps, "l.b", 1, 2)
	want := mat{6, 2, make([]float64, 12)}
	for i := 0; i < 6; i++ {
		sum := mat{1, 3, make([]float64, 3)}
		for _, n := range neighbours(in.Adj, i) {
			for k := 0; k < 3; k++ {
				sum.v[k] += h.at(n, k)
			}
		}
		r := matmul(sum, rel)
		for j := 0; j < 2; j++ {
			want.v[i*2+j] = root.at(i, j) + r.v[j] + bias.v[j]
		}
	}
	near(t, "graphconv", got, want)
}

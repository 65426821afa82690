package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	. "github.com/ignn/ignn/engine"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// caveman builds a 20×20 connected-caveman-like graph (Communities' size).
func caveman() *Adjacency {
	var e [][2]int
	for c := 0; c < 20; c++ {
		for i := 0; i < 20; i++ {
			for j := i + 1; j < 20; j++ {
				e = append(e, [2]int{c*20 + i, c*20 + j})
			}
		}
		e = append(e, [2]int{c * 20, ((c + 1) % 20) * 20})
	}
	return NewAdjacency(400, e)
}

func benchGraph(b *testing.B, dt tensor.Dtype, build func(bd *Builder, x *G.Node) *G.Node) {
	bd := NewBuilder(NewParamStore(dt, Stream(1, "init")), true)
	x := bd.Param("x", Glorot(1), 400, 32)
	out := build(bd, x)
	loss := G.Must(G.Sum(out))
	tr, err := NewTrainer(bd, loss, nil, TrainOptions{LR: 1e-3}, Stream(1, "d"))
	if err != nil {
		b.Fatal(err)
	}
	defer tr.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tr.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSpMM: forward + backward + Adam of Â·X on Communities (400
// nodes, 8,000 stored entries with self-loops, 32 columns).
func BenchmarkSpMM(b *testing.B) {
	a := caveman().GCNNorm()
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		b.Run(dt.String(), func(b *testing.B) {
			benchGraph(b, dt, func(bd *Builder, x *G.Node) *G.Node { return SpMM(a, x) })
		})
	}
}

// BenchmarkPairDot: forward + backward of ⟨z_i, z_j⟩ over all 79,800 node
// pairs of a 400×32 embedding (the MSE term on Communities).
func BenchmarkPairDot(b *testing.B) {
	var I, J []int
	for i := 0; i < 400; i++ {
		for j := i + 1; j < 400; j++ {
			I, J = append(I, i), append(J, j)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	rng.Shuffle(len(I), func(a, c int) { I[a], I[c] = I[c], I[a]; J[a], J[c] = J[c], J[a] })
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		b.Run(fmt.Sprintf("%v/pairs=%d", dt, len(I)), func(b *testing.B) {
			benchGraph(b, dt, func(bd *Builder, x *G.Node) *G.Node {
				in, jn := bd.IntInput("i", len(I)), bd.IntInput("j", len(J))
				G.Must(in, LetInts(in, I))
				G.Must(jn, LetInts(jn, J))
				return PairDot(x, in, jn)
			})
		})
	}
}

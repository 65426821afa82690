package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
	. "github.com/ignn/ignn/engine"

	G "gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// caveman builds a 20×20 connected-caveman-like graph (Communities' size).
func caveman() *Adjacency {
	var e [][2]int32
	for c := 0; c < 20; c++ {
		for i := 0; i < 20; i++ {
			for j := i + 1; j < 20; j++ {
				e = append(e, [2]int32{int32(c*20 + i), int32(c*20 + j)})
			}
		}
		e = append(e, [2]int32{int32(c * 20), int32(((c + 1) % 20) * 20)})
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

// BenchmarkPairLoss: forward + backward of the square loss over all 79,800
// node pairs of a 400×32 embedding (the sampled-path MSE op at Communities
// size; the exact path uses PairMSE).
func BenchmarkPairLoss(b *testing.B) {
	ps := &PairSet{}
	for i := 0; i < 400; i++ {
		for j := i + 1; j < 400; j++ {
			ps.I, ps.J = append(ps.I, i), append(ps.J, j)
			ps.V, ps.W = append(ps.V, 0.5), append(ps.W, 1/79800.0)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	rng.Shuffle(len(ps.I), func(a, c int) { ps.I[a], ps.I[c] = ps.I[c], ps.I[a]; ps.J[a], ps.J[c] = ps.J[c], ps.J[a] })
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		b.Run(fmt.Sprintf("%v/pairs=%d", dt, len(ps.I)), func(b *testing.B) {
			benchGraph(b, dt, func(bd *Builder, x *G.Node) *G.Node { return PairLoss(Square, x, ps) })
		})
	}
}

// BenchmarkRankLoss: forward and backward of the ranking term over 2¹⁶
// random triples of a 400 × 32 embedding (--distance-loss rank's default
// triple count on Communities).
func BenchmarkRankLoss(b *testing.B) {
	ts := &TripleSet{}
	rng := rand.New(rand.NewPCG(2, 2))
	for t := 0; t < 1<<16; t++ {
		ts.I, ts.J, ts.K = append(ts.I, rng.IntN(400)), append(ts.J, rng.IntN(400)), append(ts.K, rng.IntN(400))
		ts.W = append(ts.W, 1/65536.0)
	}
	for _, dt := range []tensor.Dtype{tensor.Float32, tensor.Float64} {
		b.Run(fmt.Sprintf("%v/triples=%d", dt, len(ts.I)), func(b *testing.B) {
			benchGraph(b, dt, func(bd *Builder, x *G.Node) *G.Node { return RankLoss(x, ts, 0.1) })
		})
	}
}

// BenchmarkSubgraphStage: one batch's Build and Stage into a batch
// adjacency with its GCN normalisation (what a training step's or an
// inference chunk's staging does), no fanout: a one-hop inference chunk of
// a small world (10,000 consecutive nodes of ba:300000:4 in 65,536 slots),
// and three-hop training batches of 1,024 random seeds on it (cut at the
// slots) and on grid:548x548.
func BenchmarkSubgraphStage(b *testing.B) {
	gen := func(spec string) *Adjacency {
		ds, err := data.Generate(spec, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			b.Fatal(err)
		}
		g := ds.Graphs[0]
		return NewAdjacency(g.N, g.Edges)
	}
	ba, grid := gen("ba:300000:4"), gen("grid:548x548")
	consecutive := make([]int32, 10000)
	for k := range consecutive {
		consecutive[k] = int32(100000 + k)
	}
	random := func(n int) []int32 {
		rng := rand.New(rand.NewPCG(3, 4))
		s := make([]int32, 1024)
		for k := range s {
			s[k] = int32(rng.IntN(n))
		}
		return s
	}
	for _, c := range []struct {
		name  string
		g     *Adjacency
		seeds []int32
		hops  int
	}{{"ba-chunk-1hop", ba, consecutive, 1}, {"ba-batch-3hop", ba, random(ba.N), 3}, {"grid-batch-3hop", grid, random(grid.N), 3}} {
		b.Run(c.name, func(b *testing.B) {
			s := NewSubgraph(c.g, 65536)
			adj := NewBatchAdjacency(65536)
			adj.GCNNorm()
			for range b.N {
				if _, err := s.Build(c.seeds, c.hops, 0, nil); err != nil {
					b.Fatal(err)
				}
				s.Stage(adj, true)
				adj.UseStaged()
				s.Clear()
			}
		})
	}
}

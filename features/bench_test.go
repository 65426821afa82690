package features

import (
	"math/rand/v2"
	"testing"

	"github.com/ignn/ignn/data"
)

func benchGraph(b *testing.B, spec string) *data.Adj {
	ds, err := data.Generate(spec, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	g := ds.Graphs[0]
	return data.NewAdj(g.N, g.Edges)
}

// BenchmarkScaleLapPE100k is issue 17's acceptance: lap:16 on a 10⁵-node
// caveman graph (5,000 cliques of 20) in under 60 s.
func BenchmarkScaleLapPE100k(b *testing.B) {
	a := benchGraph(b, "caveman:5000x20")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, info, err := LapPE(a, 16, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(info.MaxResidual, "residual")
	}
}

func BenchmarkScaleRWPE100k(b *testing.B) {
	a := benchGraph(b, "caveman:5000x20")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		RWPE(a, 16, 1, 0, 0)
	}
}

func BenchmarkScaleLandmarkPE100k(b *testing.B) {
	a := benchGraph(b, "caveman:5000x20")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		LandmarkPE(a, 32, rand.New(rand.NewPCG(1, 1)), 0)
	}
}

// BenchmarkLandmarkTranspose: the landmark encoding's transpose of 64 BFS
// rows over 2·10⁶ nodes into node-major hop counts (LandmarkFromRows).
func BenchmarkLandmarkTranspose(b *testing.B) {
	const n, m = 2_000_000, 64
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([]uint16, n*m)
	for i := range rows {
		rows[i] = uint16(rng.IntN(200))
	}
	hops := make([]uint16, n*m)
	b.SetBytes(int64(n * m * 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		transposeHops(hops, rows, n, m)
	}
}

// BenchmarkPrincipalRowsView: the skip block's principal directions
// (PrincipalRows) over a landmark:64 view of the 10⁵-node grid, whose rows
// are computed as they are read.
func BenchmarkPrincipalRowsView(b *testing.B) {
	ds, err := data.Generate("grid:316x316", rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	g := ds.Graphs[0]
	e, _ := LandmarkPE(data.NewAdj(g.N, g.Edges), 64, rand.New(rand.NewPCG(1, 1)), 0)
	x, err := Build(ds, Options{Float32: true, Encodings: []*Encoding{e}, EncodingDim: 64, View: true})
	if err != nil {
		b.Fatal(err)
	}
	if x.View == nil {
		b.Fatal("not a view")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		PrincipalRows(x.Rows(), x.N, x.DenseDim, 32)
	}
}

// BenchmarkHashVectors: the paper's hash input of 10⁴ nodes × 32
// components (Algorithm 1), the murmur3 calls and the scaling.
func BenchmarkHashVectors(b *testing.B) {
	ids := make([]uint64, 10_000)
	for i := range ids {
		ids[i] = uint64(i)
	}
	b.ReportAllocs()
	for range b.N {
		HashVectors(ids, 32)
	}
}

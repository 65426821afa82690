package data

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScaleBFS64: BFS rows from 64 sources on the 10⁶-node 1000×1000 grid
// (the sampled path's per-epoch MSE supervision and its τ sample), on all
// cores.
func BenchmarkScaleBFS64(b *testing.B) {
	ds, err := Generate("grid:1000x1000", rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	g := ds.Graphs[0]
	a := NewAdj(g.N, g.Edges)
	src := make([]int, 64)
	for i := range src {
		src[i] = i * 15_601 % g.N
	}
	rows := make([]uint16, len(src)*g.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.BFSRows(src, 0, rows, 0)
	}
}

// BenchmarkScaleLoadEdgeList10M: parse and load a user edge list of 10⁷ lines
// (10⁶ nodes, random ids), as `--dataset FILE` does.
func BenchmarkScaleLoadEdgeList10M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "edges.txt")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 10_000_000; i++ {
		fmt.Fprintf(w, "%d %d\n", rng.IntN(1_000_000), rng.IntN(1_000_000))
	}
	w.Flush()
	f.Close()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := LoadUser(UserFiles{Edges: path}); err != nil {
			b.Fatal(err)
		}
	}
}

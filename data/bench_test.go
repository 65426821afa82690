package data

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkScaleBFS64: BFS rows from 64 sources on the 10⁶-node 1000×1000 grid
// (the sampled path's per-epoch MSE supervision and its τ sample), on all
// cores.
func BenchmarkScaleBFS64(b *testing.B) { benchBFS64(b, "grid:1000x1000") }

// BenchmarkScaleBFS64SmallWorld: the same on the 10⁶-node Barabási–Albert
// graph ba:1000000:4, a small world (multi-source sweeps, msbfs.go).
func BenchmarkScaleBFS64SmallWorld(b *testing.B) { benchBFS64(b, "ba:1000000:4") }

func benchBFS64(b *testing.B, spec string) {
	ds, err := Generate(spec, rand.New(rand.NewPCG(1, 1)))
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
	a.smallWorld() // its probe, once, outside the timing
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		a.BFSRows(src, 0, rows, 0)
	}
}

// BenchmarkScaleBFSOne: one BFS over the whole graph on one goroutine, from
// a node in its middle — the unit of every whole-graph stage (landmark
// encoding, τ sample, ranking sources). IGNN_BFS10M=1 adds the 10⁷-node
// grid (minutes of setup, 1 GB).
func BenchmarkScaleBFSOne(b *testing.B) {
	specs := []string{"grid:1000x1000", "rgg:1000000:8", "ba:1000000:4"}
	if os.Getenv("IGNN_BFS10M") != "" {
		specs = append(specs, "grid:3163x3163")
	}
	for _, spec := range specs {
		ds, err := Generate(spec, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			b.Fatal(err)
		}
		g := ds.Graphs[0]
		a := NewAdj(g.N, g.Edges)
		row, s := make([]uint16, g.N), g.N/2+17
		var queue []int32
		b.Run(spec, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				queue = a.BFS(s, 0, row, queue)
			}
		})
	}
}

// BenchmarkScaleLoadEdgeList10M: parse and load a user edge list of 10⁷ lines
// (10⁶ nodes, random ids), as `--dataset FILE` does.
// BenchmarkScaleLoadEdgeList10M loads a 10⁷-line edge list (10⁶ node
// ids), plain and gzip-compressed (level 6, as gzip's default).
func BenchmarkScaleLoadEdgeList10M(b *testing.B) {
	dir := b.TempDir()
	path, gzPath := filepath.Join(dir, "edges.txt"), filepath.Join(dir, "edges.txt.gz")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	g, err := os.Create(gzPath)
	if err != nil {
		b.Fatal(err)
	}
	z := gzip.NewWriter(g)
	w := bufio.NewWriterSize(io.MultiWriter(f, z), 1<<20)
	rng := rand.New(rand.NewPCG(3, 3))
	for i := 0; i < 10_000_000; i++ {
		fmt.Fprintf(w, "%d %d\n", rng.IntN(1_000_000), rng.IntN(1_000_000))
	}
	w.Flush()
	z.Close()
	f.Close()
	g.Close()
	el, err := ParseEdgeListFile(path, EdgeListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	binPath := filepath.Join(dir, "edges.ignn") // ignn data convert
	if err := WriteEdgeBin(binPath, path, el); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, path string }{{"plain", path}, {"gzip", gzPath}, {"converted", binPath}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := LoadUser(UserFiles{Edges: c.path}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The edge list alone (what converting saves): parsing the text
	// against mapping edges.npy.
	b.Run("edges/plain", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := ParseEdgeListFile(path, EdgeListOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("edges/converted", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			el, err := ReadEdgeBin(binPath)
			if err != nil {
				b.Fatal(err)
			}
			el.Release()
		}
	})
}

// BenchmarkTrainNegatives: one epoch's training negatives of a whole-graph
// step on ba:20000:4 (≈ 64,000 of them, rejection-sampled against the
// positives, the fixed negatives and the draw so far) — 47% of a capacity
// step on Wiki-Vote with the sorted sets (binary searches and a map): 38.6
// ms a draw; through the hash sets (keyhash.go) 7.6 ms (medians of 6, old
// and new test binaries alternated on a loaded 2-core machine).
func BenchmarkTrainNegatives(b *testing.B) {
	ds, err := Generate("ba:20000:4", rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		b.Fatal(err)
	}
	s, err := NewSplit(ds.Graphs[0], TaskLink, rand.New(rand.NewPCG(2, 2)))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 3))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		s.SampleTrainNegatives(rng, len(s.Train))
	}
}

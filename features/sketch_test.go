package features

import (
	"math"
	"testing"
)

// TestNeighbourSketch: rows are unit sums of the neighbours' hash vectors
// (checked entry by entry against HashComponent), zero for a node without
// neighbours, the same values whatever the worker count and in both
// storages, and with a wide sketch the cosine of two rows is within 4/√m
// of the Salton index |N(i) ∩ N(j)| / √(d_i·d_j), counted by brute force.
func TestNeighbourSketch(t *testing.T) {
	// 0–1, 0–2, 1–2, 2–3, 3–4, 1–3; node 5 has no neighbours.
	edges := [][2]int{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {3, 4}, {1, 3}}
	const n = 6
	nbrs := make([][]int32, n)
	for _, e := range edges {
		nbrs[e[0]] = append(nbrs[e[0]], int32(e[1]))
		nbrs[e[1]] = append(nbrs[e[1]], int32(e[0]))
	}
	off, nb := []int32{0}, []int32{}
	for _, l := range nbrs {
		nb = append(nb, l...)
		off = append(off, int32(len(nb)))
	}
	const m = 4096
	one, err := NeighbourSketch(off, nb, n, m, false, 1)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := NeighbourSketch(off, nb, n, m, false, 2)
	f32, _ := NeighbourSketch(off, nb, n, m, true, 2)
	for i, v := range one.Dense {
		if two.Dense[i] != v || f32.Dense32[i] != float32(v) {
			t.Fatalf("entry %d: %v with 1 worker, %v with 2, %v in float32", i, v, two.Dense[i], f32.Dense32[i])
		}
	}
	row := func(i int) []float64 { return one.Dense[i*m : (i+1)*m] }
	for i := range n {
		sum := make([]float64, m)
		for _, k := range nbrs[i] {
			for x := range m {
				sum[x] += float64(float32(HashComponent(uint64(k), uint32(x))))
			}
		}
		var s float64
		for _, v := range sum {
			s += v * v
		}
		for x, v := range row(i) {
			want := 0.0
			if s > 0 {
				want = sum[x] / math.Sqrt(s)
			}
			if math.Abs(v-want) > 1e-12 {
				t.Fatalf("row %d [%d] = %v, want %v", i, x, v, want)
			}
		}
	}
	for i := range n - 1 {
		for j := i + 1; j < n-1; j++ {
			var dot float64
			for x := range m {
				dot += row(i)[x] * row(j)[x]
			}
			common := 0
			for _, a := range nbrs[i] {
				for _, b := range nbrs[j] {
					if a == b {
						common++
					}
				}
			}
			salton := float64(common) / math.Sqrt(float64(len(nbrs[i])*len(nbrs[j])))
			if math.Abs(dot-salton) > 4/math.Sqrt(m) {
				t.Errorf("cos(%d, %d) = %.4f, Salton index %.4f", i, j, dot, salton)
			}
		}
	}
	if _, err := NeighbourSketch(off, nb, n, 0, false, 1); err == nil {
		t.Error("a sketch of width 0 was accepted")
	}
}

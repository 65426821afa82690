package engine

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestRowOpsMatchSerial: the row-parallel SpMM, EdgeSpMM (all modes),
// RowNormalize and ReLU equal their serial loops bit for bit, under
// GOMAXPROCS 1 and 2, on inputs large enough to split (one hub row makes
// the non-zero balancing uneven).
func TestRowOpsMatchSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 3000, 32
	var es []Entry
	for i := 0; i < n; i++ {
		for k := 0; k < 4; k++ {
			es = append(es, Entry{Row: i, Col: rng.IntN(n), Val: rng.Float64()})
		}
		es = append(es, Entry{Row: 7, Col: i, Val: 1}) // hub row
	}
	a := NewCSR(n, n, es)
	x := make([]float64, n*d)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	serial := make([]float64, n*d)
	spmmRows(a, a.Val, x, serial, d, 0, n)
	normSerial := make([]float64, n*d)
	rowNormRows(x, nil, d, normSerial, 0, n)
	reluSerial := make([]float64, n*d)
	reluRange(x, nil, reluSerial)
	edgeSerial := make([]float64, a.NNZ())
	edgeSpMMRows(a, 1, x, x, edgeSerial, d, 0, n)
	// dX = A(v)ᵀ·dY by the serial scatter over A's rows, the order the
	// transposed gather must reproduce.
	scatterSerial := make([]float64, n*d)
	for r := 0; r < n; r++ {
		for k := a.RowPtr[r]; k < a.RowPtr[r+1]; k++ {
			c := a.ColIdx[k]
			for j := 0; j < d; j++ {
				scatterSerial[c*d+j] += a.Val[k] * x[r*d+j]
			}
		}
	}
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		y, nr, r, e := make([]float64, n*d), make([]float64, n*d), make([]float64, n*d), make([]float64, a.NNZ())
		sc := make([]float64, n*d)
		edgeSpMM(a, 2, a.Val, x, sc, d)
		spmm(a, a.Val, x, y, d)
		rowNorm(x, nil, d, nr)
		relu(x, nil, r)
		edgeSpMM(a, 1, x, x, e, d)
		runtime.GOMAXPROCS(old)
		for name, c := range map[string][2][]float64{"SpMM": {y, serial}, "RowNormalize": {nr, normSerial}, "ReLU": {r, reluSerial}, "EdgeSpMM": {e, edgeSerial}, "EdgeSpMM dX": {sc, scatterSerial}} {
			for i := range c[0] {
				if c[0][i] != c[1][i] {
					t.Fatalf("GOMAXPROCS %d: %s differs from the serial loop at %d: %v vs %v", procs, name, i, c[0][i], c[1][i])
				}
			}
		}
	}
	if b := nnzBounds(a); b[0] != 0 || b[rowChunks] != n || b[1] >= n/4 {
		t.Errorf("non-zero bounds %v: the hub row should make the first chunk shorter than n/4 rows", b)
	}
}

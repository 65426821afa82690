package engine

import (
	"runtime"
	"testing"
)

// TestPairMSEDeterministic: PairMSE's forward and gradient are
// bit-identical under GOMAXPROCS 1 and 2 on a block large enough to split.
func TestPairMSEDeterministic(t *testing.T) {
	// Bit-identical across GOMAXPROCS on a block large enough to split.
	big := []MSEBlock{{Off: 0, N: 300, C: testValues(5, 300*300)}}
	z300 := testValues(6, 300*8)
	op := &pairMSEOp{blocks: big, w: 1, st: &gramState{}}
	var outs [2]float64
	var grads [2][]float64
	for k, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		outs[k] = pairMSEForward(op, z300, 8)
		grads[k] = make([]float64, len(z300))
		pairMSEBackward(op, z300, grads[k], 8, 1)
		runtime.GOMAXPROCS(old)
	}
	if outs[0] != outs[1] {
		t.Errorf("forward differs across GOMAXPROCS: %v vs %v", outs[0], outs[1])
	}
	for i := range grads[0] {
		if grads[0][i] != grads[1][i] {
			t.Fatalf("gradient differs across GOMAXPROCS at %d", i)
		}
	}
}

// testValues are fixed pseudo-random values in [-1, 1) for the internal
// tests (enginetest.RandomValues cannot be imported here: it imports engine).
func testValues(seed uint64, n int) []float64 {
	rng := Stream(seed, "test-values")
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.Float64()*2 - 1
	}
	return v
}

// TestPairMSEGramMatchesPairs: on a block large enough for gonum's parallel
// Gemm (300 rows) and a second block after a gap, the Gram-matrix forward
// and gradient equal the per-pair formulas within rounding.
func TestPairMSEGramMatchesPairs(t *testing.T) {
	const d, w = 8, 0.3
	blocks := []MSEBlock{{Off: 2, N: 300, C: testValues(5, 300*300)}, {Off: 310, N: 7, C: testValues(7, 49)}}
	z := testValues(6, 320*d)
	op := &pairMSEOp{blocks: blocks, w: w, st: &gramState{}}
	got := pairMSEForward(op, z, d)
	grad := make([]float64, len(z))
	pairMSEBackward(op, z, grad, d, 1.5)
	var want float64
	wantGrad := make([]float64, len(z))
	for _, b := range blocks {
		for i := 0; i < b.N; i++ {
			for j := 0; j < b.N; j++ {
				if i == j {
					continue
				}
				zi, zj := z[(b.Off+i)*d:(b.Off+i+1)*d], z[(b.Off+j)*d:(b.Off+j+1)*d]
				var s float64
				for x := range zi {
					s += zi[x] * zj[x]
				}
				e := s - b.C[i*b.N+j]
				if j > i {
					want += w * e * e
				}
				for x := range zi {
					wantGrad[(b.Off+i)*d+x] += 2 * 1.5 * w * e * zj[x]
				}
			}
		}
	}
	if diff := got - want; diff > 1e-9*want || diff < -1e-9*want {
		t.Errorf("forward %v, per-pair %v", got, want)
	}
	for i := range grad {
		if diff := grad[i] - wantGrad[i]; diff > 1e-9 || diff < -1e-9 {
			t.Fatalf("gradient[%d] = %v, per-pair %v", i, grad[i], wantGrad[i])
		}
		if (i < 2*d || (i >= 302*d && i < 310*d)) && grad[i] != 0 {
			t.Fatalf("gradient[%d] = %v outside every block, want 0", i, grad[i])
		}
	}
}

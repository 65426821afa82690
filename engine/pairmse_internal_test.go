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
	op := &pairMSEOp{blocks: big, w: 1}
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
